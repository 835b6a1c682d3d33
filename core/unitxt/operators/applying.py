"""Operators that run other operators named in the data: `ApplyOperatorsField` (instance operators listed in a field
of each instance) and `ApplyStreamOperatorsField` (stream operators listed in the first instance of a stream). The
names are catalog names (or artifacts); each is fetched once per operator object."""

from typing import Any, Dict, Generator, Iterable, List, Optional, Union

from ..artifact import fetch_artifact
from ..errors import ArtifactConfigurationError, InstanceValueError
from ..operator import InstanceOperator, Operator, StreamOperator


def _names(value: Any) -> List[Any]:
    """A single operator name (or artifact) as a one-item list; a list as is."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


class _FetchedOperators:
    """Resolves operator names to operators, caching each per owner (fetching is a catalog read)."""

    def __init__(self, owner: str):
        self.owner = owner
        self.cache: Dict[str, Operator] = {}

    def get(self, name: Any) -> Operator:
        key = name if isinstance(name, str) else repr(name)
        if key not in self.cache:
            operator = fetch_artifact(name)[0] if isinstance(name, str) else name
            if not isinstance(operator, Operator):
                raise ArtifactConfigurationError(
                    f"{name!r} is a {type(operator).__name__}, not an operator.", artifact=self.owner, field=key
                )
            self.cache[key] = operator
        return self.cache[key]


class ApplyOperatorsField(InstanceOperator):
    """Apply to each instance, one after the other, the operators named in its field `operators_field` (one name or
    a list); `default_operators` when the instance has no such field."""

    operators_field: str
    default_operators: Optional[Union[str, List[str]]] = None

    def prepare(self) -> None:
        super().prepare()
        self.__dict__["_fetched"] = _FetchedOperators(type(self).__name__)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        names = instance.get(self.operators_field)
        if names is None:
            if self.default_operators is None:
                raise InstanceValueError(
                    f"No operators found in field '{self.operators_field}', and no default operators provided.",
                    artifact=self.artifact_name, field=self.operators_field,
                )
            names = self.default_operators
        for name in _names(names):
            instance = self.__dict__["_fetched"].get(name).process_instance(instance, stream_name=stream_name or "test")
        return instance


class ApplyStreamOperatorsField(StreamOperator):
    """Apply to a stream the operators named in the field `field` of its first instance (in reverse order when
    `reversed`); a stream whose first instance names none passes unchanged."""

    field: str
    reversed: bool = False

    def prepare(self) -> None:
        super().prepare()
        self.__dict__["_fetched"] = _FetchedOperators(type(self).__name__)

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        instances = list(stream)
        if not instances:
            return
        names = _names(instances[0].get(self.field, []))
        if self.reversed:
            names = names[::-1]
        for name in names:
            instances = self.__dict__["_fetched"].get(name).process_instances(instances, stream_name=stream_name or "test")
        yield from instances


__all__ = ["ApplyOperatorsField", "ApplyStreamOperatorsField"]
