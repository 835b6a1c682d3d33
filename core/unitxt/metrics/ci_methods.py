"""The original MetricWithConfidenceInterval's helpers, on every Metric here: the seeded generator, averages of
instance scores, NaN-resample replacement (the one place CIs replace NaN resamples: metrics/intervals.py calls it),
and bootstrap CIs from instance scores or from per-resample recomputation. They draw the resamples the original's
scipy bootstrap draws (kernels/bootstrap.py) and reduce them with the same BCa/percentile formulas (kernels/bca.py),
so a program calling them gets the original's numbers."""

import math
import warnings
from typing import Any, Callable, Dict, List, Optional

from ..lazy_imports import numpy_module as _np
from ..random_utils import get_seed


def _nan_reduce(reducer_name: str, values: List[Any]) -> Any:
    np = _np()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(np, reducer_name)(np.asarray(values, dtype=np.float64))


class ConfidenceIntervalMethods:
    """Bootstrap helpers of metrics (the original MetricWithConfidenceInterval's public methods)."""

    @staticmethod
    def new_random_generator() -> Any:
        """A numpy Generator seeded from the global seed (hash masked to 32 bits), as the original's CIs use."""
        from .intervals import new_random_generator

        return new_random_generator()

    @staticmethod
    def average_item_scores(instances: List[Dict[str, Any]], score_name: str) -> Any:
        """NaN-ignoring mean of instance["score"]["instance"][score_name] over the instances."""
        return _nan_reduce("nanmean", [instance["score"]["instance"][score_name] for instance in instances])

    @staticmethod
    def max_item_scores(instances: List[Dict[str, Any]], score_name: str) -> Any:
        """NaN-ignoring maximum of instance["score"]["instance"][score_name] over the instances."""
        return _nan_reduce("nanmax", [instance["score"]["instance"][score_name] for instance in instances])

    def resample_from_non_nan(self, values: Any) -> Any:
        """`values` with each NaN replaced by a draw (with replacement) from the non-NaN values, from a generator
        seeded afresh: resamples a metric can not score then do not make the whole interval NaN."""
        from .kernels.bca import bootstrap_seed, replace_nan_by_draws

        np = _np()
        replaced = replace_nan_by_draws(np.asarray(values, dtype=np.float64), bootstrap_seed(get_seed()))
        if isinstance(values, np.ndarray) and values.dtype == np.float64 and values.shape == replaced.shape:
            values[...] = replaced  # in place, as the original's
            return values
        return replaced

    def _can_compute_confidence_intervals(self, num_predictions: int) -> bool:
        return self.resolved_n_resamples() > 1 and num_predictions > 1

    def _bootstrap_interval(self, n: int, value_of: Callable[[Any], float]) -> tuple:
        """(low, high) of the statistic `value_of(positions)` over bootstrap resamples of range(n) by the metric's
        ci_method, NaN resample values replaced through `resample_from_non_nan` (the original's global/instance
        procedure)."""
        from .kernels.bca import bootstrap_seed, interval_from_distribution
        from .kernels.bootstrap import resample_indices

        np = _np()
        seed = bootstrap_seed(get_seed())
        distribution = np.concatenate([
            np.asarray([value_of(row) for row in rows], dtype=np.float64)
            for rows in resample_indices(n, self.resolved_n_resamples(), seed=seed, dtype=np.int64)])
        distribution = self.resample_from_non_nan(distribution)
        theta_hat = float(value_of(np.arange(n)))
        jackknife = None
        if str(self.ci_method).lower() == "bca":
            everything = np.arange(n)
            jackknife = self.resample_from_non_nan(
                np.asarray([value_of(np.delete(everything, left_out)) for left_out in range(n)], dtype=np.float64))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low, high = interval_from_distribution(distribution, theta_hat, jackknife, self.confidence_level,
                                                   self.ci_method)
        return float(low), float(high)

    def score_based_confidence_interval(self, instances: List[Dict[str, Any]], score_names: List[str],
                                        aggregation_func: Optional[Callable] = None,
                                        ci_score_prefix: str = "") -> Dict[str, Any]:
        """CIs of scores aggregated from instance scores already in instance["score"]["instance"]: each resample of
        the instances is aggregated by `aggregation_func(instances, score_name)` (default: `average_item_scores`).
        A score whose instance values are all equal gets no interval; `ci_score_prefix` prefixes the names."""
        result: Dict[str, Any] = {}
        if not self._can_compute_confidence_intervals(len(instances)):
            return result
        aggregate = aggregation_func if aggregation_func is not None else self.average_item_scores
        for score_name in score_names:
            values = [instance["score"]["instance"][score_name] for instance in instances]
            if len({value for value in values if not (isinstance(value, float) and math.isnan(value))}) == 1:
                continue  # no spread: no interval, as the original

            def value_of(positions, score_name=score_name):
                return aggregate([instances[int(i)] for i in positions], score_name)

            low, high = self._bootstrap_interval(len(instances), value_of)
            full_name = str(ci_score_prefix) + score_name
            result[f"{full_name}_ci_low"], result[f"{full_name}_ci_high"] = low, high
            if score_name == self.score_prefix + self.main_score:
                result["score_ci_low"], result["score_ci_high"] = low, high
        return result

    def compute_global_confidence_intervals(self, references: List[Any], predictions: List[Any],
                                            task_data: List[Any], score_name: str) -> Dict[str, Any]:
        """CIs of a global score recomputed on each resample of the instances (through the metric's own statistic:
        `compute` per resample for a metric without a vectorised form); a resample the metric can not score counts
        as NaN (replaced by `resample_from_non_nan`)."""
        from ..logging_utils import get_logger

        np = _np()
        if not self._can_compute_confidence_intervals(len(predictions)):
            return {}
        statistic = self.score(list(predictions), [list(refs) for refs in references], list(task_data)).statistic
        prefix = self.score_prefix
        raw_name = score_name[len(prefix):] if prefix and score_name.startswith(prefix) else score_name

        def value_of(positions):
            try:
                return float(np.asarray(statistic(np.asarray(positions, dtype=np.int64)[None, :])[raw_name])[0])
            except Exception as error:  # an unscorable resample (e.g. only empty texts), as in the original
                get_logger().warning(f"Warning in {type(self).__name__}: {error}")
                return math.nan

        low, high = self._bootstrap_interval(len(predictions), value_of)
        return {"score_ci_low": low, "score_ci_high": high, f"{score_name}_ci_low": low,
                f"{score_name}_ci_high": high}
