"""Correlation and ranking kernels: Pearson, Spearman, Kendall tau-b (scipy.stats) and ROC AUC (numpy ranks).

Missing values: a pair whose reference or prediction is not finite (NaN, +-inf, e.g. an
unparsable prediction) is dropped before computing, in the plain and in the resampled versions
alike. A correlation with fewer than 2 remaining pairs, or with a constant side, is NaN; ROC AUC
is NaN unless both classes remain. All functions take references first, predictions second.
"""

import warnings
from typing import Any, Tuple

import numpy as np

from ...errors import MetricError

_METHODS = ("pearson", "spearman", "kendall")


def _as_float_array(values: Any, what: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise MetricError(f"{what} must be numbers: {e}") from e
    if array.ndim != 1:
        raise MetricError(f"{what} must be a 1-d sequence of numbers, got shape {array.shape}")
    return array


def finite_pairs(references: Any, predictions: Any) -> Tuple[np.ndarray, np.ndarray]:
    """The (references, predictions) float arrays with every pair containing a non-finite value dropped."""
    x = _as_float_array(references, "references")
    y = _as_float_array(predictions, "predictions")
    if x.shape != y.shape:
        raise MetricError(f"references and predictions must have the same length, got {x.size} and {y.size}")
    keep = np.isfinite(x) & np.isfinite(y)
    return x[keep], y[keep]


def correlation_with_pvalue(references: Any, predictions: Any, method: str = "pearson") -> Tuple[float, float]:
    """(statistic, two-sided p-value) of scipy.stats pearsonr / spearmanr / kendalltau (tau-b)."""
    if method not in _METHODS:
        raise MetricError(f"unknown correlation method '{method}', expected one of {_METHODS}")
    x, y = finite_pairs(references, predictions)
    if x.size < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan"), float("nan")
    from scipy import stats  # lazy: keep `import unitxt` fast

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "pearson":
            result = stats.pearsonr(x, y)
        elif method == "spearman":
            result = stats.spearmanr(x, y)
        else:
            result = stats.kendalltau(x, y, variant="b")
    return float(result[0]), float(result[1])


def pearson(references: Any, predictions: Any) -> float:
    """Pearson's r (scipy.stats.pearsonr) over the finite pairs."""
    return correlation_with_pvalue(references, predictions, "pearson")[0]


def spearman(references: Any, predictions: Any) -> float:
    """Spearman's rho (scipy.stats.spearmanr, ties get average ranks) over the finite pairs."""
    return correlation_with_pvalue(references, predictions, "spearman")[0]


def kendall_tau_b(references: Any, predictions: Any) -> float:
    """Kendall's tau-b (scipy.stats.kendalltau, tie-corrected) over the finite pairs."""
    return correlation_with_pvalue(references, predictions, "kendall")[0]


def average_ranks(values: Any) -> np.ndarray:
    """1-based ranks along the last axis with ties sharing their average rank (scipy's 'average').

    Works row-wise on 2-d input, which is how resampled Spearman and ROC AUC rank all resamples
    of a chunk in one call.
    """
    a = np.asarray(values, dtype=np.float64)
    if a.ndim == 0:
        raise MetricError("average_ranks needs at least a 1-d array")
    rows = a.reshape(-1, a.shape[-1])
    n = rows.shape[1]
    if n == 0:
        return np.zeros(a.shape)
    order = np.argsort(rows, axis=1, kind="stable")
    ordered = np.take_along_axis(rows, order, axis=1)
    positions = np.broadcast_to(np.arange(n), rows.shape)
    new_group = np.ones(rows.shape, dtype=bool)
    new_group[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    end_group = np.ones(rows.shape, dtype=bool)
    end_group[:, :-1] = new_group[:, 1:]
    first = np.maximum.accumulate(np.where(new_group, positions, 0), axis=1)
    last = np.minimum.accumulate(np.where(end_group, positions, n - 1)[:, ::-1], axis=1)[:, ::-1]
    ranks = np.empty(rows.shape, dtype=np.float64)
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=1)
    return ranks.reshape(a.shape)


def _binary_references(references: Any) -> np.ndarray:
    y = _as_float_array(references, "references")
    finite = y[np.isfinite(y)]
    if not np.all((finite == 0) | (finite == 1)):
        raise MetricError("roc_auc references must be binary: 0/1 or False/True")
    return y


def roc_auc(references: Any, predictions: Any) -> float:
    """Area under the ROC curve of scores `predictions` for 0/1 `references` (== sklearn roc_auc_score).

    Computed as the Mann-Whitney U statistic from average ranks (tied scores count one half).
    """
    y, scores = finite_pairs(_binary_references(references), predictions)
    positives = y == 1
    n_pos = int(positives.sum())
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    rank_sum = average_ranks(scores)[positives].sum()
    return float((rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


# ---------------------------------------------------------------------------------------------
# Vectorised resampled versions: idx (r, n) -> r values, equal to the plain function per resample.


def _resampled_pairs(references: Any, predictions: Any, idx: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = _as_float_array(references, "references")
    y = _as_float_array(predictions, "predictions")
    if x.shape != y.shape:
        raise MetricError(f"references and predictions must have the same length, got {x.size} and {y.size}")
    valid = np.isfinite(x) & np.isfinite(y)
    return np.take(x, idx), np.take(y, idx), np.take(valid, idx)


def masked_pearson(x: np.ndarray, y: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Row-wise Pearson r over the valid entries (two-pass centred sums); NaN if undefined."""
    count = valid.sum(axis=1)
    safe = np.maximum(count, 1)
    x = np.where(valid, x, 0.0)
    y = np.where(valid, y, 0.0)
    xc = np.where(valid, x - (x.sum(axis=1) / safe)[:, None], 0.0)
    yc = np.where(valid, y - (y.sum(axis=1) / safe)[:, None], 0.0)
    sxy, sxx, syy = (xc * yc).sum(axis=1), (xc * xc).sum(axis=1), (yc * yc).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.clip(sxy / np.sqrt(sxx * syy), -1.0, 1.0)
    return np.where((count >= 2) & _varies(x, valid) & _varies(y, valid), r, np.nan)


def _varies(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Row-wise: do the valid entries hold at least two distinct values (scipy's constant-input test)."""
    return np.where(valid, values, np.inf).min(axis=1) < np.where(valid, values, -np.inf).max(axis=1)


def resampled_pearson(references: Any, predictions: Any, idx: np.ndarray) -> np.ndarray:
    """Pearson r of every resample row of idx (r, n)."""
    return masked_pearson(*_resampled_pairs(references, predictions, idx))


def _ranks_of_valid(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    # Invalid entries are pushed above every finite value, so valid entries get ranks 1..m.
    return average_ranks(np.where(valid, values, np.inf))


def resampled_spearman(references: Any, predictions: Any, idx: np.ndarray) -> np.ndarray:
    """Spearman rho of every resample row of idx (r, n): Pearson r of row-wise average ranks."""
    x, y, valid = _resampled_pairs(references, predictions, idx)
    return masked_pearson(_ranks_of_valid(x, valid), _ranks_of_valid(y, valid), valid)


def resampled_roc_auc(references: Any, predictions: Any, idx: np.ndarray) -> np.ndarray:
    """ROC AUC of every resample row of idx (r, n)."""
    y, scores, valid = _resampled_pairs(_binary_references(references), predictions, idx)
    positives = valid & (y == 1)
    n_pos = positives.sum(axis=1).astype(np.float64)
    n_neg = valid.sum(axis=1) - n_pos
    rank_sum = np.where(positives, _ranks_of_valid(scores, valid), 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)
    return np.where((n_pos > 0) & (n_neg > 0), auc, np.nan)
