"""Confidence intervals from a bootstrap distribution, by the procedure of `scipy.stats.bootstrap`.

The original system computes CIs with scipy's bootstrap over `np.random.default_rng(seed)`; its resample indices are
the rows of `resample_indices` (drawn in chunks: numpy's generator keeps its 32-bit buffer between calls, so chunked
draws are the same stream as one call). Here the distribution, the full-data value and the leave-one-out (jackknife)
values are given as arrays, so the statistic itself can be vectorised; the interval is scipy's: BCa (bias-corrected
and accelerated, Efron & Tibshirani eq. 14.3 / 15.36), percentile or basic, with linear quantiles.
"""

import math
from statistics import NormalDist
from typing import Any, Optional, Tuple

import numpy as np

from ...errors import MetricError

METHODS = ("bca", "percentile", "basic")
NAN_POLICIES = ("propagate", "resample_non_nan")


def bootstrap_seed(seed: Any) -> int:
    """The generator seed the original derives from the global seed: hash(seed) masked to 32 bits."""
    return hash(seed) & 0xFFFFFFFF


def replace_nan_by_draws(values: np.ndarray, seed: int) -> np.ndarray:
    """NaN entries replaced by draws with replacement from the non-NaN ones, from a generator seeded afresh (the
    original's treatment of resamples on which a metric can not be computed); unchanged when none or all are NaN."""
    values = np.array(values, dtype=np.float64)
    missing = np.isnan(values)
    count = int(missing.sum())
    if values.size > 1 and 0 < count < values.size:
        values[missing] = np.random.default_rng(seed).choice(values[~missing], count, replace=True)
    return values


def _quantiles(distribution: np.ndarray, probabilities: Tuple[float, float]) -> Tuple[float, float]:
    """Linear-interpolation quantiles (numpy's default); NaN in the data or the probability gives NaN."""
    if np.isnan(distribution).any():
        return math.nan, math.nan
    ordered = np.sort(distribution)
    result = []
    for probability in probabilities:
        if math.isnan(probability):
            result.append(math.nan)
        else:
            result.append(float(np.quantile(ordered, min(max(probability, 0.0), 1.0))))
    return result[0], result[1]


_STANDARD_NORMAL = NormalDist()


def _normal_quantile(probability: float) -> float:
    """scipy.special.ndtri with the standard library (zero-install mode has no scipy): -inf at 0, inf at 1."""
    if math.isnan(probability):
        return math.nan
    if probability <= 0.0 or probability >= 1.0:
        return -math.inf if probability <= 0.0 else math.inf
    return _STANDARD_NORMAL.inv_cdf(probability)


def _normal_cdf(value: float) -> float:
    """scipy.special.ndtr with the standard library."""
    return math.nan if math.isnan(value) else _STANDARD_NORMAL.cdf(value)


def bca_probabilities(distribution: np.ndarray, theta_hat: float, jackknife: np.ndarray,
                      alpha: float) -> Tuple[float, float]:
    """The BCa-adjusted lower and upper quantile levels of the bootstrap distribution."""
    with np.errstate(all="ignore"):
        size = distribution.shape[0]
        below = np.count_nonzero(distribution < theta_hat) + np.count_nonzero(distribution <= theta_hat)
        z0 = _normal_quantile(below / (2.0 * size))
        count = float(jackknife.shape[0])
        spread = (count - 1.0) * (jackknife.mean() - jackknife)
        numerator = float(np.sum(spread ** 3)) / count ** 3
        denominator = float(np.sum(spread ** 2)) / count ** 2
        acceleration = 1 / 6 * numerator / denominator ** (3 / 2) if denominator != 0 else math.nan
        z_alpha = _normal_quantile(alpha)
        levels = []
        for z in (z_alpha, -z_alpha):
            shifted = z0 + z
            levels.append(_normal_cdf(z0 + shifted / (1 - acceleration * shifted)))
    return levels[0], levels[1]


def interval_from_distribution(
    distribution: Any,
    theta_hat: float,
    jackknife: Optional[Any],
    confidence_level: float,
    method: str = "BCa",
) -> Tuple[float, float]:
    """(low, high) of a bootstrap distribution by `method` (BCa needs the jackknife values and theta_hat)."""
    method_key = str(method).lower()
    if method_key not in METHODS:
        raise MetricError(f"ci_method must be one of 'BCa', 'percentile', 'basic', got {method!r}")
    distribution = np.asarray(distribution, dtype=np.float64)
    alpha = (1.0 - float(confidence_level)) / 2.0
    if method_key == "bca":
        if jackknife is None:
            raise MetricError("the BCa interval needs the leave-one-out (jackknife) values of the statistic")
        levels = bca_probabilities(distribution, float(theta_hat), np.asarray(jackknife, dtype=np.float64), alpha)
    else:
        levels = (alpha, 1.0 - alpha)
    low, high = _quantiles(distribution, levels)
    if method_key == "basic":
        low, high = 2 * float(theta_hat) - high, 2 * float(theta_hat) - low
    return low, high
