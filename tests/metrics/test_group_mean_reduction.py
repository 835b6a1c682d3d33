"""The original's "group_mean" reduction on any instance metric (metrics/group_reduction.py): a user's subclass with
reduction_map {"group_mean": {"agg_func": [name, function, resample_groups]}} gets [fixed_]group_<name>_<score>,
malformed reductions are errors an `except AssertionError` catches, and fixed-group CIs are scipy's BCa of the group
scores in order of first appearance."""

import statistics

import numpy as np
import pytest
from unitxt.errors import MetricError
from unitxt.metrics import Accuracy
from unitxt.metrics.group_reduction import nan_mean
from unitxt.test_utils.metrics import apply_metric

PREDICTIONS = ["a", "b", "a", "a", "c", "c", "b", "a"]
REFERENCES = [["a"], ["a"], ["a"], ["b"], ["c"], ["c"], ["b"], ["b"]]
# groups listed out of sorted order: "z" first
TASK_DATA = [{"group_id": g, "kind": k} for g, k in
             [("z", "x"), ("z", "y"), ("m", "x"), ("m", "y"), ("m", "y"), ("b", "x"), ("b", "y"), ("b", "y")]]


def _global(metric):
    return apply_metric(metric=metric, predictions=PREDICTIONS, references=REFERENCES, task_data=TASK_DATA)[0][
        "score"]["global"]


class GroupMedianAccuracy(Accuracy):
    reduction_map = {"group_mean": {"agg_func": ["median", statistics.median, False]}}


class GroupSpreadAccuracy(Accuracy):
    subgroup_column = "kind"
    reduction_map = {"group_mean": {"agg_func": ["spread", lambda s: max(s.get("y", [0])) - min(s.get("x", [0])),
                                                 True]}}


def test_user_defined_group_reduction_names_and_values():
    correct = [float(p == r[0]) for p, r in zip(PREDICTIONS, REFERENCES)]  # 1 0 1 0 1 1 1 0
    median = _global(GroupMedianAccuracy())
    expected = np.mean([statistics.median(correct[0:2]), statistics.median(correct[2:5]),
                        statistics.median(correct[5:8])])
    assert median["score_name"] == "group_median_accuracy"
    assert median["group_median_accuracy"] == pytest.approx(expected)
    spread = _global(GroupSpreadAccuracy())
    # z: max(y)=0 - min(x)=1 -> -1; m: max(0,1) - 1 = 0; b: max(1,0) - 1 = 0
    assert spread["score_name"] == "fixed_group_spread_accuracy"
    assert spread["score"] == pytest.approx(-1 / 3)


def test_fixed_group_ci_is_bca_of_group_scores_in_first_appearance_order():
    from scipy.stats import bootstrap

    class FixedGroupMeanAcc(Accuracy):
        reduction_map = {"group_mean": {"agg_func": ["mean", nan_mean, True]}}

    result = _global(FixedGroupMeanAcc())
    group_scores = np.array([1 / 2, 2 / 3, 2 / 3])  # z, m, b
    interval = bootstrap((group_scores,), np.mean, n_resamples=1000, vectorized=False, method="BCa",
                         random_state=np.random.default_rng(42)).confidence_interval
    assert result["fixed_group_mean_accuracy"] == pytest.approx(np.mean(group_scores))
    assert (result["score_ci_low"], result["score_ci_high"]) == pytest.approx((interval.low, interval.high))


@pytest.mark.parametrize("reduction", [
    {"group_mean": {"function": ["mean", nan_mean, True]}},
    {"group_mean": {"agg_func": ["mean", "not callable", True]}},
    {"group_mean": {"agg_func": ["mean", nan_mean, "yes"]}},
    {"group_mean": {"agg_func": ["mean", nan_mean]}},
    {"group_mean": ["accuracy"]},
])
def test_malformed_group_reduction_is_an_assertion_error(reduction):
    class Malformed(Accuracy):
        reduction_map = reduction

    with pytest.raises(AssertionError, match="group_mean"):
        Malformed()
    with pytest.raises(MetricError):
        Malformed()


def test_unknown_reduction_is_a_value_error():
    class Unknown(Accuracy):
        reduction_map = {"variance": ["accuracy"]}

    with pytest.raises(ValueError, match="variance"):
        Unknown()


def test_missing_group_id_is_a_clear_error():
    with pytest.raises(AssertionError, match="group_id"):
        apply_metric(metric=GroupMedianAccuracy(), predictions=["a"], references=[["a"]], task_data=[{"kind": "x"}])


def test_group_metrics_expose_the_original_reduction_map():
    """Code written for the original reads a group metric's aggregation from `reduction_map`."""
    from unitxt.catalog import fetch_artifact

    metric = fetch_artifact("metrics.robustness.fixed_group_pdr_paraphrase_accuracy")[0]
    name, function, resample_groups = metric.reduction_map["group_mean"]["agg_func"]
    assert (name, resample_groups, metric.subgroup_column) == ("pdr_paraphrase", True, "variant_type")
    assert function({"original": [1.0, 1.0], "paraphrase": [0.5]}) == pytest.approx(0.5)
    name, function, resample_groups = fetch_artifact("metrics.robustness.group_mean_accuracy")[0].reduction_map[
        "group_mean"]["agg_func"]
    assert (name, resample_groups, function([1.0, float("nan"), 0.0])) == ("mean", False, 0.5)
