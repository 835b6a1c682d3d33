"""Split operators: renaming splits and seeded random re-mixing (`{"validation": "train[10%]"}`)."""

import random
import re
from typing import Any, Dict, Generator, List, Optional, Tuple

from .errors import UnitxtError
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


class RenameSplits(MultiStreamOperator):
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


class SplitRandomMix(MultiStreamOperator):
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
