"""Templates: the examples of adding_template.rst, the instance contract, every template class, errors, round trips."""

import json
from typing import Any, Dict, List, Tuple

import pytest

from unitxt.artifact import Artifact
from unitxt.catalog import add_to_catalog, get_from_catalog
from unitxt.errors import ArtifactDefinitionError, InstanceTypeError, MissingFieldError, UnitxtError
from unitxt.format_utils import FormatStringError
from unitxt.operator import FieldOperator
from unitxt.serializers import ListSerializer, MultiTypeSerializer, NumberSerializer
from unitxt.stream import ListStream, MultiStream
from unitxt.templates import (
    InputFormatTemplate,
    InputOutputTemplate,
    KeyValTemplate,
    MultipleChoiceTemplate,
    MultiReferenceTemplate,
    Template,
    TemplatesDict,
    TemplatesList,
    YesNoTemplate,
)

TRANSLATION_INPUTS = {
    "text_type": "sentence",
    "source_language": "English",
    "target_language": "German",
    "text": "The cat sleeps",
}
TRANSLATION_REFERENCES = {"translation": "Die Katze schläft"}


def translation_template(**extra: Any) -> InputOutputTemplate:
    return InputOutputTemplate(
        instruction="In the following task, you translate a {text_type}.",
        input_format="Translate this {text_type} from {source_language} to {target_language}: {text}.",
        target_prefix="Translation: ",
        output_format="{translation}",
        **extra,
    )


def task_instance(input_fields: Dict[str, Any], reference_fields: Dict[str, Any], **extra: Any) -> Dict[str, Any]:
    instance = {
        "input_fields": input_fields,
        "reference_fields": reference_fields,
        "metrics": ["metrics.bleu"],
        "data_classification_policy": ["public"],
        "recipe_metadata": {"template": "templates.x", "num_demos": 1},
    }
    instance.update(extra)
    return instance


# ---------------------------------------------------------------- adding_template.rst
def test_doc_translation_template():
    rendered = translation_template().render(TRANSLATION_INPUTS, TRANSLATION_REFERENCES)
    assert rendered == {
        "source": "Translate this sentence from English to German: The cat sleeps.",
        "target": "Die Katze schläft",
        "references": ["Die Katze schläft"],
        "instruction": "In the following task, you translate a sentence.",
        "target_prefix": "Translation: ",
    }


def test_doc_translation_template_with_lower_case_postprocessor():
    template = translation_template(postprocessors=["processors.lower_case"])
    instance = template.process(task_instance(TRANSLATION_INPUTS, TRANSLATION_REFERENCES))
    assert instance["postprocessors"] == ["processors.lower_case"]
    assert template.postprocessors == ["processors.lower_case"]  # names are kept, never resolved by the template
    assert instance["source"] == "Translate this sentence from English to German: The cat sleeps."


class Lower(FieldOperator):
    # the documented example's class; registered under its own type name so that it does not replace the built-in
    # `lower` type (operators_fields.Lower) for the rest of the test session
    __type_name__ = "doc_example_lower"

    def process_value(self, text: Any) -> Any:
        return text.lower()


def test_doc_translation_template_with_post_process_operator():
    try:  # processors.py is written separately; the template must accept its operators either way
        from unitxt.processors import PostProcess

        postprocessor = PostProcess(Lower(), process_references=False)
    except ImportError:
        postprocessor = Lower()
    template = translation_template(postprocessors=[postprocessor])
    assert template.postprocessors[0] is postprocessor
    assert template.get_postprocessors() == [postprocessor]
    instance = template.process(task_instance(TRANSLATION_INPUTS, TRANSLATION_REFERENCES))
    (written,) = instance["postprocessors"]
    assert isinstance(written, str)
    assert Artifact.from_dict(json.loads(written)) == postprocessor
    restored = Artifact.from_dict(template.to_dict())
    assert restored == template and isinstance(restored.postprocessors[0], type(postprocessor))


def test_postprocessors_must_be_names_or_operators():
    with pytest.raises(ArtifactDefinitionError, match="postprocessors"):
        translation_template(postprocessors=[3])


def test_default_postprocessors():
    assert translation_template().postprocessors == ["processors.to_string_stripped"]


def test_doc_multi_reference_template():
    template = MultiReferenceTemplate(
        instruction="Answer the question based on the information provided in the document given below. The answer "
        "should be a single word, a number, or a short phrase of a few words.\n\n",
        input_format="Document: {context}\nQuestion: {question}",
        target_prefix="Answer: ",
        references_field="answers",
    )
    rendered = template.render(
        {"context": "Paris is in France.", "question": "Where is Paris?"}, {"answers": ["France", "in France"]}
    )
    assert rendered["source"] == "Document: Paris is in France.\nQuestion: Where is Paris?"
    assert rendered["target"] == "France"
    assert rendered["references"] == ["France", "in France"]
    assert rendered["instruction"].endswith("a few words.\n\n")
    assert rendered["target_prefix"] == "Answer: "


class MyCustomTemplate(Template):
    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        return json.dumps(input_fields)

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        return reference_fields["top_answer"], [reference_fields["top_answer"], reference_fields["alternative_answer"]]


def test_doc_custom_template():
    template = MyCustomTemplate(instruction="Answer about {topic}.")
    instance = template.process(
        task_instance({"topic": "cats", "question": "?"}, {"top_answer": "a", "alternative_answer": "b"})
    )
    assert instance["source"] == '{"topic": "cats", "question": "?"}'
    assert instance["target"] == "a"
    assert instance["references"] == ["a", "b"]
    assert instance["instruction"] == "Answer about cats."


def test_custom_template_returning_wrong_types_is_reported():
    class Bad(Template):
        def input_fields_to_source(self, input_fields):
            return 3

        def reference_fields_to_target_and_references(self, reference_fields):
            return "t", ["r"]

    with pytest.raises(InstanceTypeError, match="expected str"):
        Bad().render({}, {})


def test_base_template_without_implementation():
    with pytest.raises(NotImplementedError):
        Template().render({}, {})


def test_subclass_overriding_a_documented_hook_is_used():
    class Shouting(InputOutputTemplate):
        def input_fields_to_source(self, input_fields):
            return input_fields["text"].upper()

    rendered = Shouting(input_format="{text}", output_format="{label}").render({"text": "hi"}, {"label": "x"})
    assert rendered["source"] == "HI" and rendered["target"] == "x"


# ---------------------------------------------------------------- the instance contract
def test_process_adds_the_rendered_parts_and_renders_demos():
    demo = {
        "input_fields": dict(TRANSLATION_INPUTS, text="Good day", text_type="greeting"),
        "reference_fields": {"translation": "Guten Tag"},
    }
    instance = task_instance(TRANSLATION_INPUTS, TRANSLATION_REFERENCES, demos=[demo])
    metadata = json.loads(json.dumps(instance["recipe_metadata"]))
    result = translation_template().process(instance)
    assert result["source"] == "Translate this sentence from English to German: The cat sleeps."
    assert result["target"] == "Die Katze schläft"
    assert result["references"] == ["Die Katze schläft"]
    assert result["instruction"] == "In the following task, you translate a sentence."
    assert result["target_prefix"] == "Translation: "
    assert result["postprocessors"] == ["processors.to_string_stripped"]
    assert result["demos"] == [
        {
            "source": "Translate this greeting from English to German: Good day.",
            "target": "Guten Tag",
            "target_prefix": "Translation: ",
            "instruction": "In the following task, you translate a greeting.",
        }
    ]
    assert result["input_fields"] == TRANSLATION_INPUTS
    assert result["reference_fields"] == TRANSLATION_REFERENCES
    assert result["recipe_metadata"] == metadata
    assert result["metrics"] == ["metrics.bleu"]


def test_process_without_demos_adds_none():
    result = translation_template().process(task_instance(TRANSLATION_INPUTS, TRANSLATION_REFERENCES))
    assert "demos" not in result
    result = translation_template().process(task_instance(TRANSLATION_INPUTS, TRANSLATION_REFERENCES, demos=[]))
    assert result["demos"] == []


def test_already_rendered_demos_pass_through():
    rendered_demo = {"source": "s", "target": "t", "target_prefix": "p", "instruction": "i"}
    result = translation_template().process(
        task_instance(TRANSLATION_INPUTS, TRANSLATION_REFERENCES, demos=[rendered_demo])
    )
    assert result["demos"] == [rendered_demo]


def test_render_is_pure():
    inputs = {"text": "a", "tags": ["x", "y"]}
    references = {"labels": ["p", "q"]}
    frozen = json.dumps([inputs, references])
    template = InputOutputTemplate(input_format="{text} {tags}", output_format="{labels}")
    assert template.render(inputs, references) == template.render(inputs, references)
    assert json.dumps([inputs, references]) == frozen


def test_process_through_a_stream():
    instances = [task_instance(dict(TRANSLATION_INPUTS, text=f"t{i}"), {"translation": f"u{i}"}) for i in range(3)]
    stream = translation_template()(MultiStream({"test": ListStream(instances)}))["test"]
    assert [instance["target"] for instance in stream] == ["u0", "u1", "u2"]


def test_missing_task_fields_in_instance():
    with pytest.raises(MissingFieldError, match="input_fields"):
        translation_template().process({"source": "x"})


# ---------------------------------------------------------------- errors name the template and the field
def test_missing_input_field_names_template_and_field():
    inputs = dict(TRANSLATION_INPUTS)
    del inputs["target_language"]
    with pytest.raises(MissingFieldError) as info:
        translation_template().render(inputs, TRANSLATION_REFERENCES)
    error = info.value
    assert error.field == "target_language"
    assert error.artifact == "InputOutputTemplate"
    message = str(error)
    assert "input_format" in message and "target_language" in message
    assert "Available input fields are [text_type, source_language, text]" in message  # the instance's order


def test_missing_field_in_instruction_is_reported_for_instruction():
    template = InputOutputTemplate(instruction="About {topic}.", input_format="{text}", output_format="")
    with pytest.raises(MissingFieldError, match="instruction") as info:
        template.render({"text": "x"}, {})
    assert info.value.field == "topic"


def test_missing_reference_field():
    with pytest.raises(MissingFieldError) as info:
        translation_template().render(TRANSLATION_INPUTS, {"other": "x"})
    assert info.value.field == "translation" and "output_format" in str(info.value)


def test_errors_use_the_catalog_name(temp_catalog):
    add_to_catalog(translation_template(), "templates.translation.mine", catalog_path=str(temp_catalog), verbose=False)
    template = get_from_catalog("templates.translation.mine")
    with pytest.raises(MissingFieldError) as info:
        template.render({"text": "x"}, TRANSLATION_REFERENCES)
    assert info.value.artifact == "templates.translation.mine"
    assert "templates.translation.mine" in str(info.value)


def test_unsafe_format_in_catalog_json_is_refused_with_catalog_name(temp_catalog):
    path = temp_catalog / "templates" / "evil.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps({"__type__": "input_output_template", "input_format": "{text.__class__}", "output_format": ""})
    )
    with pytest.raises(FormatStringError) as info:
        get_from_catalog("templates.evil")
    message = str(info.value)
    assert "templates.evil" in message and "{text.__class__}" in message and "input_format" in message


def test_refused_format_at_construction_names_the_class_and_field():
    with pytest.raises(FormatStringError) as info:
        InputOutputTemplate(input_format="{a[0]}", output_format="{b}")
    assert "InputOutputTemplate.input_format" in str(info.value)
    with pytest.raises(FormatStringError, match="InputOutputTemplate.output_format"):
        InputOutputTemplate(input_format="{a}", output_format="{b.c}")
    with pytest.raises(FormatStringError, match="InputOutputTemplate.instruction"):
        InputOutputTemplate(input_format="{a}", output_format="", instruction="{x!a}")


def test_errors_are_unitxt_errors_when_run_in_a_stream():
    stream = translation_template()(MultiStream({"test": ListStream([task_instance({"text": "x"}, {})])}))["test"]
    with pytest.raises(UnitxtError) as info:
        list(stream)
    assert "instance 0" in str(info.value)


# ---------------------------------------------------------------- InputOutputTemplate details
def test_output_format_empty_means_no_references():
    rendered = InputOutputTemplate(input_format="{text}", output_format="").render({"text": "x"}, {"label": "y"})
    assert rendered["target"] == "" and rendered["references"] == []


def test_input_format_template_has_no_references():
    template = InputFormatTemplate(input_format="Q: {q}", target_prefix="A: ")
    rendered = template.render({"q": "why?"}, {})
    assert rendered == {"source": "Q: why?", "target": "", "references": [], "instruction": "", "target_prefix": "A: "}


def test_output_format_is_required():
    with pytest.raises(ArtifactDefinitionError, match="output_format"):
        InputOutputTemplate(input_format="{x}")


def test_list_verbalisation():
    template = InputOutputTemplate(
        instruction="Classify to one of {classes}.", input_format="{text}", output_format="{labels}"
    )
    rendered = template.render({"text": "t", "classes": ["happy", "angry", "sad"]}, {"labels": ["happy", "angry"]})
    assert rendered["instruction"] == "Classify to one of happy, angry, sad."
    assert rendered["target"] == "happy,angry"  # adding_template.rst: ["happy","angry"] becomes "happy,angry"
    assert rendered["references"] == ["happy,angry"]
    spaced = InputOutputTemplate(input_format="{text}", output_format="{labels}", output_list_separator=", ")
    assert spaced.render({"text": "t"}, {"labels": ["a", "b"]})["target"] == "a, b"


def test_non_text_values_and_format_specs():
    template = InputOutputTemplate(input_format="{question} ({score:.1f}) {meta}", output_format="{answer:>4}|{count}")
    rendered = template.render({"question": "q", "score": 0.25, "meta": {"k": 1}}, {"answer": 7, "count": 2})
    assert rendered["source"] == 'q (0.2) {"k": 1}'
    assert rendered["target"] == "   7|2"


def test_template_serializer_applies_to_inputs():
    template = InputOutputTemplate(
        input_format="{numbers} / {value}",
        output_format="{label}",
        serializer=MultiTypeSerializer(serializers=[ListSerializer(separator=" + "), NumberSerializer(decimals=2)]),
    )
    assert template.render({"numbers": [1, 2], "value": 0.5}, {"label": "x"})["source"] == "1 + 2 / 0.50"


def test_literal_braces_in_templates():
    template = InputOutputTemplate(
        input_format='Reply as JSON {{"answer": ...}}: {q}', output_format='{{"answer": "{a}"}}'
    )
    rendered = template.render({"q": "?"}, {"a": "yes"})
    assert rendered["source"] == 'Reply as JSON {"answer": ...}: ?'
    assert rendered["target"] == '{"answer": "yes"}'


# ---------------------------------------------------------------- MultiReferenceTemplate
def test_multi_reference_random_reference_is_seeded():
    template = MultiReferenceTemplate(input_format="{q}", references_field="answers", random_reference=True)
    answers = [f"a{i}" for i in range(20)]
    # the seed is the verbalised reference fields (as the original): the same answers give the same pick whatever
    # the question, other answer lists give other picks
    targets = {template.render({"q": f"question {i}"}, {"answers": answers})["target"] for i in range(30)}
    assert len(targets) == 1 and targets <= set(answers)
    picks = {template.render({"q": "q"}, {"answers": [f"b{i}-{j}" for j in range(20)]})["target"][-2:]
             for i in range(30)}
    assert len(picks) > 1
    first = template.render({"q": "same"}, {"answers": answers})
    assert all(template.render({"q": "same"}, {"answers": answers}) == first for _ in range(5))
    assert first["references"] == answers


def test_multi_reference_errors():
    template = MultiReferenceTemplate(input_format="{q}", references_field="answers")
    rendered = template.render({"q": "x"}, {"answers": []})  # no reference: empty target, as the original
    assert (rendered["target"], rendered["references"]) == ("", [])
    with pytest.raises(InstanceTypeError, match="list"):
        template.render({"q": "x"}, {"answers": "just one"})
    with pytest.raises(MissingFieldError, match="answers"):
        template.render({"q": "x"}, {"other": ["a"]})


def test_multi_reference_serialises_non_text_references():
    template = MultiReferenceTemplate(input_format="{q}", references_field="answers")
    assert template.render({"q": "x"}, {"answers": [3, 4.5]})["references"] == ["3", "4.5"]


# ---------------------------------------------------------------- MultipleChoiceTemplate
def mc_template(**extra: Any) -> MultipleChoiceTemplate:
    return MultipleChoiceTemplate(
        target_field="answer",
        instruction="Answer with one of {numerals}.",
        input_format="Question: {question}\nChoices: {choices}\nAnswer:",
        **extra,
    )


MC_INPUTS = {"question": "What is 2+2?", "choices": ["3", "4", "5", "22"]}


def test_multiple_choice_default_rendering():
    rendered = mc_template().render(MC_INPUTS, {"answer": 1})
    assert rendered == {
        "source": "Question: What is 2+2?\nChoices: A. 3, B. 4, C. 5, D. 22\nAnswer:",
        "target": "B",
        "references": ["B"],
        "instruction": "Answer with one of A, B, C, D.",
        "target_prefix": "",
        "options": ["A", "B", "C", "D"],
    }
    # the class default strips only (as in the original system); catalog templates add processors.first_character
    assert mc_template().postprocessors == ["processors.to_string_stripped"]


def test_multiple_choice_answer_as_text():
    assert mc_template().render(MC_INPUTS, {"answer": "22"})["target"] == "D"


@pytest.mark.parametrize(
    "enumerator, numerals",
    [
        ("capitals", ["A", "B", "C", "D"]),
        ("lowercase", ["a", "b", "c", "d"]),
        ("numbers", ["1", "2", "3", "4"]),
        ("roman", ["I", "II", "III", "IV"]),
        (["α", "β", "γ", "δ", "ε"], ["α", "β", "γ", "δ"]),
        ("!@#$%^₪*)(", ["!", "@", "#", "$"]),  # any other string: its characters, as the original
        ("greek", ["g", "r", "e", "e"]),
    ],
)
def test_multiple_choice_enumerators(enumerator, numerals):
    rendered = mc_template(enumerator=enumerator).render(MC_INPUTS, {"answer": 3})
    assert rendered["instruction"] == f"Answer with one of {', '.join(numerals)}."
    assert f"{numerals[0]}. 3, {numerals[1]}. 4" in rendered["source"]
    assert rendered["target"] == numerals[3]


def test_roman_numerals_beyond_four():
    assert mc_template(enumerator="roman").numerals(14)[8:] == ["IX", "X", "XI", "XII", "XIII", "XIV"]


def test_multiple_choice_custom_formats_and_separator():
    template = mc_template(
        source_choice_format="({choice_numeral}) {choice_text}",
        target_choice_format="{choice_numeral}) {choice_text}",
        choices_separator="\n",
        target_prefix="Answer: ",
    )
    rendered = template.render(MC_INPUTS, {"answer": 0})
    assert rendered["source"] == "Question: What is 2+2?\nChoices: (A) 3\n(B) 4\n(C) 5\n(D) 22\nAnswer:"
    assert rendered["target"] == "A) 3"


def test_multiple_choice_shuffle_is_deterministic_and_consistent():
    template = mc_template(shuffle_choices=True)
    choices = [f"option {i}" for i in range(8)]
    orders = set()
    for question in range(20):
        inputs = {"question": f"q{question}", "choices": choices}
        first = template.render(inputs, {"answer": 5})
        assert template.render(inputs, {"answer": 5}) == first  # same instance -> same order
        listed = first["source"].split("Choices: ")[1].split("\nAnswer:")[0].split(", ")
        texts = [item.split(". ", 1)[1] for item in listed]
        assert sorted(texts) == choices
        numeral = first["target"]
        assert f"{numeral}. option 5" in listed  # the target names the answer's position after shuffling
        assert first["references"] == [numeral]
        orders.add(tuple(texts))
    assert len(orders) > 1  # different instances get different permutations


def test_multiple_choice_shuffle_seed_changes_order():
    inputs = {"question": "q", "choices": [str(i) for i in range(10)]}
    sources = {
        mc_template(shuffle_choices=True, shuffle_choices_seed=seed).render(inputs, {"answer": 0})["source"]
        for seed in range(6)
    }
    assert len(sources) > 1


def test_multiple_choice_fields_and_choices_from_reference_fields():
    template = MultipleChoiceTemplate(input_format="{q} {choices}", choices_field="options", target_field="label")
    rendered = template.render({"q": "?"}, {"options": ["x", "y"], "label": 1})
    assert rendered["source"] == "? A. x, B. y" and rendered["target"] == "B"
    assert template.input_fields_to_source({"q": "?", "options": ["x", "y"]}) == "? A. x, B. y"
    assert template.reference_fields_to_target_and_references({"options": ["x", "y"], "label": "x"}) == ("A", ["A"])


def test_multiple_choice_negative_answer_index_counts_from_the_end():
    """As the original: an answer index of -1 (PIQA's hidden test labels) names the last choice, -4 the first."""
    assert mc_template().render(MC_INPUTS, {"answer": -1})["target"] == "D"
    assert mc_template().render(MC_INPUTS, {"answer": -4})["references"] == ["A"]
    with pytest.raises(InstanceTypeError, match=r"out of range for 4 choices \(-4\.\.3\)"):
        mc_template().render(MC_INPUTS, {"answer": -5})


def test_multiple_choice_errors():
    template = mc_template()
    with pytest.raises(InstanceTypeError, match="out of range"):
        template.render(MC_INPUTS, {"answer": 4})
    with pytest.raises(InstanceTypeError, match="neither an index nor one of the choices"):
        template.render(MC_INPUTS, {"answer": "six"})
    with pytest.raises(MissingFieldError, match="answer"):
        template.render(MC_INPUTS, {})
    with pytest.raises(MissingFieldError, match="choices"):
        template.render({"question": "q"}, {"answer": 0})
    with pytest.raises(InstanceTypeError, match="26 numerals"):
        template.render({"question": "q", "choices": [str(i) for i in range(27)]}, {"answer": 0})
    with pytest.raises(ArtifactDefinitionError, match="enumerator is empty"):
        mc_template(enumerator="")
    with pytest.raises(InstanceTypeError, match="3 numerals"):
        mc_template(enumerator="xyz").render(MC_INPUTS, {"answer": 0})
    with pytest.raises(FormatStringError, match="choice_number"):
        mc_template(source_choice_format="{choice_number}")


# ---------------------------------------------------------------- YesNoTemplate
def test_yes_no_template():
    template = YesNoTemplate(
        input_format="Text: {text}\nIs the text about {class}?", class_field="class", label_field="labels"
    )
    yes = template.render({"text": "t", "class": "sports"}, {"labels": ["politics", "sports"]})
    assert yes["source"] == "Text: t\nIs the text about sports?"
    assert yes["target"] == "Yes" and yes["references"] == ["Yes"]
    assert template.render({"text": "t", "class": "food"}, {"labels": ["sports"]})["target"] == "No"
    with pytest.raises(InstanceTypeError, match="Expecting a list"):  # gold labels must be a list (as the original)
        template.render({"text": "t", "class": "food"}, {"labels": "food"})
    custom = YesNoTemplate(
        input_format="{text}", class_field="class", label_field="labels", yes_answer="True", no_answer="False"
    )
    assert custom.render({"text": "t", "class": "a"}, {"labels": []})["target"] == "False"
    with pytest.raises(MissingFieldError, match="labels"):
        template.render({"text": "t", "class": "a"}, {})
    with pytest.raises(MissingFieldError, match="class"):
        custom.render({"text": "t"}, {"labels": ["a"]})


def test_yes_no_template_error_wording_follows_the_original():
    template = YesNoTemplate(input_format="{q}", class_field="topic", label_field="gold")
    with pytest.raises(UnitxtError, match=r"Available reference_fields are \['topic'\], missing required label field: 'gold'"):
        template.reference_fields_to_target_and_references({"topic": "birds"})
    with pytest.raises(UnitxtError, match=r"Available reference_fields are \['gold'\], missing required class field: 'topic'"):
        template.reference_fields_to_target_and_references({"gold": ["birds"]})
    with pytest.raises(UnitxtError, match="Unexpected value for queried_class_names: ''. Expected a string"):
        template.reference_fields_to_target_and_references({"gold": ["birds"], "topic": ""})
    assert template.reference_fields_to_target_and_references({"gold": ["fish"], "topic": "fish"}) == ("Yes", ["Yes"])


def test_template_format_key_error_lists_the_available_fields():
    from unitxt.templates import TemplateFormatKeyError

    template = YesNoTemplate(input_format="Is {q} about {topic}?", class_field="topic", label_field="gold")
    with pytest.raises(TemplateFormatKeyError) as caught:
        template.input_fields_to_source({"q": "a sparrow"})
    message = str(caught.value)
    assert "Available input fields are [q] but YesNoTemplate.input_format format requires a different ones: " in message
    assert "'Is {q} about {topic}?'" in message
    assert isinstance(caught.value, (MissingFieldError, KeyError))
    wrong_output = InputOutputTemplate(input_format="{q}", output_format="{answer}")
    with pytest.raises(TemplateFormatKeyError, match=r"Available reference fields are \[label\] but "
                       r"InputOutputTemplate.output_format"):
        wrong_output.render({"q": "x"}, {"label": "y"})


# ---------------------------------------------------------------- KeyValTemplate
def test_key_val_template():
    inputs = {"text_a": "It works", "text_b": "Yes", "classes": ["entailment", "not entailment"]}
    rendered = KeyValTemplate().render(inputs, {"label": "entailment", "score": 1})
    assert rendered["source"] == "text_a: It works, text_b: Yes, classes: entailment, not entailment"
    assert rendered["target"] == "entailment,1" and rendered["references"] == ["entailment,1"]
    custom = KeyValTemplate(
        pairs_separator="\n",
        key_val_separator="=",
        use_keys_for_inputs=False,
        outs_separator=" | ",
        use_keys_for_outputs=True,
    )
    rendered = custom.render({"a": "1", "b": 2}, {"x": "y", "z": "w"})
    assert rendered["source"] == "1\n2"
    assert rendered["target"] == "x=y | z=w"


# ---------------------------------------------------------------- template collections
def test_templates_list_and_dict(temp_catalog):
    add_to_catalog(translation_template(), "templates.translation.doc", catalog_path=str(temp_catalog), verbose=False)
    listed = TemplatesList(
        [InputOutputTemplate(input_format="{text}", output_format="{translation}"), "templates.translation.doc"]
    )
    assert len(listed) == 2
    assert isinstance(listed[1], InputOutputTemplate) and listed[1].instruction.startswith("In the following")
    assert [type(item).__name__ for item in listed] == ["InputOutputTemplate", "InputOutputTemplate"]
    named = TemplatesDict(items={"plain": KeyValTemplate(), "doc": "templates.translation.doc"})
    assert set(named) == {"plain", "doc"} and named["doc"].target_prefix == "Translation: "
    assert Artifact.from_dict(listed.to_dict()) == listed
    assert Artifact.from_dict(named.to_dict()) == named
    with pytest.raises(ArtifactDefinitionError):
        TemplatesList(items=[3])


# ---------------------------------------------------------------- JSON round trip of every class
@pytest.mark.parametrize(
    "artifact",
    [
        translation_template(),
        translation_template(postprocessors=["processors.lower_case"], serializer=ListSerializer(separator="/")),
        InputOutputTemplate(input_format="{a}", output_format="", output_list_separator=";"),
        InputFormatTemplate(input_format="{q}", instruction="I"),
        MultiReferenceTemplate(input_format="{q}", references_field="answers", random_reference=True),
        mc_template(),
        mc_template(
            enumerator=["x", "y", "z", "w"], shuffle_choices=True, shuffle_choices_seed=3, choices_separator="\n"
        ),
        YesNoTemplate(input_format="{t}", class_field="c", label_field="l", yes_answer="Y", no_answer="N"),
        KeyValTemplate(pairs_separator="; ", use_keys_for_outputs=True),
        MyCustomTemplate(instruction="x"),
        TemplatesList([KeyValTemplate(), mc_template()]),
        TemplatesDict(items={"a": KeyValTemplate()}),
    ],
    ids=lambda artifact: type(artifact).__name__,
)
def test_round_trip(artifact):
    restored = Artifact.from_dict(artifact.to_dict())
    assert type(restored) is type(artifact)
    assert restored == artifact
    assert Artifact.from_json(artifact.to_json()) == artifact
    if isinstance(artifact, Template) and not isinstance(artifact, MyCustomTemplate):
        inputs = {
            "q": "?",
            "a": "x",
            "t": "t",
            "c": "c",
            "choices": ["1", "2", "3", "4"],
            "question": "q",
            **TRANSLATION_INPUTS,
        }
        references = {"answers": ["r1", "r2"], "answer": 2, "l": ["c"], **TRANSLATION_REFERENCES}
        assert restored.render(inputs, references) == artifact.render(inputs, references)


def test_serializer_given_as_catalog_name(temp_catalog):
    add_to_catalog(ListSerializer(separator=" | "), "serializers.pipe", catalog_path=str(temp_catalog), verbose=False)
    template = InputOutputTemplate(input_format="{tags}", output_format="", serializer="serializers.pipe")
    assert template.render({"tags": ["a", "b"]}, {})["source"] == "a | b"
    assert template.to_dict()["serializer"] == "serializers.pipe"
    assert Artifact.from_dict(template.to_dict()) == template
