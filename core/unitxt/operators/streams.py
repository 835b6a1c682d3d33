"""Stream operators: exploding list fields, collating, duplicating, deduplicating, shuffling, refining (limits
and filters on a split), numbering instances and merging streams."""

import copy
import hashlib
import json
import random
from typing import Any, Dict, Generator, Iterable, List, Optional

from ..dict_utils import dict_get, dict_set
from ..errors import InstanceTypeError, UnitxtError
from ..general.dataclass_fields import NonPositionalField
from ..general.helpers import recursive_copy
from ..operator import MultiStreamOperator, PagedStreamOperator, StreamOperator
from ..settings_utils import settings
from ..stream import MultiStream
from ..artifact import InertField



def update_scores_of_stream_instances(stream: Iterable[Dict[str, Any]], scores: List[dict]) -> Generator:
    """Yield the stream's instances, each with `score` set to a copy of its entry in `scores` (zip: the shorter
    decides)."""
    for instance, score in zip(stream, scores):
        instance["score"] = recursive_copy(score)
        yield instance


class Explode(StreamOperator):
    """One output instance per element of a list field (the element replaces the list in `to_field`)."""

    use_deep_copy: Any = InertField(default=False, reason='each exploded row is a copy here')

    field: str
    to_field: Optional[str] = None

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        target = self.to_field or self.field
        for instance in stream:
            values = dict_get(instance, self.field)
            if not isinstance(values, list):
                raise InstanceTypeError(f"Explode needs a list, got {type(values).__name__}.", field=self.field)
            for value in values:
                new_instance = copy.deepcopy(instance) if len(values) > 1 else instance
                dict_set(new_instance, target, value)
                yield new_instance


class CollateInstances(StreamOperator):
    """Group every `batch_size` consecutive instances into one whose fields are lists of the group's values."""

    batch_size: int

    def verify(self) -> None:
        if self.batch_size < 1:
            raise UnitxtError("batch_size must be >= 1.", artifact=type(self).__name__, field="batch_size")

    def _collate(self, batch: List[Dict[str, Any]]) -> Dict[str, Any]:
        keys = list(batch[0])
        collated = {key: [instance.get(key) for instance in batch] for key in keys if key != "data_classification_policy"}
        if "data_classification_policy" in batch[0]:
            policies = sorted({policy for instance in batch for policy in instance.get("data_classification_policy") or []})
            collated["data_classification_policy"] = policies
        return collated

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        batch: List[Dict[str, Any]] = []
        for instance in stream:
            batch.append(instance)
            if len(batch) == self.batch_size:
                yield self._collate(batch)
                batch = []
        if batch:
            yield self._collate(batch)


class CollateInstancesByField(StreamOperator):
    """One instance per value of `by_field`: the `aggregate_fields` become lists of the group's values, the other
    fields must agree within the group, and data classification policies are merged."""

    by_field: str = NonPositionalField(required=True)
    aggregate_fields: List[str] = NonPositionalField(required=True)

    def verify(self) -> None:
        super().verify()
        if not isinstance(self.by_field, str):
            raise UnitxtError(f"The 'by_field' value is not a string but '{type(self.by_field)}'",
                              artifact=type(self).__name__, field="by_field")
        if not isinstance(self.aggregate_fields, list):
            raise UnitxtError(f"The 'allowed_field_values' is not a list but '{type(self.aggregate_fields)}'",
                              artifact=type(self).__name__, field="aggregate_fields")

    def _check_fields(self, instance: Dict[str, Any]) -> None:
        if self.by_field not in instance:
            raise UnitxtError(f"The field '{self.by_field}' specified by CollateInstancesByField's 'by_field' argument "
                              "is not found in instance.")
        for name in self.aggregate_fields:
            if name not in instance:
                raise UnitxtError(f"The field '{name}' specified in CollateInstancesByField's 'aggregate_fields' "
                                  "argument is not found in instance.")

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        groups: Dict[Any, Dict[str, Any]] = {}
        for instance in stream:
            self._check_fields(instance)
            key = instance[self.by_field]
            group = groups.get(key)
            if group is None:
                group = {name: value for name, value in instance.items() if name not in self.aggregate_fields}
                group.update({name: [] for name in self.aggregate_fields})
                groups[key] = group
            for name, value in instance.items():
                if name in self.aggregate_fields:
                    group[name].append(value)
                elif name == "data_classification_policy" and value:
                    group[name] = sorted(set(group[name] + value))
                elif name != self.by_field and name in group and group[name] != value:
                    raise ValueError(
                        f"Inconsistent value for field '{name}' in group '{key}': '{group[name]}' vs '{value}'. Ensure "
                        "that all non-aggregated fields in CollateInstancesByField are consistent across all instances.")
        yield from groups.values()


class DuplicateInstances(StreamOperator):
    """Repeat every instance `num_duplications` times (optionally recording the copy index)."""

    num_duplications: int
    duplication_index_field: Optional[str] = None

    def verify(self) -> None:
        if self.num_duplications < 1:
            raise UnitxtError("num_duplications must be >= 1.", artifact=type(self).__name__, field="num_duplications")

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        for instance in stream:
            for index in range(self.num_duplications):
                duplicate = copy.deepcopy(instance) if index < self.num_duplications - 1 else instance
                if self.duplication_index_field:
                    duplicate[self.duplication_index_field] = index
                yield duplicate


def _instance_key(instance: Dict[str, Any], fields: List[str]) -> str:
    values = [dict_get(instance, field) for field in fields]
    return json.dumps(values, sort_keys=True, ensure_ascii=False, default=str)


class Deduplicate(StreamOperator):
    """Drop instances whose `by` fields repeat an earlier instance (keeps a set of seen keys in memory)."""

    by: List[str]

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        seen = set()
        for instance in stream:
            key = hashlib.sha1(_instance_key(instance, self.by).encode("utf-8")).digest()
            if key not in seen:
                seen.add(key)
                yield instance


class Shuffle(PagedStreamOperator):
    """Shuffle instances within pages of `page_size` (bounded memory), seeded and deterministic per stream."""

    random_generator: Any = InertField(
        default=None, reason='the order is drawn from the seeded generator of this library here')

    seed: Optional[int] = None

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        seed = settings.seed if self.seed is None else self.seed
        self._random = random.Random(f"{seed}:{stream_name}")
        yield from super().process(stream, stream_name)

    def process_page(self, page: List[Dict[str, Any]], stream_name: Optional[str]) -> Generator:
        self._random.shuffle(page)
        yield from page


class FeatureGroupedShuffle(Shuffle):
    """Shuffle blocks of instances rather than instances: a block is the instances of a page with the same values of
    `grouping_features` (kept in their order, or shuffled too with `shuffle_within_group`). Seeded as the original's
    shuffles, one generator per run of the operator, so the order matches it."""

    grouping_features: Optional[List[str]] = None
    shuffle_within_group: bool = False

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        from ..random_utils import new_random_generator

        self.__dict__["_grouped_random"] = new_random_generator(sub_seed="shuffle")
        return super().__call__(multi_stream)

    def shuffle_by_grouping_features(self, page: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Hook: the page's instances in shuffled blocks of equal `grouping_features` values."""
        rng = self.__dict__["_grouped_random"]
        blocks: Dict[tuple, List[Dict[str, Any]]] = {}
        for instance in page:
            blocks.setdefault(tuple(instance[name] for name in self.grouping_features), []).append(instance)
        ordered = list(blocks.values())
        rng.shuffle(ordered)
        if self.shuffle_within_group:
            for block in ordered:
                rng.shuffle(block)
        return [instance for block in ordered for instance in block]

    def process_page(self, page: List[Dict[str, Any]], stream_name: Optional[str]) -> Generator:
        if self.grouping_features is None:
            yield from super().process_page(page, stream_name)
            return
        yield from self.shuffle_by_grouping_features(page)


class FromIterables(MultiStreamOperator):
    """`process(iterables)` (or a call): a MultiStream with one stream per entry of a dict of named iterables."""

    def process(self, iterables: Dict[str, Iterable]) -> MultiStream:  # type: ignore[override]
        return MultiStream.from_iterables(iterables)


class StreamRefiner(StreamOperator):
    """Limit the number of instances of the selected streams to `max_instances`."""

    max_instances: Optional[int] = None

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        if self.max_instances is None:
            yield from stream
            return
        for index, instance in enumerate(stream):
            if index >= self.max_instances:
                return
            yield instance


class AddID(StreamOperator):
    """Add a running id per stream (`<prefix><stream>-<index>`), deterministic."""

    id_field_name: str = "id"
    prefix: str = ""

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        for index, instance in enumerate(stream):
            instance[self.id_field_name] = f"{self.prefix}{stream_name}-{index}"
            yield instance


class MergeStreams(MultiStreamOperator):
    """Concatenate streams into one (`streams_to_merge`, default all) named `new_stream_name`."""

    streams_to_merge: Optional[List[str]] = None
    new_stream_name: str = "all"
    add_origin_stream_name: bool = True
    origin_stream_name_field_name: str = "origin"

    def merge(self, multi_stream: MultiStream) -> Generator:
        """Hook: the instances of the merged streams in order, each marked with its origin stream when asked."""
        for name in self.streams_to_merge or list(multi_stream):
            for instance in multi_stream[name]:
                if self.add_origin_stream_name:
                    instance[self.origin_stream_name_field_name] = name
                yield instance

    def process(self, multi_stream: MultiStream) -> MultiStream:
        from ..stream import GeneratorStream

        return MultiStream({self.new_stream_name: GeneratorStream(self.merge, gen_kwargs={"multi_stream": multi_stream})})
