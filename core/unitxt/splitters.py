"""Split operators: renaming splits and seeded random re-mixing (`{"validation": "train[10%]"}`)."""

import copy
import itertools
import random
import re
from typing import Any, Dict, Generator, Iterable, Iterator, List, Optional, Tuple

from .errors import ArtifactConfigurationError, UnitxtError
from .operator import InstanceOperator, MultiStreamOperator
from .samplers import (  # noqa: F401 - the documented home of the demo samplers is unitxt.splitters
    CloseTextSampler,
    DiverseLabelsSampler,
    FixedIndicesSampler,
    RandomSampler,
    Sampler,
)
from .random_utils import new_random_generator
from .settings_utils import settings
from .stream import GeneratorStream, MissingStreamError, MultiStream, ReusableGenerator, Stream
from .module_aliases import moved_classes


class SplitError(UnitxtError):
    """A split specification is invalid or can not be satisfied by the data."""


class Splitter(MultiStreamOperator):
    """Base of the operators that re-split a MultiStream."""

    __abstract__ = True


class RenameSplits(Splitter):
    """Rename streams: `mapper={"validation": "test"}`; unmapped streams keep their names, and a renamed stream
    replaces an unmapped one of its new name (as the original: the lmms-eval DocVQA cards make validation the test)."""

    mapper: Dict[str, str]

    def process(self, multi_stream: MultiStream) -> MultiStream:
        missing = [name for name in self.mapper if name not in multi_stream]
        if missing:
            raise SplitError(
                f"Can not rename missing split(s) {missing}; available: {list(multi_stream)}.", artifact=self.artifact_name
            )
        result = MultiStream({name: stream for name, stream in multi_stream.items() if name not in self.mapper})
        for name, new_name in self.mapper.items():
            result[new_name] = multi_stream[name]
        return result


_PART = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*(?:\[\s*(\d+(?:\.\d+)?)\s*(%?)\s*\])?\s*$")


def parse_split_spec(spec: str) -> List[Tuple[str, Optional[float], bool]]:
    """`"train[10%]+validation"` -> [("train", 10.0, True), ("validation", None, False)]; `"train[0.1]"` (a decimal
    fraction) is read as `"train[10%]"`, `"train[10]"` as 10 instances."""
    parts = []
    for piece in spec.split("+"):
        match = _PART.match(piece)
        if not match:
            raise SplitError(
                f"Invalid split specification {spec!r}; use 'split', 'split[N]' or 'split[P%]' joined by '+'."
            )
        name, amount, percent = match.groups()
        if amount is not None and not percent and "." in amount:  # "train[0.6]": a fraction, as the original reads it
            parts.append((name, float(amount) * 100.0, True))
            continue
        parts.append((name, float(amount) if amount is not None else None, bool(percent)))
    return parts


class SplitRandomMix(Splitter):
    """Re-split data with seeded random, disjoint portions of the source splits.

    `mix={"train": "train[90%]", "validation": "train[10%]", "test": "validation"}`. Portions of one source never
    overlap. Needs the size of each sliced source: it is counted with one pass (only indices are kept in memory).
    """

    mix: Dict[str, str]
    seed: Optional[int] = None

    def prepare(self) -> None:
        self._parsed = {target: parse_split_spec(spec) for target, spec in self.mix.items()}

    def process(self, multi_stream: MultiStream) -> MultiStream:
        sources = {name for parts in self._parsed.values() for name, _, _ in parts}
        missing = sorted(sources - set(multi_stream))
        if missing:
            raise SplitError(
                f"Split mix uses missing split(s) {missing}; available: {sorted(multi_stream)}.",
                artifact=self.artifact_name,
            )
        assignments = self._assign(multi_stream)
        result = MultiStream()
        for target, parts in self._parsed.items():
            result[target] = GeneratorStream(
                self._generate, {"multi_stream": multi_stream, "parts": parts, "target": target, "assignments": assignments}
            )
        return result

    def _assign(self, multi_stream: MultiStream) -> Dict[str, Any]:
        """Lazily computed map: source -> list of target labels per instance index."""
        cache: Dict[str, Any] = {}

        def for_source(source: str) -> List[Optional[str]]:
            if source in cache:
                return cache[source]
            portions = [
                (target, amount, percent)
                for target, parts in self._parsed.items()
                for name, amount, percent in parts
                if name == source and amount is not None
            ]
            size = sum(1 for _ in multi_stream[source])
            labels: List[Optional[str]] = [None] * size
            if portions:
                counts = []
                for target, amount, percent in portions:
                    count = int(round(size * amount / 100.0)) if percent else int(amount)
                    counts.append(count)
                total_percent = sum(amount for _, amount, percent in portions if percent)
                if portions and all(p for _, _, p in portions) and abs(total_percent - 100.0) < 1e-9:
                    counts[-1] = size - sum(counts[:-1])
                if sum(counts) > size:
                    raise SplitError(
                        f"Split '{source}' has {size} instances, but the mix asks for {sum(counts)} of them "
                        f"({', '.join(f'{t}: {c}' for (t, _, _), c in zip(portions, counts))}).",
                        artifact=self.artifact_name,
                    )
                seed = settings.seed if self.seed is None else self.seed
                order = list(range(size))
                random.Random(f"{seed}:{source}").shuffle(order)
                position = 0
                for (target, _, _), count in zip(portions, counts):
                    for index in order[position : position + count]:
                        labels[index] = target
                    position += count
            cache[source] = labels
            return labels

        return {"for_source": for_source}

    def _generate(self, multi_stream: MultiStream, parts, target: str, assignments) -> Generator:
        sliced_done = set()
        for source, amount, _ in parts:
            stream: Stream = multi_stream[source]
            if amount is None:
                yield from stream
                continue
            if source in sliced_done:
                continue
            sliced_done.add(source)
            labels = assignments["for_source"](source)
            for index, instance in enumerate(stream):
                if index < len(labels) and labels[index] == target:
                    yield instance


class SeparateSplit(Splitter):
    """Cut `from_split` into consecutive parts named `to_split_names` of `to_split_sizes` instances (the last part
    may have no size: the rest); the source split keeps only what is left unless `remove_targets_from_source_split`
    is False (then it stays whole)."""

    from_split: str
    to_split_names: List[str]
    to_split_sizes: List[int]
    remove_targets_from_source_split: bool = True

    def verify(self) -> None:
        super().verify()
        if len(self.to_split_names) not in (len(self.to_split_sizes), len(self.to_split_sizes) + 1):
            raise ArtifactConfigurationError(
                f"Examples num should be specified to all or all but the last splits, instead given "
                f"{len(self.to_split_names)} split names and {len(self.to_split_sizes)} split sizes. \n split names:"
                f"{self.to_split_names} split sizes {self.to_split_sizes}", artifact=type(self).__name__)

    def process(self, multi_stream: MultiStream) -> MultiStream:
        mapping = {name: {name: [(None, None)]} for name in multi_stream
                   if not self.remove_targets_from_source_split or name != self.from_split}
        taken = 0
        for name, size in itertools.zip_longest(self.to_split_names, self.to_split_sizes):
            if self.remove_targets_from_source_split or name != self.from_split:
                mapping[name] = {self.from_split: [(taken, size)]}
            taken += size or 0
        return MultiStream.from_generators(slice_streams(multi_stream, mapping))


class SliceSplit(Splitter):
    """New splits made of slices of the old ones: `slices={"train": "train[0:100]+validation", "test": "test"}`."""

    slices: Dict[str, str]

    def process(self, multi_stream: MultiStream) -> MultiStream:
        mapping = {name: parse_slices_string(spec) for name, spec in self.slices.items()}
        return MultiStream.from_generators(slice_streams(multi_stream, mapping))


class AssignDemosToInstance(InstanceOperator):
    """Replaces the instance's demos pool (`from_field`) by `get_sample_size(instance)` demos chosen from it by
    `sampler` (the instance itself left out), written to `to_field`; with `skip_demoed_instances`, an instance that
    already has `to_field` only loses its pool."""

    __abstract__ = True

    from_field: str
    to_field: str
    sampler: Sampler
    skip_demoed_instances: bool = False
    sampling_seed: Optional[int] = None

    def get_sample_size(self, instance: Dict[str, Any]) -> int:
        raise NotImplementedError(f"{type(self).__name__}.get_sample_size(instance)")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if self.skip_demoed_instances and self.to_field in instance:
            instance.pop(self.from_field, None)
            return instance
        if self.from_field not in instance:
            raise SplitError(f"The instance has no demos pool field '{self.from_field}' (it has "
                             f"{', '.join(sorted(instance))}).", artifact=self.artifact_name, field="from_field")
        sample_size = self.get_sample_size(instance)
        pool = self.sampler.filter_source_by_instance(instance[self.from_field], instance)
        if len(pool) < sample_size:
            raise SplitError(f"Size of population to sample from: {len(pool)} is smaller than the needed "
                             f"sample_size: {sample_size}. Enlarge the demos pool (loader_limit, demos_pool_size) or "
                             "filter its stream less strictly.", artifact=self.artifact_name, field="sample_size")
        demos = self.sampler.sample(sample_size=sample_size, instances_pool=pool, instance=instance,
                                    sampling_seed=self.sampling_seed)
        instance[self.to_field] = copy.deepcopy(demos)
        instance.pop(self.from_field)
        return instance


class ConstantSizeSample(AssignDemosToInstance):
    """Assigns `sample_size` demos to every instance."""

    sample_size: int

    def get_sample_size(self, instance: Dict[str, Any]) -> int:
        return self.sample_size


class RandomSizeSample(AssignDemosToInstance):
    """Assigns one of `sample_sizes` demos per instance, chosen by the instance's own seeded generator."""

    sample_sizes: List[int]

    def get_sample_size(self, instance: Dict[str, Any]) -> int:
        return get_random_generator_based_on_instance(instance).choice(self.sample_sizes)


def get_random_generator_based_on_instance(instance: Dict[str, Any], local_seed: Optional[Any] = None) -> random.Random:
    """A random generator seeded by the instance's input fields (and `local_seed`), as the original's samplers
    seed theirs."""


    sub_seed = {**instance["input_fields"]}
    if local_seed is not None:
        sub_seed["local_seed"] = local_seed
    return new_random_generator(sub_seed=sub_seed)


# ---------------------------------------------------------------- the original's split helpers (split_utils)
_MIX = re.compile(r"((\w+\[\d*\.?\d*%?\]|\w+)\+)*(\w+\[\d*\.?\d*%?\]|\w+)")
_MIX_PART = re.compile(r"(\w+)(\[\d*\.?\d*%?\])?")


def parse_random_mix_string(input_str: str) -> Dict[str, float]:
    """"dale[90%]+oren[0.7]+mike" -> {"dale": 0.9, "oren": 0.7, "mike": 1.0}; ValueError for another form."""
    if not _MIX.fullmatch(input_str):
        raise ValueError(f"Invalid input format for split '{input_str}'")
    return {name: float(value.strip("[]%")) / 100 if "%" in value else (float(value.strip("[]")) if value else 1.0)
            for name, value in _MIX_PART.findall(input_str)}


def parse_slices_string(input_str: str) -> Dict[str, List[Tuple[Optional[int], Optional[int]]]]:
    """"train[0:10]+train[20:]+test" -> {"train": [(0, 10), (20, None)], "test": [(None, None)]}."""
    result: Dict[str, List[Tuple[Optional[int], Optional[int]]]] = {}
    for source in input_str.split("+"):
        match = re.fullmatch(r"(\w+)\[(\d*):(\d*)\]", source)
        if match:
            name, start, end = match.group(1), match.group(2), match.group(3)
            bounds = (int(start) if start else None, int(end) if end else None)
        elif re.fullmatch(r"\w+", source):
            name, bounds = source, (None, None)
        else:
            raise ValueError(f'The input string "{input_str}" is not in the correct format.')
        result.setdefault(name, []).append(bounds)
    return result


def slice_stream(stream: Iterable[Any], start: Optional[int], end: Optional[int]) -> Iterator[Any]:
    """The instances from position `start`, then at most `end` of them (the original's reading of [start:end])."""
    if start is not None:
        stream = itertools.islice(stream, start, None)
    if end is not None:
        stream = itertools.islice(stream, end)
    yield from stream


def slice_streams(input_streams: Dict[str, Iterable[Any]],
                  mapping: Dict[str, Dict[str, List[Tuple[Optional[int], Optional[int]]]]]) -> Dict[str, Any]:
    """{new split: {source split: [slices]}} -> {new split: re-runnable generator of the sliced instances}."""

    def generator(new_stream: str, sources: Dict[str, List[Tuple[Optional[int], Optional[int]]]]) -> Iterator[Any]:
        for old_stream, slices in sources.items():
            if old_stream not in input_streams:
                raise MissingStreamError(f"'{old_stream}' is not available in input streams, but need to slice there "
                                         "from")
            for start, end in slices:
                yield from slice_stream(input_streams[old_stream], start, end)

    return {new_stream: ReusableGenerator(generator, gen_kwargs={"new_stream": new_stream, "sources": sources})
            for new_stream, sources in mapping.items()}


def build_stream_routing(mapping: Dict[str, Dict[str, float]]) -> Dict[str, Tuple[List[Optional[str]], List[float]]]:
    """{new split: {source split: weight}} -> {source split: ([new splits], [weights])}, with None (dropped) taking
    the rest of a source whose weights sum below 1."""
    totals: Dict[str, float] = {}
    for sources in mapping.values():
        for old_stream, weight in sources.items():
            totals[old_stream] = totals.get(old_stream, 0) + weight
    routing: Dict[str, Dict[Optional[str], float]] = {}
    for new_stream, sources in mapping.items():
        for old_stream, weight in sources.items():
            routes = routing.setdefault(old_stream, {})
            routes[new_stream] = weight
            if totals[old_stream] < 1:
                routes[None] = 1 - totals[old_stream]
    return {old_stream: (list(routes), list(routes.values())) for old_stream, routes in routing.items()}


def rename_split(input_streams: Dict[str, Any], mapping: Dict[str, str]) -> Dict[str, Any]:
    """The streams with those named in `mapping` renamed (removed from `input_streams` under their old names)."""
    renamed = {}
    for key, value in mapping.items():
        if key not in input_streams:
            raise ValueError(f"Stream '{key}' is not in input_streams '{input_streams.keys()}'")
        renamed[value] = input_streams.pop(key)
    return {**input_streams, **renamed}


def random_mix_generator(new_stream_name: str, new_stream_sources: Iterable[str],
                         stream_routing: Dict[str, Tuple[List[Optional[str]], List[float]]],
                         input_streams: Dict[str, Iterable[Any]]) -> Iterator[Any]:
    """The instances of the sources that the seeded random routing sends to `new_stream_name`."""
    for old_stream_name in new_stream_sources:
        targets, weights = stream_routing[old_stream_name]
        rng = new_random_generator(sub_seed=old_stream_name)
        if old_stream_name not in input_streams:
            raise MissingStreamError(f"'{old_stream_name}' split not found.  Possibles options: "
                                     f"{input_streams.keys()}")
        for item in input_streams[old_stream_name]:
            if rng.choices(targets, weights=weights, k=1)[0] == new_stream_name:
                yield item


def random_mix_streams(input_streams: Dict[str, Iterable[Any]], mapping: Dict[str, Dict[str, float]]
                       ) -> Dict[str, Any]:
    """{new split: {source split: weight}} -> {new split: re-runnable generator of its randomly routed instances}."""
    routing = build_stream_routing(mapping)
    return {name: ReusableGenerator(random_mix_generator, gen_kwargs={
        "new_stream_name": name, "new_stream_sources": sources, "stream_routing": routing,
        "input_streams": input_streams}) for name, sources in mapping.items()}


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
