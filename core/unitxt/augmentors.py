"""Augmentors: seeded perturbations of task inputs (whitespace, typos, case) and of demo labels (label noise).

The recipe (`augmentor=` one or a list; one is sampled per instance) calls `augment_instance(instance, task, rng)` on
the task-schema instance before the template renders it, and `augment_demos(demos, instance, rng)` on the chosen
demos (task-schema dicts) before they are rendered. `rng` is the recipe's per-instance generator (seeded by the
instance content), so augmented datasets are reproducible. Text augmentors only touch the task's
`augmentable_inputs` (never other inputs or references) and never mutate the given instance.

Used as a plain operator (e.g. in preprocess steps), an augmentor seeds its generator from the instance content and
augments the top-level `fields` (or `input_fields[fields]` of a task-schema instance).

Table augmentors (`augmentor=augmentors.table.shuffle_rows`...) perturb every table among the task's inputs: shuffled
rows or columns, shuffled or masked column names, transposed, duplicated or empty rows and columns.
"""

import json
import re
import string
from typing import Any, Dict, List, Optional, Union

from .dict_utils import dict_get, dict_set
from .errors import ArtifactConfigurationError, ArtifactDefinitionError, InstanceTypeError, MissingFieldError, UnitxtError
from .image_utils import PLACEHOLDER_PATTERN
from .operator import FieldSelectionFields
from .operators.struct_data import shuffle_table_columns, shuffle_table_rows
from .random_utils import InstanceRandom
from .types.checking import isoftype
from .module_aliases import moved_classes
from .artifact import InertField


class Augmentor(FieldSelectionFields):
    """Base: the two recipe hooks default to no change."""

    def augment_instance(self, instance: Dict[str, Any], task: Any, rng: InstanceRandom) -> Dict[str, Any]:
        """Return the (possibly new) task-schema instance with augmented inputs."""
        return instance

    def augment_demos(self, demos: List[Dict[str, Any]], instance: Dict[str, Any], rng: InstanceRandom) -> List[Dict[str, Any]]:
        """Return the demos (task-schema dicts: input_fields / reference_fields) to render for this instance."""
        return demos

    def process_value(self, value: Any) -> Any:
        """The original's per-value hook (augmentors there are field operators): a value in, its augmented form out;
        here the base changes nothing, text, table and image augmentors apply their change."""
        return value

    def augments_demos(self) -> bool:
        """Whether this augmentor changes demos (the recipe then renders demos per instance, uncached)."""
        return type(self).augment_demos is not Augmentor.augment_demos

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        seed = json.dumps(instance, sort_keys=True, ensure_ascii=False, default=str)
        return self.augment_instance(instance, None, InstanceRandom(f"{type(self).__name__}|{seed}"))

    def set_fields(self, fields: List[str]) -> None:
        """Choose the task inputs an augmentor used as an operator changes (`input_fields/<field>`), as the original's
        recipe does for its task-input augmentors; an augmentor without `fields` changes nothing anyway."""
        if "fields" in self.get_fields():
            self.fields = list(fields)


class NullAugmentor(Augmentor):
    """Changes nothing (catalog: augmentors.no_augmentation; useful in a list of augmentors)."""


class SequentialAugmentor(Augmentor):
    """Applies several augmentors one after the other (instance and demos hooks)."""

    augmentors: List[Augmentor] = []

    def augment_instance(self, instance, task, rng):
        for augmentor in self.augmentors:
            instance = augmentor.augment_instance(instance, task, rng)
        return instance

    def augment_demos(self, demos, instance, rng):
        for augmentor in self.augmentors:
            demos = augmentor.augment_demos(demos, instance, rng)
        return demos

    def augments_demos(self) -> bool:
        return any(augmentor.augments_demos() for augmentor in self.augmentors)


_PLACEHOLDER_BASE = 0xE000
_HIDDEN = re.compile("[\ue000-\uf8ff]")


class TaskInputsAugmentor(Augmentor):
    """Base of augmentors of task inputs: the task's `augmentable_inputs`, restricted further to `fields` when set
    (as an operator: the `fields` of the instance's input_fields, see `set_fields`)."""

    __abstract__ = True

    fields: Optional[List[str]] = None

    def _augmented_input(self, value: Any, instance: Dict[str, Any]) -> Any:
        """One augmentable input value, augmented (a subclass's change; the base changes nothing)."""
        return value


class TypeDependentAugmentor(TaskInputsAugmentor):
    """A task-inputs augmentor that changes only values of `augmented_type` (any value when None)."""

    __abstract__ = True

    augmented_type: Any = None

    def process_instance_value(self, value: Any, instance: Dict[str, Any]) -> Any:
        """Hook: values not of `augmented_type` stay as they are; the others are augmented."""
        if self.augmented_type is not None and not isoftype(value, self.augmented_type):
            return value
        return self._augmented_input(value, instance)


class TextAugmentor(TypeDependentAugmentor):
    """Augments the text of the task's `augmentable_inputs` (restricted further to `fields` when set).

    Strings and (nested) lists of strings are augmented; other values (numbers, dicts, images) are left as they are,
    and so are media placeholders inside texts.
    """

    def augment_text(self, text: str, rng: InstanceRandom) -> str:
        raise NotImplementedError(f"{type(self).__name__}.augment_text(text, rng)")

    def process_value(self, value: Any) -> Any:
        """The original's hook: a text in, the augmented text out (augment_text with the instance's random
        generator, or one drawn from the text itself when called directly); subclasses may override it."""
        return self.augment_text(value, self.__dict__.get("_instance_rng") or InstanceRandom(f"{value}"))

    def _text_hook(self, text: str, rng: InstanceRandom) -> str:
        self.__dict__["_instance_rng"] = rng
        try:
            return self.process_value(text)
        finally:
            self.__dict__.pop("_instance_rng", None)

    def _augment_string(self, text: str, rng: InstanceRandom) -> str:
        """Augment a text, keeping media placeholders (`<img src="media/images/0">`) intact."""
        if "media/" not in text:
            return self._text_hook(text, rng)
        hidden: List[str] = []

        def hide(match: "re.Match") -> str:
            hidden.append(match.group(0))
            return chr(_PLACEHOLDER_BASE + len(hidden) - 1)  # one private-use character: no letter, no space

        augmented = self._text_hook(PLACEHOLDER_PATTERN.sub(hide, text), rng)
        return _HIDDEN.sub(lambda m: hidden[ord(m.group(0)) - _PLACEHOLDER_BASE]
                           if ord(m.group(0)) - _PLACEHOLDER_BASE < len(hidden) else m.group(0), augmented)

    def _augment_value(self, value: Any, rng: InstanceRandom) -> Any:
        if isinstance(value, str):
            return self._augment_string(value, rng)
        if isinstance(value, list):
            return [self._augment_value(item, rng) for item in value]
        return value

    def _target_fields(self, task: Any) -> List[str]:
        if task is None:
            if self.fields is None:
                raise UnitxtError(
                    f"{type(self).__name__} used as an operator needs `fields` (the fields to augment).",
                    artifact=self.artifact_name, field="fields",
                )
            return list(self.fields)
        augmentable = list(getattr(task, "augmentable_inputs", None) or [])
        if not augmentable:
            raise UnitxtError(
                f"{type(self).__name__} augments the task's augmentable_inputs, but task "
                f"'{getattr(task, 'artifact_name', task)}' declares none. Set augmentable_inputs on the task.",
                artifact=self.artifact_name,
            )
        if self.fields is None:
            return augmentable
        not_allowed = [field for field in self.fields if field not in augmentable]
        if not_allowed:
            raise UnitxtError(
                f"{type(self).__name__}.fields {not_allowed} are not augmentable inputs of the task ({augmentable}).",
                artifact=self.artifact_name, field="fields",
            )
        return list(self.fields)

    def augment_instance(self, instance, task, rng):
        names = self._target_fields(task)
        nested = "input_fields" in instance
        source = instance["input_fields"] if nested else instance
        changed = dict(source)
        for name in names:
            if name not in changed and task is None:
                raise MissingFieldError(f"{type(self).__name__} augments field '{name}', which the instance lacks "
                                        f"(its fields: {', '.join(map(str, source))}).", artifact=self.artifact_name,
                                        field=name)
        self.__dict__["_value_rng"] = rng
        try:
            for name in names:
                if name in changed:
                    changed[name] = self.process_instance_value(changed[name], instance)
        finally:
            self.__dict__.pop("_value_rng", None)
        if nested:
            return dict(instance, input_fields=changed)
        return changed

    def _augmented_input(self, value: Any, instance: Dict[str, Any]) -> Any:
        """One augmentable input of `instance`, augmented (with the instance's random generator)."""
        return self._augment_value(value, self.__dict__.get("_value_rng") or InstanceRandom(f"{value}"))


def _weighted_choice(options: Union[List[str], Dict[str, int]], rng: InstanceRandom) -> str:
    if isinstance(options, dict):
        items, weights = list(options), [max(0, int(weight)) for weight in options.values()]
        total = sum(weights)
        if total <= 0:
            return items[0]
        point = rng.random() * total
        for item, weight in zip(items, weights):
            point -= weight
            if point < 0:
                return item
        return items[-1]
    return rng.choice(options)


class AugmentWhitespace(TextAugmentor):
    """Replaces every run of whitespace by 1..`max_length` characters drawn from `whitespaces`."""

    whitespaces: List[str] = [" ", "\n", "\t"]
    max_length: int = 3

    def verify(self) -> None:
        super().verify()
        if not self.whitespaces or self.max_length < 1:
            raise ArtifactDefinitionError("AugmentWhitespace needs whitespaces and max_length >= 1.")

    def augment_text(self, text: str, rng: InstanceRandom) -> str:
        parts = re.split(r"(\s+)", text)
        for index in range(1, len(parts), 2):  # odd positions are the whitespace runs
            parts[index] = "".join(rng.choice(self.whitespaces) for _ in range(1 + rng.randrange(self.max_length)))
        return "".join(parts)


class AugmentPrefixSuffix(TextAugmentor):
    """Adds `prefix_len` items drawn from `prefixes` before the text and `suffix_len` from `suffixes` after it.

    `prefixes` / `suffixes` are lists (uniform) or {item: weight} dicts (default: weighted whitespace, "" included
    so shorter affixes occur); None disables a side. `remove_existing_whitespaces` strips the text first.
    """

    prefixes: Optional[Union[List[Any], Dict[Any, Any]]] = {" ": 20, "\t": 10, "\n": 40, "": 30}
    prefix_len: int = 3
    suffixes: Optional[Union[List[Any], Dict[Any, Any]]] = {" ": 20, "\t": 10, "\n": 40, "": 30}
    suffix_len: int = 3
    remove_existing_whitespaces: bool = False

    def verify(self) -> None:
        super().verify()
        for name in ("prefixes", "suffixes"):
            value = getattr(self, name)
            if value is not None and not (isoftype(value, List[str]) or isoftype(value, Dict[str, int])):
                raise ArtifactConfigurationError(f"Argument {name} should be either None or a list of strings or a "
                                                 f"dictionary str->int. {value} is none of the above.",
                                                 artifact=type(self).__name__, field=name)
        if not self.prefixes and not self.suffixes:
            raise ArtifactDefinitionError("AugmentPrefixSuffix needs prefixes or suffixes.", field="prefixes")

    def augment_text(self, text: str, rng: InstanceRandom) -> str:
        if self.remove_existing_whitespaces:
            text = text.strip()
        prefix = "".join(_weighted_choice(self.prefixes, rng) for _ in range(self.prefix_len)) if self.prefixes else ""
        suffix = "".join(_weighted_choice(self.suffixes, rng) for _ in range(self.suffix_len)) if self.suffixes else ""
        return prefix + text + suffix


TYPO_OPERATIONS = ("swap", "delete", "insert", "replace")


class AugmentTypos(TextAugmentor):
    """Character noise: each letter is, with `probability`, swapped with the next, deleted, doubled by an inserted
    letter, or replaced (one of `operations`)."""

    probability: float = 0.05
    operations: List[str] = list(TYPO_OPERATIONS)
    alphabet: str = string.ascii_lowercase

    def verify(self) -> None:
        super().verify()
        unknown = [op for op in self.operations if op not in TYPO_OPERATIONS]
        if unknown or not self.operations:
            raise ArtifactDefinitionError(f"AugmentTypos.operations must be among {TYPO_OPERATIONS}.", field="operations")
        if not 0.0 <= self.probability <= 1.0:
            raise ArtifactDefinitionError("AugmentTypos.probability must be in [0, 1].", field="probability")

    def augment_text(self, text: str, rng: InstanceRandom) -> str:
        chars = list(text)
        result: List[str] = []
        index = 0
        while index < len(chars):
            char = chars[index]
            if not char.isalpha() or rng.random() >= self.probability:
                result.append(char)
                index += 1
                continue
            operation = rng.choice(self.operations)
            if operation == "swap" and index + 1 < len(chars):
                result.extend([chars[index + 1], char])
                index += 2
                continue
            if operation == "insert":
                result.extend([char, rng.choice(self.alphabet)])
            elif operation == "replace":
                result.append(rng.choice(self.alphabet))
            elif operation == "swap":
                result.append(char)
            index += 1
        return "".join(result)


class AugmentCase(TextAugmentor):
    """Changes letter case: mode "upper", "lower", "title", or "random" (each letter flipped with `probability`)."""

    mode: str = "random"
    probability: float = 0.5

    def verify(self) -> None:
        super().verify()
        if self.mode not in ("upper", "lower", "title", "random"):
            raise ArtifactDefinitionError("AugmentCase.mode must be upper, lower, title or random.", field="mode")

    def augment_text(self, text: str, rng: InstanceRandom) -> str:
        if self.mode == "upper":
            return text.upper()
        if self.mode == "lower":
            return text.lower()
        if self.mode == "title":
            return text.title()
        return "".join(char.swapcase() if char.isalpha() and rng.random() < self.probability else char for char in text)


class DemosLabelNoise(Augmentor):
    """Label noise on demos: with `probability`, a demo's `label_field` reference is replaced by another class.

    Classes come from `classes`, else from the demo's (or the instance's) `classes_field` input. List-valued labels
    (multi-label) have each label replaced independently. The evaluated instance itself is never changed.
    """

    probability: float = 0.2
    label_field: str = "label"
    classes_field: Optional[str] = "classes"
    classes: Optional[List[str]] = None

    def verify(self) -> None:
        super().verify()
        if not 0.0 <= self.probability <= 1.0:
            raise ArtifactDefinitionError("DemosLabelNoise.probability must be in [0, 1].", field="probability")

    def _classes(self, demo: Dict[str, Any], instance: Dict[str, Any]) -> List[Any]:
        if self.classes is not None:
            return list(self.classes)
        for source in (demo.get("input_fields") or {}, instance.get("input_fields") or {}):
            if self.classes_field and isinstance(source.get(self.classes_field), list):
                return list(source[self.classes_field])
        raise UnitxtError(
            f"DemosLabelNoise needs the class list: set `classes` or give the task an input field "
            f"'{self.classes_field}'.", artifact=self.artifact_name, field="classes",
        )

    def _noisy(self, label: Any, classes: List[Any], rng: InstanceRandom) -> Any:
        if rng.random() >= self.probability:
            return label
        others = [option for option in classes if option != label]
        return rng.choice(others) if others else label

    def augment_demos(self, demos, instance, rng):
        result = []
        for demo in demos:
            references = demo.get("reference_fields") or {}
            if self.label_field not in references:
                raise UnitxtError(
                    f"DemosLabelNoise: demo has no reference field '{self.label_field}' "
                    f"(has: {', '.join(sorted(references)) or 'none'}).", artifact=self.artifact_name,
                    field="label_field",
                )
            classes = self._classes(demo, instance)
            label = references[self.label_field]
            if isinstance(label, list):
                noisy = [self._noisy(item, classes, rng) for item in label]
            else:
                noisy = self._noisy(label, classes, rng)
            result.append(dict(demo, reference_fields=dict(references, **{self.label_field: noisy})))
        return result


__all__ = [
    "Augmentor",
    "NullAugmentor",
    "SequentialAugmentor",
    "TextAugmentor",
    "AugmentWhitespace",
    "AugmentPrefixSuffix",
    "AugmentTypos",
    "AugmentCase",
    "DemosLabelNoise",
    "TYPO_OPERATIONS",
]


# Table augmentors


def is_table(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("header"), list) and isinstance(value.get("rows"), list)


class TableAugmentor(Augmentor):
    """Base: `augment_table(table, rng) -> table` on a copy of every table-valued input field."""

    __abstract__ = True

    # the one field holding the table (as the original's field operators); None: every table-valued input field
    field: Optional[str] = None

    def augment_table(self, table: Dict[str, Any], rng: InstanceRandom) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.augment_table(table, rng)")

    def process_value(self, table: Any) -> Any:
        """The original's hook: a copy of one table in, the changed table out (here: augment_table with the
        instance's random generator); a subclass may override it as it did for the original."""
        return self.augment_table(table, self.__dict__.get("_instance_rng"))

    def augment_instance(self, instance, task, rng):
        if self.field is None:
            return self._augment_all(instance, rng)
        value = dict_get(instance, self.field)
        if not is_table(value):
            raise InstanceTypeError(f"{type(self).__name__} needs a table {{'header': [...], 'rows': [[...]]}} in "
                                    f"'{self.field}', got {str(value)[:80]!r}.", artifact=self.artifact_name,
                                    field=self.field)
        instance = dict(instance)
        dict_set(instance, self.field, self._augmented({self.field: value}, rng)[self.field])
        return instance

    def _augmented(self, fields: Dict[str, Any], rng: InstanceRandom) -> Dict[str, Any]:
        self.__dict__["_instance_rng"] = rng
        try:
            return {name: self.process_value({"header": list(value["header"]), "rows": [list(r) for r in value["rows"]],
                                              **{k: v for k, v in value.items() if k not in ("header", "rows")}})
                    if is_table(value) else value for name, value in fields.items()}
        finally:
            self.__dict__.pop("_instance_rng", None)

    def _augment_all(self, instance, rng):
        if isinstance(instance.get("input_fields"), dict):
            return dict(instance, input_fields=self._augmented(instance["input_fields"], rng))
        return self._augmented(instance, rng)


class ShuffleTableRows(TableAugmentor):
    """Rows in a random order: the original's, drawn by the table's content and `seed`."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    seed: int = 0

    def augment_table(self, table, rng):
        return shuffle_table_rows(table, self.seed)


class ShuffleTableColumns(TableAugmentor):
    """Columns (names with their cells) in a random order: the original's, drawn by the table's content and `seed`."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    seed: int = 0

    def augment_table(self, table, rng):
        return shuffle_table_columns(table, self.seed)


class ShuffleColumnsNames(TableAugmentor):
    """Column names shuffled, cells left in place (so names no longer match their cells)."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    def augment_table(self, table, rng):
        header = list(table["header"])
        rng.shuffle(header)
        return dict(table, header=header)


class MaskColumnsNames(TableAugmentor):
    """Column names replaced by Col1, Col2, ..."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    def augment_table(self, table, rng):
        return dict(table, header=[f"Col{index + 1}" for index in range(len(table["header"]))])


class TransposeTable(TableAugmentor):
    """Rows become columns: the header is " ", "0", "1", ...; each row starts with a former column name."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    def transpose_table(self, table: Dict[str, Any]) -> Dict[str, Any]:
        """The original's name of the transposition of one table."""
        return self.augment_table(table, None)

    def augment_table(self, table, rng):
        header, rows = table["header"], table["rows"]
        return {"header": [" "] + [str(index) for index in range(len(rows))],
                "rows": [[name] + [row[index] for row in rows] for index, name in enumerate(header)]}


class DuplicateTableRows(TableAugmentor):
    """The rows at `row_indices` repeated `times` times in place."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    row_indices: List[int] = []
    times: int = 1

    def augment_table(self, table, rng):
        rows = []
        for index, row in enumerate(table["rows"]):
            rows.extend([row] * (self.times if index in self.row_indices else 1))
        return dict(table, rows=rows)


class DuplicateTableColumns(TableAugmentor):
    """The columns at `column_indices` repeated `times` times in place."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    column_indices: List[int] = []
    times: int = 1

    def _expand(self, cells: List[Any]) -> List[Any]:
        result = []
        for index, cell in enumerate(cells):
            result.extend([cell] * (self.times if index in self.column_indices else 1))
        return result

    def augment_table(self, table, rng):
        return dict(table, header=self._expand(table["header"]), rows=[self._expand(row) for row in table["rows"]])


class InsertEmptyTableRows(TableAugmentor):
    """`times` empty rows inserted at random positions."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    times: int = 0

    def augment_table(self, table, rng):
        rows = list(table["rows"])
        for _ in range(self.times):
            rows.insert(rng.randrange(len(rows) + 1), [""] * len(table["header"]))
        return dict(table, rows=rows)


__all__ = ["TableAugmentor", "ShuffleTableRows", "ShuffleTableColumns", "ShuffleColumnsNames", "MaskColumnsNames",
           "TransposeTable", "DuplicateTableRows", "DuplicateTableColumns", "InsertEmptyTableRows", "is_table"]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
