"""The "group_mean" reduction of instance metrics (the original system's): instance scores grouped by task_data
`group_id` - and, when the metric sets `subgroup_column`, split within a group by that task_data field - reduced to
one score per group by the reduction's function, then averaged over groups (NaN groups ignored).

    reduction_map = {"group_mean": {"agg_func": [name, function, resample_groups], "score_fields": [...]}}

`function` gets a group's list of scores (or {subgroup: scores} with a subgroup_column); `score_fields` default to
the main score. Global scores are named `[fixed_]group_<name>_<score>`. CIs (for ci_scores) follow the original's
InstanceMetric: a bootstrap of the group scores when `resample_groups` (groups are fixed units, hence "fixed_"), else
of the instances, with the groups re-formed in every resample.
"""

import math
from typing import Any, Callable, Dict, List, Optional

from ..errors import MetricError
from ..lazy_imports import numpy_module as _np
from .scores import MetricScores


class GroupReductionError(MetricError, AssertionError):
    """A malformed group_mean reduction or instances without the group fields (the original asserts these)."""


def nan_mean(values: Any) -> float:
    """Mean of the non-NaN values (NaN when there are none), rounded as numpy's nanmean (NaNs summed as 0, then divided
    by the count): the original's group aggregation of "mean"; the BCa bias step compares resample means with it
    exactly, so the rounding matters."""
    np = _np()
    values = np.asarray(values, dtype=np.float64)
    missing = np.isnan(values)
    count = int((~missing).sum())
    return float(np.where(missing, 0.0, values).sum() / count) if count else math.nan


def check_group_reduction(metric: Any) -> None:
    """Raise GroupReductionError unless the metric's group_mean reduction has the form documented above."""
    spec = metric.reduction_map.get("group_mean")
    name = type(metric).__name__

    def require(condition: bool, expectation: str) -> None:
        if not condition:
            raise GroupReductionError(f"reduction_map['group_mean'] {expectation}; got {spec!r}.", artifact=name,
                                      field="reduction_map")

    require(isinstance(spec, dict), "must be a dict with an 'agg_func' entry")
    require("agg_func" in spec, "needs 'agg_func': [name, function, resample_groups]")
    agg = spec["agg_func"]
    require(isinstance(agg, list) and len(agg) == 3, "'agg_func' must be a 3-element list [name, function, bool]")
    require(isinstance(agg[0], str), "'agg_func'[0] must be the function's name (a string)")
    require(callable(agg[1]), "'agg_func'[1] must be a callable")
    require(isinstance(agg[2], bool), "'agg_func'[2] (resample groups as units) must be a bool")
    require(isinstance(spec.get("score_fields", []), list), "'score_fields' must be a list of score names")
    others = sorted(set(metric.reduction_map) - {"group_mean"})
    if others:
        raise GroupReductionError(f"reduction_map combines group_mean with {others}; a metric here reports one or "
                                  "the other (make two metrics).", artifact=name, field="reduction_map")


def grouped_scores(metric: Any, score_instances: Callable[[], List[Dict[str, Any]]],
                   task_data: List[Any]) -> "GroupedScores":
    """The scores of an instance metric with a group_mean reduction: each instance's group fields are checked, then
    `score_instances()` gives the instance scores."""
    column = getattr(metric, "subgroup_column", None)
    groups, subgroups = [], []
    for index, data in enumerate(task_data):
        if not isinstance(data, dict) or "group_id" not in data:
            raise GroupReductionError(f"{type(metric).__name__} needs task_data with a 'group_id' (instance {index} "
                                      f"has {sorted(data) if isinstance(data, dict) else data!r}).",
                                      artifact=metric.artifact_name, field="task_data")
        if column is not None and column not in data:
            raise GroupReductionError(f"{type(metric).__name__} needs task_data field '{column}' (instance {index}).",
                                      artifact=metric.artifact_name, field="task_data")
        groups.append(str(data["group_id"]))
        subgroups.append(str(data[column]) if column is not None else "default")
    return GroupedScores(metric, score_instances(), groups, subgroups)


def group_scores_of_instances(metric: Any, instances: List[Dict[str, Any]], score_names: List[str],
                              aggregate: Callable, prepend_score_prefix: bool) -> List[Dict[str, Any]]:
    """InstanceMetric.get_group_scores: instance score dicts ({"score": {"instance": ...}, "task_data": ...})
    grouped by group_id (and subgroup_column), each group's scores aggregated, groups in sorted order."""
    column = getattr(metric, "subgroup_column", None)
    prefix = metric.score_prefix if prepend_score_prefix else ""
    groups: Dict[str, Dict[str, Dict[str, List[Any]]]] = {}
    for instance in instances:
        data = instance["task_data"]
        subgroup = str(data[column]) if column is not None else "default"
        by_name = groups.setdefault(str(data["group_id"]), {})
        for name in score_names:
            by_name.setdefault(name, {}).setdefault(subgroup, []).append(instance["score"]["instance"][prefix + name])
    return [{"score": {"instance": {prefix + name: aggregate(scores if column is not None else scores["default"])
                                    for name, scores in groups[group].items()}}}
            for group in sorted(groups)]


def _number(value: Any) -> float:
    if value is None:
        return math.nan
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return float(value)


class GroupedScores(MetricScores):
    """Instance scores of the metric; global scores aggregate per group (and resample groups or instances)."""

    def __init__(self, metric: Any, instance_scores: List[Dict[str, Any]], groups: List[str], subgroups: List[str]):
        super().__init__(metric, instance_scores, lambda idx: {}, len(instance_scores))
        np = _np()
        spec = metric.reduction_map["group_mean"]
        self.name, self.function, self.fixed = spec["agg_func"]
        self.fields = list(dict.fromkeys(spec.get("score_fields") or [metric.main_score]))
        self.groups, self.subgroups = groups, subgroups
        self.uses_subgroups = getattr(metric, "subgroup_column", None) is not None
        self.values = {name: np.asarray([_number(scores.get(name)) for scores in instance_scores], dtype=np.float64)
                       for name in self.fields}

    def global_name(self, name: str) -> str:
        return f"{'fixed_' if self.fixed else ''}group_{self.name}_{self.metric.score_prefix}{name}"

    def group_scores(self, positions: Any, name: str) -> Any:
        """One aggregate per group present among `positions`, groups in sorted order (the original's); a metric
        overriding get_group_scores aggregates them its way."""
        np = _np()
        if type(self.metric).get_group_scores.__qualname__ != "InstanceMetric.get_group_scores":  # overridden
            instances = [{"score": {"instance": {name: float(self.values[name][p])}},
                          "task_data": {"group_id": self.groups[p],
                                        **({self.metric.subgroup_column: self.subgroups[p]}
                                           if self.uses_subgroups else {})}} for p in positions]
            groups = self.metric.get_group_scores(instances, [name], self.function, False)
            return np.asarray([group["score"]["instance"][name] for group in groups], dtype=np.float64)
        members: Dict[str, Dict[str, List[float]]] = {}
        values = self.values[name]
        for position in positions:
            by_subgroup = members.setdefault(self.groups[position], {})
            by_subgroup.setdefault(self.subgroups[position], []).append(float(values[position]))
        return np.asarray([self._aggregate(members[group]) for group in sorted(members)], dtype=np.float64)

    def _aggregate(self, scores: Dict[str, List[float]]) -> float:
        if self.uses_subgroups:
            return float(self.function(scores))
        return float(self.function([value for values in scores.values() for value in values]))

    def regrouped(self, positions: Any, name: str, idx: Any) -> Any:
        """Mean over groups of the group aggregates for every resample row of instance positions (the groups are
        re-formed in each row): the mean aggregation in closed form, any other per row."""
        np = _np()
        if self.function is not nan_mean or self.uses_subgroups:
            return np.asarray([nan_mean(self.group_scores(positions[row], name)) for row in idx], dtype=np.float64)
        codes = {group: code for code, group in enumerate(sorted(set(self.groups[p] for p in positions)))}
        group_codes = np.asarray([codes[self.groups[p]] for p in positions], dtype=np.int64)
        values = self.values[name][positions]
        n_groups, rows = len(codes), idx.shape[0]
        taken, taken_codes = values[idx], group_codes[idx]
        valid = ~np.isnan(taken)
        flat = (taken_codes + (np.arange(rows, dtype=np.int64) * n_groups)[:, None]).ravel()
        sums = np.bincount(flat, weights=np.where(valid, taken, 0.0).ravel(), minlength=rows * n_groups)
        counts = np.bincount(flat, weights=valid.ravel().astype(np.float64), minlength=rows * n_groups)
        sums, counts = sums.reshape(rows, n_groups), counts.reshape(rows, n_groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
            present = (counts > 0).sum(axis=1)
            return np.where(present > 0, np.nansum(means, axis=1) / np.maximum(present, 1), np.nan)

    def _interval(self, positions: Any, name: str, units: Any, point: float) -> Optional[tuple]:
        """The original's interval of a group score: scipy's bootstrap (the metric's ci_method, BCa by default) over
        the group scores (fixed groups) or the instances (groups re-formed per resample), NaN resample and
        leave-one-out values replaced by draws from the others; None when every unit value is equal."""
        from ..settings_utils import settings
        from .intervals import MAX_JACKKNIFE_INDICES, _mean_jackknife
        from .kernels.bca import bootstrap_seed, interval_from_distribution, replace_nan_by_draws
        from .kernels.bootstrap import resample_indices, resampled_mean

        np = _np()
        metric = self.metric
        present = units[~np.isnan(units)]
        if present.size and np.all(present == present[0]):
            return None
        seed = bootstrap_seed(int(settings.seed))
        count = len(units)
        samples = [resampled_mean(units, idx) if self.fixed else self.regrouped(positions, name, idx)
                   for idx in resample_indices(count, metric.resolved_n_resamples(), seed=seed)]
        distribution = replace_nan_by_draws(np.concatenate(samples), seed)
        leave_one_out = None
        if str(metric.ci_method).lower() == "bca":
            if self.fixed:
                leave_one_out = _mean_jackknife(units)
            else:
                columns = np.arange(count - 1, dtype=np.int64)
                step = max(1, MAX_JACKKNIFE_INDICES // max(1, count - 1))
                parts = []
                for start in range(0, count, step):  # row j: every instance but j, in bounded chunks
                    left_out = np.arange(start, min(count, start + step))[:, None]
                    parts.append(self.regrouped(positions, name, columns[None, :] + (columns[None, :] >= left_out)))
                leave_one_out = np.concatenate(parts)
            leave_one_out = replace_nan_by_draws(leave_one_out, seed)
        low, high = interval_from_distribution(distribution, point, leave_one_out, metric.confidence_level,
                                               metric.ci_method)
        return float(low), float(high)

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        np = _np()
        positions = self._positions(positions)
        if len(positions) == 0:
            return {}
        metric = self.metric
        result: Dict[str, Any] = {}
        ci_names = [name for name in (metric.ci_scores or []) if name in self.fields]  # the original: ci_scores only
        for name in self.fields:
            full = self.global_name(name)
            group_scores = self.group_scores(positions, name)
            result[full] = nan_mean(group_scores)
            if not (with_ci and name in ci_names and metric.resolved_n_resamples() > 1):
                continue
            units = group_scores if self.fixed else self.values[name][positions]
            if len(units) < 2:
                continue
            interval = self._interval(positions, name, np.asarray(units, dtype=np.float64), result[full])
            if interval is not None:
                result[f"{full}_ci_low"], result[f"{full}_ci_high"] = interval
        main = self.global_name(metric.main_score)
        result["score"], result["score_name"] = result[main], main
        if f"{main}_ci_low" in result:
            result["score_ci_low"], result["score_ci_high"] = result[f"{main}_ci_low"], result[f"{main}_ci_high"]
        result["num_of_instances"] = int(len(positions))
        return result
