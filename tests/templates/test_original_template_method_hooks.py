"""Templates subclassed the original's way (overriding its multiple-choice, pairwise, dialog, span-labeling and
key-value methods with the original's signatures) render with the override in effect; the methods programs call
give what the rendered rows show."""

import json

from unitxt.templates import (DialogFieldsData, DialogTemplate, KeyValTemplate, MultipleChoiceTemplate,
                              PairwiseChoiceTemplate, PairwiseComparativeRatingTemplate, SpanLabelingJsonTemplate,
                              SpanLabelingTemplate)


def mc_instance(answer=1):
    return {"input_fields": {"question": "Sky?", "choices": ["red", "blue", "green"]},
            "reference_fields": {"answer": answer, "choices": ["red", "blue", "green"]}}


def mc(cls=MultipleChoiceTemplate, **kwargs):
    return cls(input_format="{question} {choices} ({numerals})", target_field="answer", **kwargs)


def test_multiple_choice_methods_give_what_the_row_shows():
    template = mc()
    fields = mc_instance()["input_fields"]
    assert template.inputs_to_choices(fields, "{choice_numeral}. {choice_text}") == ["A. red", "B. blue", "C. green"]
    assert template.inputs_to_choices(fields, "{choice_text}/{choice_numeral}") == ["red/A", "blue/B", "green/C"]
    assert template.inputs_to_numerals(fields) == ["A", "B", "C"]
    assert template.prepare_multiple_choice_inputs(fields) == {"numerals": ["A", "B", "C"], "question": "Sky?",
                                                               "choices": "A. red, B. blue, C. green"}
    assert template.outputs_to_target_index({"answer": "green", "choices": fields["choices"]}) == 2
    out = template.process_instance(mc_instance())
    assert out["source"] == "Sky? A. red, B. blue, C. green (A, B, C)"
    assert out["target"] == "B"
    assert template.input_fields_to_source(fields) == out["source"]


def test_multiple_choice_hooks_overridden():
    class Starred(MultipleChoiceTemplate):
        def inputs_to_choices(self, data, choice_format):
            return [f"*{choice}" for choice in super().inputs_to_choices(data, choice_format)]

        def inputs_to_numerals(self, input_fields):
            return [str(index) for index in range(len(input_fields["choices"]))]

    class LastIsRight(MultipleChoiceTemplate):
        def outputs_to_target_index(self, reference_fields):
            return len(reference_fields["choices"]) - 1

    starred = mc(Starred).process_instance(mc_instance())
    assert starred["source"] == "Sky? *A. red, *B. blue, *C. green (0, 1, 2)"
    last = mc(LastIsRight).process_instance(mc_instance(answer=0))
    assert (last["target"], last["references"]) == ("C", ["C"])
    assert mc(LastIsRight).reference_fields_to_target_and_references(mc_instance(0)["reference_fields"]) == ("C", ["C"])


def pairwise_instance(answer="choice_a"):
    return {"input_fields": {"question": "q", "answer_a": "first", "answer_b": "second"},
            "reference_fields": {"winner": answer}}


PAIRWISE = dict(input_format="{question} 1:{answer_a} 2:{answer_b}", output_format="{winner}",
                choice_a_field="answer_a", choice_b_field="answer_b", answer_field="winner",
                choice_a_label="1", choice_b_label="2", choice_tie_label="=")


def test_pairwise_verbalize_and_shuffle():
    template = PairwiseChoiceTemplate(**PAIRWISE)
    assert template.verbalize_answer_field({"winner": "tie"}) == {"winner": "="}
    inputs, references = template.shuffle_values({"answer_a": "x", "answer_b": "y"}, {"winner": "1"})
    assert (inputs, references) == ({"answer_a": "x", "answer_b": "y"}, {"winner": "1"})  # shuffle is off

    class AlwaysSwap(PairwiseChoiceTemplate):
        def shuffle_values(self, input_fields, reference_fields):
            input_fields["answer_a"], input_fields["answer_b"] = input_fields["answer_b"], input_fields["answer_a"]
            reference_fields["winner"] = {"1": "2", "2": "1"}.get(reference_fields["winner"], "=")
            return input_fields, reference_fields

    class Verbose(PairwiseChoiceTemplate):
        def verbalize_answer_field(self, reference_fields):
            reference_fields["winner"] = "answer " + reference_fields["winner"][-1].upper()
            return reference_fields

    swapped = AlwaysSwap(**PAIRWISE).process_instance(pairwise_instance())
    assert (swapped["source"], swapped["target"]) == ("q 1:second 2:first", "2")
    assert Verbose(**PAIRWISE).process_instance(pairwise_instance("choice_b"))["target"] == "answer B"


def test_pairwise_comparative_rating_shuffle_values():
    class Negated(PairwiseComparativeRatingTemplate):
        def shuffle_values(self, input_fields, reference_fields):
            return input_fields, {"score": -reference_fields["score"]}

    template = Negated(input_format="{a} vs {b}", output_format="{score}", choice_a_field="a", choice_b_field="b",
                       choice_a_id_field="ia", choice_b_id_field="ib", answer_field="score")
    out = template.process_instance({"input_fields": {"a": "x", "b": "y", "ia": 1, "ib": 2},
                                     "reference_fields": {"score": 3}})
    assert out["target"] == "-3"


def test_dialog_template_process_dialog():
    labels = DialogFieldsData(user_role_label="U", assistant_role_label="A", system_role_label="S",
                              dialog_field="dialog")
    fields = {"dialog": [["user", "hi"], ["assistant", "hello"]]}
    template = DialogTemplate(input_format="{dialog}", output_format="{out}", dialog_fields=[labels])
    assert template.process_dialog(dict(fields)) == {"dialog": "U hi\n\nA hello"}

    class Counted(DialogTemplate):
        def process_dialog(self, input_fields):
            return {**input_fields, "dialog": f"{len(input_fields['dialog'])} turns"}

    out = Counted(input_format="{dialog}", output_format="{out}", dialog_fields=[labels]).process_instance(
        {"input_fields": fields, "reference_fields": {"out": "x"}})
    assert out["source"] == "2 turns"


SPANS = {"text": "Rome: big, Oslo", "spans_starts": [11, 0], "spans_ends": [15, 4], "labels": ["LOC", "CITY"]}


def test_span_label_pairs_to_targets():
    plain = SpanLabelingTemplate(input_format="{text}")
    assert plain.span_label_pairs_to_targets([("Rome:", "LOC"), ("a,b", "X")]) == ["Rome\\:: LOC", "a\\,b: X"]
    assert plain.process_instance({"input_fields": {"text": SPANS["text"]},
                                   "reference_fields": SPANS})["target"] == "Rome: CITY, Oslo: LOC"
    as_json = SpanLabelingJsonTemplate(input_format="{text}")
    assert as_json.span_label_pairs_to_targets([("Rome", "CITY"), ("Oslo", "CITY")]) == [
        json.dumps({"CITY": ["Rome", "Oslo"]})]
    assert as_json.span_label_pairs_to_targets([]) == []

    class Reversed(SpanLabelingTemplate):
        def span_label_pairs_to_targets(self, span_label_pairs):
            return [f"{label}={span}" for span, label in reversed(list(span_label_pairs))]

    out = Reversed(input_format="{text}").process_instance({"input_fields": {"text": SPANS["text"]},
                                                            "reference_fields": SPANS})
    assert out["target"] == "LOC=Oslo, CITY=Rome"


def test_key_val_template_process_dict():
    template = KeyValTemplate()
    assert template.process_dict({"a": 1, "b": "x"}, key_val_sep="=", pairs_sep="; ", use_keys=True) == "a=1; b=x"
    assert template.process_dict({"a": 1, "b": "x"}, key_val_sep="=", pairs_sep="|", use_keys=False) == "1|x"

    class Sorted(KeyValTemplate):
        def process_dict(self, data, key_val_sep, pairs_sep, use_keys):
            return super().process_dict(dict(sorted(data.items())), key_val_sep, pairs_sep, use_keys)

    out = Sorted().process_instance({"input_fields": {"z": "last", "a": "first"}, "reference_fields": {"y": "t"}})
    assert out["source"] == "a: first, z: last"
