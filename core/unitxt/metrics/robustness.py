"""Group metrics for robustness studies: instance scores aggregated per group (task_data `group_id`), then averaged.

`group_mean_<metric>` averages each group's instance scores and then the group means; its CIs resample instances
and regroup. The `fixed_group_<agg>_<metric>` variants treat groups as fixed units (CIs resample whole groups) and
may compare the subgroups given by task_data `variant_type` ("original" vs "paraphrase"): mean of one subgroup,
performance drop rate (PDR, 1 - paraphrase mean / original mean), Cohen's h between the two proportions and Hedges'
g between the two samples (both normalised to [-1, 1]), or their absolute values. Global names follow the original
system: `[fixed_]group_<agg>_<score>` (e.g. fixed_group_pdr_paraphrase_accuracy). Each is its instance metric with
the original's group_mean reduction_map, computed by metrics/group_reduction.py.
"""

import math
from typing import Any, Callable, Dict, List

from ..errors import MetricError
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
    3 < n < 50), clipped to [-5, 5] and divided by 5 (different means with zero spread: +-1)."""
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
    elif pooled == 0:  # an infinite effect, as the original's division by a numpy zero: clipped to +-1 below
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


# ---------------------------------------------------------------- the catalog's group metrics
def _mean_aggregation(resample_groups: bool) -> Dict[str, Any]:
    return {"group_mean": {"agg_func": ["mean", nan_mean, resample_groups]}}


def _subgroup_aggregation(aggregation: str) -> Dict[str, Any]:
    return {"group_mean": {"agg_func": [aggregation, AGGREGATIONS[aggregation], True]}}


class GroupMeanAccuracy(Accuracy):
    ci_style = "instance"  # the original's InstanceMetric CIs
    reduction_map = _mean_aggregation(False)


class FixedGroupMeanAccuracy(Accuracy):
    ci_style = "instance"
    reduction_map = _mean_aggregation(True)


class GroupMeanStringContainment(StringContainment):
    ci_style = "instance"
    reduction_map = _mean_aggregation(False)


class FixedGroupMeanStringContainment(StringContainment):
    ci_style = "instance"
    reduction_map = _mean_aggregation(True)


class GroupMeanTokenOverlap(TokenOverlap):
    ci_style = "instance"
    reduction_map = {"group_mean": {"agg_func": ["mean", nan_mean, False], "score_fields": ["f1", "precision",
                                                                                            "recall"]}}


def _variant_metric(base: type, aggregation: str, name: str) -> type:
    return type(name, (base,), {
        "__doc__": f"{base.__name__} instance scores; per group (subgroups by task_data variant_type): "
                   f"{aggregation.replace('_', ' ')}; mean over groups, CIs resample groups.",
        "__module__": __name__, "ci_style": "instance", "subgroup_column": "variant_type",
        "reduction_map": _subgroup_aggregation(aggregation),
    })


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
