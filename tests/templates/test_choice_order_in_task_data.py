"""Multiple-choice templates that reorder choices record the shown order in task_data (issue 47), as the original:
the choices as shown and the answer as its index among them, for the instance and for its demos; production rows
(no answer) show the choices as given."""

import json

from unitxt.api import load_dataset, produce
from unitxt.card import TaskCard
from unitxt.loaders import LoadFromDictionary
from unitxt.templates import MultipleChoiceTemplate

TEST = [{"question": "Largest?", "choices": ["cat", "elephant", "ant", "horse"], "answer": 1},
        {"question": "Fruit?", "choices": ["carrot", "apple", "leek"], "answer": "apple"}]
TRAIN = [{"question": "Sky?", "choices": ["blue", "green"], "answer": 0},
         {"question": "Grass?", "choices": ["red", "green"], "answer": 1}]


def _rows(num_demos=0, **flags):
    template = MultipleChoiceTemplate(input_format="{question}\n{choices}", target_field="answer",
                                      choices_separator="\n", **flags)
    card = TaskCard(loader=LoadFromDictionary(data={"test": TEST, "train": TRAIN}, data_classification_policy=["public"]),
                    task="tasks.qa.multiple_choice.open")
    dataset = load_dataset(card=card, template=template, split="test", num_demos=num_demos,
                           demos_pool_size=2 if num_demos else None)
    return [dict(row, task_data=json.loads(row["task_data"])) for row in dataset]


def test_sorted_choices_and_answer_index_as_shown():
    rows = _rows(sort_choices_by_length=True)
    assert [row["task_data"]["choices"] for row in rows] == [["cat", "ant", "horse", "elephant"],
                                                             ["leek", "apple", "carrot"]]
    assert [row["task_data"]["answer"] for row in rows] == [3, 1]
    assert [row["target"] for row in rows] == ["D", "B"]
    assert rows[0]["source"] == "Largest?\nA. cat\nB. ant\nC. horse\nD. elephant\n"


def test_reversed_choices_in_the_demos_task_data_too():
    rows = _rows(num_demos=1, reverse_choices=True)
    assert rows[0]["task_data"]["choices"] == ["horse", "ant", "elephant", "cat"]
    assert rows[0]["task_data"]["answer"] == 2
    demo = rows[0]["task_data"]["demos"][0]
    assert demo["choices"] == list(reversed(next(t["choices"] for t in TRAIN if t["question"] == demo["question"])))
    assert demo["choices"][demo["answer"]] == {"Sky?": "blue", "Grass?": "green"}[demo["question"]]


def test_textual_answer_becomes_an_index_even_when_the_order_stays():
    rows = _rows(sort_choices_alphabetically=True)
    assert rows[1]["task_data"]["choices"] == ["apple", "carrot", "leek"]
    assert rows[1]["task_data"]["answer"] == 0


def test_without_reordering_the_card_fields_stay():
    rows = _rows()
    assert [row["task_data"]["answer"] for row in rows] == [1, "apple"]
    assert rows[0]["task_data"]["choices"] == ["cat", "elephant", "ant", "horse"]


def test_shuffled_task_data_names_the_shown_answer():
    for row, given in zip(_rows(shuffle_choices=True), TEST):
        data = row["task_data"]
        assert sorted(data["choices"]) == sorted(given["choices"])
        correct = given["choices"][given["answer"]] if isinstance(given["answer"], int) else given["answer"]
        assert data["choices"][data["answer"]] == correct
        assert row["target"] == "ABCD"[data["answer"]]
        assert f"{row['target']}. {correct}" in row["source"]


def test_production_rows_show_the_choices_as_given():
    template = MultipleChoiceTemplate(input_format="{question}\n{choices}", target_field="answer",
                                      choices_separator="\n", reverse_choices=True)
    row = produce({"question": "Largest?", "choices": ["cat", "elephant"]}, task="tasks.qa.multiple_choice.open",
                  template=template)
    assert row["source"] == "Largest?\nA. cat\nB. elephant\n"


def test_title_fields_show_titled_in_task_data():
    from unitxt.templates import InputOutputTemplate

    template = InputOutputTemplate(input_format="{text}", output_format="{label}", title_fields=["text_type"])
    rendered = template.render({"text": "hi", "text_type": "short text"}, {"label": "a"})
    assert rendered["task_fields"] == ({"text": "hi", "text_type": "Short Text"}, {"label": "a"})
    assert "task_fields" not in template.render({"text": "hi", "text_type": "x"}, {"label": "a"},
                                                with_references=False)
