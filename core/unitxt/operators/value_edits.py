"""Operators of the original that edit values across an instance: dividing every float (`DivideAllFieldsBy`),
flattening nested dicts (`FlattenInstances`), encoding labels as 0, 1, ... (`EncodeLabels`), keeping the allowed
members of a list (`Intersect`) and slightly perturbing a value to imitate a prediction (`Perturb`)."""

from typing import Any, Dict, List, Optional

from ..dict_utils import dict_get, dict_set
from ..errors import ArtifactConfigurationError, InstanceTypeError, InstanceValueError
from ..general.helpers import flatten_dict
from ..operator import FieldOperator, InstanceOperator
from ..random_utils import new_random_generator
from ..stream import MultiStream


class DivideAllFieldsBy(InstanceOperator):
    """Divide every float in the instance (nested in dicts and lists) by `divisor`; other leaves stay, or raise an
    error when `strict`."""

    divisor: float = 1.0
    strict: bool = False

    def _divide(self, value: Any) -> Any:
        if isinstance(value, dict):
            for key in value:
                value[key] = self._divide(value[key])
            return value
        if isinstance(value, list):
            for index, item in enumerate(value):
                value[index] = self._divide(item)
            return value
        if isinstance(value, float):
            return value / self.divisor
        if self.strict:
            # no context here: a stream run adds the operator and the instance (a direct call shows the bare message)
            raise InstanceTypeError(f"Cannot divide instance of type {type(value)}")
        return value

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        return self._divide(instance)


class FlattenInstances(InstanceOperator):
    """Nested dict fields become top-level fields named by their path joined with `sep` ({"a": {"b": 1}} -> {"a_b": 1}),
    prefixed by `parent_key` when given."""

    parent_key: str = ""
    sep: str = "_"

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        return flatten_dict(instance, parent_key=self.parent_key, sep=self.sep)


class EncodeLabels(InstanceOperator):
    """Replace each value met in `fields` by its number in order of first appearance (0, 1, ...), one numbering for
    all the fields over a run of the operator. A list field is named with "/*" ("references/*")."""

    fields: List[str]

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        self.__dict__["_codes"] = {}
        return super().__call__(multi_stream)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        codes = self.__dict__.setdefault("_codes", {})
        for field in self.fields:
            values = dict_get(instance, field)
            single = not isinstance(values, list)
            encoded = [codes.setdefault(value, len(codes)) for value in ([values] if single else values)]
            dict_set(instance, field, encoded[0] if single else encoded, set_multiple="*" in field and not single)
        return instance


class Intersect(FieldOperator):
    """Keep only the members of the (list) value that are in `allowed_values`, in their order."""

    allowed_values: List[Any]

    def verify(self) -> None:
        super().verify()
        if self.process_every_value:
            raise ArtifactConfigurationError("'process_every_value=True' is not supported in Intersect operator",
                                             artifact=type(self).__name__, field="process_every_value")
        if not isinstance(self.allowed_values, list):
            raise ArtifactConfigurationError(f"The allowed_values is not a list but '{self.allowed_values}'",
                                             artifact=type(self).__name__, field="allowed_values")

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, list):
            raise InstanceValueError(f"The value in field is not a list but '{value}'", artifact=self.artifact_name,
                                     field=self.field)
        return [item for item in value if item in self.allowed_values]


class Perturb(FieldOperator):
    """With probability `percentage_to_perturb` percent, change the value a little: another of `select_from` (most of
    the time, when the value is one of them), a float scaled by 0.5-1.5, an int moved by one, a text missing one
    character. Seeded, so runs repeat."""

    select_from: List[Any] = []
    percentage_to_perturb: int = 1

    def verify(self) -> None:
        super().verify()
        if not 0 <= self.percentage_to_perturb <= 100:
            raise ArtifactConfigurationError(
                f"'percentage_to_perturb' should be in the range 0..100. Received {self.percentage_to_perturb}"
            )  # the message names the field; the original's text exactly, as users match it

    def prepare(self) -> None:
        super().prepare()
        self.__dict__["_random"] = new_random_generator(sub_seed="CopyWithPerturbation")

    def process_value(self, value: Any) -> Any:
        rng = self.__dict__["_random"]
        if rng.randint(1, 100) > self.percentage_to_perturb:
            return value
        if value in self.select_from and rng.random() < 0.8:
            return rng.choice(self.select_from)
        if isinstance(value, float):
            return value * (0.5 + rng.random())
        if isinstance(value, int) and not isinstance(value, bool):
            return value + (1 if rng.random() < 0.5 else -1)
        if isinstance(value, str) and len(value) >= 2:
            cut = rng.randint(1, len(value) - 1)
            return value[:cut] + value[cut + 1:]
        return value


__all__ = ["DivideAllFieldsBy", "FlattenInstances", "EncodeLabels", "Intersect", "Perturb"]
