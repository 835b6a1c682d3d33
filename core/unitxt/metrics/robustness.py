"""Group metrics for robustness studies: instance scores aggregated per group (task_data `group_id`), then averaged.

`group_mean_<metric>` averages each group's instance scores and then the group means; its CIs resample instances
and regroup. The `fixed_group_<agg>_<metric>` variants treat groups as fixed units (CIs resample whole groups) and
may compare the subgroups given by task_data `variant_type` ("original" vs "paraphrase"): mean of one subgroup,
performance drop rate (PDR, 1 - paraphrase mean / original mean), Cohen's h between the two proportions and Hedges'
g between the two samples (both normalised to [-1, 1]), or their absolute values. Global names follow the original
system: `[fixed_]group_<agg>_<score>` (e.g. fixed_group_pdr_paraphrase_accuracy). Each class declares the original's
group_mean reduction_map; metrics/group_reduction.py scores it (CIs by the original's procedure).
"""

import math
from typing import Callable, Dict, List, Optional

from ..errors import MetricError
from .base import InstanceMetric
from .classification import Accuracy, StringContainment
from .group_reduction import nan_mean
from .string_match import TokenOverlap
from ..lazy_imports import numpy_module as _np


# ---------------------------------------------------------------- group aggregations (documented formulas)
def subgroup_mean(scores: Dict[str, List[float]], subgroup: str) -> float:
    """Mean score of one subgroup of a group (NaN when the group has none)."""
    return nan_mean(scores.get(subgroup, []))


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


class _GroupMetric(InstanceMetric):
    """Base of group metrics: instance scores from the inner metric class (mixed in after this one)."""

    __abstract__ = True
    subgroup_column: Optional[str] = None
    fixed_groups: bool = True
    aggregation: str = "mean"

    def score_fields(self) -> List[str]:
        return [self.main_score]

    def verify(self) -> None:
        super().verify()
        if self.aggregation != "mean" and self.aggregation not in AGGREGATIONS:
            raise MetricError(f"Unknown group aggregation {self.aggregation!r}; use mean, "
                              f"{', '.join(AGGREGATIONS)}.", artifact=type(self).__name__, field="aggregation")


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


def _declare_reduction_maps() -> None:
    """Each class's aggregation as the original declares it, `reduction_map = {"group_mean": {"agg_func": [name,
    function, resample groups], "score_fields": [...]}}`: InstanceMetric scores such a map (metrics/group_reduction.py),
    and code written for the original reads it."""
    for cls in [value for value in globals().values() if isinstance(value, type) and issubclass(value, _GroupMetric)
                and value is not _GroupMetric]:
        function = nan_mean if cls.aggregation == "mean" else AGGREGATIONS[cls.aggregation]
        cls.reduction_map = {"group_mean": {"agg_func": [cls.aggregation, function, cls.fixed_groups],
                                            "score_fields": cls.score_fields(cls)}}


_declare_reduction_maps()
