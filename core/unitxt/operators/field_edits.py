"""Field operators of the original catalog format: arithmetic, text edits, collection slicing and mapping.

Each one changes the value of `field` (or every pair of `field_to_field`) and writes it to `to_field`; the
FieldOperator fields (`process_every_value`, `not_exist_ok`, `get_default`, ...) apply as everywhere.
"""

import itertools
import math
import os
import re
from typing import Any, Dict, List, Optional

from ..dict_utils import dict_delete, dict_get, dict_set
from ..errors import (ArtifactConfigurationError, InstanceTypeError, InstanceValueError, MissingRequirementError,
                      UnitxtError)
from ..operator import FieldOperator, InstanceOperator
from ..module_aliases import moved_classes
from ..settings_utils import settings


def _type_error(operator: Any, what: str, value: Any) -> InstanceTypeError:
    return InstanceTypeError(f"{type(operator).__name__} needs {what}, got {type(value).__name__}: {str(value)[:120]!r}.",
                             artifact=operator.artifact_name, field=operator.field)


class AddConstant(FieldOperator):
    """`add + value`: a number added to a number, or a list/text prepended (`add=[0]` to [1, 2] -> [0, 1, 2])."""

    add: Any

    def process_value(self, value: Any) -> Any:
        try:
            return self.add + value
        except TypeError:
            raise _type_error(self, f"a value that can be added to {self.add!r}", value) from None


class Lower(FieldOperator):
    """Lower-case a text."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise _type_error(self, "a string", value)
        return value.lower()


class Upper(FieldOperator):
    """Upper-case the text form of a value."""

    def process_value(self, value: Any) -> Any:
        return str(value).upper()


class MapValues(FieldOperator):
    """Replace a value by `mapping[str(value)]`; a value not in the mapping is an error."""

    mapping: Dict[str, Any]

    def process_value(self, value: Any) -> Any:
        key = str(value)
        if key not in self.mapping:
            raise UnitxtError(f"Value {value!r} is not a key of the mapping (keys: {list(self.mapping)[:20]}).",
                              artifact=self.artifact_name, field=self.field)
        return self.mapping[key]


class MapReplace(FieldOperator):
    """Apply every `old -> new` text replacement of `mapping`, in order."""

    mapping: Dict[str, str]

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise _type_error(self, "a string", value)
        for old, new in self.mapping.items():
            value = value.replace(old, new)
        return value


class Replace(FieldOperator):
    """Replace every occurrence of `old` by `new` in a text."""

    old: str
    new: str

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise _type_error(self, "a string", value)
        return value.replace(self.old, self.new)


class RegexSplit(FieldOperator):
    """Split a text on the regular expression `by` (re.split: captured groups are kept)."""

    by: str

    def prepare(self) -> None:
        super().prepare()
        try:
            self._pattern = re.compile(self.by)
        except re.error as error:
            raise UnitxtError(f"RegexSplit.by is not a regular expression: {error}", artifact=type(self).__name__,
                              field="by") from None

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise _type_error(self, "a string", value)
        return self._pattern.split(value)


class Join(FieldOperator):
    """Join a list of texts with `by`."""

    by: str

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            raise _type_error(self, "a list of strings", value)
        return self.by.join(value)


class RegexReplace(FieldOperator):
    """Replace every match of the regular expression `pattern` in a text with `replacement` (re.sub); values that
    are not texts pass unchanged."""

    pattern: str
    replacement: str

    def prepare(self) -> None:
        super().prepare()
        try:
            self._compiled = re.compile(self.pattern)
        except re.error as error:
            raise ArtifactConfigurationError(f"RegexReplace.pattern is not a regular expression: {error}",
                              artifact=type(self).__name__, field="pattern") from None

    def process_value(self, value: Any) -> Any:
        return self._compiled.sub(self.replacement, value) if isinstance(value, str) else value


class _TokenizerField(FieldOperator):
    """A field operator using the Hugging Face tokenizer `model` (transformers, an optional package, loaded on first
    use so the operator can be built, saved and listed without it)."""

    model: str

    def tokenizer(self) -> Any:
        if getattr(self, "_tokenizer", None) is None:
            try:
                from transformers import AutoTokenizer
            except ImportError:
                raise MissingRequirementError(
                    f"{type(self).__name__} needs the 'transformers' package for the tokenizer of '{self.model}': "
                    "pip install transformers", artifact=type(self).__name__, field="model") from None
            path = self.model
            if getattr(settings, "hf_offline_models_path", None):
                path = os.path.join(settings.hf_offline_models_path, path)
            self._tokenizer = AutoTokenizer.from_pretrained(path)
        return self._tokenizer


class TokensSplit(_TokenizerField):
    """Split a text into the tokens of the tokenizer `model` (e.g. word pieces of bert-base-uncased)."""

    def process_value(self, value: Any) -> Any:
        return self.tokenizer().tokenize(value)


class TokensSlice(_TokenizerField):
    """Keep the tokens [start:stop:step] of a text under the tokenizer `model`, decoded back to text."""

    start: Optional[int] = None
    stop: Optional[int] = None
    step: Optional[int] = None

    def process_value(self, value: Any) -> Any:
        tokenizer = self.tokenizer()
        return tokenizer.decode(tokenizer.encode(value)[slice(self.start, self.stop, self.step)])


class Chunk(FieldOperator):
    """Cut a list (or text) into consecutive pieces of `size` items; the last piece may be shorter."""

    size: int

    def verify(self) -> None:
        super().verify()
        if self.size < 1:
            raise ArtifactConfigurationError(f"Chunk.size must be at least 1, got {self.size}.",
                                             artifact=type(self).__name__, field="size")

    def process_value(self, value: Any) -> Any:
        return [value[start:start + self.size] for start in range(0, len(value), self.size)]


class DictToTuplesList(FieldOperator):
    """A dict as the list of its (key, value) pairs, in order."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise _type_error(self, "a dict", value)
        return list(value.items())


def flatten(container: Any) -> Any:
    """Nested lists/tuples flattened into one container of the outer container's type (`[1, (2, [3])]` -> `[1, 2, 3]`)."""
    flat: List[Any] = []
    pending = [iter(container)]
    while pending:
        for item in pending[-1]:
            if isinstance(item, (list, tuple)):
                pending.append(iter(item))
                break
            flat.append(item)
        else:
            pending.pop()
    return type(container)(flat)


class Flatten(FieldOperator):
    """Flatten nested lists/tuples in a field into one level."""

    def process_value(self, value: Any) -> Any:
        return flatten(value)


class Zip(InstanceOperator):
    """Write to `to_field` the list of tuples pairing up the items of the lists in `fields` (stops at the shortest)."""

    fields: List[str]
    to_field: str

    def zip(self, values: List[Any]) -> List[tuple]:
        return list(zip(*values))

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        dict_set(instance, self.to_field, self.zip([dict_get(instance, field) for field in self.fields]))
        return instance


class ZipLongest(Zip):
    """Like Zip, up to the longest list; missing items are `fill_value`."""

    fill_value: Any = None

    def zip(self, values: List[Any]) -> List[tuple]:
        return list(itertools.zip_longest(*values, fillvalue=self.fill_value))


class SplitStrip(FieldOperator):
    """Split a text on `delimiter`; with `strip_every_element`, strip each part."""

    delimiter: str = " "
    strip_every_element: bool = False

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise _type_error(self, "a string", value)
        parts = value.split(self.delimiter)
        return [part.strip() for part in parts] if self.strip_every_element else parts


class ToListByComma(SplitStrip):
    """"a, b,c" -> ["a", "b", "c"]."""

    delimiter: str = ","
    strip_every_element: bool = True


class ToListByCommaSpace(SplitStrip):
    """"a, b, c" -> ["a", "b", "c"] (splits on ", " only)."""

    delimiter: str = ", "
    strip_every_element: bool = True


class GroupDictWithRegex(FieldOperator):
    """The named groups of `pattern` matched at the start of a text, as a dict ({} when it does not match).
    `flags` are re flags as an int (16 = re.DOTALL)."""

    pattern: str
    flags: int = 0

    def prepare(self) -> None:
        super().prepare()
        try:
            self._pattern = re.compile(self.pattern, self.flags)
        except re.error as error:
            raise UnitxtError(f"GroupDictWithRegex.pattern is not a regular expression: {error}",
                              artifact=type(self).__name__, field="pattern") from None

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise _type_error(self, "a string", value)
        match = self._pattern.match(value)
        return match.groupdict() if match else {}


class Dictify(FieldOperator):
    """Zip a sequence with `with_keys` into a dict: ["user", "hi"] with keys [role, content] -> {role: user, ...}."""

    with_keys: List[str]

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            raise _type_error(self, "a list or tuple", value)
        return dict(zip(self.with_keys, value))


class Filter(FieldOperator):
    """Drop the items equal to one of `values` from a list (or the keys from a dict)."""

    values: List[Any]

    def process_value(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {key: item for key, item in value.items() if key not in self.values}
        if isinstance(value, (list, tuple, set)):
            return type(value)(item for item in value if item not in self.values)
        raise _type_error(self, "a list, tuple, set or dict", value)


class RemoveValues(FieldOperator):
    """Drop the items of a list that are in `unallowed_values`."""

    unallowed_values: List[Any]

    def verify_field_types(self, names: Optional[List[str]] = None) -> None:
        if not isinstance(self.__dict__.get("unallowed_values"), list):
            raise ArtifactConfigurationError(f"The unallowed_values is not a list but '{self.unallowed_values}'",
                                             artifact=type(self).__name__, field="unallowed_values")
        super().verify_field_types(names)

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, list):
            raise InstanceValueError(f"The value in field is not a list but '{value}'", artifact=self.artifact_name,
                                     field=self.field)  # the original's words
        return [item for item in value if item not in self.unallowed_values]


class Slice(FieldOperator):
    """`value[start:stop:step]` of a list or text."""

    start: Optional[int] = None
    stop: Optional[int] = None
    step: Optional[int] = None

    def process_value(self, value: Any) -> Any:
        try:
            return value[self.start:self.stop:self.step]
        except TypeError:
            raise _type_error(self, "a list or string", value) from None


class Get(FieldOperator):
    """`value[item]`: an element of a list (negative indices allowed) or a key of a dict."""

    item: Any

    def process_value(self, value: Any) -> Any:
        try:
            return value[self.item]
        except (KeyError, IndexError, TypeError):
            raise _type_error(self, f"a collection holding item {self.item!r}", value) from None


class Pop(FieldOperator):
    """Remove and return an element of a list (`item`, default the last) or a key of a dict (the source keeps
    the rest: pop `dialog` item -1 to `last_turn` leaves the earlier turns in `dialog`)."""

    item: Any = None

    def process_value(self, value: Any) -> Any:
        try:
            if isinstance(value, dict):
                return value.pop(self.item)
            return value.pop() if self.item is None else value.pop(self.item)
        except (KeyError, IndexError, TypeError, AttributeError):
            raise _type_error(self, f"a list or dict holding item {self.item!r}", value) from None


class GetLength(FieldOperator):
    """`len(value)`."""

    def process_value(self, value: Any) -> Any:
        try:
            return len(value)
        except TypeError:
            raise _type_error(self, "a sized value", value) from None


class Fillna(FieldOperator):
    """Replace a NaN number by `value` (other values pass unchanged)."""

    value: Any

    def process_value(self, value: Any) -> Any:
        if isinstance(value, float) and math.isnan(value):
            return self.value
        if type(value).__name__.startswith("float") and hasattr(value, "item") and math.isnan(float(value)):
            return self.value  # numpy floats
        return value


class FormatText(InstanceOperator):
    """`to_field` = `text` with `{field}` placeholders filled from the instance's top-level fields."""

    text: str
    to_field: str

    def prepare(self) -> None:
        super().prepare()
        from ..sandbox.format_strings import compile_format

        self._format = compile_format(self.text, where="FormatText.text")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        values = {}
        for name in self._format.fields:
            value = dict_get(instance, name)
            values[name] = value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else str(value)
        instance[self.to_field] = self._format.render(values, "text")
        return instance


class Move(InstanceOperator):
    """Move a value from `field` to `to_field` (paths and `*` allowed): the source is removed."""

    field: str
    to_field: str

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        value = dict_get(instance, self.field)
        dict_delete(instance, self.field)
        dict_set(instance, self.to_field, value)
        return instance


def recursive_key_value_replace(data: Any, target_key: Any, value_map: Dict[Any, Any],
                                value_remove: Optional[List[Any]] = None) -> Any:
    """In place, everywhere in nested dicts and lists: a `target_key` entry's value is mapped through `value_map`
    (a list value item by item, dict items dropped), or the entry (list item) dropped if its value is in
    `value_remove`; a dict value is searched further. Returns `data`."""
    removed = [] if value_remove is None else value_remove
    if isinstance(data, list):
        for item in data:
            recursive_key_value_replace(item, target_key, value_map, removed)
        return data
    if not isinstance(data, dict):
        return data
    dropped = []
    for key, value in data.items():
        if key != target_key or isinstance(value, dict):
            recursive_key_value_replace(value, target_key, value_map, removed)
        elif isinstance(value, list):
            data[key] = [value_map.get(item, item) for item in value
                         if not isinstance(item, dict) and item not in removed]
        elif value in removed:
            dropped.append(key)
        elif value in value_map:
            data[key] = value_map[value]
    for key in dropped:
        del data[key]
    return data


class RecursiveReplace(InstanceOperator):
    """Everywhere in the instance, the value of a `key` entry is mapped through `map_values` (a list value item by
    item); entries (or list items) whose value is in `remove_values` are dropped (JSON-schema `type` names:
    "dict" -> "object")."""

    key: str
    map_values: Dict[str, Any]
    remove_values: Optional[List[Any]] = None

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        return recursive_key_value_replace(instance, self.key, self.map_values, self.remove_values)


__all__ = [
    "AddConstant", "Lower", "Upper", "MapValues", "MapReplace", "Replace", "RegexSplit", "Join", "SplitStrip",
    "ToListByComma", "ToListByCommaSpace", "GroupDictWithRegex", "Dictify", "Filter", "RemoveValues", "Slice", "Get",
    "Pop", "GetLength", "Fillna", "FormatText", "Move", "RecursiveReplace",
]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
