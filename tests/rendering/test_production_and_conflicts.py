"""Recipe production rows (no references, as the original), the card sampler switched off, and template arguments
that exclude each other."""

import json

import pytest

from unitxt.card import TaskCard
from unitxt.loaders import LoadFromDictionary
from unitxt.standard import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, MultipleChoiceTemplate

QUIZ = Task(input_fields={"question": str, "choices": list}, reference_fields={"answer": int},
            metrics=["metrics.accuracy"])
QUIZ_TEMPLATE = MultipleChoiceTemplate(input_format="Q: {question}\n{choices}\nA:", target_field="answer",
                                       choices_separator="\n", place_correct_choice_position=0)


def _card(sampler_given: bool) -> TaskCard:
    rows = [{"question": f"q{i}", "choices": ["x", "y"], "answer": i % 2} for i in range(6)]
    card = TaskCard(loader=LoadFromDictionary(data={"train": rows, "test": rows}), task=QUIZ,
                    templates=[QUIZ_TEMPLATE])
    if not sampler_given:
        card.sampler = None
    return card


def test_production_rows_carry_no_answer_even_when_the_instance_has_one():
    recipe = DatasetRecipe(task=QUIZ, template=QUIZ_TEMPLATE)
    row = recipe.produce([{"question": "Sky colour?", "choices": ["blue", "green"], "answer": 1}])[0]
    assert "target" not in row and "references" not in row
    assert row["source"].strip() == "Q: Sky colour?\nA. blue\nB. green\nA:"
    task_data = json.loads(row["task_data"])
    assert "answer" not in task_data and task_data["question"] == "Sky colour?"


def test_production_still_requires_the_input_fields():
    recipe = DatasetRecipe(task=QUIZ, template=QUIZ_TEMPLATE)
    with pytest.raises(ValueError, match="'choices' is missing"):
        recipe.produce([{"question": "Sky colour?"}])


def test_a_card_without_sampler_refuses_demos_but_serves_zero_shot():
    with pytest.raises(ValueError, match="Unexpected None value for card.sampler"):
        DatasetRecipe(card=_card(sampler_given=False), template_card_index=0, num_demos=1, demos_pool_size=3)
    rows = list(DatasetRecipe(card=_card(sampler_given=False), template_card_index=0)()["test"])
    assert len(rows) == 6
    with_demos = list(DatasetRecipe(card=_card(sampler_given=True), template_card_index=0, num_demos=1,
                                    demos_pool_size=3)()["test"])
    assert len(with_demos) == 6 and all(row["source"].count("Q: ") == 2 for row in with_demos)


def test_template_and_template_card_index_together_fail_as_an_assertion():
    template = InputOutputTemplate(input_format="{question}", output_format="{answer}")
    with pytest.raises(AssertionError, match="Specify either template"):
        DatasetRecipe(card=_card(sampler_given=True), template=template, template_card_index=0)
