"""The evaluation pipeline: post-process predictions and references, score with metrics, group, aggregate.

predictions + rows -> template post-processors -> metrics (instance + global + CI) -> groups / subsets -> results.
"""

import json
from collections.abc import Sequence
from typing import Any, Dict, List, Optional, Tuple

from .errors import MetricError, UnitxtError
from .metric_base import Metric, MetricScores, global_scores_together
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
                try:
                    data = json.loads(reference)
                except ValueError:
                    raise MetricError(f"Cannot read the inline {kind} {reference[:80]!r} (expected a JSON artifact "
                                      f"with a __type__, or a catalog name).", field=kind) from None
                artifact = from_serializable(data)
            else:
                try:
                    artifact, _ = fetch_artifact(reference)
                except UnitxtError as error:
                    raise error.with_context(stage=f"resolving {kind}") from None
            self.cache[key] = artifact
        return self.cache[key]


class LazyTaskData(Sequence):
    """task_data of rows, parsed from JSON on access (most metrics never read it; parsing all costs seconds at 1M)."""

    def __init__(self, raw: List[Any]):
        self.raw = raw

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return LazyTaskData(self.raw[index])
        value = self.raw[index]
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError as error:
                raise MetricError(f"task_data of instance {index} is not valid JSON ({str(error)[:120]}): "
                                  f"{value[:80]!r}.", field="task_data") from None
        return value if value is not None else {}

    def subset(self, positions: Sequence[int]) -> "LazyTaskData":
        raw = self.raw
        return LazyTaskData([raw[position] for position in positions])


def _processor_chain(names: Tuple[str, ...], resolver: "_Resolver") -> List[Any]:
    from .operator import FieldOperator
    from .processors import PostProcess

    chain = []
    for name in names:
        processor = resolver.get(name, "post-processor")
        if isinstance(processor, FieldOperator):
            processor = PostProcess(processor)
        if not isinstance(processor, PostProcess):
            raise UnitxtError(f"Post-processor '{name}' is a {type(processor).__name__}, not a processor.",
                              artifact=str(name))
        chain.append(processor)
    return chain


def _names(listed: Any) -> Tuple[Any, ...]:
    """A row's metric or post-processor list as a tuple; one name given as a string is a one-item list (never its
    characters), and a JSON list in a string is parsed."""
    if isinstance(listed, str):
        text = listed.strip()
        if text.startswith("["):
            try:
                return tuple(json.loads(text))
            except ValueError:
                raise MetricError(f"Cannot read the list {text[:80]!r} (expected a JSON list of names).",
                                  field="metrics/postprocessors") from None
        return (listed,)
    return tuple(listed or ())


def _needs_task_data(chain: List[Any]) -> bool:
    return any(getattr(processor.operator, "needs_task_data", False) for processor in chain)


def post_process_rows(predictions: Sequence[Any], rows: List[Dict[str, Any]], resolver: Optional[_Resolver] = None
                      ) -> Tuple[List[Any], List[List[Any]], LazyTaskData]:
    """Apply each row's template post-processors to its prediction and references.

    Processors are pure per value, so each distinct (hashable) text is processed once per processor chain.
    """
    resolver = resolver or _Resolver()
    processed_predictions, processed_references = [], []
    task_data = LazyTaskData([row.get("task_data") for row in rows])
    chains: Dict[Tuple[str, ...], Tuple[List[Any], bool, Dict[Any, Any], Dict[Any, Any]]] = {}
    for index, (prediction, row) in enumerate(zip(predictions, rows)):
        names = _names(row.get("postprocessors"))
        entry = chains.get(names)
        if entry is None:
            chain = _processor_chain(names, resolver)
            entry = chains[names] = (chain, _needs_task_data(chain), {}, {})
        chain, needs_data, prediction_memo, reference_memo = entry
        references = row.get("references")
        if references is None:
            references = []
        elif not isinstance(references, (list, tuple)):
            raise MetricError(f"References of instance {index} must be a list, got {type(references).__name__}.",
                              field="references")
        if prediction is None:
            raise MetricError(f"Prediction {index} is None; every instance needs a prediction (use '' for no output).",
                              field="prediction")
        try:
            if needs_data:
                data = task_data[index]
                references = list(references)
                for processor in chain:
                    prediction, references = processor.process_value_pair(prediction, references, data)
            else:
                prediction = _memoized(chain, prediction, prediction_memo, True)
                references = [_memoized(chain, reference, reference_memo, False) for reference in references]
        except UnitxtError as error:
            raise error.with_context(stage=f"post-processing instance {index}") from None
        processed_predictions.append(prediction)
        processed_references.append(references)
    return processed_predictions, processed_references, task_data


def _memoized(chain: List[Any], value: Any, memo: Dict[Any, Any], is_prediction: bool) -> Any:
    """The value after the chain (prediction side or reference side), computed once per distinct text."""
    if type(value) is str:
        cached = memo.get(value, _MISSING)
        if cached is not _MISSING:
            return _fresh(cached)
    result = value
    for processor in chain:
        if processor.process_prediction if is_prediction else processor.process_references:
            result = processor.apply_value(result)
    if type(value) is str and len(memo) < 100_000:
        memo[value] = result
    return _fresh(result)


def _fresh(value: Any) -> Any:
    """Containers are copied so instances never share a mutable processed value."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


_MISSING = object()


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


def _merge_instance_scores(instance_scores: List[Dict[str, Any]], positions: List[int],
                           per_metric: List[List[Dict[str, Any]]]) -> None:
    """Merge each instance's scores over the metrics (first listed wins). Equal score dicts are shared, not
    duplicated: results of a million instances hold a handful of distinct dicts (treat them as read-only)."""
    interned: Dict[Any, Dict[str, Any]] = {}
    for local, parts in enumerate(zip(*per_metric)):
        merged: Dict[str, Any] = {}
        for part in parts:
            _merge(merged, part)
        try:
            merged = interned.setdefault(tuple(merged.items()), merged)
        except TypeError:  # unhashable score values: keep the instance's own dict
            pass
        instance_scores[positions[local]] = merged


class _ScoredPartition:
    """Instances sharing one metric list (and one subset): the metrics' scores over them."""

    def __init__(self, metric_names: Tuple[str, ...], positions: List[int], metric_scores: List[Tuple[Metric, MetricScores]]):
        self.metric_names = metric_names
        self.positions = positions
        self.metric_scores = metric_scores

    def global_scores(self, local_positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        """Merged global scores of the partition's metrics (plain metrics share one stream of resamples)."""
        import numpy as np

        positions = np.arange(len(self.positions), dtype=np.int64) if local_positions is None else np.asarray(
            local_positions, dtype=np.int64)
        if len(positions) == 0:
            return {}
        plain = [scores for _, scores in self.metric_scores if type(scores).global_scores is MetricScores.global_scores]
        together = dict(zip(map(id, plain), global_scores_together(plain, positions, with_ci))) if plain else {}
        result: Dict[str, Any] = {}
        for _, scores in self.metric_scores:
            computed = together.get(id(scores))
            _merge(result, computed if computed is not None else scores.global_scores(positions, with_ci=with_ci))
        return result


def evaluate(predictions: Sequence[Any], data: Any, calc_confidence_intervals: bool = True) -> EvaluationResults:
    """Score predictions against unitxt rows (a Dataset, a split, or a list of rows)."""
    rows = rows_of(data)
    predictions = _prediction_list(predictions, "evaluate")
    if len(predictions) != len(rows):
        raise MetricError(f"Got {len(predictions)} predictions for {len(rows)} instances; they must match one to one.",
                          stage="evaluate")
    if not rows:
        from .logging_utils import get_logger

        get_logger().warning("evaluate() got no instances: every score is NaN (num_of_instances = 0).")
    resolver = _Resolver()
    processed, references, task_data = post_process_rows(predictions, rows, resolver)
    partitions: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], List[int]] = {}
    expanded: Dict[Tuple[str, ...], Tuple[str, ...]] = {}
    for position, row in enumerate(rows):
        listed = _names(row.get("metrics"))
        metrics = expanded.get(listed)
        if metrics is None:  # names of metric lists (metrics.qa.open.recommended_no_gpu) stand for their items
            from .metrics_list import MetricsList

            metrics = expanded[listed] = tuple(MetricsList.expand(list(listed)))
        if not metrics:
            raise MetricError(f"Instance {position} lists no metrics.", field="metrics")
        subset = tuple(row.get("subset") or ())
        partitions.setdefault((subset, metrics), []).append(position)

    _warn_about_non_text_predictions(predictions, partitions, resolver)
    instance_scores: List[Dict[str, Any]] = [{} for _ in rows]
    scored: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], _ScoredPartition] = {}
    everything = len(partitions) == 1
    for (subset, metric_names), positions in partitions.items():
        metric_scores = []
        if everything:  # one partition holds every row in order: no per-metric copies of the inputs
            part_predictions, part_references, part_task_data = processed, references, task_data
        else:
            part_predictions = [processed[p] for p in positions]
            part_references = [references[p] for p in positions]
            part_task_data = task_data.subset(positions)
        for name in metric_names:
            metric = resolver.get(name, "metric")
            if not isinstance(metric, Metric):
                raise MetricError(f"'{name}' is a {type(metric).__name__}, not a metric.", artifact=name)
            allowed = metric.effective_policy()
            if allowed is not None:  # refuse before the metric sees any prediction of data it may not process
                for p in positions:
                    metric.check_instance_policy(rows[p], allowed)
            try:
                scores = metric.evaluate(part_predictions, part_references, part_task_data)
            except UnitxtError as error:
                raise error.with_context(artifact=name, stage="metric") from None
            metric_scores.append((metric, scores))
        _merge_instance_scores(instance_scores, positions, [metric.instance_results(s) for metric, s in metric_scores])
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


def _warn_about_non_text_predictions(predictions: List[Any], partitions: Dict[Any, List[int]], resolver: _Resolver
                                     ) -> None:
    """Model outputs are text. Where every metric of a row takes any value or text (accuracy, f1, rouge, ...), a
    prediction of another type is post-processed and scored as given (text processors see its str(): True -> "True",
    ["a"] -> "['a']"), which is rarely what was meant: one warning counts them by type. Metrics that declare numeric
    or list predictions (correlations, retrieval, multi-label) check their own inputs instead."""
    from collections import Counter

    from .type_utils import to_type

    counts: Counter = Counter()
    for (_, metric_names), positions in partitions.items():
        expected = set()
        for name in metric_names:
            declared = getattr(resolver.get(name, "metric"), "prediction_type", Any)
            expected.add(to_type(declared) if isinstance(declared, str) else declared)
        if expected <= {Any, str}:
            counts.update(type(predictions[p]).__name__ for p in positions if not isinstance(predictions[p], str))
    if counts:
        from .logging_utils import get_logger

        kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(counts.items()))
        get_logger().warning(f"{sum(counts.values())} of {len(predictions)} predictions are not text ({kinds}); they "
                             "were post-processed and scored as given (text processors see their str()). Pass model "
                             "outputs as strings.")


def _prediction_list(predictions: Any, stage: str) -> List[Any]:
    """The predictions as a list; None, a single string or a non-iterable is a clear error."""
    if predictions is None or isinstance(predictions, (str, bytes, dict)) or not hasattr(predictions, "__iter__"):
        raise MetricError(f"predictions must be a list with one prediction per instance, got "
                          f"{type(predictions).__name__} {repr(predictions)[:60]}.", field="predictions", stage=stage)
    return list(predictions)


def post_process(predictions: Sequence[Any], data: Any) -> List[Any]:
    """The processed predictions (after each row's template post-processors)."""
    rows = rows_of(data)
    predictions = _prediction_list(predictions, "post_process")
    if len(predictions) != len(rows):
        raise MetricError(f"Got {len(predictions)} predictions for {len(rows)} instances.", stage="post_process")
    return post_process_rows(predictions, rows)[0]


__all__ = ["evaluate", "post_process", "rows_of"]
