"""More template types: SpanLabelingTemplate (span extraction / NER targets built from character offsets)."""

import operator
from typing import Any, Dict, List, Optional, Tuple

from ..errors import InstanceTypeError
from ..sandbox.format_strings import check_placeholders
from .base import InputFormatTemplate
from ..artifact import InertField


_OFFSETS = operator.itemgetter(0, 1)  # spans in text order (ties keep their given order)


def escape_chars(s: str, chars_to_escape: List[str]) -> str:
    """`s` with each of `chars_to_escape` preceded by a backslash ("Goo:gle" -> "Goo\\:gle" for ":")."""
    for char in chars_to_escape:
        s = s.replace(char, f"\\{char}")
    return s


class SpanLabelingTemplate(InputFormatTemplate):
    """Span extraction: the target lists the gold spans as `span_label_format` items ("Miramar: Location") joined by
    `span_separator`; the span texts are cut from `text_field` (an input field) at `spans_starts_field` /
    `spans_ends_field` (reference fields, character offsets, end exclusive) and paired with `labels_field`, in text
    order, with the `escape_characters` of a span text backslash-escaped ("Goo:gle" -> "Goo\\:gle"). Only labels in
    `labels_support` are kept when it is set; with no (kept) span the target is `empty_target`.
    The default post-processor parses "span: label, ..." back into [span, label] pairs.
    """

    empty_label: Any = InertField(default='None', reason="spans are rendered by this template's own format here")
    labels_separator: Any = InertField(default=', ', reason="spans are rendered by this template's own format here")
    output_format: Any = InertField(default='{labels}', reason="spans are rendered by this template's own format here")

    text_field: str = "text"
    spans_starts_field: str = "spans_starts"
    spans_ends_field: str = "spans_ends"
    labels_field: str = "labels"
    labels_support: Optional[List[str]] = None
    span_label_format: str = "{span}: {label}"
    span_separator: str = ", "
    empty_target: str = "None"
    escape_characters: Optional[List[str]] = [":", ","]  # backslash-escaped in span texts (the parser honours it)
    postprocessors: List[Any] = ["processors.to_span_label_pairs"]

    def prepare(self) -> None:
        super().prepare()
        self._span_label = self._compile(self.span_label_format, "span_label_format")
        check_placeholders(self._span_label, ["span", "label"], where=f"{type(self).__name__}.span_label_format")

    def _field(self, name: str, sources: Tuple[Dict[str, Any], ...], where: str) -> Any:
        for fields in sources:
            if name in fields:
                return fields[name]
        merged: Dict[str, Any] = {}
        for fields in sources:
            merged.update(fields)
        raise self._missing(name, merged, "input or reference", where)

    def _span_target(self, *sources: Dict[str, Any]) -> str:
        text = self._field(self.text_field, sources, "text_field")
        starts = self._field(self.spans_starts_field, sources, "spans_starts_field")
        ends = self._field(self.spans_ends_field, sources, "spans_ends_field")
        labels = self._field(self.labels_field, sources, "labels_field")
        if not (len(starts) == len(ends) == len(labels)):
            raise InstanceTypeError(
                f"{self.spans_starts_field}, {self.spans_ends_field} and {self.labels_field} must have the same "
                f"length, got {len(starts)}, {len(ends)} and {len(labels)}.",
                artifact=self.artifact_name,
                field=self.labels_field,
            )
        text, support = str(text), self.labels_support
        pairs = [(text[start:end], label) for start, end, label in sorted(zip(starts, ends, labels), key=_OFFSETS)
                 if support is None or label in support]
        targets = self.span_label_pairs_to_targets(pairs)
        return self.span_separator.join(targets) if targets else self.empty_target

    def span_label_pairs_to_targets(self, span_label_pairs: Any) -> List[str]:
        """Hook: [(span, label), ...] in text order -> the target items (`span_label_format`, spans escaped)."""
        render, escaped = self._span_label.render, self.escape_characters or ()
        return [render({"span": escape_chars(span, escaped), "label": str(label)}, "span_label_format")
                for span, label in span_label_pairs]

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        target = self._span_target(reference_fields, input_fields)
        return target, [target]

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        target = self._span_target(reference_fields)
        return target, [target]


__all__ = ["SpanLabelingTemplate", "escape_chars"]
