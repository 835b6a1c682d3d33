"""The original's map-reduce metric bases, subclassed the original's way (`reduction = MeanReduction()`, `def map`):
point scores equal numpy/scipy on the same data, CIs equal scipy.stats.bootstrap over the intermediates (the
original's procedure: BCa, default_rng(42), every float score), group metrics reduce per group then across groups."""

import math
from typing import Dict

import numpy as np
import pytest
from scipy.stats import bootstrap, kendalltau

from unitxt.metrics import (CorrelationMetric, GroupMetric, GroupReduction, MapReduceMetric, MaxReduction,
                            MeanReduction, ReductionInstanceMetric, RootMeanReduction)
from unitxt.test_utils.metrics import apply_metric

PREDICTIONS = ["a", "bb", "a", "ccc", "b", "a", "dd", "a"]
REFERENCES = [["a"], ["b"], ["a"], ["ccc"], ["c"], ["b"], ["dd"], ["a"]]


class ContainsAndLength(ReductionInstanceMetric[str, Dict[str, float]]):
    main_score = "acc"
    reduction = MeanReduction()

    def map(self, prediction, references, task_data):
        return {"acc": float(prediction in references), "len": float(len(prediction))}


class SquaredError(MapReduceMetric[float, float]):
    main_score = "rmse"

    def map(self, prediction, references, task_data):
        return (prediction - references[0]) ** 2

    def reduce(self, intermediates):
        return {"rmse": float(np.mean(intermediates)) ** 0.5, "n": len(intermediates)}


class Kendall(CorrelationMetric):
    main_score = "kendall"

    def get_correlation_func(self):
        return kendalltau


def _scipy_ci(count, statistic, n_resamples=1000):
    result = bootstrap((np.arange(count),), lambda rows: statistic(rows.astype(int)), n_resamples=n_resamples,
                       random_state=np.random.default_rng(42), vectorized=False, method="BCa").confidence_interval
    return result.low, result.high


def test_reduction_instance_metric_means_every_score_with_scipys_intervals():
    rows = apply_metric(metric=ContainsAndLength(), predictions=PREDICTIONS, references=REFERENCES)
    result = rows[0]["score"]["global"]
    acc = np.asarray([float(p in r) for p, r in zip(PREDICTIONS, REFERENCES)])
    length = np.asarray([float(len(p)) for p in PREDICTIONS])
    assert result["acc"] == pytest.approx(acc.mean()) and result["len"] == pytest.approx(length.mean())
    assert result["score"] == result["acc"] and result["score_name"] == "acc" and result["num_of_instances"] == 8
    for name, values in (("acc", acc), ("len", length)):  # every float score gets a CI
        low, high = _scipy_ci(8, lambda rows, values=values: values[rows].mean())
        assert result[f"{name}_ci_low"] == pytest.approx(low, abs=1e-12)
        assert result[f"{name}_ci_high"] == pytest.approx(high, abs=1e-12)
    assert rows[1]["score"]["instance"] == {"acc": 0.0, "len": 2.0, "score": 0.0, "score_name": "acc"}


def test_ci_score_names_and_n_resamples_choose_the_intervals():
    result = apply_metric(metric=ContainsAndLength(n_resamples=50, ci_score_names=["acc"]), predictions=PREDICTIONS,
                          references=REFERENCES)[0]["score"]["global"]
    acc = np.asarray([float(p in r) for p, r in zip(PREDICTIONS, REFERENCES)])
    low, high = _scipy_ci(8, lambda rows: acc[rows].mean(), n_resamples=50)
    assert (result["acc_ci_low"], result["acc_ci_high"]) == pytest.approx((low, high), abs=1e-12)
    assert "len_ci_low" not in result and result["len"] == pytest.approx(1.5)


def test_max_and_root_mean_reductions():
    class LongestThird(ReductionInstanceMetric[str, Dict[str, float]]):
        main_score = "acc"
        reduction = MaxReduction()

        def map(self, prediction, references, task_data):
            return {"acc": len(prediction) / 3}

    result = apply_metric(metric=LongestThird(n_resamples=None), predictions=PREDICTIONS,
                          references=REFERENCES)[0]["score"]["global"]
    assert result == {"acc": 1.0, "score": 1.0, "score_name": "acc", "num_of_instances": 8}
    assert RootMeanReduction().reduce([{"e": 4.0}, {"e": math.nan}, {"e": 12.0}]) == {"e": math.sqrt(8.0)}
    assert MeanReduction().reduce([{"e": 1.0}, {"e": 2.0, "f": 5.0}]) == {"e": 1.5, "f": 5.0}


def test_map_reduce_metric_reports_non_float_scores_without_intervals():
    predictions = [1.0, 2.5, 3.0, 0.5, 4.0, 2.0]
    references = [[1.2], [2.0], [3.5], [0.0], [3.0], [2.5]]
    rows = apply_metric(metric=SquaredError(), predictions=predictions, references=references)
    result = rows[0]["score"]["global"]
    errors = (np.asarray(predictions) - np.asarray([r[0] for r in references])) ** 2
    assert result["rmse"] == pytest.approx(math.sqrt(errors.mean())) and result["n"] == 6 and "n_ci_low" not in result
    low, high = _scipy_ci(6, lambda rows: math.sqrt(errors[rows].mean()))
    assert (result["rmse_ci_low"], result["rmse_ci_high"]) == pytest.approx((low, high), abs=1e-12)
    assert rows[1]["score"]["instance"] == {"rmse": 0.5, "n": 1, "score": 0.5, "score_name": "rmse"}


def test_correlation_metric_reports_the_function_and_its_p_value():
    predictions = [1.0, 2.5, 3.0, 0.5, 4.0, 2.0]
    references = [[1.2], [2.0], [3.5], [0.0], [3.0], [2.5]]
    rows = apply_metric(metric=Kendall(n_resamples=None), predictions=predictions, references=references)
    expected = kendalltau(predictions, [r[0] for r in references])
    result = rows[0]["score"]["global"]
    assert result["kendall"] == pytest.approx(expected[0]) and result["kendall_p_value"] == pytest.approx(expected[1])
    assert math.isnan(rows[0]["score"]["instance"]["kendall"])


def test_group_metric_reduces_within_then_across_groups():
    class Contains(ReductionInstanceMetric[str, Dict[str, float]]):
        main_score = "acc"
        reduction = MeanReduction()

        def map(self, prediction, references, task_data):
            return {"acc": float(prediction in references)}

    class LastItem(GroupReduction):
        def reduce_list(self, items):
            return sorted(items)[-1][1]

    predictions = ["a", "b", "a", "c", "b", "a"]
    references = [["a"], ["b"], ["x"], ["c"], ["c"], ["a"]]
    task_data = [{"g": {"id": "d1"}, "i": 0}, {"g": {"id": "d1"}, "i": 1}, {"g": {"id": "d2"}, "i": 0},
                 {"g": {"id": "d2"}, "i": 1}, {"g": {"id": "d3"}, "i": 0}, {"g": {"id": "d1"}, "i": 1}]
    # groups: d1 items {0: 1, 1: 1 (the later item 1 replaces the earlier)}, d2 {0: 0, 1: 1}, d3 {0: 0}
    mean = GroupMetric(metric=Contains(), group_id_field="g/id", item_id_field="i")
    rows = apply_metric(metric=mean, predictions=predictions, references=references, task_data=task_data)
    assert rows[0]["score"]["global"] == {"acc": 0.5, "score": 0.5, "score_name": "acc", "num_of_instances": 6}
    assert rows[2]["score"]["instance"]["acc"] == 0.0
    last = GroupMetric(metric=Contains(), group_id_field="g/id", item_id_field="i", in_group_reduction=LastItem())
    result = apply_metric(metric=last, predictions=predictions, references=references,
                          task_data=task_data)[0]["score"]["global"]
    assert result["acc"] == pytest.approx((1 + 1 + 0) / 3)
