"""The evaluation pipeline: post-process predictions and references, score with metrics, group, aggregate.

predictions + rows -> template post-processors -> metrics (instance + global + CI) -> groups / subsets -> results.
"""

from collections.abc import Sequence
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..errors import MetricError, UnitxtError
from ..lazy_imports import numpy_module as _np
from ..metrics.base import Metric, MetricScores, evaluation_memo
from ..metrics.scores import global_scores_together
from .data_scorers import scorer_for
from .inputs import EvaluationInputs, refuse_dataset_dict
from .partitions import (_check_policy, _group_value, _hashable, _partitions, _prediction_list, check_before_scoring,
                         collector_paused, non_text_prediction_counts, renumber, warn_about_non_text,
                         warn_fewer_predictions)
from .post_processing import LazyTaskData, _names, _Resolver, post_process_rows  # noqa: F401 - re-exported
from .results import EvaluationResults


def rows_of(data: Any) -> List[Dict[str, Any]]:
    """Rows of a datasets.Dataset (read column-wise, fast), a DatasetDict split, or a list of dicts."""
    if hasattr(data, "to_dict") and hasattr(data, "column_names") and hasattr(data, "__len__"):
        columns = data.to_dict()
        names = list(columns)
        return [dict(zip(names, values)) for values in zip(*(columns[name] for name in names))]
    refuse_dataset_dict(data)
    rows = list(data)
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise UnitxtError(f"Row {index} of the data is a {type(row).__name__}, expected a dict (a unitxt row).")
    return rows


def _merge(into: Dict[str, Any], scores: Dict[str, Any]) -> None:
    """Add scores; names already present win (the first-listed metric has precedence)."""
    for name, value in scores.items():
        if name not in into:
            into[name] = value


class InstanceScoresView(Sequence):
    """Each instance's scores merged over its metrics (first listed wins), built when asked for: the metrics keep
    their per-instance results, and a million merged dicts are only made if someone reads them all."""

    def __init__(self, n: int, partitions: List["_ScoredPartition"]):
        np = _np()
        self.n = n
        self.partitions = partitions
        self.part_of = self.local_of = None
        if len(partitions) != 1:
            self.part_of = np.zeros(n, dtype=np.int32)
            self.local_of = np.zeros(n, dtype=np.int64)
            for number, partition in enumerate(partitions):
                self.part_of[partition.positions] = number
                self.local_of[partition.positions] = np.arange(len(partition.positions))

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError(f"instance {index} out of range ({self.n} instances)")
        if self.part_of is None:
            partition, local = self.partitions[0], index
        else:
            partition, local = self.partitions[int(self.part_of[index])], int(self.local_of[index])
        merged: Dict[str, Any] = {}
        for metric, scores in partition.metric_scores:
            _merge(merged, metric._finish_instance(scores.instance_scores[local]))
        return merged


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

    def main_score_resamples(self, n_resamples: int, seed: int) -> Any:
        """The first metric's main score on each of `n_resamples` resamples of the partition."""
        from ..metrics.kernels.bootstrap import resample_indices

        np = _np()
        _, scores = self.metric_scores[0]
        while hasattr(scores, "inner"):  # a MetricPipeline: its statistic is the inner metric's
            scores = scores.inner
        main = scores.metric.main_score
        return np.concatenate([np.asarray(scores.statistic(idx)[main], dtype=np.float64)
                               for idx in resample_indices(len(self.positions), n_resamples, seed=seed)])


def evaluate(predictions: Optional[Iterable[Any]] = None, dataset: Any = None, data: Any = None,
             calc_confidence_intervals: bool = True, chunk_size: Optional[int] = None) -> EvaluationResults:
    """Score predictions against unitxt rows (a Dataset, a split, or a list of rows), column by column.

    The rows come as `dataset` or `data` (the original's two spellings; `data` wins when both are given). Without
    predictions every instance is scored with an EmptyPrediction (metrics that read their prediction from task_data,
    such as criteria judges).

    A stream of rows (an IterableDataset, a generator), or any data with `chunk_size` given, is scored chunk by chunk
    in bounded memory (see streamed_evaluation.py): the same scores, Poisson-bootstrap CIs, and no instances kept.
    A Ray Dataset is scored on its cluster (unitxt.ray.evaluate; `predictions` names its prediction column): data of
    a kind an integration registered (evaluation/data_scorers.py) goes to that integration's scorer."""
    if data is None:
        data = dataset
    if data is None:
        raise MetricError("Specify 'dataset' in evaluate: the unitxt rows the predictions answer.", field="data",
                          stage="evaluate")
    registered_scorer = scorer_for(data)
    if registered_scorer is not None:
        return registered_scorer(data, predictions, calc_confidence_intervals, chunk_size)
    if predictions is None and not is_row_stream(data):
        from .subset_streams import EmptyPrediction

        predictions = [EmptyPrediction() for _ in range(len(EvaluationInputs(data)))]
    if chunk_size is not None or is_row_stream(data):
        from .streamed import evaluate_in_chunks

        return evaluate_in_chunks(predictions, data, calc_confidence_intervals, chunk_size)
    with collector_paused(), evaluation_memo():
        return _evaluate(predictions, data, calc_confidence_intervals)


def is_row_stream(data: Any) -> bool:
    """Rows read one pass at a time: an IterableDataset, a generator or another iterator (not a list or Dataset)."""
    if isinstance(data, (list, tuple, dict, str, bytes)) or hasattr(data, "column_names") and hasattr(data, "__len__"):
        return False
    return hasattr(data, "__iter__") and not hasattr(data, "__len__")


def _evaluate(predictions: Sequence[Any], data: Any, calc_confidence_intervals: bool) -> EvaluationResults:
    inputs = EvaluationInputs(data)
    predictions = _prediction_list(predictions, "evaluate")
    if len(predictions) < len(inputs):
        inputs = leading_inputs(inputs, len(predictions))
    elif len(predictions) > len(inputs):
        raise MetricError(f"Got {len(predictions)} predictions for {len(inputs)} instances; there can be no more "
                          "predictions than instances.", stage="evaluate")
    if not len(inputs):
        from ..logging_utils import get_logger

        get_logger().warning("evaluate() got no instances: every score is NaN (num_of_instances = 0).")
    resolver = _Resolver()
    processed, references, task_data = post_process_rows(predictions, inputs, resolver)
    partitions = _partitions(inputs)
    check_before_scoring(partitions, resolver, inputs, task_data)
    warn_about_non_text(non_text_prediction_counts(predictions, partitions, resolver), len(predictions))
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
            _check_policy(metric, inputs, positions)
            try:
                scores = metric.evaluate(part_predictions, part_references, part_task_data)
            except UnitxtError as error:
                error = error if everything else renumber(error, positions=positions)
                raise error.with_context(artifact=name, stage="metric") from None
            metric_scores.append((metric, scores))
        scored[(subset, metric_names)] = _ScoredPartition(metric_names, positions, metric_scores)

    return EvaluationResults.build(
        inputs=inputs,
        predictions=predictions,
        processed_predictions=processed,
        processed_references=references,
        task_data=task_data,
        instance_scores=InstanceScoresView(len(inputs), list(scored.values())),
        partitions=scored,
        with_ci=calc_confidence_intervals,
        group_value=_group_value,
        hashable=_hashable,
    )


def leading_inputs(inputs: EvaluationInputs, count: int) -> EvaluationInputs:
    """The first `count` rows of the inputs (with the fewer-predictions warning)."""
    warn_fewer_predictions(count, len(inputs))
    return inputs.head(count)


def post_process(predictions: Sequence[Any], data: Any) -> List[Any]:
    """The processed predictions (after each row's template post-processors)."""
    inputs = EvaluationInputs(data)
    predictions = _prediction_list(predictions, "post_process")
    if len(predictions) != len(inputs):
        raise MetricError(f"Got {len(predictions)} predictions for {len(inputs)} instances.", stage="post_process")
    return post_process_rows(predictions, inputs)[0]


__all__ = ["evaluate", "post_process", "rows_of", "leading_inputs"]
