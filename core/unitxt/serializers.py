"""Serializers: turn one field value into the text a template substitutes for its placeholder.

A `Serializer` handles one value (`serialize(value, instance) -> str`; `instance` is the whole instance, for
serializers that must record side data such as media). A `SingleTypeSerializer` declares the (registered, possibly
`NewType`/`TypedDict`) type it handles and `accepts()` only values of that type; a `MultiTypeSerializer` tries its
serializers in order and the first that accepts the value wins (so put `DialogSerializer` before `ListSerializer`).
Values no serializer accepts fall back to the `DefaultSerializer` rules. Type-specific serializers (dialogs, tables,
images, ...) subclass `SingleTypeSerializer` with their own `serialized_type` and `serialize`; the built-in ones for
the types of `data_types` are at the end of this module. Media serializers move the value into `instance["media"]`
and return a placeholder (`<img src="media/images/0">`, see image_utils).
"""

import csv
import io
import json
from typing import Any, Dict, List, Optional, Union

from .dict_utils import dict_get, dict_set
from .general.dataclass_fields import Field
from .errors import ArtifactDefinitionError, InstanceTypeError, UnitxtError
from .operator import FieldSelectionFields, InstanceOperator, Operator  # noqa: F401 - Operator is re-exported
from .types import definitions as data_types
from .types.checking import make_checker, to_type
from .module_aliases import moved_classes

Number = Union[int, float]


def default_serialize(value: Any) -> str:
    """The default verbalisation: text as is, numbers via str, lists joined by ", ", dicts as JSON; as the original's
    template default, a Table as CSV lines and a Dialog or Conversation as "role: content" lines."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        try:
            return ", ".join(value)  # fast path: a list of texts
        except TypeError:
            pass
        if value and isinstance(value[0], dict) and _typed_default("dialog").accepts(value):
            return _typed_default("dialog").serialize(value, {})
        return ", ".join([default_serialize(item) for item in value])
    if isinstance(value, dict):
        for kind, key in (("table", "header"), ("conversation", "dialog")):
            if key in value and _typed_default(kind).accepts(value):
                return _typed_default(kind).serialize(value, {})
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


_TYPED_DEFAULTS: Dict[str, "Serializer"] = {}


def _typed_default(kind: str) -> "Serializer":
    """The serializer the default rules use for a typed value (made on first use: the classes are defined below)."""
    if kind not in _TYPED_DEFAULTS:
        _TYPED_DEFAULTS[kind] = {"table": TableSerializer, "dialog": DialogSerializer,
                                 "conversation": ConversationSerializer}[kind]()
    return _TYPED_DEFAULTS[kind]


class Serializer(FieldSelectionFields):
    """Base: converts one field value to text. Subclasses implement `serialize`.

    An Operator so it carries `data_classification_policy` (checked by the recipe before rendering). Used as a step
    (as catalogs of the original format do, e.g. in a metric's preprocess_steps) it serialises the instance's `field`
    into `to_field` (default: in place), each item of a list with `process_every_value`."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    field: Optional[str] = None
    to_field: Optional[str] = None
    # several fields at once ({from: to} or [[from, to], ...]), instead of field/to_field, as in the original
    field_to_field: Optional[Union[Dict[str, str], List[Any]]] = None
    process_every_value: bool = False

    def accepts(self, value: Any) -> bool:
        """Whether this serializer handles the value (the base handles everything)."""
        return True

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        raise NotImplementedError(f"{type(self).__name__}.serialize(value, instance) is not implemented")

    def process_instance_value(self, value: Any, instance: Dict[str, Any]) -> str:
        """The original's per-value entry point: the value serialised (a subclass may override it)."""
        return self.serialize(value, instance)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if self.field_to_field is not None:
            if self.field is not None:
                raise ArtifactDefinitionError(f"{type(self).__name__}: give 'field' or 'field_to_field', not both.",
                                              artifact=self.artifact_name, field="field_to_field")
            pairs = self.field_to_field.items() if isinstance(self.field_to_field, dict) else self.field_to_field
            for source, target in pairs:
                self._serialize_field(instance, source, target)
            return instance
        if self.field is None:
            raise ArtifactDefinitionError(f"{type(self).__name__} used as a step needs 'field' (or "
                                          "'field_to_field').", artifact=self.artifact_name, field="field")
        return self._serialize_field(instance, self.field, self.to_field or self.field)

    def _serialize_field(self, instance: Dict[str, Any], field: str, to_field: str) -> Dict[str, Any]:
        value = dict_get(instance, field)
        if self.process_every_value:
            if not isinstance(value, (list, tuple)):
                raise InstanceTypeError(f"process_every_value needs a list in '{field}', got "
                                        f"{type(value).__name__}.", artifact=self.artifact_name, field=field)
            result: Any = [self.process_instance_value(item, instance) for item in value]
        else:
            result = self.process_instance_value(value, instance)
        dict_set(instance, to_field, result)
        return instance


class DefaultSerializer(Serializer):
    """Any value via `str` (as the original: a dict shows as its repr). A template given this serializer uses the
    default rules (`default_serialize`) instead."""

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return str(value)


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
    """int and float (not bool): ints as they are, floats rounded to `decimals` digits (one by default, as the
    original: "42.1"; "0.50" for 2)."""

    serialized_type = Number
    decimals: Optional[int] = None

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        if isinstance(value, float):
            return f"{value:.{1 if self.decimals is None else self.decimals}f}"
        return str(value)


class NumberQuantizingSerializer(NumberSerializer):
    """A number rounded to the nearest multiple of `quantum` (31.1 -> "31.2" for 0.2, "32" for 2): an int quantum
    gives an int."""

    quantum: Union[float, int] = 0.1

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        if not self.accepts(value):
            raise InstanceTypeError(f"{type(self).__name__} serializes numbers, got {type(value).__name__}.",
                                    artifact=self.artifact_name)
        quantized = round(value / self.quantum) / (1 / self.quantum)
        return str(int(quantized) if isinstance(self.quantum, int) else quantized)


class MultiTypeSerializer(Serializer):
    """Tries `serializers` in order; the first that accepts the value serialises it. It accepts what one of them
    accepts, so a template falls back to the default rules for other values; called directly on such a value it
    gives `str(value)`, as the original. By default the original's list: documents, tool calls, dialogs,
    multi-documents, images, videos, tables, tools."""

    serializers: List[Serializer] = Field(default_factory=lambda: default_type_serializers())

    def accepts(self, value: Any) -> bool:
        return any(serializer.accepts(value) for serializer in self.serializers)

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        for serializer in self.serializers:
            if serializer.accepts(value):
                return serializer.serialize(value, instance)
        return str(value)

    def add_serializers(self, serializers: List[Serializer]) -> "MultiTypeSerializer":
        """A new MultiTypeSerializer trying `serializers` first, then this one's (used for recipe overrides)."""
        return MultiTypeSerializer(serializers=list(serializers) + list(self.serializers))


# ---------------------------------------------------------------- serializers of the built-in data types
class DialogSerializer(SingleTypeSerializer):
    """A Dialog as one line per turn, `turn_format` ("{role}: {content}") joined by `separator`."""

    serialized_type = data_types.Dialog
    turn_format: str = "{role}: {content}"
    separator: str = "\n"

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return self.separator.join(
            self.turn_format.format(role=turn["role"], content=turn["content"]) for turn in value
        )


class ConversationSerializer(DialogSerializer):
    """A Conversation ({"id", "dialog"}) as its dialog."""

    serialized_type = data_types.Conversation

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return super().serialize(value["dialog"], instance)


class DefaultListSerializer(Serializer):
    """A list as its items' `str` joined by ", "; anything else via `str` (the original's)."""

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return ", ".join(str(item) for item in value) if isinstance(value, list) else str(value)


class ToolCallSerializer(SingleTypeSerializer):
    """A ToolCall ({"name", "arguments"}) as JSON."""

    serialized_type = data_types.ToolCall

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return json.dumps(value)


class ToolsSerializer(SingleTypeSerializer):
    """A list of Tools as the JSON list of OpenAI function entries, also collected in `instance["__tools__"]`."""

    serialized_type = List[data_types.Tool]

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        tools = instance.setdefault("__tools__", [])
        tools.extend({"type": "function", "function": tool} for tool in value)
        return json.dumps(tools, indent=4)


TABLE_LAYOUTS = ("markdown", "csv", "json", "indexed_rows")


class TableSerializer(SingleTypeSerializer):
    """A Table ({"header", "rows"}) in one of `TABLE_LAYOUTS` (`layout`), optionally cut to `max_rows` rows.

    markdown: a pipe table; csv: comma-separated lines; json: a list of {column: cell} records;
    indexed_rows: "col : a | b" then "row 1 : 1 | 2" lines.
    """

    serialized_type = data_types.Table
    layout: str = "csv"  # the original's only layout
    max_rows: Optional[int] = None

    def verify(self) -> None:
        super().verify()
        if self.layout not in TABLE_LAYOUTS:
            raise ArtifactDefinitionError(
                f"TableSerializer.layout must be one of {', '.join(TABLE_LAYOUTS)}, got {self.layout!r}.",
                field="layout",
            )

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        header = [str(name) for name in value["header"]]
        rows = value["rows"] if self.max_rows is None else value["rows"][: self.max_rows]
        cells = [["" if cell is None else str(cell) for cell in row] for row in rows]
        if self.layout == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(cells)
            return buffer.getvalue().rstrip("\n")
        if self.layout == "json":
            return json.dumps([dict(zip(header, row)) for row in rows], ensure_ascii=False, default=str)
        if self.layout == "indexed_rows":
            lines = ["col : " + " | ".join(header)]
            lines += [f"row {index} : " + " | ".join(row) for index, row in enumerate(cells, start=1)]
            return "\n".join(lines)

        def line(items: List[str]) -> str:
            return "| " + " | ".join(item.replace("|", "\\|") for item in items) + " |"

        return "\n".join([line(header), "|" + "|".join("---" for _ in header) + "|"] + [line(row) for row in cells])


class DocumentSerializer(SingleTypeSerializer):
    """A Document ({"title", "body"}) as `document_format` ("# {title}\n\n{body}")."""

    serialized_type = data_types.Document
    document_format: str = "# {title}\n\n{body}"

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return self.document_format.format(title=value["title"], body=value["body"])


class MultiDocumentSerializer(DocumentSerializer):
    """A list of Documents, each as `document_format`, joined by `separator`."""

    serialized_type = data_types.MultiDocument
    separator: str = "\n\n"

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return self.separator.join(super(MultiDocumentSerializer, self).serialize(doc, instance) for doc in value)


class ImageSerializer(SingleTypeSerializer):
    """An image: stored in `instance["media"]["images"]` as a data URL; the text gets `<img src="media/images/i">`."""

    serialized_type = data_types.Image

    def accepts(self, value: Any) -> bool:
        return data_types.is_image_value(value)

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        from .image_utils import image_reference

        return image_reference(instance, value)


class AudioSerializer(SingleTypeSerializer):
    """An audio clip: stored in `instance["media"]["audios"]`; the text gets `<audio src="media/audios/i">`."""

    serialized_type = data_types.Audio

    def accepts(self, value: Any) -> bool:
        return data_types.is_audio_value(value)

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        from .image_utils import audio_reference

        return audio_reference(instance, value)


class VideoSerializer(ImageSerializer):
    """A video given as a list of frames: every frame becomes an image placeholder (joined by `separator`)."""

    serialized_type = data_types.Video
    separator: str = ""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, (list, tuple)) and data_types.is_video_value(value)

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        from .image_utils import image_reference

        return self.separator.join(image_reference(instance, frame) for frame in value)


def default_type_serializers() -> List[Serializer]:
    """A MultiTypeSerializer's serializers when none are given (the original's order)."""
    return [DocumentSerializer(), ToolCallSerializer(), DialogSerializer(), MultiDocumentSerializer(),
            ImageSerializer(), VideoSerializer(), TableSerializer(), ToolsSerializer(), DialogSerializer()]


def media_serializers() -> List[Serializer]:
    """The serializers a recipe adds behind any others so media fields always reach the row's media."""
    return [ImageSerializer(), VideoSerializer(), AudioSerializer()]


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
    "NumberQuantizingSerializer",
    "MultiTypeSerializer",
    "DialogSerializer",
    "ConversationSerializer",
    "DefaultListSerializer",
    "ToolCallSerializer",
    "ToolsSerializer",
    "default_type_serializers",
    "TableSerializer",
    "TABLE_LAYOUTS",
    "DocumentSerializer",
    "MultiDocumentSerializer",
    "ImageSerializer",
    "AudioSerializer",
    "VideoSerializer",
    "media_serializers",
    "Number",
    "default_serialize",
    "serialize_value",
    "DEFAULT_SERIALIZER",
]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
