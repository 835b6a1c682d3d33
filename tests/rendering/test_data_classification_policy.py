"""data_classification_policy.rst: loaders tag data, components refuse data they may not process (before seeing it),
UNITXT_DATA_CLASSIFICATION_POLICY overrides per catalog name, and recipes / evaluation enforce it too."""

import json
from typing import Any, Dict, List, Optional

import pytest

from unitxt import add_to_catalog, evaluate, load_dataset
from unitxt.augmentors import AugmentCase
from unitxt.card import TaskCard
from unitxt.catalog import fetch_artifact
from unitxt.errors import DataClassificationPolicyError
from unitxt.loaders import LoadFromDictionary
from unitxt.metrics import Accuracy
from unitxt.operator import InstanceOperator, StreamOperator
from unitxt.serializers import Serializer
from unitxt.stream import MultiStream
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

PII_STREAM = [
    {"input": "Input1", "data_classification_policy": ["pii", "proprietary"]},
    {"input": "Input2", "data_classification_policy": ["pii", "proprietary"]},
]
SEEN: List[Any] = []


class RecordingStream(StreamOperator):
    """Records every instance it receives."""

    def process(self, stream, stream_name: Optional[str] = None):
        for instance in stream:
            SEEN.append(instance)
            yield instance


class RecordingInstance(InstanceOperator):
    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        SEEN.append(instance)
        return instance


class RecordingSerializer(Serializer):
    def serialize(self, value, instance):
        SEEN.append(value)
        return str(value)


class RecordingAccuracy(Accuracy):
    def compute_all(self, predictions, references, task_data):
        SEEN.extend(predictions)
        return super().compute_all(predictions, references, task_data)


@pytest.fixture(autouse=True)
def clear_seen():
    SEEN.clear()
    yield
    SEEN.clear()


# ---------------------------------------------------------------- the documented examples
def test_doc_loader_tags_the_data():
    data = {
        "train": [{"text": "SomeText1", "output": "SomeResult1"}],
        "test": [{"text": "SomeText2", "output": "SomeResult2"}],
    }
    loader = LoadFromDictionary(data=data, data_classification_policy=["public"])
    multi_stream = loader.process()
    dataset = multi_stream.to_dataset()
    assert dataset["test"][0]["data_classification_policy"] == ["public"]
    assert list(LoadFromDictionary(data=data).process()["test"])[0]["data_classification_policy"] == ["proprietary"]


def test_doc_component_policies():
    from unitxt.metrics import F1Binary
    from unitxt.operators import DuplicateInstances

    stream = [dict(instance) for instance in PII_STREAM]
    metric = F1Binary(data_classification_policy=["public"])
    with pytest.raises(DataClassificationPolicyError) as error:
        list(metric.process(stream))  # raises before reading any prediction: the instances have none
    message = str(error.value)
    assert "F1Binary" in message and "['public']" in message and "['pii', 'proprietary']" in message

    operator = DuplicateInstances(num_duplications=2, data_classification_policy=["pii"])
    duplicated = list(operator.process(stream))  # allowed: the data's classifications include 'pii'
    assert [instance["input"] for instance in duplicated] == ["Input1", "Input1", "Input2", "Input2"]


def test_components_without_policy_accept_everything_and_untagged_data_passes():
    assert len(list(RecordingStream().process([dict(i) for i in PII_STREAM]))) == 2
    restricted = RecordingStream(data_classification_policy=["public"])
    assert len(list(restricted.process([{"input": "x"}, {"input": "y", "data_classification_policy": []}]))) == 2
    with pytest.raises(DataClassificationPolicyError):
        list(RecordingStream(data_classification_policy=[]).process([dict(PII_STREAM[0])]))


# ---------------------------------------------------------------- refused data never reaches the component
@pytest.mark.parametrize("component", [RecordingStream, RecordingInstance])
def test_refused_data_never_reaches_the_component(component):
    operator = component(data_classification_policy=["public"])
    public = {"input": "ok", "data_classification_policy": ["public"]}
    with pytest.raises(DataClassificationPolicyError):
        list(operator.process([dict(public), dict(PII_STREAM[0])]) if component is RecordingStream
             else [operator.process(dict(PII_STREAM[0]))])
    assert all(instance["data_classification_policy"] == ["public"] for instance in SEEN)
    SEEN.clear()
    multi_stream = operator(MultiStream.from_iterables({"test": [dict(PII_STREAM[0]), dict(public)]}))
    with pytest.raises(DataClassificationPolicyError):
        list(multi_stream["test"])
    assert SEEN == []


def test_error_names_the_catalog_component_and_both_policies(temp_catalog):
    add_to_catalog(RecordingInstance(data_classification_policy=["public"]), "operators.recording_public",
                   catalog_path=str(temp_catalog))
    operator, _ = fetch_artifact("operators.recording_public")
    with pytest.raises(DataClassificationPolicyError) as error:
        operator.process(dict(PII_STREAM[0]))
    message = str(error.value)
    assert "operators.recording_public" in message  # the catalog name (the original names the component so)
    assert "['public']" in message and "['pii', 'proprietary']" in message
    assert "UNITXT_DATA_CLASSIFICATION_POLICY" in message
    assert SEEN == []


def test_environment_overrides_the_policy_per_catalog_name(temp_catalog, monkeypatch):
    add_to_catalog(RecordingInstance(data_classification_policy=["public"]), "operators.recording_public",
                   catalog_path=str(temp_catalog))
    add_to_catalog(RecordingInstance(), "operators.recording_any", catalog_path=str(temp_catalog))
    monkeypatch.setenv("UNITXT_DATA_CLASSIFICATION_POLICY", json.dumps({
        "operators.recording_public": ["public", "proprietary", "pii"],
        "operators.recording_any": ["public"],
    }))
    widened, _ = fetch_artifact("operators.recording_public")
    assert widened.effective_policy() == ["public", "proprietary", "pii"]
    assert widened.process(dict(PII_STREAM[0]))["input"] == "Input1"
    narrowed, _ = fetch_artifact("operators.recording_any")
    with pytest.raises(DataClassificationPolicyError):
        narrowed.process(dict(PII_STREAM[1]))
    with_overrides, _ = fetch_artifact("operators.recording_any[data_classification_policy=[pii]]")
    assert with_overrides.effective_policy() == ["public"]  # the env entry is keyed by the catalog name
    assert RecordingInstance(data_classification_policy=["pii"]).effective_policy() == ["pii"]  # no catalog name
    monkeypatch.setenv("UNITXT_DATA_CLASSIFICATION_POLICY", "not json")
    with pytest.raises(Exception, match="UNITXT_DATA_CLASSIFICATION_POLICY"):
        widened.effective_policy()


# ---------------------------------------------------------------- recipes and evaluation
def _card(policy):
    data = {"test": [{"question": "What is 1+1?", "answer": "2"}, {"question": "What is 2+2?", "answer": "4"}]}
    task = Task(input_fields={"question": str}, reference_fields={"answer": str}, prediction_type=str,
                metrics=["metrics.accuracy"], augmentable_inputs=["question"])
    return TaskCard(loader=LoadFromDictionary(data=data, data_classification_policy=policy), task=task)


@pytest.mark.parametrize("part", ["template", "serializer", "augmentor", "preprocess"])
def test_recipe_components_refuse_before_processing(part):
    template = InputOutputTemplate(input_format="{question}", output_format="{answer}")
    kwargs: Dict[str, Any] = {}
    card = _card(["confidential"])
    if part == "template":
        template = InputOutputTemplate(input_format="{question}", output_format="{answer}",
                                       serializer=RecordingSerializer(), data_classification_policy=["public"])
    elif part == "serializer":
        kwargs["serializer"] = RecordingSerializer(data_classification_policy=["public"])
    elif part == "augmentor":
        kwargs["augmentor"] = AugmentCase(mode="upper", data_classification_policy=["public"])
    else:
        card.preprocess_steps = [RecordingInstance(data_classification_policy=["public"])]
    with pytest.raises(DataClassificationPolicyError, match="confidential"):
        load_dataset(card=card, template=template, split="test", **kwargs)
    assert SEEN == []
    # the same recipe accepts public data
    load_dataset(card=_card(["public"]), template=template, split="test", **kwargs)


def test_evaluation_refuses_metrics_not_allowed_for_the_data(temp_catalog):
    add_to_catalog(RecordingAccuracy(data_classification_policy=["public"]), "metrics.recording_accuracy",
                   catalog_path=str(temp_catalog))
    template = InputOutputTemplate(input_format="{question}", output_format="{answer}")
    rows = list(load_dataset(card=_card(["pii"]), template=template, split="test", metrics=["metrics.recording_accuracy"]))
    with pytest.raises(DataClassificationPolicyError, match="metrics.recording_accuracy"):
        evaluate(predictions=["2", "5"], data=rows)
    assert SEEN == []  # the metric never saw a prediction
    public_rows = list(load_dataset(card=_card(["public"]), template=template, split="test",
                                    metrics=["metrics.recording_accuracy"]))
    results = evaluate(predictions=["2", "5"], data=public_rows)
    assert results.global_scores["score"] == 0.5 and SEEN == ["2", "5"]
