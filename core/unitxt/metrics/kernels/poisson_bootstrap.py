"""Poisson bootstrap over a stream: every instance gets an independent Poisson(1) weight in every resample.

A resample of a stream of unknown length can not draw n indices with replacement (n is unknown until the end), but
weighting each instance by Poisson(1) counts is the streaming equivalent (Hanley & MacGibbon 2006; Chamandy et al.
2012): each resample's totals are sums of weighted per-instance statistics, so they merge chunk by chunk and memory
stays (resamples x statistics) whatever the stream's length. Instances with equal statistics are counted together:
the weighted count of c equal instances is one Poisson(c) draw, so discrete statistics (0/1 matches, label pairs) cost
one draw per distinct value and resample, not one per instance.
"""

from typing import Any, Tuple

import numpy as np

# Poisson(1) by inversion of 16-bit uniforms: weight w has probability P(w) up to 2**-16 (the weights' mean and
# variance are 1 within 1e-4), at a fifth of the cost of numpy's Poisson sampler.
_UNIFORM_LEVELS = 1 << 16


def _poisson_one_table() -> np.ndarray:
    weights = np.arange(32)
    log_factorial = np.cumsum(np.log(np.maximum(weights, 1)))
    cdf = np.cumsum(np.exp(-1.0 - log_factorial))
    return np.searchsorted(cdf * _UNIFORM_LEVELS, np.arange(_UNIFORM_LEVELS), side="right").astype(np.uint8)


_TABLE = _poisson_one_table()

# Below this share of distinct rows in a chunk, instances with equal statistics are drawn together.
_DISTINCT_SHARE = 0.25
# Upper bound on the weights drawn at once (uint16 + uint8 + float64 temporaries: ~11 bytes each).
_MAX_WEIGHTS = 4_000_000


def poisson_weights(rng: np.random.Generator, resamples: int, n: int) -> np.ndarray:
    """(resamples, n) uint8 matrix of independent Poisson(1) weights."""
    return _TABLE[rng.integers(0, _UNIFORM_LEVELS, size=(resamples, n), dtype=np.uint16)]


def distinct_rows(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(distinct rows of a 2-d float array, how many times each occurs)."""
    if values.shape[1] == 1:
        distinct, counts = np.unique(values[:, 0], return_counts=True)
        return distinct[:, None], counts
    distinct, counts = np.unique(values, axis=0, return_counts=True)
    return distinct, counts


def weighted_totals(rng: np.random.Generator, resamples: int, values: Any) -> np.ndarray:
    """Per-resample totals (resamples, d) of per-instance statistics `values` (n, d; no NaN), every instance weighted
    by an independent Poisson(1) draw per resample."""
    values = np.asarray(values, dtype=np.float64)
    n, width = values.shape
    if n == 0:
        return np.zeros((resamples, width))
    distinct, counts = distinct_rows(values)
    if len(counts) <= max(1, int(_DISTINCT_SHARE * n)):
        multiplicities = rng.poisson(counts.astype(np.float64), size=(resamples, len(counts)))
        return multiplicities.astype(np.float64) @ distinct
    totals = np.empty((resamples, width))
    step = max(1, _MAX_WEIGHTS // n)
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        totals[start:start + rows] = poisson_weights(rng, rows, n).astype(np.float64) @ values
    return totals


def weighted_key_counts(rng: np.random.Generator, resamples: int, counts: Any) -> np.ndarray:
    """Per-resample weighted counts (resamples, k) of k distinct keys seen `counts` times each."""
    return rng.poisson(np.asarray(counts, dtype=np.float64), size=(resamples, len(counts)))
