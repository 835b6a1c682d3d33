"""The scores of a metric over a fixed list of instances (`MetricScores`): instance score dicts plus a vectorised
`statistic(idx) -> {score name: values}` over index matrices (r, m), so global scores of any subset and bootstrap CIs
are cheap; `global_scores_together` scores several metrics on one stream of resamples. Kept apart from the metric
classes (metrics/base.py) so that reductions other modules implement (metrics/group_reduction.py) can build scores.
"""

from collections.abc import Sequence as SequenceABC
from typing import Any, Callable, Dict, List, Optional

from ..errors import MetricError
from ..lazy_imports import numpy_module as _np
from ..settings_utils import settings

Statistic = Callable[[Any], Dict[str, Any]]


def is_original_key(key: str) -> bool:
    """Whether a score key names a score of its own, not bookkeeping: False for `score`, `score_name`,
    `num_of_instances` and `*_ci_low` / `*_ci_high`."""
    return not (key.endswith(("_ci_low", "_ci_high")) or key in ("score", "num_of_instances", "score_name"))


class MetricScores:
    """The scores of one metric over a fixed list of instances."""

    # {global score name: per-instance values} when every global score is the NaN-ignoring mean of these values:
    # the scores then merge over chunks of a stream (see metrics/accumulators.py)
    mean_values: Optional[Dict[str, Any]] = None
    # n ints (or a function giving them): instances with equal keys are interchangeable for the statistic, so the
    # jackknife of BCa scores one leave-one-out row per distinct key (metrics/intervals.py)
    jackknife_keys: Any = None
    # positions -> {score name: (ci_low, ci_high)}: intervals taken as computed by other metrics' own procedures
    # (MetricsEnsemble reports each member metric's CI as that metric computes it alone)
    nested_intervals: Any = None

    def __init__(self, metric: Any, instance_scores: List[Dict[str, Any]], statistic: Statistic, n: int):
        self.metric = metric
        self.instance_scores = instance_scores
        self.statistic = statistic
        self.n = n

    def _positions(self, positions: Optional[Any]) -> Any:
        np = _np()
        return np.arange(self.n, dtype=np.int64) if positions is None else np.asarray(positions, dtype=np.int64)

    def point_scores(self, positions: Any) -> Dict[str, Any]:
        """The global scores over `positions` (raw names, no CIs)."""
        values = self.statistic(positions[None, :])
        scores = {name: _to_python(array[0]) for name, array in values.items()}
        if self.metric.main_score not in scores:
            raise MetricError(f"{type(self.metric).__name__} did not produce its main score '{self.metric.main_score}'.",
                              artifact=self.metric.artifact_name)
        return scores

    def ci_names(self, point: Dict[str, Any]) -> List[str]:
        return [name for name in self.metric.resolved_ci_scores() if name in point]

    def resampled(self, positions: Any, names: List[str]) -> Statistic:
        """Statistic over resample index matrices of positions (idx indexes into `positions`)."""
        full = len(positions) == self.n and (self.n == 0 or (positions[0] == 0 and positions[-1] == self.n - 1))

        def statistic(idx):
            computed = self.statistic(idx if full else positions[idx])
            return {name: computed[name] for name in names}

        return statistic

    def finish(self, point: Dict[str, Any], intervals: Dict[str, Any], count: int) -> Dict[str, Any]:
        """Prefix names and add CIs, score, score_name and num_of_instances."""
        scores = dict(point)
        for name, (low, high) in intervals.items():
            scores[f"{name}_ci_low"] = low
            scores[f"{name}_ci_high"] = high
        metric = self.metric
        result = metric.prefixed(scores)
        prefixed_main = metric.score_prefix + metric.main_score
        result["score"] = result[prefixed_main]
        result["score_name"] = prefixed_main
        if f"{prefixed_main}_ci_low" in result:
            result["score_ci_low"] = result[f"{prefixed_main}_ci_low"]
            result["score_ci_high"] = result[f"{prefixed_main}_ci_high"]
        result["num_of_instances"] = int(count)
        return result

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        """Global scores over `positions` (default: all instances), with CIs for the metric's ci_scores."""
        positions = self._positions(positions)
        if len(positions) == 0:
            return {}
        return global_scores_together([self], positions, with_ci)[0]


def global_scores_together(scores_list: List["MetricScores"], positions: Any, with_ci: bool = True) -> List[Dict[str, Any]]:
    """Global scores of several metrics over the same instances, sharing one stream of bootstrap resamples (the
    original's: default_rng of the hashed global seed); intervals by each metric's procedure (metrics/intervals.py).
    Statistics with a counted form (`statistic.counted`, kernels/counted.py) share one gather and count per resample."""
    from .intervals import metric_intervals, names_with_intervals
    from .kernels.bca import bootstrap_seed
    from .kernels.bootstrap import resample_indices
    from .kernels.counted import resampled_distributions

    np = _np()
    positions = np.asarray(positions, dtype=np.int64)
    points = [scores.point_scores(positions) for scores in scores_list]
    plans = []
    for scores, point in zip(scores_list, points):
        metric = scores.metric
        n_resamples = metric.resolved_n_resamples()
        enough = n_resamples >= (1 if metric.ci_style == "map_reduce" else 2)
        names = names_with_intervals(scores, positions, scores.ci_names(point)) if with_ci and enough else []
        if names and len(positions) > 1:
            plans.append((scores, names, scores.resampled(positions, names)))
    intervals: List[Dict[str, Any]] = [{} for _ in scores_list]
    groups: Dict[Any, List[Any]] = {}
    for plan in plans:  # metrics with the same resampling settings share the index matrices
        key = (plan[0].metric.resolved_n_resamples(), plan[0].metric.confidence_level)
        groups.setdefault(key, []).append(plan)
    seed = int(settings.seed)
    for (n_resamples, confidence_level), members in groups.items():
        def chunks(dtype, n_resamples=n_resamples):
            return resample_indices(len(positions), n_resamples, seed=bootstrap_seed(seed), dtype=dtype)

        statistics = [(statistic, names, getattr(scores.statistic, "counted", None))
                      for scores, names, statistic in members]
        for (scores, _, _), distributions in zip(members, resampled_distributions(statistics, positions, chunks)):
            position = next(i for i, candidate in enumerate(scores_list) if candidate is scores)
            intervals[position] = metric_intervals(scores, positions, points[position], distributions,
                                                   confidence_level, seed)
    if with_ci and len(positions) > 1:
        for scores, interval in zip(scores_list, intervals):
            if scores.nested_intervals is not None:
                interval.update(scores.nested_intervals(positions))
    return [scores.finish(point, interval, len(positions))
            for scores, point, interval in zip(scores_list, points, intervals)]


class ColumnScores(SequenceABC):
    """Instance score dicts built on access from per-instance value arrays ({score name: n values}): a metric over
    a million instances keeps a few arrays, not a million dicts. Behaves as the list of those dicts: a dict read
    once is kept, so changes to it (or assignments) stay. `copies` (name column, per-instance names) adds to each
    dict that instance's own key holding the named column's value (e.g. f1_<its class> = its f1_macro). `present`
    ({name: n booleans}) names columns that only some instances hold (e.g. f1_<type> of the types in its reference)."""

    def __init__(self, columns: Dict[str, Any], n: int, copies: Optional[tuple] = None,
                 present: Optional[Dict[str, Any]] = None):
        self.columns = columns
        self.n = n
        self.copies = copies
        self.present = present or {}
        self.built: Dict[int, Dict[str, Any]] = {}

    def __len__(self) -> int:
        return self.n

    def _position(self, index: int) -> int:
        position = index + self.n if index < 0 else index
        if not 0 <= position < self.n:
            raise IndexError(f"instance {index} out of range ({self.n} instances)")
        return position

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        position = self._position(index)
        scores = self.built.get(position)
        if scores is None:
            scores = self.built[position] = {name: _to_python(values[position]) for name, values in self.columns.items()
                                             if name not in self.present or self.present[name][position]}
            if self.copies is not None:
                source, names = self.copies
                scores[names[position]] = scores[source]
        return scores

    def __setitem__(self, index: int, scores: Dict[str, Any]) -> None:
        self.built[self._position(index)] = scores

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, SequenceABC) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None


def _to_python(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    return value
