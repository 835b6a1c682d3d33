from typing import Any, Dict, List

import pytest

from unitxt.artifact import Artifact
from unitxt.card import TaskCard
from unitxt.errors import ArtifactDefinitionError, InstanceTypeError, MissingFieldError, UnitxtError
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Copy, Set
from unitxt.task import Task


def test_doc_translation_task_and_types_as_strings():
    task = Task(
        input_fields={"text": str, "source_language": str, "target_language": str},
        reference_fields={"translation": str},
        prediction_type=str,
        metrics=["metrics.bleu"],
    )
    data = task.to_dict()
    assert data["input_fields"] == {"text": "str", "source_language": "str", "target_language": "str"}
    assert data["prediction_type"] == "str"
    again = Artifact.from_dict(data)
    assert again == task and again.input_types == task.input_types


def test_task_reshapes_instance_and_applies_defaults():
    task = Task(
        input_fields={"question": "str", "choices": "List[str]", "context": "str"},
        reference_fields={"answer": "int"},
        metrics=["metrics.accuracy"],
        defaults={"context": ""},
    )
    out = task.process_instance({"question": "q", "choices": ["a", "b"], "answer": 1, "extra": 5,
                                 "data_classification_policy": ["public"]})
    assert out == {
        "input_fields": {"question": "q", "choices": ["a", "b"], "context": ""},
        "reference_fields": {"answer": 1},
        "metrics": ["metrics.accuracy"],
        "data_classification_policy": ["public"],
    }


def test_set_default_values_fills_only_missing_fields_in_a_new_dict():
    task = Task(
        input_fields={"claim": "str", "language": "str"},
        reference_fields={"verdicts": "List[str]"},
        metrics=["metrics.accuracy"],
        defaults={"language": "en", "verdicts": ["unknown"]},
    )
    given = {"claim": "the sky is green", "verdicts": []}
    filled = task.set_default_values(given)
    assert filled == {"claim": "the sky is green", "verdicts": [], "language": "en"}
    assert given == {"claim": "the sky is green", "verdicts": []}  # the input is not changed
    assert task.set_default_values({"claim": "c", "language": None}) == {
        "claim": "c", "language": None, "verdicts": ["unknown"]}
    plain = Task(input_fields={"claim": "str"}, reference_fields={}, metrics=["metrics.accuracy"])
    row = {"claim": "x"}
    assert plain.set_default_values(row) is row


def test_wrong_type_error_names_field_expected_and_actual():
    task = Task(input_fields={"choices": List[str]}, reference_fields={"answer": int})
    with pytest.raises(InstanceTypeError) as info:
        task.process_instance({"choices": ["a", 2], "answer": 1})
    message = str(info.value)
    assert "'choices'" in message and "List[str]" in message and "List[int | str]" in message
    with pytest.raises(MissingFieldError, match="'answer' is missing"):
        task.process_instance({"choices": ["a"]})


def test_streamed_task_equals_per_instance_task_and_refuses_bad_rows_alike():
    """Streaming runs the Task's reshaping fast path for rows with exact plain types; other rows (str subclasses,
    missing or mistyped fields, production rows) take `process`, so rows and errors are process_instance's."""
    from unitxt.stream import MultiStream

    class Text(str):
        pass

    task = Task(input_fields={"text": str, "classes": List[str], "n": int}, reference_fields={"label": str},
                metrics=["metrics.accuracy"])
    rows = [
        {"text": "a", "classes": ["x", "y"], "n": 1, "label": "x", "extra": 0, "data_classification_policy": ["public"]},
        {"text": Text("b"), "classes": [], "n": 2, "label": "y", "groups": ["g"], "subset": ["s"], "media": {}},
        {"label": "z", "n": 3, "classes": ["q"], "text": "c"},
    ]
    streamed = list(task(MultiStream({"test": [dict(row) for row in rows]}))["test"])
    assert streamed == [task.process_instance(dict(row)) for row in rows]
    assert streamed[0] == {"input_fields": {"text": "a", "classes": ["x", "y"], "n": 1},
                           "reference_fields": {"label": "x"}, "metrics": ["metrics.accuracy"],
                           "data_classification_policy": ["public"]}
    assert list(streamed[1]) == ["input_fields", "reference_fields", "metrics", "data_classification_policy",
                                 "media", "groups", "subset"]
    assert list(streamed[2]["input_fields"]) == ["text", "classes", "n"]
    for bad, error, words in (({"text": "a", "classes": ["x", 1], "n": 1, "label": "x"}, InstanceTypeError, "'classes'"),
                              ({"text": "a", "classes": ["x"], "n": "1", "label": "x"}, InstanceTypeError, "'n'"),
                              ({"text": "a", "classes": ["x"], "n": 1}, MissingFieldError, "'label' is missing")):
        with pytest.raises(error) as info:
            list(task(MultiStream({"test": [dict(rows[0]), bad]}))["test"])
        assert words in str(info.value) and "instance 1" in str(info.value)
    production = list(task(MultiStream({"__INFERENCE_STREAM__": [{"text": "a", "classes": [], "n": 0}]}))[
        "__INFERENCE_STREAM__"])
    assert production[0]["reference_fields"] == {}


def test_legacy_inputs_outputs_spelling():
    task = Task(inputs=["text"], outputs=["label"], metrics=["metrics.accuracy"])
    assert task.process_instance({"text": "t", "label": "l"})["reference_fields"] == {"label": "l"}
    with pytest.raises(ArtifactDefinitionError, match="Conflicting attributes: 'input_fields' cannot be set "
                                                      "simultaneously with 'inputs'"):
        Task(input_fields=["a"], inputs=["a"], reference_fields=["b"])


def test_task_definition_errors():
    with pytest.raises(ArtifactDefinitionError, match="Unknown type 'Strng'"):
        Task(input_fields={"a": "Strng"})
    with pytest.raises(ArtifactDefinitionError, match="augmentable_inputs"):
        Task(input_fields={"a": str}, reference_fields={"c": str}, augmentable_inputs=["b"])
    clashing = Task(input_fields={"a": str}, reference_fields={"a": int})  # defined (as the original's catalog has
    # such tasks), but no instance can pass it
    with pytest.raises(ArtifactDefinitionError, match=r"both as input and as reference field need one type: "
                                                      r"'a' \(str as input, int as reference\)"):
        clashing.process_instance({"a": "x"})


def test_a_field_can_be_input_and_reference_when_the_types_agree():
    task = Task(input_fields={"text": str, "level": "Optional[int]"}, reference_fields={"text": str},
                metrics=["metrics.accuracy"], defaults={"level": 3})
    out = task.process_instance({"text": "keep me"})
    assert out["input_fields"] == {"text": "keep me", "level": 3}
    assert out["reference_fields"] == {"text": "keep me"}


def test_card_pipeline_loader_steps_task(temp_catalog):
    from unitxt import add_to_catalog
    from unitxt.operator import SequentialOperator

    task = Task(input_fields={"text": str, "source_language": str, "target_language": str},
                reference_fields={"translation": str}, metrics=["metrics.bleu"])
    add_to_catalog(task, "tasks.translation.test_directed", catalog_path=str(temp_catalog))
    card = TaskCard(
        loader=LoadFromDictionary(data={"test": [{"translation": {"en": "hi", "de": "hallo"}}]}),
        preprocess_steps=[
            Copy(field="translation/en", to_field="text"),
            Copy(field="translation/de", to_field="translation"),
            Set(fields={"source_language": "english", "target_language": "deutch"}),
        ],
        task="tasks.translation.test_directed",
    )
    pipeline = SequentialOperator(steps=[card.loader, *card.preprocess_steps, card.task])
    rows = list(pipeline()["test"])
    assert rows == [{
        "input_fields": {"text": "hi", "source_language": "english", "target_language": "deutch"},
        "reference_fields": {"translation": "hallo"},
        "metrics": ["metrics.bleu"],
        "data_classification_policy": ["proprietary"],
    }]
    assert Artifact.from_dict(card.to_dict()) == card
