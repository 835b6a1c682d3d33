"""Instance and field operators: copying, setting, renaming, selecting, mapping values, filtering by condition or
expression, JSON, casting, zipping, indexing, joining and splitting strings."""

import copy
import functools
import json
import warnings
from typing import Any, Dict, Generator, Iterable, List, Optional, Tuple

from ..artifact import Artifact
from ..dict_utils import dict_delete, dict_get, dict_has, dict_set
from ..general.deprecation import warn_on_call
from ..errors import (ArtifactConfigurationError, FilteredAllError, InstanceTypeError, InstanceValueError,
                      MissingFieldError, UnitxtError)
from ..operator import FieldOperator, InstanceOperator, StreamOperator
from ..artifact import InertField

_IMMUTABLE = (str, int, float, bool, type(None), bytes)


def fast_copy(value: Any) -> Any:
    """Deep copy that skips the work for immutable scalars (the common case)."""
    if isinstance(value, _IMMUTABLE):
        return value
    if isinstance(value, list) and all(isinstance(item, _IMMUTABLE) for item in value):
        return list(value)
    return copy.deepcopy(value)


def _warn_deprecated_flag(operator: Any, name: str) -> None:
    """The original's retired flags (`use_query`, `use_nested_query`) are accepted with its DeprecationWarning: paths
    with "/" are always queries now."""
    if operator.__dict__.get(name) is not None:
        warnings.warn(f"Field '{name}' is deprecated. From now on, default behavior is compatible to {name}=True. "
                      "Please remove this field from your code.", DeprecationWarning, stacklevel=3)


class RecursiveCopy(FieldOperator):
    """A deep copy of the value (into `to_field`, or in place)."""

    def process_value(self, value: Any) -> Any:
        return copy.deepcopy(value)


class BytesToString(FieldOperator):
    """The value as `str(value)` (the original's: bytes show as their repr, e.g. "b'abc'")."""

    def process_value(self, value: Any) -> Any:
        return str(value)


class Copy(FieldOperator):
    """Copy a field's value to another field (deep copy, so later changes do not alias)."""

    def process_value(self, value: Any) -> Any:
        return fast_copy(value)



@warn_on_call(DeprecationWarning, "CopyFields is deprecated. Use <class 'unitxt.operators.Copy'> instead.")
class CopyFields(Copy):
    """The original's older name of Copy (deprecated there): the same operator, with a deprecation warning."""


class Set(InstanceOperator):
    """Set fields to constant values: `Set(fields={"source_language": "english"})` (paths allowed)."""

    fields: Dict[str, Any]
    use_deepcopy: bool = True
    use_query: Optional[bool] = None  # the original's deprecated flag: accepted, warns

    def verify(self) -> None:
        super().verify()
        _warn_deprecated_flag(self, "use_query")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        for path, value in self.fields.items():
            dict_set(instance, path, fast_copy(value) if self.use_deepcopy else value)
        return instance

    def _field_constants(self) -> Optional[List[Tuple[str, Any, Any]]]:
        """(field, value, copier or None when the value is shared as is) for each top-level field set, or None when
        a path or an overridden `process` is involved (a task fused after it reads them)."""
        if type(self).process is not Set.process or any("/" in path for path in self.fields):
            return None
        return [(path, value, _copier(value) if self.use_deepcopy else None) for path, value in self.fields.items()]

    def _instance_function(self):
        """`process` with the per-value decisions taken once per stream: immutable values need no copy and plain
        keys (no `/`) need no path walk."""
        constants = self._field_constants()
        if constants is None:
            return super()._instance_function()
        values = dict(self.fields)
        copied = [(path, value, copier) for path, value, copier in constants if copier is not None]

        def set_fields(instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
            if type(instance) is not dict:  # a mapping of its own: assigned key by key
                return Set.process(self, instance, stream_name)
            instance.update(values)  # every key in order (as assigning them one by one), then the copies replace
            for path, value, copier in copied:  # the shared mutable values (an existing key keeps its place)
                instance[path] = copier(value)
            return instance

        return set_fields


def _copier(value: Any) -> Any:
    """How `fast_copy` copies this value (None: it is immutable and shared as is)."""
    if isinstance(value, _IMMUTABLE):
        return None
    if isinstance(value, list) and all(isinstance(item, _IMMUTABLE) for item in value):
        return list
    return copy.deepcopy


class AddFields(Set):
    """Legacy name of Set."""


class Rename(FieldOperator):
    """Rename fields: `Rename(field="old", to_field="new")` or `Rename(field_to_field={"old": "new"})`."""

    use_query: Optional[bool] = None  # the original's deprecated flag: accepted, warns

    def verify(self) -> None:
        super().verify()
        _warn_deprecated_flag(self, "use_query")

    def process_value(self, value: Any) -> Any:
        return value

    def process_instance_fields(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        for source, target in self._pairs:
            if "/" not in source and "/" not in target and source in instance:
                instance[target] = instance.pop(source)  # the common case: a top-level key
                continue
            if self.not_exist_ok and not dict_has(instance, source):
                continue
            value = dict_get(instance, source)
            dict_delete(instance, source)
            _drop_emptied_parents(instance, source)
            dict_set(instance, target, value)
        return instance

    def _field_moves(self) -> Optional[List[Tuple[str, str]]]:
        """The (source, target) top-level moves this operator makes, in order (a task fused after it reads them), or
        None when it does anything else (paths, an overridden hook)."""
        pairs, kind = self._pairs, type(self)
        plain = kind.process_instance_fields is Rename.process_instance_fields and kind.process is FieldOperator.process
        return list(pairs) if plain and pairs and not any("/" in s + t for s, t in pairs) else None

    def _instance_function(self):
        """`process_instance_fields` for top-level keys without its per-pair path tests, when every source is
        present; an instance lacking one goes through `process_instance_fields` (which decides or explains)."""
        pairs = self._pairs
        if self._field_moves() is None:
            return super()._instance_function()
        slow = self.process_instance_fields

        def rename(instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
            for source, _ in pairs:
                if source not in instance:
                    return slow(instance)
            for source, target in pairs:
                instance[target] = instance.pop(source)
            return instance

        return rename


def _drop_emptied_parents(instance: Dict[str, Any], path: str) -> None:
    """After moving `a/b/c` away, `a/b` and then `a` go too when nothing else is left in them (as the original)."""
    parts = path.split("/")[:-1]
    while parts:
        parent = "/".join(parts)
        if dict_get(instance, parent, not_exist_ok=True, default=None) not in ({}, []):
            return
        dict_delete(instance, parent)
        parts.pop()


class RenameFields(Rename):
    """Legacy name of Rename."""


class RemoveFields(InstanceOperator):
    """Remove fields (paths allowed)."""

    fields: List[str]
    not_exist_ok: bool = False

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        for path in self.fields:
            dict_delete(instance, path, not_exist_ok=self.not_exist_ok)
        return instance


class SelectFields(InstanceOperator):
    """Keep only the listed top-level fields (and the data classification tag and recipe metadata, when present)."""

    fields: List[str]

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        keep = set(self.fields) | {"data_classification_policy", "recipe_metadata"}
        missing = [field for field in self.fields if field not in instance]
        if missing:
            dict_get(instance, missing[0])
        return {key: value for key, value in instance.items() if key in keep}


class MapInstanceValues(InstanceOperator):
    """Map field values through dictionaries: `mappers={"label": {"0": "negative", "1": "positive"}}`.

    Values are looked up by their string form (JSON keys are strings). With `strict`, an unmapped value is an error;
    otherwise it passes through unchanged. `process_every_value` maps each element of a list value.
    """

    mappers: Dict[str, Dict[str, Any]]
    strict: bool = True
    process_every_value: bool = False

    def get_mapped_value(self, instance: Dict[str, Any], key: str, mapper: Dict[str, Any], val: Any) -> Any:
        """Hook: the value `val` of field `key` mapped through `mapper` (looked up by its string form)."""
        return self._map(key, mapper, val)

    def _map(self, field: str, mapper: Dict[str, Any], value: Any) -> Any:
        key = value if isinstance(value, str) else json.dumps(value) if not isinstance(value, (int, float)) else str(value)
        if isinstance(value, bool):
            key = str(value)
        if key not in mapper and not isinstance(value, str) and str(value) in mapper:
            key = str(value)  # the original's keys: str() of lists and dicts
        if key in mapper:
            mapped = mapper[key]
            # a list or dict is copied: an edit of one output must not change the mapping (nor other outputs)
            return copy.deepcopy(mapped) if isinstance(mapped, (list, dict)) else mapped
        if self.strict:
            raise InstanceValueError(  # the original's words
                f"value '{key}', the string representation of the value in field '{field}', is not found in mapper "
                f"'{mapper}'",
                artifact=self.artifact_name,
                field=field,
            )
        return value

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        for field, mapper in self.mappers.items():
            value = dict_get(instance, field)
            if self.process_every_value:
                if not isinstance(value, list):
                    raise InstanceTypeError(  # the original's words
                        f"'process_every_field' == True is allowed only for fields whose values are lists, but value "
                        f"of field '{field}' is '{value}'", field=field)
                mapped = [self.get_mapped_value(instance, field, mapper, item) for item in value]
            else:
                mapped = self.get_mapped_value(instance, field, mapper, value)
            dict_set(instance, field, mapped)
        return instance


def _filtered_all(operator: Any, stream_name: Optional[str]) -> str:
    """The message of a filter that kept nothing (the original's sentence, which users match)."""
    return (f"{type(operator).__name__} filtered out every instance in stream '{stream_name}'. If this is intended "
            "set error_on_filtered_all=False")


_CONDITIONS = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "exists": None,  # values={"a/b": True}: the field exists (False: it does not); handled in keep()
}


class FilterByCondition(StreamOperator):
    """Keep instances whose fields satisfy `condition` against `values` (eq, ne, gt, ge, lt, le, in, not in; or
    exists: `values={"a/b": True}` keeps instances that have the field, False those that do not)."""

    values: Dict[str, Any]
    condition: str
    error_on_filtered_all: bool = True

    def verify(self) -> None:
        if self.condition not in _CONDITIONS:
            raise ArtifactConfigurationError(
                f"Unknown condition '{self.condition}'; use one of {', '.join(_CONDITIONS)}.",
                artifact=type(self).__name__,
                field="condition",
            )
        for key, value in self.values.items():
            if self.condition == "in" and not isinstance(value, list):  # (as the original: "not in" takes a text)
                raise ArtifactConfigurationError(
                    f"The filter for key ('{key}') in FilterByCondition with condition '{self.condition}' must be "
                    f"list but is not : '{value}'", artifact=type(self).__name__, field="values")

    def keep(self, instance: Dict[str, Any]) -> bool:
        if self.condition == "exists":
            return all(dict_has(instance, field) == bool(wanted) for field, wanted in self.values.items())
        compare = _CONDITIONS[self.condition]
        for field, expected in self.values.items():
            try:
                value = dict_get(instance, field)
            except MissingFieldError as error:
                raise MissingFieldError(
                    f"Required filter field ('{field}') in {type(self).__name__} is not found in instance. "
                    f"({error.message})", field=field) from None
            try:
                if not compare(value, expected):
                    return False
            except TypeError as error:
                raise InstanceTypeError(
                    f"Can not apply '{self.condition}' to {dict_get(instance, field)!r} and {expected!r}: {error}",
                    field=field,
                ) from None
        return True

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        kept = 0
        for instance in stream:
            if self.keep(instance):
                kept += 1
                yield instance
        if kept == 0 and self.error_on_filtered_all:
            raise FilteredAllError(_filtered_all(self, stream_name), artifact=self.artifact_name)


@functools.lru_cache(maxsize=2048)
def _compiled_expression(expression: str) -> Any:
    """A validated expression, compiled once per text (compiled expressions hold no state between evaluations), so
    fetching a catalog card again does not validate its expressions again."""
    from ..sandbox.expressions import compile_expression

    return compile_expression(expression)


class ComputeExpressionMixin(Artifact):
    """An `expression` over an instance's fields, evaluated in the sandbox (`compute_expression(instance)`);
    `imports_list` names the modules it uses, only the sandbox's own (re, json, math, itertools)."""

    __abstract__ = True

    expression: str
    imports_list: List[str] = []

    def prepare(self) -> None:
        from ..sandbox.runtime import _MODULES

        super().prepare()
        refused = [name for name in self.imports_list if name not in _MODULES]
        if refused:
            raise UnitxtError(f"imports_list may only name the sandbox's modules {sorted(_MODULES)}; refused: "
                              f"{refused}.", artifact=type(self).__name__, field="imports_list")
        self._compiled = _compiled_expression(self.expression)

    def compute_expression(self, instance: Dict[str, Any]) -> Any:
        return self._compiled.evaluate(instance)


class FilterByExpression(StreamOperator, ComputeExpressionMixin):
    """Keep instances for which a sandboxed boolean expression over their fields is true."""

    _positional_args = ("expression",)
    expression: str
    error_on_filtered_all: bool = True

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        kept = 0
        evaluate = self._compiled.evaluate
        for instance in stream:
            if evaluate(instance):
                kept += 1
                yield instance
        if kept == 0 and self.error_on_filtered_all:
            raise FilteredAllError(_filtered_all(self, stream_name) + f" (expression: {self.expression!r})",
                                   artifact=self.artifact_name)


class ExecuteExpression(InstanceOperator, ComputeExpressionMixin):
    """Store the value of a sandboxed expression over the instance's fields in `to_field`."""

    _positional_args = ("expression",)
    expression: str
    to_field: str

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        dict_set(instance, self.to_field, self._compiled.evaluate(instance))
        return instance


class ListFieldValues(InstanceOperator):
    """Collect the values of several fields into a list field."""

    fields: List[str]
    to_field: str
    use_deepcopy: bool = False
    use_query: Optional[bool] = None  # the original's deprecated flag: accepted, warns

    def verify(self) -> None:
        super().verify()
        _warn_deprecated_flag(self, "use_query")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        values = [dict_get(instance, field) for field in self.fields]
        dict_set(instance, self.to_field, copy.deepcopy(values) if self.use_deepcopy else values)
        return instance


class LoadJson(FieldOperator):
    """Parse JSON text into a value."""

    failure_value: Any = None
    allow_failure: bool = False

    def process_value(self, value: Any) -> Any:
        try:
            return json.loads(value)
        except (TypeError, ValueError) as error:
            if self.allow_failure:
                return self.failure_value
            raise InstanceTypeError(f"Not valid JSON: {str(value)[:200]!r} ({error})") from None


class DumpJson(FieldOperator):
    """Serialise a value to JSON text."""

    def process_value(self, value: Any) -> Any:
        return json.dumps(value, ensure_ascii=False)


class Wrap(FieldOperator):
    """Wrap a value in a list or tuple (`inside="list"`)."""

    inside: str = "list"

    def verify(self) -> None:
        super().verify()
        if self.inside not in ("list", "tuple"):
            raise ArtifactConfigurationError(f"Wrap.inside must be 'list' or 'tuple', got {self.inside!r}.",
                                             artifact=type(self).__name__, field="inside")

    def process_value(self, value: Any) -> Any:
        return [value] if self.inside == "list" else (value,)


class Cast(FieldOperator):
    """Cast a value to int, float, str or bool; `failure_default` (if set) replaces values that do not cast."""

    to: str
    failure_default: Any = "__raise__"

    _CASTS = {"int": int, "float": float, "str": str, "bool": bool}

    def verify(self) -> None:
        super().verify()
        if self.to not in self._CASTS:
            raise UnitxtError(f"Cast.to must be one of {sorted(self._CASTS)}.", artifact=type(self).__name__, field="to")

    def process_value(self, value: Any) -> Any:
        try:
            if self.to == "int" and isinstance(value, str):
                return int(float(value)) if value.strip().lstrip("+-").replace(".", "", 1).isdigit() else int(value)
            return self._CASTS[self.to](value)
        except (TypeError, ValueError):
            if self.failure_default != "__raise__":
                return self.failure_default
            raise InstanceTypeError(f"Can not cast {value!r} to {self.to}.") from None


class CastFields(InstanceOperator):
    """Cast several fields: `fields={"label": "int"}`."""

    fields: Dict[str, str]
    failure_defaults: Dict[str, Any] = {}
    process_every_value: bool = False
    use_nested_query: Optional[bool] = None  # the original's deprecated flag: accepted, warns

    def verify(self) -> None:
        super().verify()
        _warn_deprecated_flag(self, "use_nested_query")

    def prepare(self) -> None:
        self._casts = {
            field: Cast(to=to, field=field, failure_default=self.failure_defaults.get(field, "__raise__"))
            for field, to in self.fields.items()
        }

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        for field, cast in self._casts.items():
            value = dict_get(instance, field)
            if self.process_every_value and isinstance(value, list):
                dict_set(instance, field, [cast.process_value(item) for item in value])
            else:
                dict_set(instance, field, cast.process_value(value))
        return instance



class ZipFieldValues(InstanceOperator):
    """Zip several list fields into a list of tuples in `to_field` (lists once the rows are stored)."""

    fields: List[str]
    to_field: str
    longest: bool = False
    use_query: Optional[bool] = None  # the original's deprecated flag: accepted, warns

    def verify(self) -> None:
        super().verify()
        _warn_deprecated_flag(self, "use_query")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        import itertools

        values = [dict_get(instance, field) for field in self.fields]
        zipped = itertools.zip_longest(*values) if self.longest else zip(*values)
        dict_set(instance, self.to_field, list(zipped))
        return instance


class IndexOf(InstanceOperator):
    """Store the position of `index_of`'s value inside the list in `search_in`."""

    use_query: Any = InertField(default=None, reason="field names are always read as paths ('a/b/0')")

    search_in: str
    index_of: str
    to_field: str

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        haystack = dict_get(instance, self.search_in)
        needle = dict_get(instance, self.index_of)
        try:
            dict_set(instance, self.to_field, haystack.index(needle))
        except ValueError:
            raise UnitxtError(f"{needle!r} is not in field '{self.search_in}'.", field=self.search_in) from None
        return instance


class GetItemByIndex(FieldOperator):
    """Replace an index with the item at that index of a constant list: `items_list=["neg", "pos"]`."""

    items_list: List[Any]

    def process_value(self, value: Any) -> Any:
        try:
            return self.items_list[int(value)]
        except (IndexError, ValueError, TypeError):
            raise InstanceTypeError(f"Index {value!r} is not valid for a list of {len(self.items_list)} items.") from None


class TakeByField(InstanceOperator):
    """`to_field = instance[field][instance[index]]` (e.g. pick the gold choice text by its index)."""

    field: str
    index: str
    to_field: Optional[str] = None
    use_query: Optional[bool] = None  # the original's deprecated flag: accepted, warns

    def verify(self) -> None:
        super().verify()
        _warn_deprecated_flag(self, "use_query")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        container = dict_get(instance, self.field)
        key = dict_get(instance, self.index)
        try:
            value = container[key]
        except (KeyError, IndexError, TypeError):
            raise UnitxtError(f"Can not take item {key!r} from field '{self.field}'.", field=self.field) from None
        dict_set(instance, self.to_field or self.field, value)
        return instance


class JoinStr(FieldOperator):
    """Join a list of strings with `separator`."""

    separator: str = ","

    def process_value(self, value: Any) -> Any:
        return self.separator.join(str(item) for item in value)


class Split(FieldOperator):
    """Split a string by `by` into a list."""

    by: str

    def process_value(self, value: Any) -> Any:
        return value.split(self.by)


class Strip(FieldOperator):
    """Strip surrounding whitespace."""

    def process_value(self, value: Any) -> Any:
        return value.strip()
