"""Correlation kernels against scipy.stats / sklearn / brute force, and resampled against plain."""

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from unitxt.metrics.kernels import bootstrap as bs
from unitxt.metrics.kernels import correlation as ck
from unitxt.errors import MetricError

TOL = 1e-9


def _same(actual, expected):
    return (math.isnan(actual) and math.isnan(expected)) or abs(actual - expected) <= TOL


def _brute_force_tau_b(x, y):
    """Kendall tau-b from its definition over all pairs."""
    concordant = discordant = ties_x = ties_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif dx == dy:
            concordant += 1
        else:
            discordant += 1
    return (concordant - discordant) / math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))


def _random_pair(rng, case):
    n = int(rng.randint(3, 60))
    x = rng.randint(0, 5, n).astype(float) if case % 2 else rng.randn(n) * 10 + 100
    y = 0.5 * x + rng.randn(n) if case % 3 else rng.randint(0, 4, n).astype(float)
    return x, y


# the oracles (scipy, np.corrcoef) warn on constant input, where they and the kernels give NaN
@pytest.mark.filterwarnings("ignore::scipy.stats.ConstantInputWarning", "ignore::RuntimeWarning")
def test_correlations_equal_scipy_on_300_random_cases():
    rng = np.random.RandomState(0)
    constant_cases = 0
    for case in range(300):
        x, y = _random_pair(rng, case)
        constant_cases += math.isnan(ck.pearson(x, y))
        assert _same(ck.pearson(x, y), stats.pearsonr(x, y)[0])
        assert _same(ck.pearson(x, y), np.corrcoef(x, y)[0, 1])
        assert _same(ck.spearman(x, y), stats.spearmanr(x, y)[0])
        assert _same(ck.kendall_tau_b(x, y), stats.kendalltau(x, y)[0])
        if case < 200:
            assert _same(ck.kendall_tau_b(x, y), _brute_force_tau_b(x, y))
        stat, p = ck.correlation_with_pvalue(x, y, "spearman")
        assert _same(p, stats.spearmanr(x, y)[1])
    assert 0 < constant_cases < 30  # the NaN (constant input) edge case is exercised


def test_average_ranks_equal_scipy_rankdata():
    rng = np.random.RandomState(1)
    for case in range(200):
        values = rng.randint(0, 6, rng.randint(1, 40)).astype(float) if case % 2 else rng.randn(rng.randint(1, 40))
        np.testing.assert_array_equal(ck.average_ranks(values), stats.rankdata(values))
    matrix = rng.randint(0, 4, size=(7, 15))
    np.testing.assert_array_equal(ck.average_ranks(matrix), stats.rankdata(matrix, axis=1))
    assert ck.average_ranks([3.0, 1.0, 3.0, 2.0]).tolist() == [3.5, 1.0, 3.5, 2.0]


def test_roc_auc_equals_sklearn_on_300_random_cases():
    rng = np.random.RandomState(2)
    for case in range(300):
        n = int(rng.randint(2, 80))
        y = rng.randint(0, 2, n)
        y[0], y[1] = 0, 1
        scores = rng.randint(0, 4, n).astype(float) if case % 2 else rng.rand(n) + 0.3 * y
        expected = roc_auc_score(y, scores)
        assert ck.roc_auc(y, scores) == pytest.approx(expected, abs=TOL)
        assert ck.roc_auc(y.astype(bool), scores) == pytest.approx(expected, abs=TOL)


def test_hand_computed_values():
    # sklearn's documentation example
    assert ck.roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    assert ck.roc_auc([0, 1], [0.5, 0.5]) == 0.5
    # r of (1,2,3) vs (2,4,7): cov = 5/2 ... = 5 / sqrt(2 * 12.6667)
    assert ck.pearson([1, 2, 3], [2, 4, 7]) == pytest.approx(5 / math.sqrt(2 * 38 / 3), abs=1e-12)
    assert ck.spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8, abs=1e-12)
    assert ck.kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6, abs=1e-12)


def test_non_finite_pairs_are_dropped():
    rng = np.random.RandomState(3)
    for case in range(200):
        x, y = _random_pair(rng, case)
        y[rng.rand(y.size) < 0.2] = np.nan
        x[rng.rand(x.size) < 0.1] = np.inf
        keep = np.isfinite(x) & np.isfinite(y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if keep.sum() >= 2:
                assert _same(ck.pearson(x, y), stats.pearsonr(x[keep], y[keep])[0])
                assert _same(ck.spearman(x, y), stats.spearmanr(x[keep], y[keep])[0])
                assert _same(ck.kendall_tau_b(x, y), stats.kendalltau(x[keep], y[keep])[0])
    labels = np.array([0, 1, 1, 0, 1])
    scores = np.array([0.2, np.nan, 0.9, 0.1, 0.4])
    assert ck.roc_auc(labels, scores) == roc_auc_score(labels[[0, 2, 3, 4]], scores[[0, 2, 3, 4]])


def test_undefined_correlations_are_nan():
    assert math.isnan(ck.pearson([1.0], [2.0]))
    assert math.isnan(ck.pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))  # constant input
    assert math.isnan(ck.spearman([np.nan, 1.0, 2.0], [1.0, np.nan, 3.0]))  # one pair left
    assert math.isnan(ck.kendall_tau_b([], []))
    assert math.isnan(ck.roc_auc([1, 1, 1], [0.1, 0.2, 0.3]))  # one class only
    assert all(math.isnan(v) for v in ck.correlation_with_pvalue([1, 1], [2, 3]))


def test_bad_input_raises_metric_error():
    with pytest.raises(MetricError):
        ck.pearson([1, 2, 3], [1, 2])
    with pytest.raises(MetricError):
        ck.roc_auc([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(MetricError):
        ck.correlation_with_pvalue([1, 2], [1, 2], "cosine")
    with pytest.raises(MetricError):
        ck.spearman(["a", "b"], [1, 2])


def test_resampled_versions_equal_plain_on_each_resample():
    rng = np.random.RandomState(4)
    for case in range(30):
        x, y = _random_pair(rng, case)
        labels = rng.randint(0, 2, x.size)
        if case % 3 == 0:
            y[rng.rand(y.size) < 0.2] = np.nan
        idx = next(bs.resample_indices(x.size, 8, seed=case))
        pairs = (
            (ck.resampled_pearson, ck.pearson, x),
            (ck.resampled_spearman, ck.spearman, x),
            (ck.resampled_roc_auc, ck.roc_auc, labels),
        )
        for resampled, plain, refs in pairs:
            values = resampled(refs, y, idx)
            for j, row in enumerate(idx):
                assert _same(values[j], plain(refs[row], y[row])), (case, plain.__name__)


def test_kendall_ci_via_the_slow_loop_path():
    rng = np.random.RandomState(5)
    x = rng.randn(60)
    y = x + rng.randn(60)
    low, high = bs.bootstrap_ci_loop(ck.kendall_tau_b, [x, y], n_resamples=200)
    tau = ck.kendall_tau_b(x, y)
    assert low < tau < high and 0.1 < high - low < 0.6
