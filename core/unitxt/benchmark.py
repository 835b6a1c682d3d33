"""Benchmark: several recipes (or nested benchmarks) served as one dataset whose rows carry their subset path.

`Benchmark(subsets={"cola": DatasetRecipe(...), "mnli": ...}, format=..., max_samples_per_subset=5)` is a source
operator: `benchmark()` returns a MultiStream whose splits concatenate the subsets' splits (in subset order). Every row
gets `subset` = the path of names from the top benchmark down to its recipe (["glue", "cola"] when nested), so
`evaluate()` scores each subset with its own metrics and reports `subsets_mean` (see results.py).

Recipe-level settings given to the benchmark (format, num_demos, demos_pool_size, system_prompt, loader_limit,
augmentor, serializer, seed) override those of every subset; settings the benchmark leaves unset keep each subset's
own. `max_samples_per_subset` caps every leaf recipe's split and a nested benchmark's split as a whole (its first rows, as
the original system); `max_total_samples` caps each split of the benchmark,
shared fairly: subsets are visited in order and each may take ceil(remaining / subsets left), so what a small subset
does not use goes to the subsets after it.
"""

import copy
import itertools
import math
from typing import Any, Dict, Iterator, List, Optional, Union

from .artifact import Artifact, NonPositionalField
from .errors import RecipeError
from .formats.base import Format
from .formats.system_prompts import SystemPrompt
from .operator import SourceOperator
from .rendering.recipe import DatasetRecipe
from .stream import GeneratorStream, MultiStream
from .module_aliases import moved_classes
from .artifact import InertField

PROPAGATED = ("format", "num_demos", "demos_pool_size", "system_prompt", "loader_limit", "augmentor", "serializer",
              "seed")


def _override(subset: SourceOperator, values: Dict[str, Any]) -> SourceOperator:
    """A shallow copy of a recipe/benchmark with some fields replaced (no re-serialisation, so in-memory data works)."""
    if not values:
        return subset
    new = copy.copy(subset)
    new.__dict__ = dict(subset.__dict__)
    new._given_fields = set(subset._given_fields) | set(values)
    for name, value in values.items():
        setattr(new, name, value)
    new.verify_field_types(list(values))
    new.verify()
    return new


class BaseBenchmark(SourceOperator):
    """The original's base of benchmark sources: the recipe settings a benchmark passes to its subsets, the splits it
    serves and the subset it is restricted to; a subclass implements `process` and `reset`."""

    __abstract__ = True

    format: Optional[Format] = NonPositionalField(default=None)
    num_demos: Optional[int] = NonPositionalField(default=None)
    system_prompt: Optional[SystemPrompt] = NonPositionalField(default=None)
    loader_limit: Optional[int] = NonPositionalField(default=None)
    splits: List[str] = NonPositionalField(default_factory=lambda: ["train", "validation", "test"])
    subset: Optional[str] = NonPositionalField(default=None)

    def reset(self) -> None:
        raise NotImplementedError(f"{type(self).__name__}.reset() is not implemented")


class Benchmark(SourceOperator):
    """A named collection of recipes and benchmarks (see the module docstring)."""

    max_test_instances: Any = InertField(default=None, reason="each subset's own limits apply here")
    max_train_instances: Any = InertField(default=None, reason="each subset's own limits apply here")
    max_validation_instances: Any = InertField(default=None, reason="each subset's own limits apply here")
    splits: Any = InertField(default=None, reason='every split of each subset is kept here')
    subset: Any = InertField(default=None, reason="a benchmark's subsets are named by its keys here")

    subsets: Dict[str, Union[DatasetRecipe, "Benchmark"]]
    format: Optional[Format] = NonPositionalField(default=None)
    num_demos: Optional[Union[int, List[int]]] = NonPositionalField(default=None)
    demos_pool_size: Optional[int] = None
    system_prompt: Optional[SystemPrompt] = NonPositionalField(default=None)
    loader_limit: Optional[int] = NonPositionalField(default=None)
    augmentor: Optional[Union[Artifact, List[Artifact]]] = None
    serializer: Optional[Union[Artifact, List[Artifact]]] = None
    seed: Optional[int] = None
    max_samples_per_subset: Optional[int] = None
    max_total_samples: Optional[int] = None

    def verify(self) -> None:
        super().verify()
        if not self.__dict__["subsets"]:
            raise RecipeError("A Benchmark needs at least one subset.", artifact=self.artifact_name, field="subsets")
        for name in ("max_samples_per_subset", "max_total_samples", "loader_limit"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise RecipeError(f"{name} must be >= 0.", artifact=self.artifact_name, field=name)

    def reset(self) -> None:
        """Forget what the subsets derived from their fields, so fields changed since are used by the next run (the
        benchmark's own settings reach its subsets when it runs)."""
        for subset in self.subsets.values():
            subset.reset()

    # ------------------------------------------------------------------ subsets with the benchmark's settings
    def settings_to_propagate(self) -> Dict[str, Any]:
        """The recipe-level settings this benchmark sets (raw values: catalog names stay names)."""
        return {name: self.__dict__[name] for name in PROPAGATED if self.__dict__[name] is not None}

    def prepared_subsets(self) -> Dict[str, SourceOperator]:
        """The subsets with this benchmark's settings applied (nested benchmarks also get max_samples_per_subset)."""
        values = self.settings_to_propagate()
        prepared: Dict[str, SourceOperator] = {}
        for name, subset in self.subsets.items():
            if isinstance(subset, Benchmark):
                nested = dict(values)
                if self.max_samples_per_subset is not None:
                    nested["max_samples_per_subset"] = self.max_samples_per_subset
                prepared[name] = _override(subset, nested)
            elif isinstance(subset, DatasetRecipe):
                try:
                    prepared[name] = _override(subset, values)
                except RecipeError as error:
                    raise error.with_context(artifact=f"{self.artifact_name}/{name}") from None
            else:
                raise RecipeError(f"Subset '{name}' is a {type(subset).__name__}, not a DatasetRecipe or Benchmark.",
                                  artifact=self.artifact_name, field="subsets")
        return prepared

    def produces_chat_source(self) -> bool:
        """True when the subsets' rows are chat messages; subsets must agree (one dataset has one schema)."""
        kinds = {name: bool(subset.produces_chat_source()) for name, subset in self.prepared_subsets().items()}
        if len(set(kinds.values())) > 1:
            chat = sorted(name for name, value in kinds.items() if value)
            text = sorted(name for name, value in kinds.items() if not value)
            raise RecipeError(
                f"Benchmark subsets mix chat formats ({', '.join(chat)}) and text formats ({', '.join(text)}); "
                "set one format on the benchmark (format=...).", artifact=self.artifact_name, field="format",
            )
        return any(kinds.values())

    def produces_media(self) -> bool:
        return any(bool(getattr(subset, "produces_media", lambda: False)())
                   for subset in self.prepared_subsets().values())

    # ------------------------------------------------------------------ streams
    def _open(self) -> Dict[str, Any]:
        """name -> MultiStream of a recipe, or (benchmark, its opened subsets) of a nested benchmark."""
        opened: Dict[str, Any] = {}
        for name, subset in self.prepared_subsets().items():
            opened[name] = (subset, subset._open()) if isinstance(subset, Benchmark) else subset()
        return opened

    @staticmethod
    def _splits(opened: Dict[str, Any]) -> List[str]:
        names: List[str] = []
        for value in opened.values():
            splits = Benchmark._splits(value[1]) if isinstance(value, tuple) else list(value)
            names.extend(split for split in splits if split not in names)
        return names

    def _rows(self, opened: Dict[str, Any], split: str, limit: Optional[int]) -> Iterator[Dict[str, Any]]:
        """Rows of one split, subsets in order, with `subset` paths and the per-subset / total caps applied."""
        if self.max_total_samples is not None:
            limit = self.max_total_samples if limit is None else min(limit, self.max_total_samples)
        names = [name for name, value in opened.items()
                 if split in (Benchmark._splits(value[1]) if isinstance(value, tuple) else value)]
        remaining = limit
        for position, name in enumerate(names):
            quota = None if remaining is None else math.ceil(remaining / (len(names) - position))
            value = opened[name]
            if isinstance(value, tuple):
                benchmark, inner = value
                rows = benchmark._rows(inner, split, quota)
                if self.max_samples_per_subset is not None:  # a nested benchmark is one subset: capped as a whole
                    rows = itertools.islice(rows, self.max_samples_per_subset)
            else:
                caps = [cap for cap in (quota, self.max_samples_per_subset) if cap is not None]
                rows = iter(value[split])
                if caps:
                    rows = itertools.islice(rows, min(caps))
            count = 0
            for row in rows:
                row["subset"] = [name, *(row.get("subset") or [])]
                count += 1
                yield row
            if remaining is not None:
                remaining -= count

    def _top_rows(self, opened: Dict[str, Any], split: str, parts: bool) -> Iterator[Dict[str, Any]]:
        for row in self._rows(opened, split, None):
            if parts and isinstance(row["source"], list):
                from .image_utils import to_content_parts

                row["source"] = to_content_parts(row["source"], row.get("media"))
            yield row

    def process(self) -> MultiStream:
        opened = self._open()
        parts = self.produces_chat_source() and self.produces_media()
        return MultiStream({
            split: GeneratorStream(self._top_rows, {"opened": opened, "split": split, "parts": parts})
            for split in self._splits(opened)
        })


__all__ = ["BaseBenchmark", "Benchmark", "PROPAGATED"]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
