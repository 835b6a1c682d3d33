"""Correlation metric classes (spearman, pearson, kendalltau_b, roc_auc) against scipy.stats and sklearn.

Non-finite pairs are dropped before the reference library is called (the documented NaN policy); an undefined
correlation is NaN. CIs are compared with the reference library recomputed on every bootstrap resample.
"""

import math
import random
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from unitxt import evaluate
from unitxt.metrics.kernels.bootstrap import percentile_interval, resample_indices
from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.correlation import KendallTauB, Pearson, RocAuc, Spearman
from unitxt.settings_utils import settings

from tests.support.metric_cases import assert_close, make_row


def finite(gold, pred):
    gold, pred = np.asarray(gold, dtype=float), np.asarray(pred, dtype=float)
    keep = np.isfinite(gold) & np.isfinite(pred)
    return gold[keep], pred[keep]


def scipy_correlation(method):
    function = {"spearmanr": stats.spearmanr, "pearsonr": stats.pearsonr, "kendalltau_b": stats.kendalltau}[method]

    def reference(gold, pred):
        gold, pred = finite(gold, pred)
        if len(gold) < 2 or np.all(gold == gold[0]) or np.all(pred == pred[0]):
            return math.nan, math.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = function(gold, pred)
        return float(result[0]), float(result[1])

    return reference


def sklearn_auc(gold, pred):
    gold, pred = finite(gold, pred)
    if len(set(gold.tolist())) < 2:
        return math.nan, None
    return float(roc_auc_score(gold, pred)), None


REFERENCES = {
    "spearmanr": scipy_correlation("spearmanr"),
    "pearsonr": scipy_correlation("pearsonr"),
    "kendalltau_b": scipy_correlation("kendalltau_b"),
    "roc_auc": sklearn_auc,
}
CATALOG = {"spearmanr": "metrics.spearman", "pearsonr": "metrics.pearson", "kendalltau_b": "metrics.kendalltau_b",
           "roc_auc": "metrics.roc_auc"}


def random_case(seed, binary=False):
    rng = random.Random(seed)
    n = rng.randint(2, 30)
    if binary:
        gold = [rng.choice([0, 1]) if rng.random() < 0.9 else 1 for _ in range(n)]
    elif rng.random() < 0.5:
        gold = [rng.randint(0, 4) for _ in range(n)]  # many ties
    else:
        gold = [rng.uniform(-3, 3) for _ in range(n)]
    style = rng.random()
    predictions = []
    for g in gold:
        if style < 0.05:
            value = 1.5  # constant predictions
        elif style < 0.5:
            value = float(round(g + rng.gauss(0, 1)))  # ties
        else:
            value = g + rng.gauss(0, 1.5)
        if rng.random() < 0.1:
            value = math.nan if rng.random() < 0.8 else math.inf  # unparsable prediction, overflow
        predictions.append(float(value))
    return predictions, [[g] for g in gold]


@pytest.mark.parametrize("main", ["spearmanr", "pearsonr", "kendalltau_b", "roc_auc"])
def test_correlation_metric_matches_reference_on_250_random_cases(main):
    metric = fetch_artifact(CATALOG[main])[0]
    reference = REFERENCES[main]
    undefined = 0
    for seed in range(250):
        predictions, references = random_case(seed, binary=main == "roc_auc")
        scores = metric.evaluate(predictions, references)
        global_scores = scores.global_scores(with_ci=False)
        value, pvalue = reference([r[0] for r in references], predictions)
        assert_close(global_scores[main], value, what=f"seed {seed}")
        if pvalue is not None:
            key = "kendalltau_b_p_val" if main == "kendalltau_b" else f"{main}_p_value"  # the original system's keys
            assert_close(global_scores[key], pvalue, tol=1e-9, what=f"seed {seed} p-value")
        used = sum(math.isfinite(p) and math.isfinite(r[0]) for p, r in zip(predictions, references))
        assert global_scores["score_name"] == main and global_scores["num_of_instances"] == used  # pairs used
        assert global_scores.get(f"{main}_dropped_pairs", 0) == len(predictions) - used
        instances = metric.instance_results(scores)
        assert all(math.isnan(row[main]) and math.isnan(row["score"]) for row in instances)
        undefined += math.isnan(value)
    assert 0 < undefined < 60  # NaN results were exercised but most cases are defined


@pytest.mark.parametrize("cls", [Spearman, Pearson, KendallTauB, RocAuc])
def test_correlation_ci_equals_reference_on_every_resample(cls):
    metric = cls(n_resamples=120, ci_method="percentile")  # BCa: tests/metrics/test_ci_procedure.py
    main = metric.main_score
    predictions, references = random_case(4242, binary=cls is RocAuc)
    while len(predictions) < 25:
        more_p, more_r = random_case(len(predictions) + 7, binary=cls is RocAuc)
        predictions, references = predictions + more_p, references + more_r
    scores = metric.evaluate(predictions, references).global_scores()
    gold = [r[0] for r in references]
    values = []
    for idx in resample_indices(len(predictions), 120, seed=settings.seed):
        for row in idx:
            values.append(REFERENCES[main]([gold[i] for i in row], [predictions[i] for i in row])[0])
    low, high = percentile_interval(values)
    assert_close(scores[f"{main}_ci_low"], low, tol=1e-9)
    assert_close(scores[f"{main}_ci_high"], high, tol=1e-9)
    assert scores["score_ci_low"] == scores[f"{main}_ci_low"]
    assert scores == metric.evaluate(predictions, references).global_scores()


def test_compute_agrees_with_fast_statistic_and_subsets():
    predictions, references = random_case(99)
    for cls in (Spearman, Pearson, KendallTauB):
        metric = cls()
        scores = metric.evaluate(predictions, references)
        assert_close(metric.compute(references, predictions, [{}] * len(predictions))[metric.main_score],
                     scores.global_scores(with_ci=False)[metric.main_score])
        subset = list(range(0, len(predictions), 2))
        expected = REFERENCES[metric.main_score]([references[i][0] for i in subset], [predictions[i] for i in subset])
        got = scores.global_scores(subset, with_ci=False)
        assert_close(got[metric.main_score], expected[0])
        assert_close(got[f"{metric.main_score}{metric._p_value_suffix}"], expected[1])


def test_correlation_input_checks():
    with pytest.raises(MetricError, match="expects float"):
        Spearman().evaluate(["1"], [[1.0]])
    with pytest.raises(MetricError, match="Expecting a list with a single reference per prediction"):
        Spearman().evaluate([1.0, 2.0], [[1.0, 2.0], [3.0]])
    with pytest.raises(MetricError, match="binary"):
        RocAuc().evaluate([0.2, 0.4], [[0.5], [1]])


def test_spearman_through_evaluate_with_to_number():
    rng = random.Random(8)
    texts, rows, gold, parsed = [], [], [], []
    for _ in range(60):
        g = rng.randint(1, 5)
        roll = rng.random()
        if roll < 0.1:
            text, value = "no idea", math.nan
        else:
            value = g + rng.choice([-1, 0, 0, 1, 2])
            text = f"Score: {value}" if roll < 0.5 else str(value)
        texts.append(text)
        parsed.append(value)
        gold.append(g)
        rows.append(make_row(str(g), [str(g)], ["metrics.spearman"], ["processors.to_number"]))
    results = evaluate(texts, rows)
    expected, pvalue = REFERENCES["spearmanr"](gold, parsed)
    assert_close(results.global_scores["spearmanr"], expected)
    assert_close(results.global_scores["spearmanr_p_value"], pvalue)
    assert results.global_scores["score_name"] == "spearmanr"
    assert results.global_scores["spearmanr_ci_low"] <= expected <= results.global_scores["spearmanr_ci_high"]
    processed = [result["processed_prediction"] for result in results]
    assert sum(isinstance(p, float) and math.isnan(p) for p in processed) == sum(math.isnan(p) for p in parsed)
    assert all(result["processed_references"] == [g] for result, g in zip(results, gold))


@pytest.mark.parametrize("cls", [Spearman, RocAuc])
def test_counting_ranks_and_sorting_fallback_agree_with_reference(cls):
    """Small resamples of a large dataset take the sorting kernel; large ones rank by counting: both are exact."""
    rng = np.random.default_rng(5)
    n = 5000
    gold = rng.integers(0, 2, n).astype(float) if cls is RocAuc else rng.normal(size=n)
    pred = np.round(gold + rng.normal(size=n), 2)
    pred[rng.random(n) < 0.05] = np.nan
    metric = cls()
    main = metric.main_score
    for shape in [(3, 12), (2, n)]:  # (3, 12): table of 5000 codes per row is too big -> fallback
        idx = rng.integers(0, n, size=shape)
        values = metric.resampled(gold, pred, idx, {})
        for row, value in zip(idx, values):
            assert_close(float(value), REFERENCES[main](gold[row], pred[row])[0], tol=1e-9)
