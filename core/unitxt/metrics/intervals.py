"""A metric's CIs from its bootstrap distributions, by the original system's procedure for the metric's family.

`ci_style` (a Metric class attribute) names the original's procedure the metric follows:
- "instance": per-instance scores averaged (its InstanceMetric): CIs only for `ci_scores`, none for a score whose
  instance values are all equal; NaN resample values are replaced by draws from the others.
- "global": the score recomputed per resample (its GlobalMetric): a resample the metric can not score is NaN and
  replaced by draws from the others (resamples default to settings.num_resamples_for_global_metrics).
- "map_reduce": all scores of a resample at once (its MapReduceMetric): NaNs stay; a NaN interval of a statistic whose
  every computed value was equal is that value.
The jackknife of BCa comes closed-form for NaN-ignoring means, from one leave-one-out row per distinct instance when
the scores say which instances are interchangeable (`MetricScores.jackknife_keys`), else from every leave-one-out row;
a statistic with a counted form gets one leave-one-out count row per distinct code (kernels/counted.py).
"""

import math
from typing import Any, Dict, List, Optional, Tuple

from ..lazy_imports import numpy_module as _np
from ..random_utils import get_seed
from .kernels.bca import bootstrap_seed, interval_from_distribution, replace_nan_by_draws
from .kernels.counted import counted_jackknife

STYLES = ("instance", "global", "map_reduce")


def new_random_generator() -> Any:
    """A numpy Generator seeded from the global seed as the original's bootstrap is (hash masked to 32 bits)."""
    return _np().random.default_rng(bootstrap_seed(get_seed()))
# leave-one-out rows scored per call: bounded like the bootstrap chunks
MAX_JACKKNIFE_INDICES = 2_000_000


def _mean_jackknife(values: Any) -> Any:
    """Leave-one-out NaN-ignoring means of a value array, closed form."""
    np = _np()
    values = np.asarray(values, dtype=np.float64)
    present = ~np.isnan(values)
    total = values[present].sum()
    count = int(present.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        without = np.where(present, (total - np.where(present, values, 0.0)) / (count - 1), total / count)
    if count <= 1:
        without = np.where(present, np.nan, without)
    return without


def jackknife_values(scores: Any, positions: Any, names: List[str]) -> Dict[str, Any]:
    """{name: the statistic on each leave-one-out subset of `positions`} (len(positions) values each)."""
    np = _np()
    result: Dict[str, Any] = {}
    means = scores.mean_values or {}
    remaining = []
    for name in names:
        if name in means:
            result[name] = _mean_jackknife(np.asarray(means[name], dtype=np.float64)[positions])
        else:
            remaining.append(name)
    if not remaining:
        return result
    counted = getattr(scores.statistic, "counted", None)
    if counted is not None:
        computed = counted_jackknife(counted, positions, remaining)
        if computed is not None:
            result.update(computed)
            return result
    m = len(positions)
    keys = getattr(scores, "jackknife_keys", None)
    if callable(keys):
        keys = scores.jackknife_keys = keys()
    if keys is not None:
        _, first, inverse = np.unique(np.asarray(keys)[positions], return_index=True, return_inverse=True)
        left_out = first
    else:
        left_out, inverse = np.arange(m), np.arange(m)
    rows_per_chunk = max(1, MAX_JACKKNIFE_INDICES // max(1, m - 1))
    columns = np.arange(m - 1, dtype=np.int64)
    parts: Dict[str, List[Any]] = {name: [] for name in remaining}
    for start in range(0, len(left_out), rows_per_chunk):
        chunk = left_out[start:start + rows_per_chunk]
        rows = columns[None, :] + (columns[None, :] >= chunk[:, None])  # row j: every position but chunk[j]
        computed = scores.statistic(positions[rows])
        for name in remaining:
            parts[name].append(np.asarray(computed[name], dtype=np.float64))
    for name in remaining:
        result[name] = np.concatenate(parts[name])[inverse]
    return result


def _instance_values(scores: Any, name: str, positions: Any) -> Any:
    np = _np()
    if scores.mean_values and name in scores.mean_values:
        return np.asarray(scores.mean_values[name], dtype=np.float64)[positions]
    column = [scores.instance_scores[int(i)].get(name) for i in positions]
    return np.asarray([math.nan if not isinstance(v, (int, float)) else v for v in column], dtype=np.float64)


def names_with_intervals(scores: Any, positions: Any, names: List[str]) -> List[str]:
    """The CI names the original reports: an "instance" metric skips scores whose instance values are all equal."""
    np = _np()
    if getattr(scores.metric, "ci_style", "global") != "instance":
        return names
    kept = []
    for name in names:
        values = _instance_values(scores, name, positions)
        present = values[~np.isnan(values)]
        if present.size == 0 or np.any(present != present[0]):
            kept.append(name)
    return kept


def metric_intervals(scores: Any, positions: Any, point: Dict[str, Any], distributions: Dict[str, Any],
                     confidence_level: float, seed: Any, style: Optional[str] = None) -> Dict[str, Tuple[float, float]]:
    """{name: (low, high)} of one metric from its bootstrap distributions over `positions` (by the metric's
    ci_style unless `style` is given)."""
    np = _np()
    metric = scores.metric
    style = style or getattr(metric, "ci_style", "global")
    method = getattr(metric, "ci_method", "BCa")
    generator_seed = bootstrap_seed(seed)
    names = list(distributions)
    needs_jackknife = str(method).lower() == "bca"
    # the metric's resample_from_non_nan (metrics/ci_methods.py) is the hook; its seed is the global seed
    if hasattr(metric, "resample_from_non_nan") and generator_seed == bootstrap_seed(get_seed()):
        replace_nan = metric.resample_from_non_nan
    else:
        def replace_nan(values):
            return replace_nan_by_draws(values, generator_seed)
    jackknife = jackknife_values(scores, positions, names) if needs_jackknife else {}
    intervals = {}
    for name in names:
        distribution = np.asarray(distributions[name], dtype=np.float64)
        leave_one_out = jackknife.get(name)
        theta_hat = point[name]
        theta_hat = math.nan if theta_hat is None else float(theta_hat)
        if style != "map_reduce":
            distribution = replace_nan(distribution.copy())
            if leave_one_out is not None:
                leave_one_out = replace_nan(np.array(leave_one_out, dtype=np.float64))
        low, high = interval_from_distribution(distribution, theta_hat, leave_one_out, confidence_level, method)
        if style == "map_reduce" and math.isnan(low) and math.isnan(high):
            computed = np.concatenate([[theta_hat], distribution, leave_one_out if leave_one_out is not None else []])
            computed = computed[~np.isnan(computed)]
            if computed.size and np.all(computed == computed[0]):
                low = high = float(computed[0])
        intervals[name] = (float(low), float(high))
    return intervals
