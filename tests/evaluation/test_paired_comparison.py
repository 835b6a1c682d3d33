"""unitxt.compare: paired bootstrap differences between two runs on the same instances (issue 18, item 3)."""

import json
import pickle

import numpy as np
import pytest

from unitxt import compare, evaluate
from unitxt.metrics.kernels.bootstrap import percentile_interval, resample_indices
from unitxt.errors import UnitxtError


def row(label, subset=(), group=None, metrics=("metrics.accuracy", "metrics.f1_macro")):
    task_data = {"label": label, "metadata": {"template": "t", "num_demos": 0}}
    groups = []
    if group is not None:
        task_data["domain"] = group
        groups = [json.dumps({"domain": group})]
    return {"source": f"s {label}", "target": label, "references": [label], "metrics": list(metrics),
            "postprocessors": ["processors.lower_case"], "task_data": json.dumps(task_data), "groups": groups,
            "subset": list(subset), "media": {"images": [], "audios": []}, "data_classification_policy": ["public"]}


RNG = np.random.default_rng(7)
LABELS = [str(label) for label in RNG.choice(["cat", "dog", "bird"], size=120)]
ROWS = [row(label, group="news" if i % 2 else "web") for i, label in enumerate(LABELS)]
HALF_RIGHT = [label if i % 2 == 0 else "fish" for i, label in enumerate(LABELS)]
MOSTLY_RIGHT = [label if i % 5 else "fish" for i, label in enumerate(LABELS)]


def test_identical_runs_differ_by_zero_with_p_value_one():
    comparison = compare(evaluate(HALF_RIGHT, ROWS), evaluate(HALF_RIGHT, ROWS))
    for name in ("accuracy", "f1_macro"):
        assert comparison["global"][name]["difference"] == 0.0
        assert (comparison["global"][name]["ci_low"], comparison["global"][name]["ci_high"]) == (0.0, 0.0)
        assert comparison["global"][name]["p_value"] == 1.0
    for rows in comparison["groups"]["domain"].values():
        assert rows["accuracy"]["difference"] == 0.0 and rows["accuracy"]["p_value"] == 1.0


def test_a_run_better_on_every_instance_has_a_ci_excluding_zero():
    worse, better = evaluate(HALF_RIGHT, ROWS), evaluate(list(LABELS), ROWS)
    comparison = compare(worse, better)
    accuracy = comparison["global"]["accuracy"]
    assert accuracy["a"] == worse.global_scores["accuracy"] == 0.5 and accuracy["b"] == 1.0
    assert accuracy["difference"] == 0.5 and accuracy["ci_low"] > 0.0 and accuracy["p_value"] < 0.01
    reverse = compare(better, worse)["global"]["accuracy"]
    assert reverse["difference"] == -0.5 and reverse["ci_high"] < 0.0


def test_interval_and_p_value_equal_a_hand_computed_paired_bootstrap():
    comparison = compare(evaluate(HALF_RIGHT, ROWS), evaluate(MOSTLY_RIGHT, ROWS), n_resamples=500, seed=3)
    correct_a = np.array([p == label for p, label in zip(HALF_RIGHT, LABELS)], dtype=float)
    correct_b = np.array([p == label for p, label in zip(MOSTLY_RIGHT, LABELS)], dtype=float)
    differences = np.concatenate([correct_b[idx].mean(axis=1) - correct_a[idx].mean(axis=1)
                                  for idx in resample_indices(len(LABELS), 500, seed=3)])
    observed = correct_b.mean() - correct_a.mean()
    expected_low, expected_high = percentile_interval(differences, 0.95)
    expected_p = (1 + np.count_nonzero(np.abs(differences - observed) >= abs(observed) - 1e-12)) / 501
    accuracy = comparison["global"]["accuracy"]
    assert accuracy["difference"] == pytest.approx(observed, abs=1e-12)
    assert (accuracy["ci_low"], accuracy["ci_high"]) == pytest.approx((expected_low, expected_high), abs=1e-12)
    assert accuracy["p_value"] == pytest.approx(expected_p, abs=1e-12)
    assert accuracy["num_of_instances"] == 120


def test_groups_compare_within_each_group():
    results_a, results_b = evaluate(HALF_RIGHT, ROWS), evaluate(MOSTLY_RIGHT, ROWS)
    comparison = compare(results_a, results_b)
    key = "domain"
    assert set(comparison["groups"][key]) == {"news", "web"}
    for value in ("news", "web"):
        row_ = comparison["groups"][key][value]["accuracy"]
        expected = results_b.groups_scores[key][value]["accuracy"] - results_a.groups_scores[key][value]["accuracy"]
        assert row_["difference"] == pytest.approx(expected, abs=1e-12) and row_["num_of_instances"] == 60
    # odd rows (news) are all wrong in A and right in B except every fifth: B is better there
    assert comparison["groups"][key]["news"]["accuracy"]["ci_low"] > 0


def test_subsets_and_their_mean():
    rows = [row(label, subset=("first" if i < 60 else "second",)) for i, label in enumerate(LABELS)]
    results_a, results_b = evaluate(HALF_RIGHT, rows), evaluate(MOSTLY_RIGHT, rows)
    comparison = compare(results_a, results_b)
    assert set(comparison["subsets"]) == {"first", "second"}
    for name in ("first", "second"):
        expected = results_b.subsets_scores[name]["accuracy"] - results_a.subsets_scores[name]["accuracy"]
        assert comparison["subsets"][name]["accuracy"]["difference"] == pytest.approx(expected, abs=1e-12)
    mean = comparison["global"]["subsets_mean"]
    assert mean["difference"] == pytest.approx(results_b.subsets_scores["subsets_mean"]
                                               - results_a.subsets_scores["subsets_mean"], abs=1e-12)
    assert mean["ci_low"] <= mean["difference"] <= mean["ci_high"]
    assert "# Subset first" in comparison.summary and "# Global (B - A)" in comparison.summary


def test_summary_lists_every_compared_score():
    summary = compare(evaluate(HALF_RIGHT, ROWS), evaluate(MOSTLY_RIGHT, ROWS)).summary
    header = summary.splitlines()[1]
    assert [cell.strip() for cell in header.split("|")[1:-1]] == [
        "score_name", "a", "b", "difference", "ci_low", "ci_high", "p_value", "num_of_instances"]
    assert "| accuracy" in summary and "| f1_macro" in summary and "# Group domain = news" in summary


def test_runs_on_different_instances_are_refused():
    results = evaluate(HALF_RIGHT, ROWS)
    with pytest.raises(UnitxtError, match="different numbers of instances"):
        compare(results, evaluate(HALF_RIGHT[:-1], ROWS[:-1]))
    shifted = ROWS[1:] + ROWS[:1]
    with pytest.raises(UnitxtError, match="instance 0 has different references"):
        compare(results, evaluate(HALF_RIGHT, shifted))
    other_metrics = [row(label, metrics=("metrics.accuracy",)) for label in LABELS]
    with pytest.raises(UnitxtError, match="different metric lists"):
        compare(results, evaluate(HALF_RIGHT, other_metrics))
    with pytest.raises(UnitxtError, match="EvaluationResults"):
        compare(results, [{"score": 1}])
    with pytest.raises(UnitxtError, match="pickle"):
        compare(results, pickle.loads(pickle.dumps(results)))
