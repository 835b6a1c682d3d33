"""The original's functions comparing instance scores of subgroups of variants ({subgroup type: [scores]}): the mean
of some subgroups, the performance drop rate of comparison subgroups against control ones, and effect sizes
(normalised Cohen's h for scores in [0, 1], normalised Hedges' g) with their rule-of-thumb interpretation; and its
NaN-ignoring mean, max and standard deviation. The robustness metrics (robustness.py) score with these formulas."""

import math
import warnings
from typing import Any, Dict, List, Tuple

from ..lazy_imports import numpy_module

_EFFECT_BOUNDS = (0.01, 0.2, 0.5, 0.8, 1.2, 2.0)
_EFFECT_LABELS = ("essentially zero", "very small", "small", "medium", "large", "very large", "huge")


def _quiet(function: Any, values: Any) -> Any:
    with warnings.catch_warnings():  # an all-NaN input gives NaN, as wanted, and numpy warns: not here
        warnings.simplefilter("ignore", category=RuntimeWarning)
        return function(values)


def nan_mean(x: Any) -> float:
    """The mean of the values that are not NaN (NaN when none is)."""
    return float(_quiet(numpy_module().nanmean, x))


def nan_max(x: Any) -> Any:
    """The largest value that is not NaN."""
    return _quiet(numpy_module().nanmax, x)


def nan_std(x: Any) -> float:
    """The (population) standard deviation of the values that are not NaN."""
    return float(_quiet(numpy_module().nanstd, x))


def validate_subgroup_types(subgroup_scores_dict: Dict[str, List], control_subgroup_types: List[str],
                            comparison_subgroup_types: List[str]) -> Tuple[Dict[str, List], List[str], List[str]]:
    """Drop NaN scores (in place) and repeated subgroup names; the subgroup lists must be lists."""
    subgroup_scores_dict.update({name: [score for score in scores if not math.isnan(score)]
                                 for name, scores in subgroup_scores_dict.items()})
    if not isinstance(control_subgroup_types, list) or not isinstance(comparison_subgroup_types, list):
        raise AssertionError("control_subgroup_types and comparison_subgroup_types must be lists")
    return subgroup_scores_dict, list(set(control_subgroup_types)), list(set(comparison_subgroup_types))


def _pooled(subgroup_scores_dict: Dict[str, List], names: List[str]) -> Any:
    np = numpy_module()
    return np.concatenate([np.asarray(subgroup_scores_dict.get(name, []), dtype=float) for name in names]) \
        if names else np.array([])


def mean_subgroup_score(subgroup_scores_dict: Dict[str, List], subgroup_types: List[str]) -> float:
    """The mean score over the instances of the given subgroups (NaN when they have none)."""
    subgroup_scores_dict, subgroup_types, _ = validate_subgroup_types(subgroup_scores_dict, subgroup_types, [])
    scores = _pooled(subgroup_scores_dict, subgroup_types)
    return math.nan if len(scores) == 0 else nan_mean(scores)


def performance_drop_rate(subgroup_scores_dict: Dict[str, List], control_subgroup_types: List[str],
                          comparison_subgroup_types: List[str]) -> float:
    """1 - mean(comparison) / mean(control) (arXiv 2306.04528); NaN without scores on a side or with a zero control
    mean (0 when both means are 0)."""
    scores, control, comparison = validate_subgroup_types(subgroup_scores_dict, control_subgroup_types,
                                                          comparison_subgroup_types)
    groups = [_pooled(scores, control), _pooled(scores, comparison)]
    if any(len(group) == 0 for group in groups):
        return math.nan
    control_mean, comparison_mean = nan_mean(groups[0]), nan_mean(groups[1])
    if control_mean == 0:
        return 0 if comparison_mean == 0 else math.nan
    return 1 - comparison_mean / control_mean


def interpret_effect_size(x: float) -> Any:
    """Cohen's / Sawilowsky's words for the size of an effect |x|: "essentially zero" (< 0.01), "very small", "small",
    "medium", "large", "very large", "huge" (>= 2.0); NaN for NaN."""
    if x is None or math.isnan(x):
        return math.nan
    return _EFFECT_LABELS[sum(abs(x) >= bound for bound in _EFFECT_BOUNDS)]


def normalized_cohens_h(subgroup_scores_dict: Dict[str, List], control_subgroup_types: List[str],
                        comparison_subgroup_types: List[str], interpret: bool = False) -> Any:
    """Cohen's h between the mean scores (in [0, 1]) of comparison and control subgroups, divided by pi into
    [-1, 1]; with `interpret`, (value, interpret_effect_size(h))."""
    np = numpy_module()
    scores, control, comparison = validate_subgroup_types(subgroup_scores_dict, control_subgroup_types,
                                                          comparison_subgroup_types)
    for name, values in scores.items():
        if not all(0 <= score <= 1 for score in values):
            raise AssertionError(f"all {name} scores must be in [0,1]")
    groups = [_pooled(scores, control), _pooled(scores, comparison)]
    if any(len(group) == 0 for group in groups):
        h = norm_h = math.nan
    else:
        h = 2 * (np.arcsin(np.sqrt(nan_mean(groups[1]))) - np.arcsin(np.sqrt(nan_mean(groups[0]))))
        norm_h = np.clip(a=h / np.pi, a_min=-1, a_max=1)
    return (norm_h, interpret_effect_size(h)) if interpret else norm_h


def normalized_hedges_g(subgroup_scores_dict: Dict[str, List[float]], control_subgroup_types: List[str],
                        comparison_subgroup_types: List[str], interpret: bool = False) -> Any:
    """Hedges' g (mean difference over the pooled standard deviation, small-sample corrected for 3 < n < 50) of
    comparison against control subgroups, clipped to [-5, 5] and divided by 5; with `interpret`, (value, words)."""
    np = numpy_module()
    scores, control, comparison = validate_subgroup_types(subgroup_scores_dict, control_subgroup_types,
                                                          comparison_subgroup_types)
    groups = [_pooled(scores, control), _pooled(scores, comparison)]
    sizes = [len(group) for group in groups]
    if any(size == 0 for size in sizes) or all(size <= 1 for size in sizes):
        g = norm_g = math.nan
    else:
        variances = [0.0 if size == 1 else np.var(group, ddof=1) for group, size in zip(groups, sizes)]
        pooled_sd = np.sqrt(sum((size - 1) * var for var, size in zip(variances, sizes)) / (sum(sizes) - 2))
        difference = float(nan_mean(groups[1]) - nan_mean(groups[0]))
        with np.errstate(divide="ignore", invalid="ignore"):
            g = 0.0 if difference == 0 else difference / pooled_sd
        n = sum(sizes)
        if 3 < n < 50:
            g *= ((n - 3) / (n - 2.25)) * np.sqrt((n - 2) / n)
        g = float(np.clip(a=g, a_min=-5, a_max=5))
        norm_g = g / 5
    return (norm_g, interpret_effect_size(g)) if interpret else norm_g


__all__ = ["nan_mean", "nan_max", "nan_std", "validate_subgroup_types", "mean_subgroup_score",
           "performance_drop_rate", "interpret_effect_size", "normalized_cohens_h", "normalized_hedges_g"]
