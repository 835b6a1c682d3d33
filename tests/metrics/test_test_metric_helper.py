"""The metrics tutorial's SumAccuracy example through `unitxt.test_utils.metrics.test_metric`, and the helper's
failure reporting (values, CIs, missing / unexpected keys) and `apply_metric`."""

from math import isclose
from typing import Dict, List

import pytest

from unitxt.test_utils.metrics import MetricTestError
from unitxt.metrics import InstanceMetric
from unitxt.test_utils.metrics import apply_metric, test_metric


class SumAccuracy(InstanceMetric):
    __type_name__ = "doc_example_sum_accuracy"  # keeps the built-in `sum_accuracy` type registered

    main_score = "sum_accuracy"  # name of the main score
    reduction_map = {"mean": ["sum_accuracy"]}  # defines that the global score is a mean of the instance scores
    ci_scores = ["sum_accuracy"]  # define that confidence internal should be calculated on the score
    prediction_type = int  # the metric expect the prediction as an int

    # Relation tolerance for errors by default it is 0, but can be changed for approximate comparison
    relative_tolerance: float = 0

    def compute(self, references: List[int], prediction: int, task_data: List[Dict]) -> dict:
        actual_sum = task_data["num1"] + task_data["num2"]
        isclose_enough = isclose(actual_sum, prediction, rel_tol=self.relative_tolerance)
        result = {self.main_score: 1.0 if isclose_enough else 0.0}
        return result


PREDICTIONS = [3, 799, 50]
REFERENCES = [[5], [800], [50]]
TASK_DATA = [{"num1": 2, "num2": 3}, {"num1": 300, "num2": 500}, {"num1": -25, "num2": 75}]
INSTANCE_TARGETS = [
    {"sum_accuracy": 0.0, "score": 0.0, "score_name": "sum_accuracy"},
    {"sum_accuracy": 0.0, "score": 0.0, "score_name": "sum_accuracy"},
    {"sum_accuracy": 1.0, "score": 1.0, "score_name": "sum_accuracy"},
]
GLOBAL_TARGET = {
    "sum_accuracy": 0.33,
    "score": 0.33,
    "score_name": "sum_accuracy",
    "sum_accuracy_ci_low": 0.0,
    "sum_accuracy_ci_high": 1.0,
    "score_ci_low": 0.0,
    "score_ci_high": 1.0,
}


def test_tutorial_sum_accuracy_reproduces_documented_targets():
    outputs = test_metric(
        metric=SumAccuracy(),
        predictions=PREDICTIONS,
        references=REFERENCES,
        instance_targets=INSTANCE_TARGETS,
        global_target=GLOBAL_TARGET,
        task_data=TASK_DATA,
    )
    assert outputs is True


def test_relative_tolerance_changes_the_scores():
    tolerant = SumAccuracy(relative_tolerance=0.01)
    targets = [dict(t) for t in INSTANCE_TARGETS]
    targets[1].update(sum_accuracy=1.0, score=1.0)
    global_target = dict(GLOBAL_TARGET, sum_accuracy=0.67, score=0.67)
    assert test_metric(tolerant, PREDICTIONS, REFERENCES, targets, global_target, task_data=TASK_DATA)


@pytest.mark.parametrize("change,message", [
    ({"sum_accuracy": 0.5}, "'sum_accuracy' = 0.333"),
    ({"sum_accuracy_ci_high": 0.8}, "'sum_accuracy_ci_high' = 1.0, expected 0.8"),
    ({"extra": 1.0}, "missing score 'extra'"),
    ({"num_of_instances": 4}, "'num_of_instances' = 3, expected 4"),
    ({"score_name": "accuracy"}, "'score_name' = 'sum_accuracy', expected 'accuracy'"),
])
def test_mismatches_are_reported(change, message):
    with pytest.raises(MetricTestError, match=message.replace("(", r"\(")) as error:
        test_metric(SumAccuracy(), PREDICTIONS, REFERENCES, INSTANCE_TARGETS, dict(GLOBAL_TARGET, **change),
                    task_data=TASK_DATA)
    assert isinstance(error.value, AssertionError)


def test_unexpected_and_instance_mismatches_are_reported():
    target = {k: v for k, v in GLOBAL_TARGET.items() if k != "score_ci_low"}
    with pytest.raises(MetricTestError, match="unexpected score 'score_ci_low'"):
        test_metric(SumAccuracy(), PREDICTIONS, REFERENCES, INSTANCE_TARGETS, target, task_data=TASK_DATA)
    wrong = [dict(t) for t in INSTANCE_TARGETS]
    wrong[2]["score"] = 0.0
    with pytest.raises(MetricTestError, match="instance 2: 'score' = 1.0, expected 0.0"):
        test_metric(SumAccuracy(), PREDICTIONS, REFERENCES, wrong, GLOBAL_TARGET, task_data=TASK_DATA)
    with pytest.raises(MetricTestError, match="2 instance targets for 3 predictions"):
        test_metric(SumAccuracy(), PREDICTIONS, REFERENCES, wrong[:2], GLOBAL_TARGET, task_data=TASK_DATA)


def test_apply_metric_returns_scored_instances():
    outputs = apply_metric(SumAccuracy(), PREDICTIONS, REFERENCES, TASK_DATA, calc_confidence_intervals=False)
    assert [o["score"]["instance"]["score"] for o in outputs] == [0.0, 0.0, 1.0]
    assert outputs[0]["score"]["global"]["sum_accuracy"] == pytest.approx(1 / 3)
    assert "sum_accuracy_ci_low" not in outputs[0]["score"]["global"]
    assert outputs[1]["task_data"] == TASK_DATA[1]


def test_test_evaluate_scores_records_with_one_metric():
    from unitxt.test_utils.metrics import MetricTestError, test_evaluate

    records = [{"prediction": "a", "references": ["a"]}, {"prediction": "b", "references": ["c"]},
               {"prediction": "c", "references": ["c"]}]
    targets = {"accuracy": 0.67, "accuracy_ci_low": 0.0, "accuracy_ci_high": 1.0, "score": 0.67,
               "score_name": "accuracy", "score_ci_low": 0.0, "score_ci_high": 1.0, "num_of_instances": 3}
    test_evaluate(targets, [{"score": 1.0}, {"score": 0.0}, {"score": 1.0}], records, "metrics.accuracy")
    with pytest.raises(MetricTestError, match="instance 1 score must be equal"):
        test_evaluate(targets, [{"score": 1.0}, {"score": 1.0}, {"score": 1.0}], records, "metrics.accuracy")
