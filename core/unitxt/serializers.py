"""Serializers: turn one field value into the text a template substitutes for its placeholder.

A `Serializer` handles one value (`serialize(value, instance) -> str`; `instance` is the whole instance, for
serializers that must record side data such as media). A `SingleTypeSerializer` declares the (registered, possibly
`NewType`/`TypedDict`) type it handles and `accepts()` only values of that type; a `MultiTypeSerializer` tries its
serializers in order and the first that accepts the value wins (so put `DialogSerializer` before `ListSerializer`).
Values no serializer accepts fall back to the `DefaultSerializer` rules. Type-specific serializers (dialogs, tables,
images) subclass `SingleTypeSerializer` with their own `serialized_type` and `serialize`.
"""

import json
from typing import Any, Dict, List, Optional, Union

from .artifact import Artifact
from .errors import ArtifactDefinitionError, UnitxtError
from .type_utils import make_checker, to_type

Number = Union[int, float]


def default_serialize(value: Any) -> str:
    """The default verbalisation: text as is, numbers via str, lists joined by ", ", dicts as JSON."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        try:
            return ", ".join(value)  # fast path: a list of texts
        except TypeError:
            return ", ".join([default_serialize(item) for item in value])
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


class Serializer(Artifact):
    """Base: converts one field value to text. Subclasses implement `serialize`."""

    def accepts(self, value: Any) -> bool:
        """Whether this serializer handles the value (the base handles everything)."""
        return True

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        raise NotImplementedError(f"{type(self).__name__}.serialize(value, instance) is not implemented")


class DefaultSerializer(Serializer):
    """str as is; int/float via str; list/tuple -> ", ".join of serialised items; dict -> JSON."""

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return default_serialize(value)


DEFAULT_SERIALIZER = DefaultSerializer()


class SingleTypeSerializer(Serializer):
    """Serializes values of one type. Subclasses set `serialized_type = SomeType` (a class attribute is enough).

    `serialized_type` is a type, a registered NewType/TypedDict, or its type string ("List[str]").
    """

    serialized_type: Any = None
    _positional_args = ("serialized_type",)

    def prepare(self) -> None:
        super().prepare()
        if self.serialized_type is None:
            self._checker = None
            return
        try:
            self._type = to_type(self.serialized_type)
            self._checker = make_checker(self._type)
        except UnitxtError as error:
            raise ArtifactDefinitionError(
                f"{type(self).__name__}.serialized_type: {error.message}", field="serialized_type"
            ) from None

    def verify(self) -> None:
        super().verify()
        if self._checker is None:
            raise ArtifactDefinitionError(
                f"{type(self).__name__} needs a serialized_type (set it as a class attribute or a field).",
                field="serialized_type",
            )

    def accepts(self, value: Any) -> bool:
        return self._checker(value)

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return default_serialize(value)


class ListSerializer(SingleTypeSerializer):
    """Lists (and tuples): items serialised with the default rules and joined by `separator`."""

    serialized_type = list
    separator: str = ", "

    def accepts(self, value: Any) -> bool:
        return isinstance(value, (list, tuple))

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return self.separator.join(default_serialize(item) for item in value)


class NumberSerializer(SingleTypeSerializer):
    """int and float (not bool). With `decimals`, floats are rounded to that many digits ("0.50" for 2)."""

    serialized_type = Number
    decimals: Optional[int] = None

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        if self.decimals is not None and isinstance(value, float):
            return f"{value:.{self.decimals}f}"
        return str(value)


class MultiTypeSerializer(Serializer):
    """Tries `serializers` in order; the first that accepts the value serialises it, else the default rules."""

    serializers: List[Serializer] = []

    def accepts(self, value: Any) -> bool:
        return True

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        for serializer in self.serializers:
            if serializer.accepts(value):
                return serializer.serialize(value, instance)
        return default_serialize(value)


def serialize_value(serializer: Optional[Serializer], value: Any, instance: Dict[str, Any]) -> str:
    """Serialise with `serializer` when it accepts the value, else with the default rules."""
    if serializer is None or not serializer.accepts(value):
        return default_serialize(value)
    return serializer.serialize(value, instance)


__all__ = [
    "Serializer",
    "DefaultSerializer",
    "SingleTypeSerializer",
    "ListSerializer",
    "NumberSerializer",
    "MultiTypeSerializer",
    "Number",
    "default_serialize",
    "serialize_value",
    "DEFAULT_SERIALIZER",
]
