"""Templates of the original catalog format for judging and structured targets: a custom reference next to the target,
quantised numeric targets, multi-label targets, pairwise choice and comparative rating (with seeded A/B swapping),
dialogs rendered into text, multi-turn references, JSON targets and span labels as JSON, and the original's bases of
target-only templates (OutputFormatTemplate, JsonOutputFormatTemplate) and span labeling (SpanLabelingBaseTemplate).
"""

import json
import random
from typing import Any, Dict, List, Optional, Tuple, Union

from ..artifact import Artifact
from ..errors import InstanceTypeError, UnitxtError
from .base import InputOutputTemplate, MultiReferenceTemplate, Template, _content_seed
from .spans import SpanLabelingTemplate


class _PreprocessingTemplate(InputOutputTemplate):
    """Base: `preprocess(input_fields, reference_fields)` (needs the answer: skipped for production rows, as the
    original) then `preprocess_inputs(input_fields)` (always) get copies and return the fields to render."""

    __abstract__ = True

    def preprocess(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any]) -> Tuple[Dict, Dict]:
        return input_fields, reference_fields

    def preprocess_inputs(self, input_fields: Dict[str, Any]) -> Dict[str, Any]:
        return input_fields

    # True where preprocessing changes what the instance is (answers and their model ids swapped): the row's
    # task_data then holds the preprocessed fields, so metrics reading it (win rates by model) see what was judged
    _task_data_follows_preprocessing = False

    def render(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any],
               instance: Optional[Dict[str, Any]] = None, with_references: bool = True) -> Dict[str, Any]:
        try:
            inputs, references = dict(input_fields), dict(reference_fields)
            if with_references:  # production rows show the inputs as given (no answer to swap or join)
                inputs, references = self.preprocess(inputs, references)
            inputs = self.preprocess_inputs(inputs)
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None
        result = super().render(inputs, references, instance, with_references)
        if self._task_data_follows_preprocessing and (inputs != input_fields or references != reference_fields):
            result["task_fields"] = (inputs, references)
        return result


class InputOutputTemplateWithCustomTarget(InputOutputTemplate):
    """The target is `output_format` (what a demo shows), the single reference is `reference` (what is scored)."""

    reference: str

    def prepare(self) -> None:
        super().prepare()
        self._reference = self._compile(self.reference, "reference")

    def _target_and_references(self, input_fields, reference_fields, instance):
        target, _ = super()._target_and_references(input_fields, reference_fields, instance)
        values = {}
        for name in self._reference.fields:
            if name not in reference_fields:
                raise self._missing(name, reference_fields, "reference", "reference")
            value = reference_fields[name]
            values[name] = value if isinstance(value, str) else self._serialize(value, instance)
        return target, [self._reference.render(values, "reference")]


def quantize(value: Union[int, float], quantum: Union[int, float]) -> Union[int, float]:
    """`value` rounded to the nearest multiple of `quantum` (an int when quantum is an int): 3.27, 0.2 -> 3.2."""
    result = round(value / quantum) / (1 / quantum)
    return int(result) if isinstance(quantum, int) else result


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class OutputQuantizingTemplate(_PreprocessingTemplate):
    """An InputOutputTemplate whose numeric fields are rounded to the nearest multiple of `quantum` (so a
    regression target 3.27 with quantum 0.2 reads "3.2")."""

    quantum: Union[float, int] = 0.1

    def verify(self) -> None:
        super().verify()
        if not _is_number(self.quantum) or self.quantum <= 0:
            raise UnitxtError("quantum must be a positive number.", artifact=type(self).__name__, field="quantum")

    def preprocess(self, input_fields, reference_fields):
        def quantized(fields):
            return {name: str(quantize(value, self.quantum)) if _is_number(value) else value
                    for name, value in fields.items()}

        return quantized(input_fields), quantized(reference_fields)


class MultiLabelTemplate(_PreprocessingTemplate):
    """The labels list in `labels_field` joined by `labels_separator` is the target (`empty_label` when empty)."""

    labels_field: str = "labels"
    labels_separator: str = ", "
    output_format: str = "{labels}"
    empty_label: str = "None"
    postprocessors: List[Any] = ["processors.to_list_by_comma"]

    def preprocess(self, input_fields, reference_fields):
        if self.labels_field not in reference_fields:
            raise self._missing(self.labels_field, reference_fields, "reference", "labels_field")
        labels = reference_fields[self.labels_field]
        if not isinstance(labels, list):
            raise InstanceTypeError(f"MultiLabelTemplate needs a list in '{self.labels_field}', got "
                                    f"{type(labels).__name__}: {labels!r:.100}.", artifact=self.artifact_name,
                                    field=self.labels_field)
        joined = self.labels_separator.join(str(label) for label in labels) if labels else self.empty_label
        return input_fields, {self.labels_field: joined}


class SpanLabelingBaseTemplate(MultiLabelTemplate):
    """Multi-label targets made of labeled spans: the spans cut from `text_field` at `spans_starts_field` /
    `spans_ends_field` (reference fields, character offsets) with their labels, in text order and only labels in
    `labels_support` when set, become the labels a subclass's `span_label_pairs_to_targets(pairs)` makes."""

    __abstract__ = True

    spans_starts_field: str = "spans_starts"
    spans_ends_field: str = "spans_ends"
    text_field: str = "text"
    labels_support: Optional[list] = None

    def extract_span_label_pairs(self, reference_fields: Dict[str, Any]) -> Any:
        for name, option in ((self.spans_starts_field, "spans_starts_field"), (self.spans_ends_field,
                             "spans_ends_field"), (self.text_field, "text_field"), (self.labels_field, "labels_field")):
            if name not in reference_fields:
                raise self._missing(name, reference_fields, "reference", option)
        text = reference_fields[self.text_field]
        spans = [(start, end, text[start:end], label) for start, end, label in
                 zip(reference_fields[self.spans_starts_field], reference_fields[self.spans_ends_field],
                     reference_fields[self.labels_field])
                 if self.labels_support is None or label in self.labels_support]
        for span in sorted(spans):
            yield span[2], span[3]

    def span_label_pairs_to_targets(self, pairs: Any) -> List[str]:
        raise NotImplementedError(f"{type(self).__name__}.span_label_pairs_to_targets(pairs)")

    def preprocess_reference_fields(self, reference_fields: Dict[str, Any]) -> Dict[str, Any]:
        return {self.labels_field: self.span_label_pairs_to_targets(self.extract_span_label_pairs(reference_fields))}

    def preprocess(self, input_fields, reference_fields):
        return super().preprocess(input_fields, self.preprocess_reference_fields(reference_fields))

    _runs_reference_hook_itself = True  # preprocess above runs preprocess_reference_fields, before the labels join


class PairwiseChoiceTemplate(_PreprocessingTemplate):
    """Which of two answers is better: the answer field holds "choice_a", "choice_b" or "tie", verbalised as the
    choice labels. With `shuffle`, about half of the instances (chosen by a seed from their content) swap the two
    answers and the verdict."""

    choice_a_field: str
    choice_b_field: str
    answer_field: str
    choice_a_label: str
    choice_b_label: str
    choice_tie_label: str
    shuffle: bool = False

    def _swap(self, input_fields: Dict[str, Any]) -> bool:
        return self.shuffle and random.Random(_content_seed(input_fields, "pairwise")).random() <= 0.5

    def verbalize_answer_field(self, reference_fields: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: the answer field's choice_a / choice_b / tie written as its label (in place)."""
        answer = reference_fields.get(self.answer_field)
        labels = {"choice_a": self.choice_a_label, "choice_b": self.choice_b_label, "tie": self.choice_tie_label}
        if answer not in labels:
            raise InstanceTypeError(f"'{self.answer_field}' must be choice_a, choice_b or tie, got {answer!r}.",
                                    artifact=self.artifact_name, field=self.answer_field)
        reference_fields[self.answer_field] = labels[answer]
        return reference_fields

    def shuffle_values(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any]
                       ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Hook: with `shuffle`, about half of the instances (seeded by content) get the two answers and the
        verbalised verdict swapped (in place)."""
        if self._swap(input_fields):
            for name in (self.choice_a_field, self.choice_b_field):
                if name not in input_fields:
                    raise self._missing(name, input_fields, "input", "choice fields")
            input_fields[self.choice_a_field], input_fields[self.choice_b_field] = (
                input_fields[self.choice_b_field], input_fields[self.choice_a_field])
            verdict = reference_fields[self.answer_field]
            reference_fields[self.answer_field] = {self.choice_a_label: self.choice_b_label,
                                                   self.choice_b_label: self.choice_a_label}.get(verdict, verdict)
        return input_fields, reference_fields

    def preprocess(self, input_fields, reference_fields):
        return self.shuffle_values(input_fields, self.verbalize_answer_field(reference_fields))


class PairwiseComparativeRatingTemplate(_PreprocessingTemplate):
    """A signed preference score between two answers (positive: A is better). With `shuffle`, about half of the
    instances (seeded by content) swap the answers and their ids and negate the score."""

    choice_a_field: str
    choice_b_field: str
    choice_a_id_field: str
    choice_b_id_field: str
    answer_field: str
    shuffle: bool = False
    _task_data_follows_preprocessing = True

    def preprocess(self, input_fields, reference_fields):
        return self.shuffle_values(input_fields, reference_fields)

    def shuffle_values(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any]
                       ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Hook: with `shuffle`, about half of the instances (seeded by content) get the answers and their ids
        swapped and the score negated (in place)."""
        if self.shuffle and random.Random(_content_seed(input_fields, "comparative")).random() <= 0.5:
            for first, second in ((self.choice_a_field, self.choice_b_field),
                                  (self.choice_a_id_field, self.choice_b_id_field)):
                input_fields[first], input_fields[second] = input_fields[second], input_fields[first]
            score = reference_fields.get(self.answer_field)
            if not isinstance(score, int) or isinstance(score, bool):
                raise InstanceTypeError(f"'{self.answer_field}' must be an int score, got {score!r}.",
                                        artifact=self.artifact_name, field=self.answer_field)
            reference_fields[self.answer_field] = -score
        return input_fields, reference_fields


class DialogFieldsData(Artifact):
    """How DialogTemplate writes one dialog field: the labels put before user, assistant and system turns."""

    user_role_label: str
    assistant_role_label: str
    system_role_label: str
    dialog_field: str


class DialogTemplate(_PreprocessingTemplate):
    """Each `dialog_fields` input (a list of [role, text] pairs, or {role, content} turns) is rendered as text:
    "<label><label_separator><text>" per turn, turns joined by `turns_separator`."""

    dialog_fields: List[DialogFieldsData]
    turns_separator: str = "\n\n"
    label_separator: str = " "

    def _dialog_text(self, dialog: Any, labels: DialogFieldsData) -> str:
        if not isinstance(dialog, list):
            raise InstanceTypeError(f"Dialog field '{labels.dialog_field}' must be a list of turns, got "
                                    f"{type(dialog).__name__}.", artifact=self.artifact_name, field=labels.dialog_field)
        by_role = {"user": labels.user_role_label, "assistant": labels.assistant_role_label,
                   "system": labels.system_role_label}
        parts = []
        for turn in dialog:
            role, text = (turn.get("role"), turn.get("content")) if isinstance(turn, dict) else tuple(turn)
            if role in by_role:
                parts.append(f"{by_role[role]}{self.label_separator}{text}")
        return self.turns_separator.join(parts)

    def preprocess_inputs(self, input_fields):
        return self.process_dialog(input_fields)

    def process_dialog(self, input_fields: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: each `dialog_fields` input written as text (in place)."""
        for labels in self.dialog_fields:
            if labels.dialog_field not in input_fields:
                raise self._missing(labels.dialog_field, input_fields, "input", "dialog_fields")
            input_fields[labels.dialog_field] = self._dialog_text(input_fields[labels.dialog_field], labels)
        return input_fields


class DialogPairwiseChoiceTemplate(DialogTemplate, PairwiseChoiceTemplate):
    """PairwiseChoiceTemplate over two dialogs, each rendered as DialogTemplate does (swap first, then the text)."""


class MultiTurnTemplate(MultiReferenceTemplate):
    """References from `references_field`; the conversation is the input field `turns_field` (a path allowed).
    `input_format` defaults to empty, and an empty source becomes the turns as JSON (what the original's text
    formats show for a multi-turn instance)."""

    input_format: str = ""
    turns_field: str

    def _turns(self, input_fields: Dict[str, Any]) -> Any:
        from ..dict_utils import dict_get, dict_has

        if not dict_has(input_fields, self.turns_field):
            raise self._missing(self.turns_field, input_fields, "input", "turns_field")
        return dict_get(input_fields, self.turns_field)

    def render(self, input_fields, reference_fields, instance=None, with_references=True):
        self._turns(input_fields)
        return super().render(input_fields, reference_fields, instance, with_references)

    def _source(self, input_fields, values, instance):
        source = super()._source(input_fields, values, instance)
        return source if source else json.dumps(self._turns(input_fields))


class JsonOutputTemplate(InputOutputTemplate):
    """The target is a JSON object built from reference fields: `output_fields` maps a reference field to its key;
    the fields in `wrap_with_list_fields` are wrapped in a list. As in the original, each value is first verbalised
    by the serializer (a list of texts becomes one ", "-joined text)."""

    output_fields: Dict[str, str]
    wrap_with_list_fields: List[str] = []
    output_format: str = ""

    def _target_and_references(self, input_fields, reference_fields, instance):
        data = {}
        for field, key in self.output_fields.items():
            if field not in reference_fields:
                raise self._missing(field, reference_fields, "reference", "output_fields")
            value = self._serialize(reference_fields[field], instance)
            data[key] = [value] if field in self.wrap_with_list_fields else value
        target = json.dumps(data, ensure_ascii=False)
        return target, [target]


class OutputFormatTemplate(Template):
    """A template base whose target (and single reference) is `output_format` filled with the reference fields
    (verbalised by the serializer); a subclass gives the source (`input_fields_to_source`)."""

    output_format: Optional[str] = None

    def prepare(self) -> None:
        super().prepare()
        self._output = self._compile(self.output_format or "", "output_format")

    def _target_and_references(self, input_fields, reference_fields, instance):
        values = {}
        for name in self._output.fields:
            if name not in reference_fields:
                raise self._missing(name, reference_fields, "reference", "output_format")
            value = reference_fields[name]
            values[name] = value if isinstance(value, str) else self._serialize(value, instance)
        target = self._output.render(values, "output_format")
        return target, [target]

    def reference_fields_to_target_and_references(self, reference_fields):
        return self._target_and_references({}, reference_fields, {})


class JsonOutputFormatTemplate(Template):
    """A template base whose target is a JSON object of the verbalised reference values: `output_fields` maps a
    reference field to its key, the `wrap_with_list_fields` values wrapped in a list; a subclass gives the source."""

    output_fields: Dict[str, str]
    wrap_with_list_fields: List[str]

    def _target_and_references(self, input_fields, reference_fields, instance):
        data = {}
        for field, key in self.output_fields.items():
            if field not in reference_fields:
                raise self._missing(field, reference_fields, "reference", "output_fields")
            value = reference_fields[field]
            value = value if isinstance(value, str) else self._serialize(value, instance)
            data[key] = [value] if field in self.wrap_with_list_fields else value
        target = json.dumps(data, ensure_ascii=False)
        return target, [target]

    def reference_fields_to_target_and_references(self, reference_fields):
        return self._target_and_references({}, reference_fields, {})


class SpanLabelingJsonTemplate(SpanLabelingTemplate):
    """Span labeling with a JSON target: {label: [span, ...]} in text order, spans as written (`empty_target`, "None",
    when there is no span)."""

    postprocessors: List[Any] = ["processors.load_json", "processors.dict_of_lists_to_value_key_pairs"]

    def span_label_pairs_to_targets(self, span_label_pairs: Any) -> List[str]:
        """Hook: [(span, label), ...] -> [the JSON object {label: [span, ...]}] ([] without spans)."""
        groups: Dict[str, List[str]] = {}
        for span, label in span_label_pairs:
            groups.setdefault(str(label), []).append(span)
        return [json.dumps(groups, ensure_ascii=False)] if groups else []


__all__ = [
    "InputOutputTemplateWithCustomTarget", "OutputQuantizingTemplate", "MultiLabelTemplate", "PairwiseChoiceTemplate",
    "PairwiseComparativeRatingTemplate", "DialogFieldsData", "DialogTemplate", "DialogPairwiseChoiceTemplate",
    "MultiTurnTemplate", "JsonOutputTemplate", "SpanLabelingJsonTemplate", "OutputFormatTemplate",
    "JsonOutputFormatTemplate", "SpanLabelingBaseTemplate", "quantize",
]
