"""Robustness group metrics (group_mean_*, fixed_group_*): per-group aggregates written out by hand, and CIs
recomputed with the library's own resampling over groups / instances."""

import math

import numpy as np
import pytest

from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.robustness import normalized_cohens_h, normalized_hedges_g, performance_drop_rate
from unitxt.settings_utils import settings

# group 1: original right, paraphrases 1 of 3 right; group 2: original right, paraphrase right;
# group 3: original wrong, paraphrases 1 of 2 right
ROWS = [
    ("1", "original", "yes", "yes"), ("1", "paraphrase", "yes", "yes"), ("1", "paraphrase", "no", "yes"),
    ("1", "paraphrase", "no", "yes"), ("2", "original", "cat", "cat"), ("2", "paraphrase", "cat", "cat"),
    ("3", "original", "x", "y"), ("3", "paraphrase", "y", "y"), ("3", "paraphrase", "x", "y"),
]
PREDICTIONS = [row[2] for row in ROWS]
REFERENCES = [[row[3]] for row in ROWS]
TASK_DATA = [{"group_id": row[0], "variant_type": row[1]} for row in ROWS]


def run(name, with_ci=False):
    return fetch_artifact(f"metrics.robustness.{name}")[0].evaluate(PREDICTIONS, REFERENCES, TASK_DATA).global_scores(
        with_ci=with_ci)


def hedges(control, comparison):
    n1, n2 = len(control), len(comparison)
    pooled = math.sqrt(((n1 - 1) * (np.var(control, ddof=1) if n1 > 1 else 0)
                        + (n2 - 1) * (np.var(comparison, ddof=1) if n2 > 1 else 0)) / (n1 + n2 - 2))
    difference = np.mean(comparison) - np.mean(control)
    g = 0.0 if difference == 0 else (math.copysign(5, difference) if pooled == 0 else difference / pooled)
    n = n1 + n2
    if 3 < n < 50:
        g *= ((n - 3) / (n - 2.25)) * math.sqrt((n - 2) / n)
    return float(np.clip(g, -5, 5)) / 5


def test_group_mean_accuracy_averages_group_means():
    result = run("group_mean_accuracy")
    assert result["score_name"] == "group_mean_accuracy"
    assert result["group_mean_accuracy"] == pytest.approx((2 / 4 + 1 + 1 / 3) / 3)
    assert run("fixed_group_mean_accuracy")["fixed_group_mean_accuracy"] == pytest.approx((2 / 4 + 1 + 1 / 3) / 3)


def test_subgroup_aggregations_by_hand():
    assert run("fixed_group_mean_baseline_accuracy")["score"] == pytest.approx((1 + 1 + 0) / 3)
    assert run("fixed_group_mean_paraphrase_accuracy")["score"] == pytest.approx((1 / 3 + 1 + 1 / 2) / 3)
    # PDR per group: 1 - 1/3, 1 - 1 = 0, group 3 undefined (original mean 0, paraphrase 0.5) -> NaN, ignored
    assert run("fixed_group_pdr_paraphrase_accuracy")["score"] == pytest.approx(((1 - 1 / 3) + 0) / 2)
    h = [2 * (math.asin(math.sqrt(1 / 3)) - math.asin(1)) / math.pi, 0.0,
         2 * (math.asin(math.sqrt(0.5)) - math.asin(0)) / math.pi]
    assert run("fixed_group_norm_cohens_h_paraphrase_accuracy")["score"] == pytest.approx(np.mean(h))
    assert run("fixed_group_absval_norm_cohens_h_paraphrase_accuracy")["score"] == pytest.approx(np.mean(np.abs(h)))
    g = [hedges([1], [1, 0, 0]), hedges([0], [1, 0])]  # group 2 (one original, one paraphrase) is undefined
    assert run("fixed_group_norm_hedges_g_paraphrase_accuracy")["score"] == pytest.approx(np.mean(g))
    assert run("fixed_group_absval_norm_hedges_g_paraphrase_string_containment")["score"] == pytest.approx(
        np.mean(np.abs(g)))


def test_aggregation_functions_edge_cases():
    assert performance_drop_rate({"original": [0.0], "paraphrase": [0.0]}) == 0.0
    assert math.isnan(performance_drop_rate({"original": [1.0]}))
    assert math.isnan(normalized_hedges_g({"original": [1.0], "paraphrase": [0.0]}))  # both samples of size 1
    assert normalized_cohens_h({"original": [0.0], "paraphrase": [1.0]}) == 1.0
    with pytest.raises(MetricError, match=r"\[0, 1\]"):
        normalized_cohens_h({"original": [2.0], "paraphrase": [1.0]})


def _scipy_bca(data, statistic):
    """The original's CI of a group score: scipy's bootstrap (BCa, 1000 resamples) seeded from the global seed."""
    from scipy.stats import bootstrap

    from unitxt.metrics.kernels.bca import bootstrap_seed

    interval = bootstrap((np.asarray(data),), statistic, n_resamples=1000, confidence_level=0.95, vectorized=False,
                         random_state=np.random.default_rng(bootstrap_seed(int(settings.seed))),
                         method="BCa").confidence_interval
    return interval.low, interval.high


def test_fixed_group_ci_resamples_groups():
    result = run("fixed_group_mean_accuracy", with_ci=True)
    low, high = _scipy_bca([2 / 4, 1.0, 1 / 3], np.mean)  # the groups' scores are the resampled units
    assert (result["score_ci_low"], result["score_ci_high"]) == pytest.approx((low, high))


def test_group_mean_ci_resamples_instances_and_regroups():
    result = run("group_mean_accuracy", with_ci=True)
    correct = np.array([float(p == r[0]) for p, r in zip(PREDICTIONS, REFERENCES)])
    groups = np.array([int(t["group_id"]) for t in TASK_DATA])

    def regrouped_mean(rows):
        rows = rows.astype(int)
        return np.mean([correct[rows][groups[rows] == g].mean() for g in sorted(set(groups[rows]))])

    low, high = _scipy_bca(np.arange(len(ROWS)), regrouped_mean)
    assert (result["score_ci_low"], result["score_ci_high"]) == pytest.approx((low, high))


def test_token_overlap_group_mean_reports_three_scores():
    metric = fetch_artifact("metrics.robustness.group_mean_token_overlap")[0]
    scores = metric.evaluate(["blue sky", "red", "green sea"], [["blue sky"], ["blue"], ["green sea"]],
                             [{"group_id": 1}, {"group_id": 1}, {"group_id": 2}]).global_scores(with_ci=False)
    assert scores["group_mean_f1"] == pytest.approx(((1 + 0) / 2 + 1) / 2)
    assert set(scores) >= {"group_mean_precision", "group_mean_recall"}


def test_missing_group_fields_are_clear_errors():
    metric = fetch_artifact("metrics.robustness.fixed_group_pdr_paraphrase_accuracy")[0]
    with pytest.raises(MetricError, match="group_id"):
        metric.evaluate(["a"], [["a"]], [{}])
    with pytest.raises(MetricError, match="variant_type"):
        metric.evaluate(["a"], [["a"]], [{"group_id": 1}])
