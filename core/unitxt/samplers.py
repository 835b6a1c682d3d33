"""Demo samplers: choose which demo-pool instances are shown with an instance.

A sampler sees the whole pool once (`set_pool`) and then picks indices per instance with the instance's own seeded
random generator (the original's: seeded by the input fields), so choices are reproducible, independent of the order
of the data, and the original's. Pool entries equal to the
instance are excluded by the caller (`excluded`), so a demo never equals the instance it is shown with.
"""

import random
from typing import Any, Dict, List, Optional, Set

from .artifact import Artifact
from .dict_utils import dict_get
from .errors import RecipeError
from .random_utils import new_random_generator, sample_like_random


def _not_enough(num_demos: int, available: int, sampler: str) -> RecipeError:
    return RecipeError(
        f"Can not sample {num_demos} demos: only {available} pool instances differ from the instance. "
        "Lower num_demos or enlarge demos_pool_size.",
        artifact=sampler,
        field="num_demos",
    )


class Sampler(Artifact):
    """Base sampler: override `sample_indices`."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    def set_pool(self, pool: List[Dict[str, Any]]) -> None:
        self._pool = pool

    def sample_indices(
        self, instance: Dict[str, Any], num_demos: int, rng: random.Random, excluded: Set[int]
    ) -> List[int]:
        """Abstract hook: indices into the pool for this instance (none of them in `excluded`)."""
        raise NotImplementedError(f"{type(self).__name__}.sample_indices(...) is not implemented")

    def sample(self, sample_size: int, instances_pool: List[Dict[str, Any]], instance: Optional[Dict[str, Any]] = None,
               sampling_seed: Optional[int] = None) -> List[Dict[str, Any]]:
        """The original's call: `sample_size` demos from `instances_pool` for `instance`, drawn with the original's
        generator seeded by the instance's input fields (and `sampling_seed`). As there, the pool is taken as given:
        `filter_source_by_instance` removes the instance itself first."""
        pool = list(instances_pool)
        if sample_size > len(pool):
            raise _not_enough(sample_size, len(pool), self.artifact_name)
        self.set_pool(pool)
        sub_seed = {**((instance or {}).get("input_fields") or {})}
        if sampling_seed is not None:
            sub_seed["local_seed"] = sampling_seed
        rng = new_random_generator(sub_seed)
        return [pool[index] for index in self.sample_indices(instance or {}, sample_size, rng, set())]

    def filter_source_by_instance(self, instances_pool: List[Dict[str, Any]], instance: Dict[str, Any]
                                  ) -> List[Dict[str, Any]]:
        """The pool without the entries whose input fields are the instance's (a demo never shows the answer)."""
        if "input_fields" not in instance:
            raise RecipeError(f"'input_fields' field is missing from '{instance}'.")  # the original's message
        return [item for item in instances_pool if item.get("input_fields") != instance["input_fields"]]


def _sample(rng: random.Random, population: Any, k: int) -> List[Any]:
    """rng.sample(population, k): inlined for a plain random.Random (the per-row hot path of demo sampling)."""
    return sample_like_random(rng, population, k) if type(rng) is random.Random else rng.sample(population, k)


class RandomSampler(Sampler):
    """Uniformly random demos, seeded per instance."""

    def sample_indices(self, instance, num_demos, rng, excluded):
        size = len(self._pool)
        if not excluded:
            if num_demos > size:
                raise _not_enough(num_demos, size, self.artifact_name)
            return _sample(rng, range(size), num_demos)
        candidates = [index for index in range(size) if index not in excluded]
        if num_demos > len(candidates):
            raise _not_enough(num_demos, len(candidates), self.artifact_name)
        return _sample(rng, candidates, num_demos)


class FixedIndicesSampler(Sampler):
    """Always the same pool positions (`indices`), in that order (skipping one equal to the instance)."""

    indices: List[int]

    def set_pool(self, pool):
        super().set_pool(pool)
        bad = [index for index in self.indices if not 0 <= index < len(pool)]
        if bad:
            raise RecipeError(
                f"FixedIndicesSampler 'indices' field contains index ({bad[0]}) which is out of bounds of the "
                f"instance pool ( of size {len(pool)})",  # the original's words
                artifact=self.artifact_name,
                field="indices",
            )

    def sample_indices(self, instance, num_demos, rng, excluded):
        chosen = [index for index in self.indices if index not in excluded][:num_demos]
        if len(chosen) < num_demos:
            raise _not_enough(num_demos, len(chosen), self.artifact_name)
        return chosen


def _field_text(instance: Dict[str, Any], field: str) -> str:
    for section in ("input_fields", "reference_fields"):
        fields = instance.get(section) or {}
        if field in fields:
            return str(fields[field])
    if field in instance:
        return str(instance[field])
    raise RecipeError(f"Sampler field '{field}' is not a task field of the instance.", field=field)


class CloseTextSampler(Sampler):
    """Demos whose input field `field` is among the `num_demos` texts closest to the instance's (difflib's
    similarity ratio, as the original), drawn at random among the pool entries carrying those texts with the
    original's generator seeded by the instance's input fields - the original's demos, in its order."""

    field: str

    def sample(self, sample_size: int, instances_pool: List[Dict[str, Any]], instance: Optional[Dict[str, Any]] = None,
               sampling_seed: Optional[int] = None) -> List[Dict[str, Any]]:
        dict_get(instance or {}, f"input_fields/{self.field}")  # the instance's field is looked up first
        return super().sample(sample_size, instances_pool, instance, sampling_seed)

    def set_pool(self, pool):
        super().set_pool(pool)
        self._texts = [dict_get(item, f"input_fields/{self.field}") for item in pool]

    def sample_indices(self, instance, num_demos, rng, excluded):
        from difflib import get_close_matches

        value = dict_get(instance, f"input_fields/{self.field}")
        allowed = [index for index in range(len(self._pool)) if index not in excluded]
        if num_demos > len(allowed):
            raise _not_enough(num_demos, len(allowed), self.artifact_name)
        closest = get_close_matches(value, [self._texts[index] for index in allowed], n=num_demos, cutoff=0)
        candidates = [index for index in allowed if self._texts[index] in closest]
        return new_random_generator({**instance["input_fields"]}).sample(candidates, num_demos)


class DiverseLabelsSampler(Sampler):
    """Demos spread over as many distinct labels as possible, random within a label.

    As in the original, an exemplar's label is `exemplar_repr`: the values of the input field `choices` (default
    "choices"; the first positional argument) found among the gold reference field `labels` (default "labels").
    `choices=None` balances on the gold value itself. With `include_empty_label=False`, exemplars whose label list
    is empty are never drawn."""

    _positional_args = ("choices",)
    labels: str = "labels"
    # Any: the original does not check this field (DiverseLabelsSampler(3) builds, and fails only when it samples)
    choices: Any = "choices"
    include_empty_label: bool = True

    def exemplar_repr(self, exemplar: Dict[str, Any]) -> str:
        """The exemplar's label as text: str() of the list of choices present among its gold labels."""
        for section in ("input_fields", "reference_fields"):
            if section not in exemplar:
                raise RecipeError(f"'{section}' field is missing from '{exemplar}'.")
        inputs, references = exemplar["input_fields"], exemplar["reference_fields"]
        if self.choices is None:
            return str(_field_text(exemplar, self.labels))
        if self.choices not in inputs:
            raise RecipeError(f"'{self.choices}' field is missing from '{inputs}'.")
        options = inputs[self.choices]
        if isinstance(options, str):
            options = [options]
        if not isinstance(options, list):
            raise RecipeError(f"Unexpected input choices value '{options}'. Expected a list or a string.")
        if self.labels not in references:
            raise RecipeError(f"'{self.labels}' field is missing from '{references}'.")
        gold = references[self.labels]
        if not isinstance(gold, list):
            raise RecipeError(f"Unexpected exemplar_outputs value '{gold}'. Expected a list.")
        return str([option for option in options if option in gold])

    def _label_key(self, item: Dict[str, Any]) -> str:
        if "input_fields" not in item and "reference_fields" not in item:  # a flat row (no task sections)
            item = {"input_fields": item, "reference_fields": item}
        return self.exemplar_repr(item)

    def divide_by_repr(self, exemplars_pool: List[Dict[str, Any]]) -> Dict[str, List[Dict[str, Any]]]:
        """Hook: the pool's exemplars grouped by their label (`exemplar_repr`), in pool order; exemplars with no label
        are left out when `include_empty_label` is False."""
        groups: Dict[str, List[Dict[str, Any]]] = {}
        for item in exemplars_pool:
            key = self._label_key(item)
            if key == "[]" and self.choices is not None and not self.include_empty_label:
                continue
            groups.setdefault(key, []).append(item)
        return groups

    def set_pool(self, pool):
        super().set_pool(pool)
        positions: Dict[int, List[int]] = {}
        for index, item in enumerate(pool):
            positions.setdefault(id(item), []).append(index)
        taken: Dict[int, int] = {}
        groups: Dict[str, List[int]] = {}
        for key, items in self.divide_by_repr(pool).items():
            for item in items:  # back to pool positions (an exemplar may be in the pool more than once)
                seen = taken.get(id(item), 0)
                if seen < len(positions.get(id(item), ())):
                    groups.setdefault(key, []).append(positions[id(item)][seen])
                    taken[id(item)] = seen + 1
        self._groups = groups

    def sample_indices(self, instance, num_demos, rng, excluded):
        remaining = {label: [i for i in indices if i not in excluded] for label, indices in self._groups.items()}
        for indices in remaining.values():
            rng.shuffle(indices)
        labels = sorted(label for label, indices in remaining.items() if indices)
        rng.shuffle(labels)
        chosen: List[int] = []
        while len(chosen) < num_demos:
            progressed = False
            for label in labels:
                if remaining[label] and len(chosen) < num_demos:
                    chosen.append(remaining[label].pop())
                    progressed = True
            if not progressed:
                raise _not_enough(num_demos, len(chosen), self.artifact_name)
        rng.shuffle(chosen)
        return chosen
