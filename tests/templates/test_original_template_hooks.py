"""Templates subclassed the original's way: overriding preprocess_input_fields / preprocess_reference_fields /
preprocess_input_and_reference_fields / post_process_instance changes what is rendered, and the original's helper
methods (apply_formatting, serialize, set_titles, input_fields_to_instruction_and_target_prefix) mean the same."""

import pytest

from unitxt.errors import UnitxtError
from unitxt.templates import InputOutputTemplate


class Shouting(InputOutputTemplate):
    """Written against the original's hooks."""

    def preprocess_input_fields(self, input_fields):
        return {**input_fields, "question": input_fields["question"].upper()}

    def preprocess_reference_fields(self, reference_fields):
        return {"answer": reference_fields["answer"] + "!"}

    def post_process_instance(self, instance):
        instance["checked"] = True
        return instance


class Swapping(InputOutputTemplate):
    def preprocess_input_and_reference_fields(self, input_fields, reference_fields):
        return {"question": reference_fields["answer"]}, {"answer": input_fields["question"]}


def instance():
    return {"input_fields": {"question": "is it?"}, "reference_fields": {"answer": "yes"}}


def test_overridden_hooks_change_the_rendering():
    out = Shouting(input_format="Q: {question}", output_format="{answer}").process_instance(instance())
    assert (out["source"], out["target"], out["references"], out["checked"]) == ("Q: IS IT?", "yes!", ["yes!"], True)
    assert out["input_fields"] == {"question": "is it?"}  # the task's fields are not changed
    swapped = Swapping(input_format="{question}", output_format="{answer}").process_instance(instance())
    assert (swapped["source"], swapped["target"]) == ("yes", "is it?")


def test_the_original_helper_methods():
    template = InputOutputTemplate(input_format="{question}", output_format="{answer}", instruction="Answer {topic}.",
                                   target_prefix="A ({topic}): ", title_fields=["topic"])
    assert template.apply_formatting({"topic": "math"}, "input field", "On {topic}", "instruction") == "On math"
    with pytest.raises(UnitxtError, match="topic"):
        template.apply_formatting({}, "input field", "On {topic}", "instruction")
    assert template.serialize({"n": 3, "items": ["a", "b"]}, {}) == {"n": "3", "items": "a, b"}
    data = {"topic": "linear algebra"}
    template.set_titles(data)
    assert data == {"topic": "Linear Algebra"}
    assert template.input_fields_to_instruction_and_target_prefix({"topic": "x"}, "Answer {topic}.") == (
        "Answer x.", "A (x): ")
