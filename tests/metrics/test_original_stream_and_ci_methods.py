"""The original's Metric stream methods (consume_stream, update_instance_scores, set_global_score,
update_and_adjust_global_score) and MetricWithConfidenceInterval's CI helpers, called and overridden the way programs
written for the original do; CI values checked against scipy.stats.bootstrap run with the original's generator."""

import math
import warnings

import numpy as np
import pytest
from scipy.stats import bootstrap

from unitxt.metrics import Accuracy, F1Macro, InstanceMetric


def _rows(predictions, references):
    return [{"prediction": p, "references": r, "task_data": {}} for p, r in zip(predictions, references)]


def _original_generator():
    return np.random.default_rng(hash(42) & (2**32 - 1))


def _reference_interval(data, statistic, n_resamples):
    """scipy's BCa bootstrap as the original calls it (its seeded generator, NaN resamples redrawn)."""
    def redrawn(arr, axis):
        values = np.apply_along_axis(statistic, axis, arr)
        missing = np.isnan(values)
        if values.size > 1 and 0 < missing.sum() < values.size:
            values[missing] = _original_generator().choice(values[~missing], missing.sum(), replace=True)
        return values

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bootstrap((data,), statistic=redrawn, n_resamples=n_resamples, confidence_level=0.95,
                         random_state=_original_generator(), method="BCa").confidence_interval


def test_process_merges_scores_into_the_stream_through_the_update_methods():
    rows = _rows(["a", "b", "c"], [["a"], ["a"], ["c"]])
    first = list(Accuracy(score_prefix="first_", n_resamples=None).process(rows))
    second = list(F1Macro(n_resamples=None).process(first))
    assert second[0]["score"]["instance"]["first_accuracy"] == 1.0  # the earlier metric's scores stay
    assert second[0]["score"]["global"]["first_accuracy"] == pytest.approx(2 / 3)
    assert second[0]["score"]["global"]["score_name"] == "f1_macro"  # the latest metric's main score


def test_update_and_adjust_global_score_drops_stale_intervals_and_warns_on_overwrites():
    instance = {"score": {"global": {"accuracy": 0.5, "score": 0.5, "score_ci_low": 0.1, "score_ci_high": 0.9},
                          "instance": {}}}
    with pytest.warns(UserWarning, match="already recorded"):
        Accuracy().update_and_adjust_global_score(instance, {"accuracy": 0.7, "score": 0.7, "score_name": "accuracy"})
    assert instance["score"]["global"] == {"accuracy": 0.7, "score": 0.7, "score_name": "accuracy"}


def test_consume_stream_and_the_static_writers():
    predictions, references, task_data, instances = Accuracy().consume_stream(
        [{"prediction": "x", "references": ["y"], "task_data": {"k": 1}}, {"prediction": "z", "references": ["z"]}])
    assert (predictions, references, task_data) == (["x", "z"], [["y"], ["z"]], [{"k": 1}, {}])
    Accuracy.update_instance_scores(instances, [{"a": 1}, {"a": 2}])
    Accuracy.set_global_score(instances, {"g": 3})
    assert [i["score"] for i in instances] == [{"instance": {"a": 1}, "global": {"g": 3}},
                                              {"instance": {"a": 2}, "global": {"g": 3}}]


def test_overriding_update_instance_scores_changes_what_the_stream_gets():
    class Tagged(Accuracy):
        @staticmethod
        def update_instance_scores(instances, instances_scores):
            for instance, scores in zip(instances, instances_scores):
                instance.setdefault("score", {}).setdefault("instance", {})["tagged"] = scores["accuracy"]

    out = list(Tagged(n_resamples=None).process(_rows(["a", "b"], [["a"], ["a"]])))
    assert [row["score"]["instance"] for row in out] == [{"tagged": 1.0}, {"tagged": 0.0}]


def test_score_based_confidence_interval_equals_scipy_bootstrap_of_instance_means():
    values = [1.0, 0.0, 1.0, 1.0, math.nan, 0.0, 1.0, 0.5, 0.25, 1.0]
    instances = [{"score": {"instance": {"accuracy": v}}} for v in values]
    result = Accuracy(n_resamples=100).score_based_confidence_interval(instances, ["accuracy"])
    expected = _reference_interval(np.asarray(values), lambda row: np.nanmean(row), 100)
    assert result["accuracy_ci_low"] == pytest.approx(expected.low, abs=1e-9)
    assert result["accuracy_ci_high"] == pytest.approx(expected.high, abs=1e-9)
    assert (result["score_ci_low"], result["score_ci_high"]) == (result["accuracy_ci_low"], result["accuracy_ci_high"])
    same = [{"score": {"instance": {"accuracy": 1.0}}} for _ in range(4)]
    assert Accuracy(n_resamples=100).score_based_confidence_interval(same, ["accuracy"]) == {}  # no spread, no CI


def test_average_max_and_resample_from_non_nan():
    instances = [{"score": {"instance": {"s": v}}} for v in (0.2, math.nan, 0.6)]
    assert Accuracy.average_item_scores(instances, "s") == pytest.approx(0.4)
    assert Accuracy.max_item_scores(instances, "s") == pytest.approx(0.6)
    values = np.array([1.0, np.nan, 3.0, np.nan, 5.0])
    expected = values.copy()
    expected[np.isnan(expected)] = _original_generator().choice(np.array([1.0, 3.0, 5.0]), 2, replace=True)
    assert list(Accuracy().resample_from_non_nan(values)) == list(expected)
    assert Accuracy.new_random_generator().integers(0, 10**9) == _original_generator().integers(0, 10**9)


def test_compute_global_confidence_intervals_equals_scipy_bootstrap_of_the_recomputed_score():
    from sklearn.metrics import f1_score

    predictions = ["a", "b", "a", "c", "b", "a", "c", "c"]
    references = [["a"], ["b"], ["b"], ["c"], ["a"], ["a"], ["b"], ["c"]]
    result = F1Macro(n_resamples=50).compute_global_confidence_intervals(references, predictions, [{}] * 8, "f1_macro")

    def f1_of(rows):
        rows = rows.astype(int)
        gold = [references[i][0] for i in rows]
        return f1_score(gold, [predictions[i] for i in rows], labels=sorted(set(gold)), average="macro",
                        zero_division=0)

    expected = _reference_interval(np.arange(8), f1_of, 50)
    assert result["f1_macro_ci_low"] == pytest.approx(expected.low, abs=1e-9)
    assert result["f1_macro_ci_high"] == pytest.approx(expected.high, abs=1e-9)


def test_an_overriding_resample_from_non_nan_changes_the_reported_interval():
    class NanScore(InstanceMetric):
        main_score = "s"
        ci_scores = ["s"]

        def compute(self, references, prediction, task_data):
            return {"s": prediction}

    class NanAsZero(NanScore):
        def resample_from_non_nan(self, values):
            return np.nan_to_num(np.asarray(values, dtype=float), nan=0.0)

    predictions = [1.0, math.nan, math.nan, 0.0, 1.0, 1.0, math.nan, 0.5]
    plain = NanScore(n_resamples=200).evaluate(predictions, [[]] * 8).global_scores()
    zeroed = NanAsZero(n_resamples=200).evaluate(predictions, [[]] * 8).global_scores()
    assert plain["s"] == zeroed["s"]
    assert zeroed["s_ci_low"] < plain["s_ci_low"]  # resamples of NaNs only count as 0 instead of redrawn


def test_instance_metric_compute_instance_scores_and_an_overriding_get_group_scores():
    rows = [{"prediction": p, "references": [r], "task_data": {"group_id": g}}
            for p, r, g in [("a", "a", "x"), ("b", "a", "x"), ("c", "c", "y"), ("d", "c", "y"), ("e", "e", "y")]]
    scored = Accuracy().compute_instance_scores([dict(row) for row in rows])
    assert [s["score"]["instance"]["accuracy"] for s in scored] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert [s["task_data"] for s in scored] == [{"group_id": g} for g in "xxyyy"]

    class AccuracyOfGroupMeans(Accuracy):
        reduction_map = {"group_mean": {"agg_func": ["mean", lambda values: float(np.mean(values)), True]}}

    class WorstGroupMember(AccuracyOfGroupMeans):
        def get_group_scores(self, instances, score_names, group_aggregation_func, prepend_score_prefix):
            return super().get_group_scores(instances, score_names, min, prepend_score_prefix)

    data = [row["task_data"] for row in rows]
    predictions, references = [row["prediction"] for row in rows], [row["references"] for row in rows]
    mean = AccuracyOfGroupMeans(n_resamples=None).evaluate(predictions, references, data).global_scores()
    worst = WorstGroupMember(n_resamples=None).evaluate(predictions, references, data).global_scores()
    assert mean["fixed_group_mean_accuracy"] == pytest.approx((0.5 + 2 / 3) / 2)
    assert worst["fixed_group_mean_accuracy"] == 0.0  # each group's worst member: 0 and 0
