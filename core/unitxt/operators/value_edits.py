"""Operators of the original that edit values across an instance: dividing every float (`DivideAllFieldsBy`),
flattening nested dicts (`FlattenInstances`), encoding labels as 0, 1, ... (`EncodeLabels`), keeping the allowed
members of a list (`Intersect`, `IntersectCorrespondingFields` with the parallel lists), joining list fields into
text (`NormalizeListFields`) and slightly perturbing a value to imitate a prediction (`Perturb`)."""

from typing import Any, Dict, List, Optional

from ..dict_utils import dict_get, dict_set
from ..errors import ArtifactConfigurationError, InstanceTypeError, InstanceValueError, MissingFieldError
from ..general.helpers import flatten_dict
from ..operator import FieldOperator, InstanceOperator
from ..random_utils import new_random_generator
from ..stream import MultiStream
from ..text_utils import to_pretty_string


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
            parent = dict_get(instance, field.split("/*", 1)[0], not_exist_ok=True, default=[]) if "*" in field else []
            if not isinstance(parent, (list, dict)):
                raise MissingFieldError(f'query "{field}" did not match any item in dict:\n'
                                        + to_pretty_string(instance), field=field)  # the original's words
            values = dict_get(instance, field)
            single = not isinstance(values, list)
            encoded = [codes.setdefault(value, len(codes)) for value in ([values] if single else values)]
            dict_set(instance, field, encoded[0] if single else encoded, set_multiple="*" in field and not single)
        return instance


class Intersect(FieldOperator):
    """Keep only the members of the (list) value that are in `allowed_values`, in their order."""

    allowed_values: List[Any]

    def verify_field_types(self, names: Optional[List[str]] = None) -> None:
        if not isinstance(self.__dict__.get("allowed_values"), list):
            raise ArtifactConfigurationError(f"The allowed_values is not a list but '{self.allowed_values}'",
                                             artifact=type(self).__name__, field="allowed_values")
        super().verify_field_types(names)

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


class IntersectCorrespondingFields(InstanceOperator):
    """Keep the members of the list `field` that are in `allowed_values`, and the members at the same positions of the
    parallel lists `corresponding_fields_to_intersect` (e.g. labels and their positions)."""

    field: str
    allowed_values: List[Any]
    corresponding_fields_to_intersect: List[str]

    def verify(self) -> None:
        super().verify()
        if not isinstance(self.allowed_values, list):
            raise ArtifactConfigurationError(f"The allowed_values is not a type list but '{type(self.allowed_values)}'",
                                             artifact=type(self).__name__, field="allowed_values")

    def _check(self, instance: Dict[str, Any]) -> None:
        for name in [self.field, *self.corresponding_fields_to_intersect]:
            if name not in instance:
                raise InstanceValueError(f"Field '{name}' is not in provided instance.\n" + to_pretty_string(instance))
        if not isinstance(instance[self.field], list):
            raise InstanceValueError(
                f"Value of field '{self.field}' is not a list, so IntersectCorrespondingFields can not intersect with "
                "allowed values. Field value:\n" + to_pretty_string(instance, keys=[self.field]))

    def _check_corresponding(self, instance: Dict[str, Any]) -> None:
        for name in self.corresponding_fields_to_intersect:
            if not isinstance(instance[name], list):
                raise InstanceValueError(f"Value of field '{name}' is not a list, IntersectCorrespondingFields can not "
                                         "intersect with allowed values.")
            if len(instance[name]) != len(instance[self.field]):
                raise InstanceValueError(
                    f"Number of elements in field '{name}' is not the same as the number of elements in field "
                    f"'{self.field}' so the IntersectCorrespondingFields can not remove corresponding values.\n"
                    + to_pretty_string(instance, keys=[self.field, name]))

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        self._check(instance)
        allowed = self.allowed_values
        if set(allowed) == set(instance[self.field]):
            return instance
        self._check_corresponding(instance)
        keep = [index for index, value in enumerate(instance[self.field]) if value in allowed]
        for name in {self.field, *self.corresponding_fields_to_intersect}:
            instance[name] = [instance[name][index] for index in keep]
        return instance


class NormalizeListFields(InstanceOperator):
    """Turn each list field into text: "" (`empty_value`) for none, the member itself for one, the members joined by
    `separator` for more; written to `key_prefix` + field (the field itself by default)."""

    fields: List[str]
    key_prefix: str = ""
    empty_value: str = ""
    separator: str = ", "

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        for name in self.fields:
            if name not in instance:
                raise InstanceValueError(f"Field {name} not found in instance {instance}", field=name)
            values = instance[name]
            if not isinstance(values, list):
                raise InstanceTypeError(f"Field {name} should be a list, got {type(values)}", field=name)
            text = self.empty_value if not values else values[0] if len(values) == 1 else self.separator.join(values)
            instance[self.key_prefix + name] = text
        return instance


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


__all__ = ["DivideAllFieldsBy", "FlattenInstances", "EncodeLabels", "Intersect", "IntersectCorrespondingFields",
           "NormalizeListFields", "Perturb"]
