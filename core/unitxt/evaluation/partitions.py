"""Shared steps of in-memory and streamed evaluation: checking the predictions, partitioning rows by (subset, metric
list), the group-by values of a row, the data-classification check before a metric sees data, and the non-text
predictions warning."""

import gc
import json
import re
from contextlib import contextmanager
from typing import Any, Dict, List, Tuple

from ..artifact import Artifact
from ..errors import MetricError, UnitxtError
from ..inference.base import InferenceEngine
from ..lazy_imports import numpy_module as _np
from ..metrics.base import Metric
from .inputs import EvaluationInputs, positions_by_code
from .post_processing import _names, _Resolver
from .results import _group_spec


def _group_value(task_data: Dict[str, Any], key: str) -> Any:
    metadata = task_data.get("metadata") or {}
    if key in metadata:
        return metadata[key]
    if key in task_data:
        return task_data[key]
    raise UnitxtError(f"group_by key '{key}' is neither a task field nor metadata of the instances "
                      f"(available: {sorted(set(task_data) | set(metadata))}).", field=key)


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return value


@contextmanager
def collector_paused():
    """Evaluation makes millions of short-lived lists and dicts and no reference cycles: Python's cyclic garbage
    collector would re-scan every live object many times over (5x the post-processing time at 1M rows)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _partitions(inputs: EvaluationInputs) -> Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], List[int]]:
    """{(subset, metric names): positions}: rows sharing a subset and a metric list, in order of first appearance.
    Names of metric lists (metrics.qa.open.recommended_no_gpu) stand for their items."""
    from ..metrics.lists import MetricsList

    metric_codes, metric_lists = inputs.codes("metrics")
    subset_codes, subsets = inputs.codes("subset")
    n = len(inputs)
    if len(metric_lists) <= 1 and len(subsets) <= 1:
        groups = [list(range(n))] if n else []
    else:
        np = _np()
        combined = np.asarray(metric_codes, dtype=np.int64) * len(subsets) + np.asarray(subset_codes, dtype=np.int64)
        _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))
        groups = positions_by_code(rank[inverse.reshape(-1)].tolist(), len(first))
    partitions: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], List[int]] = {}
    for positions in groups:
        first_row = positions[0]
        metrics = tuple(MetricsList.expand(list(_names(metric_lists[metric_codes[first_row]]))))
        if not metrics:
            raise MetricError(f"Instance {first_row} lists no metrics.", field="metrics")
        key = (tuple(subsets[subset_codes[first_row]] or ()), metrics)
        if key in partitions:  # two spellings of the same metric list
            partitions[key] = sorted(partitions[key] + positions)
        else:
            partitions[key] = positions
    return partitions


def check_before_scoring(partitions: Dict[Any, List[int]], resolver: _Resolver, inputs: EvaluationInputs,
                         task_data: Any) -> None:
    """Find a misspelled metric name or group_by key before any metric runs (a judge's requests are paid for)."""
    for _, metric_names in partitions:
        for name in metric_names:
            metric = resolver.get(name, "metric")
            if not isinstance(metric, Metric):
                raise MetricError(f"'{name}' is a {type(metric).__name__}, not a metric.", artifact=name)
    if not inputs.has("groups"):
        return
    codes, distinct = inputs.codes("groups")
    first_rows: Dict[int, int] = {}
    for position, code in enumerate(codes):
        first_rows.setdefault(code, position)
    for code, position in first_rows.items():
        for spec in distinct[code] or []:
            entry = _group_spec(spec, position)
            if isinstance(entry, dict):
                continue
            for name in [entry] if isinstance(entry, str) else entry:
                try:
                    _group_value(task_data[position], name)
                except UnitxtError as error:
                    error.message = f"Row {position}: {error.message}"
                    error.args = (error._compose(),)
                    raise


_ROW_NUMBER = re.compile(r"\b([Ii]nstance|[Rr]ow) (\d+)\b")


def renumber(error: UnitxtError, positions: Any = None, offset: int = 0) -> UnitxtError:
    """Make "instance N" / "row N" in an error name the caller's row: N counts within a partition (`positions` maps it
    to the chunk) and within a chunk (`offset` is the chunk's first row)."""
    def mapped(match: Any) -> str:
        local = int(match.group(2))
        if positions is not None:
            if local >= len(positions):
                return match.group(0)
            local = positions[local]
        return f"{match.group(1)} {local + offset}"

    if positions is not None or offset:
        error.message = _ROW_NUMBER.sub(mapped, error.message)
        error.args = (error._compose(),)
    return error


def _check_policy(metric: Metric, inputs: EvaluationInputs, positions: List[int]) -> None:
    """Refuse before the metric sees any prediction of data it may not process (each distinct policy checked once),
    and before a judge sends any: the engines inside the metric (a judge's remote model) check the rows' own
    classification, which the judge itself never sees (it gets task_data only)."""
    allowed = metric.effective_policy()
    engines = engines_inside(metric)
    if not inputs.has("data_classification_policy") or (allowed is None and not engines):
        return  # nothing to check: the column is not read
    codes, policies = inputs.codes("data_classification_policy")
    if len(positions) == len(codes):  # every row: every distinct policy (codes number them in order)
        present = range(len(policies))
    else:
        present = sorted({codes[p] for p in positions})
    distinct = [{"data_classification_policy": policies[code]} for code in present]
    if allowed is not None:
        for row in distinct:
            metric.check_instance_policy(row, allowed)
    for engine in engines:
        engine.check_policy(distinct)


def engines_inside(artifact: Any, depth: int = 0, seen: Any = None) -> List[InferenceEngine]:
    """The inference engines an artifact holds in its fields (a judge's model, the judges of an ensemble...)."""
    seen = set() if seen is None else seen
    found: List[InferenceEngine] = []
    if id(artifact) in seen or depth > 8:
        return found
    seen.add(id(artifact))
    values = list(vars(artifact).values()) if hasattr(artifact, "__dict__") else []
    while values:
        value = values.pop()
        if isinstance(value, InferenceEngine):
            if id(value) not in seen:
                seen.add(id(value))
                found.append(value)
        elif isinstance(value, (list, tuple)):
            values.extend(value)
        elif isinstance(value, dict):
            values.extend(value.values())
        elif isinstance(value, Artifact):
            found.extend(engines_inside(value, depth + 1, seen))
    return found


def non_text_prediction_counts(predictions: List[Any], partitions: Dict[Any, List[int]], resolver: _Resolver) -> Any:
    """Model outputs are text. Where every metric of a row takes any value or text (accuracy, f1, rouge, ...), a
    prediction of another type is post-processed and scored as given (text processors see its str(): True -> "True",
    ["a"] -> "['a']"), which is rarely what was meant: they are counted by type, for one warning. Metrics that declare
    numeric or list predictions (correlations, retrieval, multi-label) check their own inputs instead."""
    from collections import Counter

    from ..types.checking import to_type

    counts: Counter = Counter()
    if all(type(prediction) is str for prediction in predictions):
        return counts
    for (_, metric_names), positions in partitions.items():
        expected = set()
        for name in metric_names:
            declared = getattr(resolver.get(name, "metric"), "prediction_type", Any)
            expected.add(to_type(declared) if isinstance(declared, str) else declared)
        if expected <= {Any, str}:
            counts.update(type(predictions[p]).__name__ for p in positions if not isinstance(predictions[p], str))
    return counts


def warn_about_non_text(counts: Any, total: int) -> None:
    if counts:
        from ..logging_utils import get_logger

        kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(counts.items()))
        get_logger().warning(f"{sum(counts.values())} of {total} predictions are not text ({kinds}); they "
                             "were post-processed and scored as given (text processors see their str()). Pass model "
                             "outputs as strings.")


def _prediction_list(predictions: Any, stage: str) -> List[Any]:
    """The predictions as a list; None, a single string or a non-iterable is a clear error."""
    return list(check_predictions(predictions, stage))


def check_predictions(predictions: Any, stage: str) -> Any:
    """The predictions, refused when None, a single string, a dict or not iterable."""
    if predictions is None or isinstance(predictions, (str, bytes, dict)) or not hasattr(predictions, "__iter__"):
        raise MetricError(f"predictions must be a list with one prediction per instance, got "
                          f"{type(predictions).__name__} {repr(predictions)[:60]}.", field="predictions", stage=stage)
    return predictions


def warn_fewer_predictions(predictions: int, instances: int, more_instances: bool = False) -> None:
    """The original scores the leading rows when given fewer predictions (as HELM does with --max-eval-instances):
    so do we, saying so once (`more_instances`: a stream's rows were counted up to a limit, not to their end)."""
    from ..logging_utils import get_logger

    get_logger().warning(f"evaluate() got {predictions} predictions for {'at least ' if more_instances else ''}"
                         f"{instances} instances: scoring the first {predictions} instances only.")
