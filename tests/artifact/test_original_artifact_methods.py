"""The original Artifact's helper methods on every artifact here: naming, identifiers, serialisation hooks and the
data classification check of one instance."""

import json

import pytest

from unitxt.artifact import Artifact, fetch_artifact
from unitxt.errors import UnitxtError
from unitxt.metrics import Accuracy


def test_names_and_identifiers(tmp_path):
    metric = fetch_artifact("metrics.accuracy")[0]
    assert metric.get_pretty_print_name() == "metrics.accuracy" and metric.serialize() == "metrics.accuracy"
    assert Accuracy().get_pretty_print_name() == "Accuracy"
    assert json.loads(Accuracy().serialize())["__type__"] == "accuracy"
    assert Artifact.is_possible_identifier("metrics.accuracy") and Artifact.is_possible_identifier(
        {"__type__": "accuracy"}) and not Artifact.is_possible_identifier(3)
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"__type__": "accuracy"}))
    assert Artifact.is_artifact_file(str(path)) and not Artifact.is_artifact_file(str(tmp_path / "none.json"))
    Artifact.verify_artifact_dict({"__type__": "accuracy"})
    with pytest.raises(UnitxtError):
        Artifact.verify_artifact_dict({"no_type": 1})
    assert Artifact.register_class(Accuracy) == "accuracy"


def test_hooks_and_policy_check():
    metric = Accuracy(data_classification_policy=["public"])
    assert metric.process_data_before_dump({"a": 1}) == {"a": 1} == Accuracy.process_data_after_load({"a": 1})
    assert metric.prepare_args() is None
    allowed = {"x": 1, "data_classification_policy": ["public"]}
    assert metric.verify_instance(allowed) is allowed
    with pytest.raises(UnitxtError, match="data classification"):
        metric.verify_instance({"x": 1, "data_classification_policy": ["pii"]})
    metric.verify_data_classification_policy()
