"""Stream and split operators of the original catalog format: joining, deleting and duplicating splits, balancing,
duplicating instances by list elements, numbering, frequency extraction, and `Apply` of a whitelisted function.
"""

import copy
import json
import time
from collections import Counter
from typing import Any, Callable, Dict, Generator, Iterable, List, Optional, Tuple, Union

from ..artifact import to_serializable
from ..dict_utils import dict_get, dict_set
from ..errors import ArtifactConfigurationError, InstanceTypeError, MissingFieldError, UnitxtError
from ..operator import InstanceOperator, MultiStreamOperator, StreamOperator
from ..random_utils import new_random_generator
from .fields import _CONDITIONS, FilterByCondition
from .streams import StreamRefiner
from ..stream import ListStream, GeneratorStream, MultiStream
from ..module_aliases import moved_classes

_SHARED_COLUMNS = ("data_classification_policy", "recipe_metadata")  # must agree on both sides; kept once


class JoinStreams(MultiStreamOperator):
    """Join two streams into `new_stream_name` on key fields, like a database join (`how`: inner, left, right,
    outer or cross). Other fields present on both sides get the suffixes `_x` (left) and `_y` (right); a missing
    side's fields are None. The joined stream is added; the input streams stay."""

    left_stream: str
    right_stream: str
    how: str = "inner"
    on: Optional[Union[str, List[str]]] = None
    left_on: Optional[Union[str, List[str]]] = None
    right_on: Optional[Union[str, List[str]]] = None
    new_stream_name: str

    def verify(self) -> None:
        super().verify()
        if self.how not in ("inner", "left", "right", "outer", "cross"):
            raise UnitxtError(f"JoinStreams.how must be inner, left, right, outer or cross, got {self.how!r}.",
                              artifact=type(self).__name__, field="how")
        for name in ("on", "left_on", "right_on"):
            if isinstance(getattr(self, name), str):
                self.__dict__[name] = [getattr(self, name)]  # a single key field may be given as a string
        if self.how != "cross" and self.on is None and (self.left_on is None or self.right_on is None):
            raise UnitxtError("JoinStreams needs 'on', or both 'left_on' and 'right_on'.", artifact=type(self).__name__,
                              field="on")

    def _keys(self) -> Tuple[List[str], List[str]]:
        return (self.on or self.left_on or []), (self.on or self.right_on or [])

    def _merge(self, left: Optional[Dict[str, Any]], right: Optional[Dict[str, Any]],
               left_columns: List[str], right_columns: List[str]) -> Dict[str, Any]:
        shared_keys = set(self.on or [])
        overlap = (set(left_columns) & set(right_columns)) - shared_keys - set(_SHARED_COLUMNS)
        row: Dict[str, Any] = {}
        for column in left_columns:
            value = None if left is None else left.get(column)
            row[f"{column}_x" if column in overlap else column] = value
        for column in right_columns:
            if column in shared_keys and left is not None:
                continue
            if column in _SHARED_COLUMNS and column in left_columns:
                if left is not None and right is not None and json.dumps(left.get(column), sort_keys=True, default=str) \
                        != json.dumps(right.get(column), sort_keys=True, default=str):
                    raise UnitxtError(f"'{column}' field is not identical in both left and right instances merged "
                                      "in JoinStreams.")  # the original's words (they name the operator)
                if left is None:
                    row[column] = right.get(column)
                continue
            row[f"{column}_y" if column in overlap else column] = None if right is None else right.get(column)
        return row

    def _joined(self, left_rows: List[Dict[str, Any]], right_rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        left_columns = list(dict.fromkeys(key for row in left_rows for key in row))
        right_columns = list(dict.fromkeys(key for row in right_rows for key in row))
        if self.how == "cross":
            return [self._merge(left, right, left_columns, right_columns) for left in left_rows for right in right_rows]
        left_keys, right_keys = self._keys()

        def key_of(row: Dict[str, Any], keys: List[str]) -> str:
            return json.dumps([dict_get(row, key) for key in keys], sort_keys=True, default=str)

        by_key: Dict[str, List[int]] = {}
        for index, row in enumerate(right_rows):
            by_key.setdefault(key_of(row, right_keys), []).append(index)
        joined, matched_right = [], set()
        if self.how == "right":
            left_by_key: Dict[str, List[Dict[str, Any]]] = {}
            for row in left_rows:
                left_by_key.setdefault(key_of(row, left_keys), []).append(row)
            for right in right_rows:
                partners = left_by_key.get(key_of(right, right_keys), [None])
                joined.extend(self._merge(left, right, left_columns, right_columns) for left in partners)
            return joined
        for left in left_rows:
            partners = by_key.get(key_of(left, left_keys), [])
            matched_right.update(partners)
            for index in partners:
                joined.append(self._merge(left, right_rows[index], left_columns, right_columns))
            if not partners and self.how in ("left", "outer"):
                joined.append(self._merge(left, None, left_columns, right_columns))
        if self.how == "outer":
            for index, right in enumerate(right_rows):
                if index not in matched_right:
                    row = self._merge(None, right, left_columns, right_columns)
                    for left_key, right_key in zip(left_keys, right_keys):
                        row[left_key] = right.get(right_key)
                    joined.append(row)
        return joined

    def merge(self, multi_stream: MultiStream) -> List[Dict[str, Any]]:
        """Hook: the joined instances of the left and right streams (checked: both exist, the join is not empty)."""
        for name in (self.left_stream, self.right_stream):
            if name not in multi_stream:
                raise UnitxtError(f"JoinStreams: no stream '{name}' (streams: {sorted(multi_stream)}).",
                                  artifact=self.artifact_name)

        # joined now, as the original (a join needs both streams whole anyway), so its errors come at the call
        joined = self._joined(list(multi_stream[self.left_stream]), list(multi_stream[self.right_stream]))
        if not joined:
            keys = self.on if self.on else [self.left_on, self.right_on]
            raise UnitxtError(f"JoinStreams resulted in an empty stream. It means that that keys in fields '{keys}' on "
                              f"the left and on right streams do not match the merge policy of '{self.how}'.")
        return joined

    def process(self, multi_stream: MultiStream) -> MultiStream:
        joined = self.merge(multi_stream)
        return MultiStream({**multi_stream, self.new_stream_name: ListStream(joined, copying=True)})


class DeleteSplits(MultiStreamOperator):
    """Drop the listed splits."""

    splits: List[str]

    def process(self, multi_stream: MultiStream) -> MultiStream:
        return MultiStream({name: stream for name, stream in multi_stream.items() if name not in self.splits})


class DuplicateSplit(MultiStreamOperator):
    """Add `to_split` as a copy of `split` (instances are deep-copied, so later changes stay per split)."""

    split: str
    to_split: str

    def process(self, multi_stream: MultiStream) -> MultiStream:
        if self.split not in multi_stream:
            raise UnitxtError(f"DuplicateSplit: no split '{self.split}' (splits: {sorted(multi_stream)}).",
                              artifact=self.artifact_name, field="split")
        source = multi_stream[self.split]
        return MultiStream({**multi_stream, self.to_split: GeneratorStream(
            lambda: (copy.deepcopy(instance) for instance in source))})


class AddIncrementalId(StreamOperator):
    """`to_field` = the instance's position in its stream (0, 1, 2, ...)."""

    to_field: str

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        for index, instance in enumerate(stream):
            instance[self.to_field] = index
            yield instance


class DuplicateByList(StreamOperator):
    """One instance per element of the list in `field`, the element written to `to_field` (default `field`)."""

    field: str
    to_field: Optional[str] = None
    use_deep_copy: bool = False

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        for instance in stream:
            elements = dict_get(instance, self.field)
            if not isinstance(elements, list):
                raise InstanceTypeError(f"DuplicateByList needs a list in '{self.field}', got "
                                        f"{type(elements).__name__}.", field=self.field)
            for element in elements:
                duplicate = copy.deepcopy(instance) if self.use_deep_copy else dict(instance)
                dict_set(duplicate, self.to_field or self.field, element)
                yield duplicate


class DuplicateBySubLists(StreamOperator):
    """One instance per prefix of the list in `field`: prefixes of length start, start+step, ... up to
    len + 1 + end (default: every prefix from one element to the whole list), written to `to_field`."""

    field: str
    to_field: Optional[str] = None
    use_deep_copy: bool = False
    start: int = 1
    end: int = 0
    step: int = 1

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        target = self.to_field or self.field
        for instance in stream:
            elements = dict_get(instance, self.field)
            if not isinstance(elements, list):
                raise InstanceTypeError(f"DuplicateBySubLists needs a list in '{self.field}', got "
                                        f"{type(elements).__name__}.", field=self.field)
            for length in range(self.start, len(elements) + 1 + self.end, self.step):
                duplicate = copy.deepcopy(instance) if self.use_deep_copy else dict(instance)
                duplicate[self.field] = elements
                duplicate[target] = elements[:length]
                yield duplicate


class ExplodeSubLists(DuplicateBySubLists):
    """The original's other name for DuplicateBySubLists."""


class Balance(StreamRefiner):
    """Keep the same number of instances for every signature (the values of `fields`): as many as the rarest one
    has (and at most max_instances in total), the first ones of each in stream order."""

    fields: List[str]

    def signature(self, instance: Dict[str, Any]) -> str:
        return json.dumps([dict_get(instance, field) for field in self.fields], sort_keys=True, default=str)

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        instances = list(stream)
        counts = Counter(self.signature(instance) for instance in instances)
        if not counts:
            return
        per_signature = min(counts.values())
        if self.max_instances is not None:
            per_signature = min(per_signature, self.max_instances // len(counts))
        taken: Counter = Counter()
        for instance in instances:
            signature = self.signature(instance)
            if taken[signature] < per_signature:
                taken[signature] += 1
                yield instance


class DeterministicBalancer(Balance):
    """Balance by the values of `fields` (deterministic: the first instances of each value are kept)."""


class LengthBalancer(DeterministicBalancer):
    """Balance by the total length of `fields`, bucketed by `segments_boundaries` ([1]: empty vs non-empty)."""

    segments_boundaries: List[int]

    def signature(self, instance: Dict[str, Any]) -> str:
        total = sum(len(dict_get(instance, field)) for field in self.fields)
        for index, boundary in enumerate(self.segments_boundaries):
            if total < boundary:
                return str(index)
        return str(len(self.segments_boundaries))


class MinimumOneExamplePerLabelRefiner(StreamRefiner):
    """Keep max_instances instances that include at least one of each signature (values of `fields`), then fill
    up in stream order; the result is shuffled with a seed from its content."""

    fields: List[str]

    def signature(self, instance: Dict[str, Any]) -> str:
        """Hook: the label of an instance (its values of `fields`), of which one example is kept at least."""
        return json.dumps([dict_get(instance, field) for field in self.fields], sort_keys=True, default=str)

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        instances = list(stream)
        if self.max_instances is None:
            yield from instances
            return
        signature = self.signature
        first_of: Dict[str, int] = {}
        for index, instance in enumerate(instances):
            first_of.setdefault(signature(instance), index)
        if len(first_of) > self.max_instances:
            raise UnitxtError(f"max_instances={self.max_instances} is smaller than the number of distinct labels "
                              f"({len(first_of)}), so not every label can have an example.", artifact=self.artifact_name)
        chosen = sorted(first_of.values())
        chosen_set = set(chosen)
        for index in range(len(instances)):
            if len(chosen) >= self.max_instances:
                break
            if index not in chosen_set:
                chosen.append(index)
        selected = [instances[index] for index in chosen]
        new_random_generator(sub_seed=selected).shuffle(selected)  # the original's seeding: same order as there
        yield from selected


class FilterByConditionBasedOnFields(FilterByCondition):
    """Keep instances where `condition` holds between two of their fields: `values={"a": "b"}` compares field a
    with field b (e.g. eq: a == b; in: a in b)."""

    def verify(self) -> None:
        super().verify()
        if self.condition == "exists":
            raise UnitxtError("FilterByConditionBasedOnFields compares two fields; 'exists' is not such a condition "
                              "(use FilterByCondition).", artifact=type(self).__name__, field="condition")

    def keep(self, instance: Dict[str, Any]) -> bool:
        compare = _CONDITIONS[self.condition]
        for field, other in self.values.items():
            try:
                if not compare(dict_get(instance, field), dict_get(instance, other)):
                    return False
            except TypeError as error:
                raise InstanceTypeError(f"Can not apply '{self.condition}' to fields '{field}' and '{other}': {error}",
                                        field=field) from None
        return True


class ExtractMostCommonFieldValues(MultiStreamOperator):
    """Count the values of `field` over stream `stream_name` and set `to_field` of every instance of every stream to
    the most common ones (most frequent first): those covering `overall_top_frequency_percent` of the occurrences,
    or those with at least `min_frequency_percent`. With `process_every_value`, list items count separately."""

    field: str
    stream_name: str
    to_field: str
    overall_top_frequency_percent: int = 100
    min_frequency_percent: int = 0
    process_every_value: bool = False

    def verify(self) -> None:
        super().verify()
        for name in ("overall_top_frequency_percent", "min_frequency_percent"):
            if not 0 <= getattr(self, name) <= 100:
                raise ArtifactConfigurationError(f"{name} must be between 0 and 100.", artifact=type(self).__name__,
                                                 field=name)
        if self.overall_top_frequency_percent < 100 and self.min_frequency_percent > 0:
            raise ArtifactConfigurationError("Set at most one of overall_top_frequency_percent and "
                                             "min_frequency_percent.", artifact=type(self).__name__)

    def _most_common(self, stream: Iterable[Dict[str, Any]]) -> List[Any]:
        counter: Counter = Counter()
        for instance in stream:
            value = dict_get(instance, self.field)
            if self.process_every_value:
                if not isinstance(value, list):
                    raise InstanceTypeError("process_every_value needs list values.", field=self.field)
                counter.update(json.dumps(item, sort_keys=True) for item in value)
            else:
                counter.update([json.dumps(value, sort_keys=True)])
        ranked = counter.most_common()
        total = sum(counter.values())
        if self.overall_top_frequency_percent < 100:
            kept, covered = [], 0
            for item in ranked:
                kept.append(item)
                covered += item[1]
                if covered >= total * self.overall_top_frequency_percent / 100:
                    break
            ranked = kept
        if self.min_frequency_percent > 0:
            ranked = [item for item in ranked if item[1] >= total * self.min_frequency_percent / 100]
        return [json.loads(value) for value, _ in ranked]

    def process(self, multi_stream: MultiStream) -> MultiStream:
        if self.stream_name not in multi_stream:
            raise UnitxtError(f"No stream '{self.stream_name}' (streams: {sorted(multi_stream)}).",
                              artifact=self.artifact_name, field="stream_name")
        common = self._most_common(multi_stream[self.stream_name])  # counted now, as the original (errors too)

        def with_values(stream: Iterable[Dict[str, Any]]) -> Generator:
            for instance in stream:
                dict_set(instance, self.to_field, copy.deepcopy(common))
                yield instance

        return MultiStream({name: GeneratorStream(with_values, {"stream": stream})
                            for name, stream in multi_stream.items()})


class ExtractFieldValues(ExtractMostCommonFieldValues):
    """All distinct values of `field` in `stream_name`, most frequent first, into `to_field` of every instance."""


_APPLY_FUNCTIONS: Dict[str, Callable] = {
    "json.loads": json.loads, "json.dumps": json.dumps,
    "str.lower": str.lower, "str.upper": str.upper, "str.strip": str.strip, "str.title": str.title,
    "str.capitalize": str.capitalize, "str.split": str.split,
    "str": str, "int": int, "float": float, "bool": bool, "len": len, "list": list, "sorted": sorted,
    "dict": dict, "tuple": tuple, "set": set,
    "abs": abs, "round": round, "min": min, "max": max, "sum": sum,
    "time.time": time.time,  # the wall clock (no argument, no effect): the original's examples stamp instances with it
}


def _function_name(function: Any) -> str:
    """The whitelisted name of a function given as an object (str.upper -> "str.upper")."""
    for name, known in _APPLY_FUNCTIONS.items():
        if known is function:
            return name
    label = f"{getattr(function, '__module__', None) or ''}.{getattr(function, '__qualname__', repr(function))}"
    raise UnitxtError(f"Apply.function {label.lstrip('.')!r} is not one of the allowed functions: "
                      f"{', '.join(sorted(_APPLY_FUNCTIONS))}.", artifact="Apply", field="function")


class Apply(InstanceOperator):
    """`to_field` = function(*fields) for a function named by a whitelisted string ("json.loads", "str.lower",
    "len", ...; never an import). The argument fields are given positionally (`Apply("a", function=..., ...)`, in
    JSON `_argv`) or by keyword (`_kwargs`: {argument: field})."""

    function: str
    to_field: str

    def __init__(self, *args: Any, **kwargs: Any):
        argv = list(kwargs.pop("_argv", []))
        named = dict(kwargs.pop("_kwargs", {}))
        positional = [arg for arg in args if isinstance(arg, str)]
        if len(positional) != len(args):
            raise UnitxtError("Apply takes field names (strings) as positional arguments.", artifact="Apply")
        self.__dict__["_argv"] = argv + positional
        self.__dict__["_kwargs"] = named
        if callable(kwargs.get("function")):  # Apply(function=str.upper), as in the original: kept by its name
            kwargs["function"] = _function_name(kwargs["function"])
        super().__init__(**kwargs)

    def verify(self) -> None:
        super().verify()
        if self.function not in _APPLY_FUNCTIONS:
            raise UnitxtError(f"Apply.function {self.function!r} is not one of the allowed functions: "
                              f"{', '.join(sorted(_APPLY_FUNCTIONS))}.", artifact=type(self).__name__, field="function")

    def to_dict(self) -> Dict[str, Any]:
        data = super().to_dict()
        if self.__dict__["_argv"]:
            data["_argv"] = tuple(self.__dict__["_argv"])  # a tuple, as the original
        if self.__dict__["_kwargs"]:
            data["_kwargs"] = to_serializable(self.__dict__["_kwargs"])
        return data

    @staticmethod
    def function_to_str(function: Callable) -> str:
        """The original's text of a function: its module (when it has one) and qualified name ("builtins.tuple";
        "str.upper" for a method of a builtin type)."""
        qualified = getattr(function, "__qualname__", None) or getattr(function, "__name__", repr(function))
        module = getattr(function, "__module__", None)
        return f"{module}.{qualified}" if module else qualified

    @staticmethod
    def str_to_function(function_str: str) -> Callable:
        """The allowed function named by `function_str` ("str.upper", "tuple", "builtins.tuple"); never an import."""
        name = function_str[len("builtins."):] if function_str.startswith("builtins.") else function_str
        if name not in _APPLY_FUNCTIONS:
            raise ArtifactConfigurationError(f"Apply.function {function_str!r} is not one of the allowed functions: "
                              f"{', '.join(sorted(_APPLY_FUNCTIONS))}.", artifact="Apply", field="function")
        return _APPLY_FUNCTIONS[name]

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        arguments = [dict_get(instance, field) for field in self.__dict__["_argv"]]
        keywords = {name: dict_get(instance, field) for name, field in self.__dict__["_kwargs"].items()}
        instance[self.to_field] = _APPLY_FUNCTIONS[self.function](*arguments, **keywords)
        return instance


class SplitByNestedGroup(MultiStreamOperator):
    """One stream per (stream, fusion origin): the origin is the first `number_of_fusion_generations` parts of the
    "/"-separated field `field_name_of_group` (all of it for -1), the stream named "<stream>~<origin>"."""

    field_name_of_group: str = "group"
    number_of_fusion_generations: int = 1

    def process(self, multi_stream: MultiStream) -> MultiStream:
        result: Dict[str, List[Dict[str, Any]]] = {}
        for stream_name, stream in multi_stream.items():
            for instance in stream:
                if self.field_name_of_group not in instance:
                    raise MissingFieldError(f"Field {self.field_name_of_group} is missing from instance. Available "
                                            f"fields: {list(instance)}", artifact=self.artifact_name,
                                            field=self.field_name_of_group)
                group = instance[self.field_name_of_group]
                if self.number_of_fusion_generations >= 0:
                    group = "/".join(group.split("/")[:self.number_of_fusion_generations])
                result.setdefault(f"{stream_name}~{group}", []).append(instance)
        return MultiStream.from_iterables(result)


__all__ = [
    "SplitByNestedGroup", "JoinStreams", "DeleteSplits", "DuplicateSplit", "AddIncrementalId", "DuplicateByList", "DuplicateBySubLists",
    "Balance", "DeterministicBalancer", "LengthBalancer", "MinimumOneExamplePerLabelRefiner",
    "FilterByConditionBasedOnFields", "ExtractMostCommonFieldValues", "ExtractFieldValues", "Apply",
]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
