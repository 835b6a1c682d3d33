"""Fusion: several sources (recipes, loaders, other fusions) served as one MultiStream (the original's `unitxt.fusion`).

`FixedFusion` concatenates each split of its subsets in subset order, optionally taking at most
`max_instances_per_subset` (or `max_instances_per_split[split]`) rows of each; `WeightedFusion` interleaves them,
drawing the next row's subset at random in proportion to `weights` (a generator seeded from the global seed and the
split name, so runs repeat), until `max_total_samples` rows or every subset is used up. Rows of named subsets get the
subset's name prepended to their `subset` list (["outer", "inner"] when fusions nest); `IterableSource` serves given
lists of rows as a source (handy for fusing in-memory data).
"""

import random
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from ..artifact import NonPositionalField
from ..errors import ArtifactConfigurationError
from ..operator import SourceOperator
from ..settings_utils import settings
from ..stream import GeneratorStream, MultiStream
from ..module_aliases import moved_classes


class IterableSource(SourceOperator):
    """A source serving fixed rows: `IterableSource({"train": [...], "test": [...]})()` -> that MultiStream (each
    pass yields fresh copies of the rows)."""

    _positional_args = ("iterables",)

    iterables: Dict[str, Iterable]

    def process(self) -> MultiStream:
        return MultiStream.from_iterables({name: list(rows) for name, rows in self.iterables.items()})


class BaseFusion(SourceOperator):
    """Shared part of the fusions: named (dict) or anonymous (list) subsets and the splits served."""

    __abstract__ = True

    subsets: Union[Dict[str, SourceOperator], List[SourceOperator]]
    include_splits: Optional[List[str]] = NonPositionalField(default=None)

    def prepare_subsets(self) -> Dict[Any, SourceOperator]:
        """Hook: name -> subset; list subsets are keyed by position (and add nothing to the rows' `subset`)."""
        subsets = self.subsets
        named = dict(enumerate(subsets)) if isinstance(subsets, list) else dict(subsets)
        for name, subset in named.items():
            if not isinstance(subset, SourceOperator):
                raise ArtifactConfigurationError(f"Subset {name!r} of {type(self).__name__} is a "
                                                 f"{type(subset).__name__}, not a source (a recipe, loader or fusion).",
                                                 artifact=self.artifact_name, field="subsets")
        return named

    def named_subsets(self) -> Dict[Any, SourceOperator]:
        """name -> subset, as `prepare_subsets` gives them."""
        return self.prepare_subsets()

    def splits(self) -> List[str]:
        """`include_splits` when given, else every split some subset has (in first-seen order)."""
        if self.include_splits is not None:
            return list(self.include_splits)
        names: List[str] = []
        for subset in self.named_subsets().values():
            names.extend(split for split in subset() if split not in names)
        return names

    @staticmethod
    def tagged(origin: Any, row: Dict[str, Any]) -> Dict[str, Any]:
        if isinstance(origin, str):
            row["subset"] = [origin, *(row.get("subset") or [])]
        return row

    def fusion_generator(self, split: str) -> Iterator[Dict[str, Any]]:
        raise NotImplementedError(f"{type(self).__name__}.fusion_generator(split) is not implemented")

    def process(self) -> MultiStream:
        return MultiStream({split: GeneratorStream(self.fusion_generator, {"split": split}) for split in self.splits()})


class FixedFusion(BaseFusion):
    """Each split of every subset in turn, capped per subset by `max_instances_per_subset` and per split by
    `max_instances_per_split` (the smaller cap wins)."""

    max_instances_per_subset: Optional[int] = None
    max_instances_per_split: Optional[Dict[str, int]] = None

    def cap(self, split: str) -> Optional[int]:
        caps = [self.max_instances_per_subset, (self.max_instances_per_split or {}).get(split)]
        caps = [cap for cap in caps if cap is not None]
        return min(caps) if caps else None

    def fusion_generator(self, split: str) -> Iterator[Dict[str, Any]]:
        cap = self.cap(split)
        for origin, subset in self.named_subsets().items():
            multi_stream = subset()
            if split not in multi_stream:
                continue
            for count, row in enumerate(multi_stream[split]):
                if cap is not None and count >= cap:
                    break
                yield self.tagged(origin, row)


class WeightedFusion(BaseFusion):
    """Rows drawn from the subsets at random in proportion to `weights` (same keys as `subsets`, or same length),
    at most `max_total_samples` per split."""

    subsets: Union[Dict[str, SourceOperator], List[SourceOperator]] = None
    weights: Union[Dict[str, Union[float, int]], List[Union[int, float]]] = None
    max_total_samples: Optional[int] = None

    def verify(self) -> None:
        super().verify()
        problem = None
        if self.subsets is None or self.weights is None:
            problem = "needs both subsets and weights"
        elif isinstance(self.subsets, dict) != isinstance(self.weights, dict):
            problem = "takes subsets and weights both as dicts or both as lists"
        elif len(self.subsets) != len(self.weights):
            problem = f"got {len(self.subsets)} subsets but {len(self.weights)} weights"
        elif isinstance(self.weights, dict) and set(self.weights) != set(self.subsets):
            problem = f"has weights for {sorted(self.weights)} but subsets {sorted(self.subsets)}"
        if problem:
            raise ArtifactConfigurationError(f"WeightedFusion {problem}.", artifact=self.artifact_name, field="weights")

    def named_weights(self) -> Dict[Any, float]:
        weights = self.weights
        return {key: float(value) for key, value in (enumerate(weights) if isinstance(weights, list) else weights.items())}

    def fusion_generator(self, split: str) -> Iterator[Dict[str, Any]]:
        weights = self.named_weights()
        iterators = {}
        for origin, subset in self.named_subsets().items():
            multi_stream = subset()
            if split in multi_stream:
                iterators[origin] = iter(multi_stream[split])
        # the original's generator: Python's Random seeded with "<global seed>/weighted_fusion_<split>"
        generator = random.Random(f"{settings.seed}/weighted_fusion_{split}")
        emitted = 0
        while iterators and (self.max_total_samples is None or emitted < self.max_total_samples):
            population = list(iterators)
            origin = generator.choices(population=population, weights=[weights[name] for name in population])[0]
            try:
                row = next(iterators[origin])
            except StopIteration:
                del iterators[origin]
                continue
            emitted += 1
            yield self.tagged(origin, row)


__all__ = ["BaseFusion", "FixedFusion", "IterableSource", "WeightedFusion"]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
