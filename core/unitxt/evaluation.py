"""The evaluation pipeline: post-process predictions and references, score with metrics, group, aggregate.

predictions + rows -> template post-processors -> metrics (instance + global + CI) -> groups / subsets -> results.
"""

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .errors import MetricError, UnitxtError
from .metric_base import Metric, MetricScores
from .results import EvaluationResults


def _np():
    import numpy

    return numpy


def rows_of(data: Any) -> List[Dict[str, Any]]:
    """Rows of a datasets.Dataset (read column-wise, fast), a DatasetDict split, or a list of dicts."""
    if hasattr(data, "to_dict") and hasattr(data, "column_names") and hasattr(data, "__len__"):
        columns = data.to_dict()
        names = list(columns)
        return [dict(zip(names, values)) for values in zip(*(columns[name] for name in names))]
    if isinstance(data, dict) and "test" in data and not isinstance(data.get("test"), (str, list, int)):
        raise UnitxtError("Pass one split (e.g. dataset['test']), not the whole DatasetDict, to evaluate().")
    rows = list(data)
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise UnitxtError(f"Row {index} of the data is a {type(row).__name__}, expected a dict (a unitxt row).")
    return rows


class _Resolver:
    """Caches catalog lookups of metrics and post-processors during one evaluation."""

    def __init__(self):
        self.cache: Dict[str, Any] = {}

    def get(self, reference: Any, kind: str) -> Any:
        from .artifact import from_serializable
        from .catalog import fetch_artifact

        key = reference if isinstance(reference, str) else json.dumps(reference, sort_keys=True)
        if key not in self.cache:
            if isinstance(reference, str) and reference.lstrip().startswith("{"):
                artifact = from_serializable(json.loads(reference))
            else:
                try:
                    artifact, _ = fetch_artifact(reference)
                except UnitxtError as error:
                    raise error.with_context(stage=f"resolving {kind}") from None
            self.cache[key] = artifact
        return self.cache[key]


def post_process_rows(predictions: Sequence[Any], rows: List[Dict[str, Any]], resolver: Optional[_Resolver] = None
                      ) -> Tuple[List[Any], List[List[Any]], List[Dict[str, Any]]]:
    """Apply each row's template post-processors to its prediction and references."""
    from .operator import FieldOperator
    from .processors import PostProcess

    resolver = resolver or _Resolver()
    processed_predictions, processed_references, task_data = [], [], []
    chains: Dict[Tuple[str, ...], List[Any]] = {}
    for index, (prediction, row) in enumerate(zip(predictions, rows)):
        data = row.get("task_data")
        data = json.loads(data) if isinstance(data, str) else (data or {})
        names = tuple(row.get("postprocessors") or ())
        chain = chains.get(names)
        if chain is None:
            chain = []
            for name in names:
                processor = resolver.get(name, "post-processor")
                if isinstance(processor, FieldOperator):
                    processor = PostProcess(processor)
                if not isinstance(processor, PostProcess):
                    raise UnitxtError(f"Post-processor '{name}' is a {type(processor).__name__}, not a processor.",
                                      artifact=str(name))
                chain.append(processor)
            chains[names] = chain
        references = list(row.get("references") or [])
        if prediction is None:
            raise MetricError(f"Prediction {index} is None; every instance needs a prediction (use '' for no output).",
                              field="prediction")
        try:
            for processor in chain:
                prediction, references = processor.process_value_pair(prediction, references, data)
        except UnitxtError as error:
            raise error.with_context(stage=f"post-processing instance {index}") from None
        processed_predictions.append(prediction)
        processed_references.append(references)
        task_data.append(data)
    return processed_predictions, processed_references, task_data


def _merge(into: Dict[str, Any], scores: Dict[str, Any]) -> None:
    """Add scores; names already present win (the first-listed metric has precedence)."""
    for name, value in scores.items():
        if name not in into:
            into[name] = value


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


class _ScoredPartition:
    """Instances sharing one metric list (and one subset): the metrics' scores over them."""

    def __init__(self, metric_names: Tuple[str, ...], positions: List[int], metric_scores: List[Tuple[Metric, MetricScores]]):
        self.metric_names = metric_names
        self.positions = positions
        self.metric_scores = metric_scores

    def global_scores(self, local_positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        result: Dict[str, Any] = {}
        for metric, scores in self.metric_scores:
            _merge(result, scores.global_scores(local_positions, with_ci=with_ci))
        return result


def evaluate(predictions: Sequence[Any], data: Any, calc_confidence_intervals: bool = True) -> EvaluationResults:
    """Score predictions against unitxt rows (a Dataset, a split, or a list of rows)."""
    rows = rows_of(data)
    predictions = list(predictions)
    if len(predictions) != len(rows):
        raise MetricError(f"Got {len(predictions)} predictions for {len(rows)} instances; they must match one to one.",
                          stage="evaluate")
    resolver = _Resolver()
    processed, references, task_data = post_process_rows(predictions, rows, resolver)
    partitions: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], List[int]] = {}
    for position, row in enumerate(rows):
        metrics = tuple(row.get("metrics") or ())
        if not metrics:
            raise MetricError(f"Instance {position} lists no metrics.", field="metrics")
        subset = tuple(row.get("subset") or ())
        partitions.setdefault((subset, metrics), []).append(position)

    instance_scores: List[Dict[str, Any]] = [{} for _ in rows]
    scored: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], _ScoredPartition] = {}
    for (subset, metric_names), positions in partitions.items():
        metric_scores = []
        for name in metric_names:
            metric = resolver.get(name, "metric")
            if not isinstance(metric, Metric):
                raise MetricError(f"'{name}' is a {type(metric).__name__}, not a metric.", artifact=name)
            try:
                scores = metric.evaluate(
                    [processed[p] for p in positions], [references[p] for p in positions], [task_data[p] for p in positions]
                )
            except UnitxtError as error:
                raise error.with_context(artifact=name, stage="metric") from None
            metric_scores.append((metric, scores))
            for local, instance in enumerate(metric.instance_results(scores)):
                _merge(instance_scores[positions[local]], instance)
        scored[(subset, metric_names)] = _ScoredPartition(metric_names, positions, metric_scores)

    return EvaluationResults.build(
        rows=rows,
        predictions=predictions,
        processed_predictions=processed,
        processed_references=references,
        task_data=task_data,
        instance_scores=instance_scores,
        partitions=scored,
        with_ci=calc_confidence_intervals,
        group_value=_group_value,
        hashable=_hashable,
    )


def post_process(predictions: Sequence[Any], data: Any) -> List[Any]:
    """The processed predictions (after each row's template post-processors)."""
    rows = rows_of(data)
    predictions = list(predictions)
    if len(predictions) != len(rows):
        raise MetricError(f"Got {len(predictions)} predictions for {len(rows)} instances.", stage="post_process")
    return post_process_rows(predictions, rows)[0]


__all__ = ["evaluate", "post_process", "rows_of"]
