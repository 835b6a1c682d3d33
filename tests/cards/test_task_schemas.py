"""Tasks whose schema follows the original's under the same name (issue 37): field names and types, prediction
type, which names are links, and what the changed schemas mean for rows (choices as references, untyped fields,
tables with extra keys, the binary task's list answers)."""

import json
from pathlib import Path
from typing import Any, List, Union

import pytest

from unitxt.api import evaluate, load_dataset
from unitxt.artifact import fetch_artifact
from unitxt.card import TaskCard
from unitxt.loaders import LoadFromDictionary
from unitxt.type_utils import make_checker
from unitxt.types.checking import type_to_string
from unitxt.types import Audio, Dialog, Image, Table, Text, Video

SNAPSHOT = Path(__file__).resolve().parents[2] / "catalog_snapshot"
MEDIA = Union[Text, Image, Audio, Table, Dialog]
CHOICE_REFERENCES = {"answer": Union[int, str], "choices": List[str]}

# task -> (input types, reference types, prediction type); None: as declared elsewhere, not checked here
SCHEMAS = {
    "tasks.classification.binary": ({"text": str, "text_type": str, "class": str},
                                    {"class": str, "label": List[str]}, List[str]),
    "tasks.regression.two_texts.similarity": (None, {"attribute_value": float}, Any),
    "tasks.regression.single_text": (None, {"attribute_value": float}, Any),
    "tasks.qa.multiple_choice.open": ({"question": str, "choices": List[str]}, CHOICE_REFERENCES, str),
    "tasks.qa.multiple_choice.with_topic": ({"topic": str, "question": str, "choices": List[str]},
                                            CHOICE_REFERENCES, str),
    "tasks.qa.multiple_choice.with_context": (
        {"context": Union[Text, Image, Audio, Table, Dialog, Video], "context_type": str, "question": str,
         "choices": List[str]}, CHOICE_REFERENCES, str),
    "tasks.ner.single_entity_type": ({"text": str, "entity_type": str},
                                     {"spans_starts": List[int], "spans_ends": List[int], "text": str,
                                      "labels": List[str]}, None),
    "tasks.rewriting.paraphrase": ({"input_text": Any, "text_type": Any}, {"output_text": Any}, Any),
    "tasks.grammatical_error_correction": ({"original_text": Any}, {"corrected_texts": Any}, Any),
    "tasks.generation.from_pair": ({"input_a": MEDIA, "type_of_input_a": str, "input_b": MEDIA,
                                    "type_of_input_b": str, "type_of_output": str}, {"output": str}, str),
    "tasks.qa.extractive": ({"context": Union[Text, Table, Dialog], "context_type": str,
                             "question": Union[Text, Dialog]}, {"answers": List[str]}, str),
    "tasks.response_assessment.pairwise_comparison.single_turn": (None, {"winner": str}, Any),
}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_task_schema_is_the_originals(name):
    """Compared by type names: a test module may register its own types under the documented names (Text, Table...),
    as the spec shows users doing, which replaces the registry's objects for the rest of the session."""
    task, _ = fetch_artifact(name)
    inputs, references, prediction = SCHEMAS[name]
    named = lambda types: {field: type_to_string(value) for field, value in types.items()}  # noqa: E731
    if inputs is not None:
        assert named(task.input_types) == named(inputs)
    assert named(task.reference_types) == named(references)
    if prediction is not None:
        assert type_to_string(task.prediction_type_object) == type_to_string(prediction)


@pytest.mark.parametrize("name, target", [
    ("tasks.qa.with_context.extractive", "tasks.qa.extractive"),
    ("tasks.qa.with_context.abstractive", "tasks.qa.with_context"),
    ("tasks.ner.all_entity_types", "tasks.span_labeling.extraction"),
])
def test_original_link_names_lead_to_the_task_of_their_schema(name, target):
    stored = json.loads((SNAPSHOT / (name.replace(".", "/") + ".json")).read_text(encoding="utf-8"))
    assert stored["__type__"] == "artifact_link" and stored["to"] == target
    assert fetch_artifact(name)[0].input_types == fetch_artifact(target)[0].input_types


def test_table_with_extra_keys_is_a_table():
    """As the original's: a table record may carry more keys (a title, an id) than header and rows."""
    record = {"table_id": "t1", "title": "Cities", "header": ["city"], "rows": [["Paris"]]}
    assert make_checker(Table)(record)
    assert not make_checker(Table)({"title": "Cities", "rows": [["Paris"]]})  # header missing
    assert not make_checker(Table)({"header": "city", "rows": [["Paris"]]})  # header of the wrong type


def test_multiple_choice_rows_carry_the_choices_as_references():
    card = TaskCard(loader=LoadFromDictionary(data={"test": [
        {"question": "2+2?", "choices": ["3", "4"], "answer": 1}]}), task="tasks.qa.multiple_choice.open")
    row = load_dataset(card=card, template="templates.qa.multiple_choice.open.title", split="test")[0]
    assert row["target"] == "B"
    task_data = json.loads(row["task_data"])
    assert task_data["choices"] == ["3", "4"] and task_data["answer"] == 1


def test_binary_classification_answers_are_the_class_or_nothing():
    rows = [{"text": "great movie", "class": "positive", "label": ["positive"]},
            {"text": "awful", "class": "positive", "label": []},
            {"text": "fine", "class": "positive", "label": ["positive"]}]
    card = TaskCard(loader=LoadFromDictionary(data={"test": rows}), task="tasks.classification.binary")
    data = load_dataset(card=card, template="templates.classification.binary.default", split="test")
    assert [row["target"] for row in data] == ["positive", "", "positive"]
    results = evaluate(predictions=["positive", "", ""], data=data)
    assert results.global_scores["score_name"] == "f1_micro"
    # one true positive, one false negative, no false positive: precision 1, recall 1/2
    assert results.global_scores["f1_micro"] == pytest.approx(2 / 3)
