"""The original's template bases subclassed its way: OutputFormatTemplate and JsonOutputFormatTemplate give the target
from verbalised reference fields (a subclass gives the source); SpanLabelingBaseTemplate turns labeled character
spans into the labels of a multi-label target."""

import json

import pytest

from unitxt.templates import JsonOutputFormatTemplate, OutputFormatTemplate, SpanLabelingBaseTemplate

INSTANCE = {"input_fields": {"q": "hi"}, "reference_fields": {"a": ["x", "y"], "b": 3}}


class Question(OutputFormatTemplate):
    def input_fields_to_source(self, input_fields):
        return "Q: " + input_fields["q"]


class JsonAnswer(JsonOutputFormatTemplate):
    def input_fields_to_source(self, input_fields):
        return "Q: " + input_fields["q"]


class SpanPairs(SpanLabelingBaseTemplate):
    input_format = "{text}"

    def span_label_pairs_to_targets(self, pairs):
        return [f"{span}={label}" for span, label in pairs]


def _rendered(template, instance):
    result = template.process_instance(json.loads(json.dumps(instance)))
    return result["source"], result["target"], result["references"]


def test_output_format_template_fills_the_format_with_verbalised_references():
    assert _rendered(Question(output_format="A: {a} / {b}"), INSTANCE) == ("Q: hi", "A: x, y / 3", ["A: x, y / 3"])
    with pytest.raises(Exception, match="missing"):
        _rendered(Question(output_format="{c}"), INSTANCE)


def test_json_output_format_template_builds_a_json_object():
    template = JsonAnswer(output_fields={"a": "ans", "b": "num"}, wrap_with_list_fields=["b"])
    source, target, references = _rendered(template, INSTANCE)
    assert json.loads(target) == {"ans": "x, y", "num": ["3"]} and references == [target] and source == "Q: hi"


def test_span_labeling_base_template_orders_spans_and_filters_labels():
    text = "John lives in Paris now"
    instance = {"input_fields": {"text": text}, "reference_fields": {
        "text": text, "spans_starts": [14, 0, 20], "spans_ends": [19, 4, 23], "labels": ["LOC", "PER", "MISC"]}}
    assert _rendered(SpanPairs(labels_support=["PER", "LOC"]), instance)[1:] == ("John=PER, Paris=LOC",
                                                                                 ["John=PER, Paris=LOC"])
    empty = {"input_fields": {"text": "x"}, "reference_fields": {"text": "x", "spans_starts": [], "spans_ends": [],
                                                                 "labels": []}}
    assert _rendered(SpanPairs(), empty)[1] == "None"


def test_base_format_gives_the_parts_to_the_subclass_layout():
    from unitxt.formats import BaseFormat, SystemFormat

    class Piped(BaseFormat):
        def _format_instance_to_source(self, system_prompt, instruction, source, target_prefix, demos, media=None,
                                       turns=None):
            shown = [f"{demo['source']}={demo['target']}" for demo in demos]
            return " | ".join([system_prompt, instruction, *shown, source, target_prefix, str(media)])

    instance = {"source": "Q", "instruction": "I", "system_prompt": "S", "target_prefix": "A:", "other": 1,
                "demos": [{"source": "q1", "target": "a1", "target_prefix": "A:"}]}
    result = Piped().process_instance(instance)
    assert result["source"] == "S | I | q1=a1 | Q | A: | {'images': [], 'audios': []}"
    assert "instruction" not in result and result["demos"] == instance["demos"] and result["other"] == 1
    assert issubclass(SystemFormat, BaseFormat)
