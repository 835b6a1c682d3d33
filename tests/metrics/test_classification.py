"""Binary, multi-label, regression and "fast" metrics of the original catalog, against scikit-learn and scipy."""

import math
import random

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import f1_score, mean_squared_error, precision_score, recall_score
from sklearn.preprocessing import MultiLabelBinarizer

from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.classification_variants import SumAccuracy, best_accuracy_threshold, best_f1_thresholds

from tests.support.metric_cases import assert_close


def metric(name):
    return fetch_artifact(name)[0]


def global_of(name, predictions, references, task_data=None, with_ci=False):
    scores = metric(name).evaluate(predictions, references, task_data)
    return scores.global_scores(with_ci=with_ci), scores


def test_precision_and_recall_binary_equal_sklearn():
    rng = random.Random(3)
    gold = [rng.randint(0, 1) for _ in range(200)]
    pred = [rng.randint(0, 1) for _ in range(200)]
    refs = [[g] for g in gold]
    precision, _ = global_of("metrics.precision_binary", pred, refs)
    recall, _ = global_of("metrics.recall_binary", pred, refs)
    assert precision["score_name"] == "precision_binary" and recall["score_name"] == "recall_binary"
    assert_close(precision["score"], precision_score(gold, pred))
    assert_close(recall["score"], recall_score(gold, pred))
    assert_close(recall["precision_binary_neg"], precision_score(gold, pred, pos_label=0))
    assert_close(precision["f1_binary"], f1_score(gold, pred))


def test_binary_f1_is_sklearns_to_the_last_bit():
    """F1 as sklearn computes it, 2 tp / (gold positives + predicted positives), not 2PR / (P + R): the values can
    differ in the last bit, and the BCa interval counts resamples below / equal to the point value, so a bit decides
    the original's CI bounds (issue 50: f1_binary CIs of precision_binary / recall_binary, max_f1_binary_neg)."""
    rng = random.Random(8)
    for _ in range(40):
        gold = [rng.randint(0, 1) for _ in range(rng.randint(5, 30))]
        pred = [rng.randint(0, 1) for _ in gold]
        result, _ = global_of("metrics.f1_binary", pred, [[g] for g in gold])
        assert result["f1_binary"] == f1_score(gold, pred, zero_division=0.0)
        assert result["f1_binary_neg"] == f1_score(gold, pred, pos_label=0, zero_division=0.0)
        scores = np.array([rng.choice([0.1, 0.35, 0.5, 0.8]) for _ in gold])
        best = best_f1_thresholds(np.array(gold), scores)
        assert best["max_f1_binary"] == f1_score(gold, (scores >= best["best_thr_maxf1"]).astype(int),
                                                 zero_division=0.0)


def test_accuracy_binary_thresholds_float_predictions():
    results, scores = global_of("metrics.accuracy_binary", [0.7, 0.5, 0.2, 1], [[1], [1], [0], [0]])
    assert [s["accuracy_binary"] for s in scores.instance_scores] == [1.0, 0.0, 1.0, 0.0]  # 0.5 is not > 0.5
    assert results["accuracy_binary"] == 0.5


def test_f1_binary_counts_a_prediction_at_the_threshold_as_negative():
    """The original thresholds with `p > 0.5`: 0.5 is a negative prediction (sklearn on the thresholded values)."""
    predictions, gold = [0.5, 0.5, 0.9, 0.1, 0.51, 0.5], [1, 0, 1, 0, 1, 1]
    results, _ = global_of("metrics.f1_binary", predictions, [[g] for g in gold])
    assert_close(results["f1_binary"], f1_score(gold, [int(p > 0.5) for p in predictions]))
    assert results["f1_binary"] != f1_score(gold, [int(p >= 0.5) for p in predictions])


def brute_force_max_accuracy(gold, scores):
    candidates = sorted(set(scores)) + [max(scores) + 1]
    return max(np.mean((np.asarray(scores) >= t).astype(int) == np.asarray(gold)) for t in candidates)


def test_max_accuracy_binary_is_the_best_threshold():
    rng = random.Random(5)
    for _ in range(30):
        n = rng.randint(2, 25)
        gold = [rng.randint(0, 1) for _ in range(n)]
        scores = [round(rng.random(), 2) for _ in range(n)]
        result, _ = global_of("metrics.max_accuracy_binary", scores, [[g] for g in gold])
        assert_close(result["max_accuracy_binary"], brute_force_max_accuracy(gold, scores))
        threshold = result["best_thr_max_acc"]
        assert_close(np.mean((np.asarray(scores) >= threshold).astype(int) == np.asarray(gold)),
                     result["max_accuracy_binary"])
    # all-negative is best: the threshold lies above every prediction
    assert best_accuracy_threshold(np.array([0, 0]), np.array([0.3, 0.6])) == {"max_accuracy_binary": 1.0,
                                                                              "best_thr_max_acc": 1.0}


def test_max_f1_binary_scans_rounded_prediction_thresholds():
    gold = np.array([0, 1, 1, 0, 1])
    scores = np.array([0.1, 0.8, 0.35, 0.4, 0.9])
    best = best_f1_thresholds(gold, scores)
    expected = max((f1_score(gold, (scores >= t).astype(int)), t) for t in sorted(set(scores)))
    assert_close(best["max_f1_binary"], expected[0])
    assert best["best_thr_maxf1"] == 0.35  # 3 TP, 1 FP: F1 6/7 beats 0.8's 0.8
    assert_close(best["max_f1_binary_neg"], max(f1_score(1 - gold, 1 - (scores >= t).astype(int))
                                               for t in sorted(set(scores))))
    result, _ = global_of("metrics.max_f1_binary", scores.tolist(), [[int(g)] for g in gold])
    assert_close(result["score"], 6 / 7)
    with pytest.raises(MetricError, match="must be 0 or 1"):
        metric("metrics.max_f1_binary").evaluate([0.3], [[2]])


@pytest.mark.parametrize("name,sk,average", [
    ("precision_macro_multi_label", precision_score, "macro"), ("precision_micro_multi_label", precision_score, "micro"),
    ("recall_macro_multi_label", recall_score, "macro"), ("recall_micro_multi_label", recall_score, "micro"),
])
def test_multi_label_precision_recall_equal_sklearn(name, sk, average):
    rng = random.Random(11)
    classes = ["a", "b", "c", "d"]
    gold = [rng.sample(classes[:3], rng.randint(1, 2)) for _ in range(120)]
    pred = [rng.sample(classes, rng.randint(0, 3)) for _ in range(120)]
    binarizer = MultiLabelBinarizer(classes=sorted({c for g in gold for c in g})).fit(gold)
    with pytest.warns(UserWarning, match="unknown class"):  # the unknown class "d" is ignored, as here
        gold_matrix, pred_matrix = binarizer.transform(gold), binarizer.transform(pred)
    expected = sk(gold_matrix, pred_matrix, average=average, zero_division=0)
    result, _ = global_of(f"metrics.{name}", pred, [[g] for g in gold])
    assert_close(result["score"], expected)
    kind = name.split("_")[0]
    # as the original's: one averaged number, no <precision|recall>_<class> scores
    assert not [key for key in result if key in {f"{kind}_{label}" for label in classes}]


def test_mean_squared_errors_equal_sklearn_and_resample_errors():
    rng = random.Random(2)
    gold = [rng.uniform(-3, 3) for _ in range(50)]
    pred = [g + rng.gauss(0, 1) for g in gold]
    mse, _ = global_of("metrics.mean_squared_error", pred, [[g] for g in gold], with_ci=True)
    rmse, _ = global_of("metrics.root_mean_squared_error", pred, [[g] for g in gold], with_ci=True)
    assert_close(mse["score"], mean_squared_error(gold, pred))
    assert_close(rmse["score"], math.sqrt(mean_squared_error(gold, pred)))
    assert mse["score_ci_low"] < mse["score"] < mse["score_ci_high"]
    # same resamples, monotone transform (equal up to the percentile interpolation)
    assert rmse["score_ci_low"] == pytest.approx(math.sqrt(mse["score_ci_low"]), rel=1e-4)


def test_correlation_aliases_equal_scipy():
    rng = random.Random(4)
    gold = [rng.random() for _ in range(40)]
    pred = [g + rng.gauss(0, 0.3) for g in gold]
    refs = [[g] for g in gold]
    spearman, _ = global_of("metrics.spearmanr", pred, refs)
    pearson, _ = global_of("metrics.pearsonr", pred, refs)
    kendall, _ = global_of("metrics.kendall_tau", pred, refs)
    assert_close(spearman["spearmanr"], stats.spearmanr(gold, pred).statistic)
    assert_close(spearman["spearmanr_p_value"], stats.spearmanr(gold, pred).pvalue)
    assert_close(pearson["pearsonr"], stats.pearsonr(gold, pred).statistic)
    assert_close(kendall["kendalltau_b"], stats.kendalltau(gold, pred).statistic)
    assert_close(kendall["kendalltau_b_p_val"], stats.kendalltau(gold, pred).pvalue)
    with pytest.raises(MetricError, match="variant 'b'"):
        fetch_artifact("metrics.kendall_tau[variant=c]")


def test_fast_variants():
    accuracy, _ = global_of("metrics.accuracy_fast", ["a", "b", "c"], [["a"], ["x", "b"], ["a"]])
    assert accuracy["accuracy"] == pytest.approx(2 / 3)
    gold, pred = ["a", "a", "b", "c", "b"], ["a", "b", "b", "b", "d"]
    f1, _ = global_of("metrics.f1_fast", pred, [[g] for g in gold])
    labels = sorted(set(gold))
    assert_close(f1["f1"], f1_score(gold, pred, labels=labels, average="macro", zero_division=0))
    assert_close(f1["f1_micro"], f1_score(gold, pred, labels=labels, average="micro", zero_division=0))
    assert f1["score_name"] == "f1" and set(f1) >= {"f1_a", "f1_b", "f1_c", "f1_macro"}
    for label, value in zip(labels, f1_score(gold, pred, labels=labels, average=None, zero_division=0)):
        assert_close(f1[f"f1_{label}"], value)


def test_sum_accuracy_is_the_tutorial_example():
    metric_ = SumAccuracy()
    scores = metric_.evaluate([3, 799, 50], [[5], [800], [50]],
                              [{"num1": 2, "num2": 3}, {"num1": 300, "num2": 500}, {"num1": -25, "num2": 75}])
    assert [s["sum_accuracy"] for s in scores.instance_scores] == [0.0, 0.0, 1.0]
    assert scores.global_scores(with_ci=False)["sum_accuracy"] == pytest.approx(1 / 3)
    approximate = metric("metrics.sum_accuracy_approximate").evaluate([799], [[800]], [{"num1": 300, "num2": 500}])
    assert approximate.instance_scores == [{"sum_accuracy": 1.0}]


def test_max_f1_binary_ties_go_to_the_threshold_the_original_meets_first():
    """F1 is 2/3 at thresholds 0.5 and 0.75; the original scans a Python set of the rounded predictions and keeps the
    first best, which here is 0.75 (not the smaller threshold)."""
    predictions, gold = [0.75, 0.5, 0.75, 0.5, 0.9, 0.5], [0, 0, 1, 1, 1, 0]
    assert next(iter({round(p, 3) for p in predictions})) == 0.75
    result = best_f1_thresholds(np.array(gold), np.array(predictions))
    assert result["best_thr_maxf1"] == 0.75 and result["max_f1_binary"] == pytest.approx(2 / 3)
    assert f1_score(gold, [int(p >= 0.5) for p in predictions]) == pytest.approx(2 / 3)


def test_metrics_without_instance_scores_report_their_main_score_as_nan():
    """As the original's global metrics with process_single_instances off: each instance carries main score NaN."""
    metric = fetch_artifact("metrics.max_accuracy_binary")[0]
    scores = metric.evaluate([0.2, 0.7, 0.9], [[0.0], [1.0], [1.0]])
    instance = metric.instance_results(scores)[0]
    assert math.isnan(instance["max_accuracy_binary"]) and math.isnan(instance["score"])
