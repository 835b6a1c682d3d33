"""Templates of the original catalog format (templates_judging) and the template fields such catalogs set
(title_fields, MultiReferenceTemplate.output_format)."""

import json

import pytest

from unitxt.artifact import from_serializable
from unitxt.errors import UnitxtError
from unitxt.templates import InputOutputTemplate, MultiReferenceTemplate, MultipleChoiceTemplate, SpanLabelingTemplate
from unitxt.templates.judging import (
    DialogFieldsData,
    DialogPairwiseChoiceTemplate,
    DialogTemplate,
    InputOutputTemplateWithCustomTarget,
    JsonOutputTemplate,
    MultiLabelTemplate,
    MultiTurnTemplate,
    OutputQuantizingTemplate,
    PairwiseChoiceTemplate,
    PairwiseComparativeRatingTemplate,
    SpanLabelingJsonTemplate,
    quantize,
)


def test_title_fields_title_case_inputs():
    template = InputOutputTemplate(input_format="{text}", output_format="{label}", title_fields=["type_of_class"],
                                   instruction="Which {type_of_class}?")
    rendered = template.render({"text": "t", "type_of_class": "sports topic"}, {"label": "x"})
    assert rendered["instruction"] == "Which Sports Topic?"
    choice = MultipleChoiceTemplate(input_format="{topic}: {choices}", target_field="answer", title_fields=["topic"])
    assert choice.render({"topic": "world history", "choices": ["a", "b"]}, {"answer": 0})["source"] == \
        "World History: A. a, B. b"


def test_multi_reference_template_accepts_output_format():
    template = from_serializable({"__type__": "multi_reference_template", "input_format": "{q}",
                                  "references_field": "answers", "output_format": "{answer}"})
    assert template.render({"q": "?"}, {"answers": ["a", "b"]})["references"] == ["a", "b"]
    assert isinstance(template, MultiReferenceTemplate)


def test_custom_target_template_scores_another_reference():
    template = InputOutputTemplateWithCustomTarget(input_format="{q}", output_format="{is_correct}",
                                                   reference="{number_val}")
    rendered = template.render({"q": "?"}, {"is_correct": "yes", "number_val": 1.0})
    assert (rendered["target"], rendered["references"]) == ("yes", ["1.0"])


def test_output_quantizing_template():
    assert quantize(3.27, 0.2) == pytest.approx(3.2) and quantize(3.7, 1) == 4
    template = OutputQuantizingTemplate(input_format="{text}", output_format="{score}", quantum=0.2)
    assert template.render({"text": "t"}, {"score": 3.27})["target"] == "3.2"
    assert OutputQuantizingTemplate(input_format="{text}", output_format="{score}", quantum=1).render(
        {"text": "t"}, {"score": 3.7})["target"] == "4"


def test_multi_label_template():
    template = MultiLabelTemplate(input_format="Text: {text}")
    assert template.render({"text": "t"}, {"labels": ["a", "b"]})["target"] == "a, b"
    assert template.render({"text": "t"}, {"labels": []})["target"] == "None"
    assert template.postprocessors == ["processors.to_list_by_comma"]
    with pytest.raises(UnitxtError, match="needs a list"):
        template.render({"text": "t"}, {"labels": "a"})


def pairwise(shuffle):
    return PairwiseChoiceTemplate(input_format="A: {answer_a} B: {answer_b}", output_format="[[{winner}]]",
                                  choice_a_field="answer_a", choice_b_field="answer_b", answer_field="winner",
                                  choice_a_label="A", choice_b_label="B", choice_tie_label="C", shuffle=shuffle)


def test_pairwise_choice_template_verbalises_and_swaps_consistently():
    rendered = pairwise(False).render({"answer_a": "x", "answer_b": "y"}, {"winner": "choice_a"})
    assert (rendered["source"], rendered["target"]) == ("A: x B: y", "[[A]]")
    assert pairwise(False).render({"answer_a": "x", "answer_b": "y"}, {"winner": "tie"})["target"] == "[[C]]"
    swapped = unswapped = 0
    for index in range(40):
        inputs = {"answer_a": f"x{index}", "answer_b": f"y{index}"}
        rendered = pairwise(True).render(inputs, {"winner": "choice_a"})
        assert rendered == pairwise(True).render(inputs, {"winner": "choice_a"})  # deterministic
        if rendered["source"].startswith(f"A: y{index}"):
            swapped += 1
            assert rendered["target"] == "[[B]]"
        else:
            unswapped += 1
            assert rendered["target"] == "[[A]]"
    assert swapped > 5 and unswapped > 5
    with pytest.raises(UnitxtError, match="choice_a, choice_b or tie"):
        pairwise(False).render({"answer_a": "x", "answer_b": "y"}, {"winner": "A"})


def test_pairwise_comparative_rating_negates_the_score_when_swapping():
    template = PairwiseComparativeRatingTemplate(
        input_format="{model_a}:{answer_a} {model_b}:{answer_b}", output_format="{pref}", choice_a_field="answer_a",
        choice_b_field="answer_b", choice_a_id_field="model_a", choice_b_id_field="model_b", answer_field="pref",
        shuffle=True)
    outcomes = set()
    for index in range(30):
        inputs = {"answer_a": f"a{index}", "answer_b": f"b{index}", "model_a": "M1", "model_b": "M2"}
        rendered = template.render(inputs, {"pref": 3})
        outcomes.add((rendered["source"].startswith("M2"), rendered["target"]))
    assert outcomes == {(False, "3"), (True, "-3")}


def test_dialog_templates():
    fields = DialogFieldsData(dialog_field="dialog", user_role_label="### User:", assistant_role_label="### Assistant:",
                              system_role_label="### System:")
    template = DialogTemplate(dialog_fields=[fields], input_format="{dialog}", output_format="[[{rating}]]",
                              turns_separator="\n\n", label_separator="\n")
    dialog = [["system", "Be brief."], ["user", "Hi"], ["assistant", "Hello"]]
    rendered = template.render({"dialog": dialog}, {"rating": 5})
    assert rendered["source"] == "### System:\nBe brief.\n\n### User:\nHi\n\n### Assistant:\nHello"
    assert rendered["target"] == "[[5]]"
    both = DialogPairwiseChoiceTemplate(
        dialog_fields=[DialogFieldsData(dialog_field=name, user_role_label="U:", assistant_role_label="A:",
                                        system_role_label="S:") for name in ("dialog_a", "dialog_b")],
        input_format="{dialog_a} | {dialog_b}", output_format="[[{winner}]]", choice_a_field="dialog_a",
        choice_b_field="dialog_b", answer_field="winner", choice_a_label="A", choice_b_label="B",
        choice_tie_label="C", shuffle=False, label_separator=" ")
    rendered = both.render({"dialog_a": [["user", "q"], ["assistant", "x"]],
                            "dialog_b": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "y"}]},
                           {"winner": "choice_b"})
    assert (rendered["source"], rendered["target"]) == ("U: q\n\nA: x | U: q\n\nA: y", "[[B]]")


def test_multi_turn_template_needs_its_turns_field():
    template = MultiTurnTemplate(references_field="answers", turns_field="conversation/dialog", instruction="Answer.")
    rendered = template.render({"conversation": {"dialog": [{"role": "user", "content": "hi"}]}}, {"answers": ["a"]})
    assert (rendered["source"], rendered["references"]) == ('[{"role": "user", "content": "hi"}]', ["a"])
    with pytest.raises(UnitxtError, match="turns_field"):
        template.render({"other": 1}, {"answers": ["a"]})


def test_json_output_template():
    template = JsonOutputTemplate(input_format="", output_fields={"answer": "reference_answers", "ids": "ids"},
                                  wrap_with_list_fields=["ids"])
    rendered = template.render({}, {"answer": "yes", "ids": "d1"})
    assert json.loads(rendered["target"]) == {"reference_answers": "yes", "ids": ["d1"]}
    assert rendered["references"] == [rendered["target"]]


def test_span_labeling_json_template():
    template = SpanLabelingJsonTemplate(input_format="{text}")
    rendered = template.render({"text": "Ann met Bob in Rome"},
                               {"spans_starts": [15, 0, 8], "spans_ends": [19, 3, 11], "labels": ["LOC", "PER", "PER"],
                                "text": "Ann met Bob in Rome"})
    assert json.loads(rendered["target"]) == {"PER": ["Ann", "Bob"], "LOC": ["Rome"]}
    empty = template.render({"text": "x"}, {"spans_starts": [], "spans_ends": [], "labels": []})
    assert (empty["target"], empty["references"]) == ("None", ["None"])  # as the original (no span: "None")


def test_span_texts_escape_separators_and_the_parser_reads_them_back():
    from unitxt.processors import ToSpanLabelPairs

    template = SpanLabelingTemplate(input_format="{text}")
    text = "Smith, J.: CEO of A:B Corp"
    rendered = template.render({"text": text}, {"spans_starts": [0, 18], "spans_ends": [9, 26],
                                                "labels": ["PER", "ORG"], "text": text})
    assert rendered["target"] == "Smith\\, J.: PER, A\\:B Corp: ORG"
    assert ToSpanLabelPairs().process_value(rendered["target"]) == [("Smith\\, J.", "PER"), ("A\\:B Corp", "ORG")]
    plain = SpanLabelingTemplate(input_format="{text}", escape_characters=None)
    assert plain.render({"text": text}, {"spans_starts": [18], "spans_ends": [26], "labels": ["ORG"],
                                         "text": text})["target"] == "A:B Corp: ORG"


def test_apply_single_and_random_template_render_instance_and_demos():
    from unitxt.templates import ApplyRandomTemplate, ApplySingleTemplate

    first = InputOutputTemplate(input_format="Q1 {q}", output_format="{a}")
    second = InputOutputTemplate(input_format="Q2 {q}", output_format="{a}")
    row = {"input_fields": {"q": "2+2"}, "reference_fields": {"a": "4"},
           "demos": [{"input_fields": {"q": "1+1"}, "reference_fields": {"a": "2"}}]}
    single = ApplySingleTemplate(template=first, demos_field="demos").process_instance(row)
    assert single["source"] == "Q1 2+2" and single["recipe_metadata"]["template"] is first
    assert single["demos"][0]["source"] == "Q1 1+1" and single["demos"][0]["input_fields"] == {"q": "1+1"}
    chooser = ApplyRandomTemplate(templates=[first, second], demos_field="demos")
    picked = chooser.process_instance(row)
    assert picked["recipe_metadata"]["template"] in (first, second)
    assert picked["demos"][0]["source"].split()[0] == picked["source"].split()[0]  # one template per instance
    assert all(chooser.process_instance(row)["source"] == picked["source"] for _ in range(3))
    with pytest.raises(UnitxtError, match="demos"):
        ApplySingleTemplate(template=first, demos_field="demos").process_instance(
            {"input_fields": {"q": "x"}, "reference_fields": {"a": "y"}})


def test_base_template_hooks_reached_through_super_return_none():
    from unitxt.templates import Template, TemplatesDict, TemplatesList

    class Echo(Template):
        def input_fields_to_source(self, input_fields):
            return super().input_fields_to_source(input_fields) or "echo"

        def reference_fields_to_target_and_references(self, reference_fields):
            return super().reference_fields_to_target_and_references(reference_fields) or ("t", ["t"])

    assert Echo().render({"x": 1}, {"y": 2})["source"] == "echo"
    assert len(TemplatesDict()) == 0 and len(TemplatesList()) == 0
