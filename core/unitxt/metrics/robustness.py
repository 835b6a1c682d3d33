"""Group metrics for robustness studies: instance scores aggregated per group (task_data `group_id`), then averaged.

`group_mean_<metric>` averages each group's instance scores and then the group means; its CIs resample instances
and regroup. The `fixed_group_<agg>_<metric>` variants treat groups as fixed units (CIs resample whole groups) and
may compare the subgroups given by task_data `variant_type` ("original" vs "paraphrase"): mean of one subgroup,
performance drop rate (PDR, 1 - paraphrase mean / original mean), Cohen's h between the two proportions and Hedges'
g between the two samples (both normalised to [-1, 1]), or their absolute values. Global names follow the original
system: `[fixed_]group_<agg>_<score>` (e.g. fixed_group_pdr_paraphrase_accuracy); CIs by its procedure (scipy's
bootstrap, BCa by default, over the group scores or the instances).
"""

import math
from typing import Any, Callable, Dict, List, Optional

from ..errors import MetricError
from .base import InstanceMetric, MetricScores
from .classification import Accuracy, StringContainment
from .string_match import TokenOverlap
from ..lazy_imports import numpy_module as _np


def _nan_mean(values: Any) -> float:
    """numpy's nanmean (NaNs summed as 0 in place, then divided by the count): the same rounding as the original's,
    so resample means compare with it exactly in the BCa bias correction."""
    np = _np()
    values = np.asarray(values, dtype=np.float64)
    missing = np.isnan(values)
    count = int((~missing).sum())
    return float(np.where(missing, 0.0, values).sum() / count) if count else math.nan


# ---------------------------------------------------------------- group aggregations (documented formulas)
def subgroup_mean(scores: Dict[str, List[float]], subgroup: str) -> float:
    """Mean score of one subgroup of a group (NaN when the group has none)."""
    return _nan_mean(scores.get(subgroup, []))


def _control_and_comparison(scores: Dict[str, List[float]]):
    np = _np()
    control = np.asarray([s for s in scores.get("original", []) if not math.isnan(s)], dtype=np.float64)
    comparison = np.asarray([s for s in scores.get("paraphrase", []) if not math.isnan(s)], dtype=np.float64)
    return control, comparison


def performance_drop_rate(scores: Dict[str, List[float]]) -> float:
    """1 - mean(paraphrase) / mean(original); 0 when both means are 0, NaN when only the original mean is 0 or a
    subgroup is missing."""
    control, comparison = _control_and_comparison(scores)
    if not control.size or not comparison.size:
        return math.nan
    control_mean, comparison_mean = float(control.mean()), float(comparison.mean())
    if control_mean == 0:
        return 0.0 if comparison_mean == 0 else math.nan
    return 1.0 - comparison_mean / control_mean


def normalized_cohens_h(scores: Dict[str, List[float]]) -> float:
    """Cohen's h = 2 (asin sqrt(p_paraphrase) - asin sqrt(p_original)) of the two mean scores, divided by pi.

    Scores must lie in [0, 1] (they are proportions)."""
    np = _np()
    control, comparison = _control_and_comparison(scores)
    for values in (control, comparison):
        if values.size and (values.min() < 0 or values.max() > 1):
            raise MetricError(f"Cohen's h needs instance scores in [0, 1]; got {values.min()}..{values.max()}.")
    if not control.size or not comparison.size:
        return math.nan
    h = 2 * (math.asin(math.sqrt(comparison.mean())) - math.asin(math.sqrt(control.mean())))
    return float(np.clip(h / math.pi, -1.0, 1.0))


def normalized_hedges_g(scores: Dict[str, List[float]]) -> float:
    """Hedges' g of paraphrase vs original scores (pooled standard deviation, small-sample correction for
    3 < n < 50), clipped to [-5, 5] and divided by 5; with zero pooled deviation the effect is infinite, so +-1."""
    np = _np()
    control, comparison = _control_and_comparison(scores)
    sizes = [control.size, comparison.size]
    if min(sizes) == 0 or max(sizes) <= 1:
        return math.nan
    variances = [0.0 if len(v) == 1 else float(np.var(v, ddof=1)) for v in (control, comparison)]
    pooled = math.sqrt(sum((size - 1) * var for size, var in zip(sizes, variances)) / (sum(sizes) - 2))
    limit = 5.0
    difference = float(comparison.mean() - control.mean())
    if difference == 0:
        g = 0.0
    elif pooled == 0:  # an infinite effect (clipped below, after the small-sample factor, to +-limit)
        g = math.copysign(math.inf, difference)
    else:
        g = difference / pooled
    n = sum(sizes)
    if 3 < n < 50:
        g *= ((n - 3) / (n - 2.25)) * math.sqrt((n - 2) / n)
    return float(np.clip(g, -limit, limit)) / limit


AGGREGATIONS: Dict[str, Callable[[Dict[str, List[float]]], float]] = {
    "mean_baseline": lambda scores: subgroup_mean(scores, "original"),
    "mean_paraphrase": lambda scores: subgroup_mean(scores, "paraphrase"),
    "pdr_paraphrase": performance_drop_rate,
    "norm_cohens_h_paraphrase": normalized_cohens_h,
    "norm_hedges_g_paraphrase": normalized_hedges_g,
    "absval_norm_cohens_h_paraphrase": lambda scores: abs(normalized_cohens_h(scores)),
    "absval_norm_hedges_g_paraphrase": lambda scores: abs(normalized_hedges_g(scores)),
}


# ---------------------------------------------------------------- scores
class _GroupScores(MetricScores):
    """Instance scores of the inner metric; global scores aggregate per group (and resample groups or instances)."""

    def __init__(self, metric: "_GroupMetric", instance_scores: List[Dict[str, Any]], groups: List[str],
                 subgroups: List[str]):
        super().__init__(metric, instance_scores, lambda idx: {}, len(instance_scores))
        np = _np()
        self.groups, self.subgroups = groups, subgroups
        self.fields = metric.score_fields()
        self.values = {name: np.asarray([_number(scores.get(name)) for scores in instance_scores], dtype=np.float64)
                       for name in self.fields}

    def _group_scores(self, positions: Any, name: str) -> Any:
        """One aggregate per group present among `positions` (groups in sorted order)."""
        np = _np()
        metric: _GroupMetric = self.metric
        members: Dict[str, Dict[str, List[float]]] = {}
        values = self.values[name]
        for position in positions:
            by_subgroup = members.setdefault(self.groups[position], {})
            by_subgroup.setdefault(self.subgroups[position], []).append(float(values[position]))
        return np.asarray([metric.aggregate(members[group]) for group in sorted(members)], dtype=np.float64)

    def _regrouped_means(self, positions: Any, name: str, idx: Any) -> Any:
        """Mean of group means for every resample row of instance positions (groups re-formed per row)."""
        np = _np()
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

    def _interval(self, positions: Any, name: str, units: Any, theta_hat: float) -> Optional[tuple]:
        """The original's interval of a group score: scipy's bootstrap (the metric's ci_method, BCa by default) over
        the group scores (fixed groups) or the instances (groups re-formed per resample), NaN resample and
        leave-one-out values replaced by draws from the others; None when every unit value is equal."""
        from .intervals import MAX_JACKKNIFE_INDICES, _mean_jackknife
        from .kernels.bca import bootstrap_seed, interval_from_distribution, replace_nan_by_draws
        from .kernels.bootstrap import resample_indices, resampled_mean
        from ..settings_utils import settings

        np = _np()
        metric: _GroupMetric = self.metric
        present = units[~np.isnan(units)]
        if present.size and np.all(present == present[0]):
            return None
        seed = bootstrap_seed(int(settings.seed))
        count = len(units)
        samples = []
        for idx in resample_indices(count, metric.resolved_n_resamples(), seed=seed):
            samples.append(resampled_mean(units, idx) if metric.fixed_groups
                           else self._regrouped_means(positions, name, idx))
        distribution = replace_nan_by_draws(np.concatenate(samples), seed)
        leave_one_out = None
        if str(metric.ci_method).lower() == "bca":
            if metric.fixed_groups:
                leave_one_out = _mean_jackknife(units)
            else:
                columns = np.arange(count - 1, dtype=np.int64)
                step = max(1, MAX_JACKKNIFE_INDICES // max(1, count - 1))
                parts = []
                for start in range(0, count, step):  # row j: every instance but j, in bounded chunks
                    left_out = np.arange(start, min(count, start + step))[:, None]
                    rows = columns[None, :] + (columns[None, :] >= left_out)
                    parts.append(self._regrouped_means(positions, name, rows))
                leave_one_out = np.concatenate(parts)
            leave_one_out = replace_nan_by_draws(leave_one_out, seed)
        low, high = interval_from_distribution(distribution, theta_hat, leave_one_out, metric.confidence_level,
                                               metric.ci_method)
        return float(low), float(high)

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        np = _np()
        positions = self._positions(positions)
        if len(positions) == 0:
            return {}
        metric: _GroupMetric = self.metric
        result: Dict[str, Any] = {}
        ci_names = [name for name in metric.resolved_ci_scores() if name in self.fields]
        n_resamples = metric.resolved_n_resamples()
        for name in self.fields:
            full = metric.global_name(name)
            group_scores = self._group_scores(positions, name)
            result[full] = _nan_mean(group_scores)
            if not (with_ci and name in ci_names and n_resamples > 1):
                continue
            units = group_scores if metric.fixed_groups else self.values[name][positions]
            if len(units) < 2:
                continue
            interval = self._interval(positions, name, np.asarray(units, dtype=np.float64), result[full])
            if interval is not None:
                result[f"{full}_ci_low"], result[f"{full}_ci_high"] = interval
        main = metric.global_name(metric.main_score)
        result["score"], result["score_name"] = result[main], main
        if f"{main}_ci_low" in result:
            result["score_ci_low"], result["score_ci_high"] = result[f"{main}_ci_low"], result[f"{main}_ci_high"]
        result["num_of_instances"] = int(len(positions))
        return result


def _number(value: Any) -> float:
    if value is None:
        return math.nan
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return float(value)


class _GroupMetric(InstanceMetric):
    """Base of group metrics: instance scores from the inner metric class (mixed in after this one)."""

    __abstract__ = True
    subgroup_column: Optional[str] = None
    fixed_groups: bool = True
    aggregation: str = "mean"

    def score_fields(self) -> List[str]:
        return [self.main_score]

    def global_name(self, name: str) -> str:
        return f"{'fixed_' if self.fixed_groups else ''}group_{self.aggregation}_{self.score_prefix}{name}"

    def aggregate(self, scores: Dict[str, List[float]]) -> float:
        if self.aggregation == "mean":
            return _nan_mean([value for values in scores.values() for value in values])
        return AGGREGATIONS[self.aggregation](scores)

    def verify(self) -> None:
        super().verify()
        if self.aggregation != "mean" and self.aggregation not in AGGREGATIONS:
            raise MetricError(f"Unknown group aggregation {self.aggregation!r}; use mean, "
                              f"{', '.join(AGGREGATIONS)}.", artifact=type(self).__name__, field="aggregation")

    def score(self, predictions, references, task_data) -> MetricScores:
        groups, subgroups = [], []
        for index, data in enumerate(task_data):
            if not isinstance(data, dict) or "group_id" not in data:
                raise MetricError(f"{type(self).__name__} needs task_data with a 'group_id' (instance {index} has "
                                  f"{sorted(data) if isinstance(data, dict) else data!r}).",
                                  artifact=self.artifact_name, field="task_data")
            groups.append(str(data["group_id"]))
            if self.subgroup_column is not None:
                if self.subgroup_column not in data:
                    raise MetricError(f"{type(self).__name__} needs task_data field '{self.subgroup_column}' "
                                      f"(instance {index}).", artifact=self.artifact_name, field="task_data")
                subgroups.append(str(data[self.subgroup_column]))
            else:
                subgroups.append("default")
        instance_scores = self.compute_all(predictions, references, task_data)
        return _GroupScores(self, instance_scores, groups, subgroups)


# ---------------------------------------------------------------- the catalog's group metrics
class GroupMeanAccuracy(_GroupMetric, Accuracy):
    fixed_groups = False


class FixedGroupMeanAccuracy(_GroupMetric, Accuracy):
    fixed_groups = True


class GroupMeanStringContainment(_GroupMetric, StringContainment):
    fixed_groups = False


class FixedGroupMeanStringContainment(_GroupMetric, StringContainment):
    fixed_groups = True


class GroupMeanTokenOverlap(_GroupMetric, TokenOverlap):
    fixed_groups = False

    def score_fields(self) -> List[str]:
        return ["f1", "precision", "recall"]


def _variant_metric(base: type, aggregation: str, name: str) -> type:
    cls = type(name, (_GroupMetric, base), {
        "__doc__": f"{base.__name__} instance scores; per group (subgroups by task_data variant_type): "
                   f"{aggregation.replace('_', ' ')}; mean over groups, CIs resample groups.",
        "__module__": __name__, "subgroup_column": "variant_type", "fixed_groups": True, "aggregation": aggregation,
    })
    return cls


_AGGREGATION_CLASS_NAMES = {
    "mean_baseline": "MeanBaseline", "mean_paraphrase": "MeanParaphrase", "pdr_paraphrase": "PDRParaphrase",
    "norm_cohens_h_paraphrase": "NormCohensHParaphrase", "norm_hedges_g_paraphrase": "NormHedgesGParaphrase",
    "absval_norm_cohens_h_paraphrase": "AbsvalNormCohensHParaphrase",
    "absval_norm_hedges_g_paraphrase": "AbsvalNormHedgesGParaphrase",
}
for _aggregation, _part in _AGGREGATION_CLASS_NAMES.items():
    for _base, _suffix in ((Accuracy, "Accuracy"), (StringContainment, "StringContainment")):
        _name = f"FixedGroup{_part}{_suffix}"
        globals()[_name] = _variant_metric(_base, _aggregation, _name)


def _expose_original_reduction_map() -> None:
    """The original's classes declare their aggregation as `reduction_map = {"group_mean": {"agg_func": [name,
    function, resample groups]}}`; code written for it reads that attribute. Ours score through _GroupScores, so the
    map is descriptive here (the same name, function and resampling unit)."""
    from .group_reduction import nan_mean

    for cls in [value for value in globals().values() if isinstance(value, type) and issubclass(value, _GroupMetric)
                and value is not _GroupMetric]:
        function = nan_mean if cls.aggregation == "mean" else AGGREGATIONS[cls.aggregation]
        cls.reduction_map = {"group_mean": {"agg_func": [cls.aggregation, function, cls.fixed_groups]}}


_expose_original_reduction_map()
