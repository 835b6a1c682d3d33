"""Paired comparison of two evaluations of the same instances: `unitxt.compare(results_a, results_b)`.

For every score with a confidence interval (per metric, per group of `group_by`, per subset) it reports run B minus
run A, a percentile CI of that difference from a paired bootstrap (the same resampled instances scored for both runs,
seeded), and a two-sided p-value for "no difference": the share of bootstrap differences at least as far from the
observed difference as the observed difference is from zero (a bootstrap shifted to the null).
"""

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import UnitxtError
from ..settings_utils import settings
from .tables import group_key_fields, markdown_table

_COLUMNS = ("a", "b", "difference", "ci_low", "ci_high", "p_value", "num_of_instances")


class PairedComparison(dict):
    """{"global": {score: row}, "groups": {group-by key: {value: {score: row}}}, "subsets": {path: {score: row}}};
    a row holds a, b, difference (b - a), ci_low, ci_high, p_value and num_of_instances."""

    @property
    def summary(self) -> str:
        def table(title: str, rows: Dict[str, Dict[str, Any]]) -> str:
            body = [[name] + [row[column] for column in _COLUMNS] for name, row in rows.items()]
            return f"# {title}\n" + markdown_table(["score_name"] + list(_COLUMNS), body, digits=4)

        parts = [table("Global (B - A)", self["global"])] if self["global"] else []
        for key, groups in self["groups"].items():
            for value, rows in groups.items():
                parts.append(table(f"Group {', '.join(group_key_fields(key))} = {value}", rows))
        for path, rows in self["subsets"].items():
            parts.append(table(f"Subset {path}", rows))
        return "\n\n".join(parts)

    def __str__(self) -> str:
        return self.summary


def _check_comparable(results_a: Any, results_b: Any) -> None:
    for label, results in (("results_a", results_a), ("results_b", results_b)):
        if getattr(results, "streamed", False):
            raise UnitxtError(f"compare(): {label} comes from a streamed evaluation, which keeps no instances; a "
                              "paired comparison resamples the same instances in both runs: evaluate them in memory.")
        if not all(hasattr(results, name) for name in ("global_scores", "instance_scores", "__len__")):
            raise UnitxtError(f"compare(): {label} must be the EvaluationResults returned by evaluate(), "
                              f"got {type(results).__name__}.")
        if getattr(results, "_partitions", None) is None:
            raise UnitxtError(f"compare(): {label} has no scoring internals (results restored from a pickle can not be "
                              "resampled); compare results in the process that computed them.")
    if len(results_a) != len(results_b):
        raise UnitxtError(f"compare(): the runs scored different numbers of instances ({len(results_a)} vs "
                          f"{len(results_b)}); a paired comparison needs the same instances in the same order.")
    for index, (row_a, row_b) in enumerate(zip(results_a, results_b)):
        if row_a.get("references") != row_b.get("references"):
            raise UnitxtError(f"compare(): instance {index} has different references in the two runs "
                              f"({row_a.get('references')!r} vs {row_b.get('references')!r}); a paired comparison "
                              "needs the same instances in the same order.")
    if set(results_a._partitions) != set(results_b._partitions):
        raise UnitxtError("compare(): the runs were scored with different metric lists or subsets: "
                          f"{sorted(results_a._partitions)} vs {sorted(results_b._partitions)}.")


def _score_names(scores_a: Any, scores_b: Any, positions: Any) -> List[str]:
    point = scores_a.point_scores(positions)
    names = [name for name in scores_a.metric.resolved_ci_scores() if name in point]
    other = scores_b.point_scores(positions)
    return [name for name in names if name in other]


def _difference_row(a: float, b: float, samples_a: Any, samples_b: Any, count: int,
                    confidence_level: float) -> Dict[str, Any]:
    import numpy as np

    from ..metrics.kernels.bootstrap import percentile_interval

    observed = float(b) - float(a)
    differences = np.asarray(samples_b, dtype=np.float64) - np.asarray(samples_a, dtype=np.float64)
    differences = differences[~np.isnan(differences)]
    if differences.size == 0 or math.isnan(observed):
        low = high = p_value = math.nan
    else:
        low, high = percentile_interval(differences, confidence_level)
        tolerance = 1e-12 * max(1.0, abs(observed))
        extreme = int(np.count_nonzero(np.abs(differences - observed) >= abs(observed) - tolerance))
        p_value = (1 + extreme) / (differences.size + 1)
    return {"a": float(a), "b": float(b), "difference": observed, "ci_low": low, "ci_high": high,
            "p_value": p_value, "num_of_instances": int(count)}


def _resampled(scores: Any, positions: Any, names: List[str], n_resamples: int, seed: int) -> Dict[str, Any]:
    """Each score's values over the seeded resamples of `positions` (the same draws for both runs)."""
    import numpy as np

    from ..metrics.kernels.bootstrap import resample_indices

    statistic = scores.resampled(positions, names)
    collected: Dict[str, List[Any]] = {name: [] for name in names}
    for idx in resample_indices(len(positions), n_resamples, seed=seed):
        for name, values in statistic(idx).items():
            collected[name].append(np.asarray(values, dtype=np.float64))
    return {name: np.concatenate(parts) for name, parts in collected.items()}


def _compare_positions(partition_a: Any, partition_b: Any, local_positions: Any, n_resamples: int, seed: int,
                       confidence_level: float) -> Dict[str, Dict[str, Any]]:
    """Rows for every CI score of every metric of one partition, over some of its instances."""
    import numpy as np

    positions = np.asarray(local_positions, dtype=np.int64)
    rows: Dict[str, Dict[str, Any]] = {}
    if len(positions) < 2:
        return rows
    for (metric, scores_a), (_, scores_b) in zip(partition_a.metric_scores, partition_b.metric_scores):
        names = _score_names(scores_a, scores_b, positions)
        if not names:
            continue
        point_a, point_b = scores_a.point_scores(positions), scores_b.point_scores(positions)
        samples_a = _resampled(scores_a, positions, names, n_resamples, seed)
        samples_b = _resampled(scores_b, positions, names, n_resamples, seed)
        for name in names:
            label = metric.score_prefix + name
            if label not in rows:  # first listed metric wins, as in the results
                rows[label] = _difference_row(point_a[name], point_b[name], samples_a[name], samples_b[name],
                                              len(positions), confidence_level)
    return rows


def _subsets_mean_row(results_a: Any, results_b: Any, n_resamples: int, seed: int,
                      confidence_level: float) -> Dict[str, Any]:
    """B - A of the (nested) mean of the subsets' main scores, each leaf resampled within itself."""
    import numpy as np

    def leaf_values(partition: Any, offset: int) -> Tuple[float, Any]:
        metric, scores = partition.metric_scores[0]
        positions = np.arange(len(partition.positions), dtype=np.int64)
        name = metric.main_score
        return scores.point_scores(positions)[name], _resampled(scores, positions, [name], n_resamples,
                                                                 seed + offset)[name]

    def tree(results: Any) -> Dict[Any, Any]:
        root: Dict[Any, Any] = {}
        for offset, (key, partition) in enumerate(sorted(results._partitions.items())):
            subset, metric_names = key
            path = list(subset) if subset else ["+".join(metric_names)]
            node = root
            for part in path[:-1]:
                node = node.setdefault(part, {})
            node[path[-1]] = leaf_values(partition, offset)
        return root

    def mean(node: Any) -> Tuple[float, Any]:
        if isinstance(node, tuple):
            return node
        children = [mean(child) for child in node.values()]
        return float(np.nanmean([point for point, _ in children])), np.nanmean(
            np.vstack([samples for _, samples in children]), axis=0)

    point_a, samples_a = mean(tree(results_a))
    point_b, samples_b = mean(tree(results_b))
    return _difference_row(point_a, point_b, samples_a, samples_b, len(results_a), confidence_level)


def compare(results_a: Any, results_b: Any, n_resamples: Optional[int] = None, confidence_level: Optional[float] = None,
            seed: Optional[int] = None) -> PairedComparison:
    """Paired comparison of two evaluations of the same instances (B minus A), globally, per group and per subset.

    `n_resamples`, `confidence_level` and `seed` default to the settings used for CIs.
    """
    _check_comparable(results_a, results_b)
    n_resamples = int(settings.default_n_resamples if n_resamples is None else n_resamples)
    confidence_level = float(settings.confidence_level if confidence_level is None else confidence_level)
    seed = int(settings.seed if seed is None else seed)
    if n_resamples < 1:
        raise UnitxtError(f"compare(): n_resamples must be a positive integer, got {n_resamples}.")
    comparison = PairedComparison(**{"global": {}, "groups": {}, "subsets": {}})
    partitions_a, partitions_b = results_a._partitions, results_b._partitions
    if len(partitions_a) == 1:
        (key,) = partitions_a
        partition_a, partition_b = partitions_a[key], partitions_b[key]
        comparison["global"] = _compare_positions(partition_a, partition_b, range(len(partition_a.positions)),
                                                  n_resamples, seed, confidence_level)
        for group_key, buckets in results_a._group_buckets.items():
            comparison["groups"][group_key] = {
                value: _compare_positions(partition_a, partition_b, local, n_resamples, seed, confidence_level)
                for value, local in buckets.items()
            }
        if key[0]:  # a single named subset (e.g. a one-card benchmark)
            comparison["subsets"]["/".join(key[0])] = comparison["global"]
        return comparison
    for key in sorted(partitions_a):
        subset, metric_names = key
        path = "/".join(subset) if subset else "+".join(metric_names)
        partition_a, partition_b = partitions_a[key], partitions_b[key]
        comparison["subsets"][path] = _compare_positions(partition_a, partition_b, range(len(partition_a.positions)),
                                                         n_resamples, seed, confidence_level)
    comparison["global"] = {"subsets_mean": _subsets_mean_row(results_a, results_b, n_resamples, seed,
                                                              confidence_level)}
    return comparison


__all__: Sequence[str] = ["compare", "PairedComparison"]
