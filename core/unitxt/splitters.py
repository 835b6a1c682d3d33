"""Split operators: renaming splits and seeded random re-mixing (`{"validation": "train[10%]"}`)."""

import itertools
import random
import re
from typing import Any, Dict, Generator, List, Optional, Tuple

from .errors import ArtifactConfigurationError, UnitxtError
from .operator import MultiStreamOperator
from .samplers import (  # noqa: F401 - the documented home of the demo samplers is unitxt.splitters
    CloseTextSampler,
    DiverseLabelsSampler,
    FixedIndicesSampler,
    RandomSampler,
    Sampler,
)
from .settings_utils import settings
from .stream import GeneratorStream, MultiStream, Stream


class SplitError(UnitxtError):
    """A split specification is invalid or can not be satisfied by the data."""


class Splitter(MultiStreamOperator):
    """Base of the operators that re-split a MultiStream."""

    __abstract__ = True


class RenameSplits(Splitter):
    """Rename streams: `mapper={"validation": "test"}`; unmapped streams keep their names."""

    mapper: Dict[str, str]

    def process(self, multi_stream: MultiStream) -> MultiStream:
        missing = [name for name in self.mapper if name not in multi_stream]
        if missing:
            raise SplitError(
                f"Can not rename missing split(s) {missing}; available: {list(multi_stream)}.", artifact=self.artifact_name
            )
        result = MultiStream()
        for name, stream in multi_stream.items():
            new_name = self.mapper.get(name, name)
            if new_name in result:
                raise SplitError(f"Two splits would be named '{new_name}'.", artifact=self.artifact_name)
            result[new_name] = stream
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
        from .split_routing import slice_streams

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
        from .split_routing import parse_slices_string, slice_streams

        mapping = {name: parse_slices_string(spec) for name, spec in self.slices.items()}
        return MultiStream.from_generators(slice_streams(multi_stream, mapping))


def get_random_generator_based_on_instance(instance: Dict[str, Any], local_seed: Optional[Any] = None) -> random.Random:
    """A random generator seeded by the instance's input fields (and `local_seed`), as the original's samplers
    seed theirs."""
    from .random_utils import new_random_generator

    sub_seed = {**instance["input_fields"]}
    if local_seed is not None:
        sub_seed["local_seed"] = local_seed
    return new_random_generator(sub_seed=sub_seed)
