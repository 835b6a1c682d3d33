"""Evaluation of a stream, chunk by chunk, in bounded memory.

Each chunk of rows (with its predictions) goes through the in-memory pipeline's post-processing and partitioning,
then into mergeable metric states (metrics/accumulators.py) per partition and group; nothing of the chunk is kept.
Point estimates equal the in-memory path's; CIs come from a Poisson bootstrap (each instance weighted by a Poisson(1)
count per resample), so they estimate the same intervals without drawing the same resamples.
"""

import itertools
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from ..errors import MetricError, UnitxtError
from ..metrics.accumulators import WHOLE, MetricAccumulator
from ..metrics.base import Metric, evaluation_memo
from .inputs import EvaluationInputs, _is_dataset, refuse_dataset_dict
from .partitions import (_check_policy, _group_value, _hashable, _partitions, check_before_scoring, check_predictions,
                         collector_paused, non_text_prediction_counts, renumber, warn_about_non_text,
                         warn_fewer_predictions)
from .post_processing import _Resolver, post_process_rows
from .results import (EvaluationResults, GlobalScores, GroupsScores, SubsetsScores, _GroupSpecs,
                      _partition_group_buckets, _subsets_scores)
from .signature import _ROW_KEYS as ROW_KEYS, StreamSignature

DEFAULT_CHUNK_SIZE = 10_000

PartitionKey = Tuple[Tuple[str, ...], Tuple[str, ...]]


class StreamedPartition:
    """The metrics of one (subset, metric list) partition of the stream, each a mergeable state per bucket."""

    def __init__(self, key: PartitionKey, metrics: List[Tuple[str, Metric]], with_ci: bool, chunk: int = 0,
                 kinds: Optional[List[Optional[type]]] = None):
        self.key = key
        kinds = kinds or [None] * len(metrics)
        self.accumulators = [MetricAccumulator(metric, f"{key!r}|{name}", with_ci, chunk, kind)
                             for (name, metric), kind in zip(metrics, kinds)]
        self.count = 0
        self.group_values: Dict[Any, Dict[Any, None]] = {}  # group-by key -> its values, in order of first appearance

    def kinds(self) -> List[Optional[type]]:
        """The kind each metric's state took (None: not decided yet), for the partition's later chunks."""
        return [type(accumulator.state) if accumulator.state is not None else None
                for accumulator in self.accumulators]

    def merge(self, other: "StreamedPartition") -> None:
        """Add the same partition's states from a later chunk."""
        for group_key, values in other.group_values.items():
            self.group_values.setdefault(group_key, {}).update(values)
        for mine, theirs in zip(self.accumulators, other.accumulators):
            mine.merge(theirs)
        self.count += other.count

    @property
    def metrics(self) -> List[Metric]:
        return [accumulator.metric for accumulator in self.accumulators]

    @property
    def positions(self) -> range:
        """Stands for the partition's instances (only their number is known once they are gone)."""
        return range(self.count)

    def add(self, predictions: List[Any], references: List[List[Any]], task_data: Any,
            groups: Dict[Any, Dict[Any, List[int]]]) -> None:
        buckets: Dict[Any, Any] = {WHOLE: None}  # None: every position of the chunk
        for group_key, values in groups.items():
            known = self.group_values.setdefault(group_key, {})
            for value, positions in values.items():
                known.setdefault(value)
                buckets[(group_key, value)] = positions
        for accumulator in self.accumulators:
            try:
                accumulator.add(predictions, references, task_data, buckets)
            except UnitxtError as error:
                raise error.with_context(artifact=accumulator.metric.artifact_name or type(accumulator.metric).__name__,
                                         stage="metric") from None
        self.count += len(predictions)

    def global_scores(self, local_positions: Any = None, with_ci: bool = True, bucket: Any = WHOLE) -> Dict[str, Any]:
        """Merged scores of the partition's metrics over a bucket (the first-listed metric wins a name)."""
        if local_positions is not None:
            raise UnitxtError("A streamed evaluation scores its partitions and groups, not arbitrary instances.")
        result: Dict[str, Any] = {}
        for accumulator in self.accumulators:
            for name, value in accumulator.global_scores(bucket).items():
                result.setdefault(name, value)
        return result

    def groups_scores(self) -> GroupsScores:
        return GroupsScores({key: {value: self.global_scores(bucket=(key, value)) for value in values}
                             for key, values in self.group_values.items()})

    def main_score_resamples(self, n_resamples: int, seed: int) -> Any:
        return self.accumulators[0].main_score_resamples(seed)

    def kept_metric_names(self) -> List[str]:
        return [type(accumulator.metric).__name__ for accumulator in self.accumulators if accumulator.keeps_inputs()]


class StreamedEvaluationResults(EvaluationResults):
    """Scores of a streamed evaluation (global, groups, subsets, signature); its instances were not kept."""

    streamed = True

    def __init__(self, count: int):
        super().__init__()
        self._count = count

    def __len__(self) -> int:
        return self._count

    @staticmethod
    def _no_instances() -> UnitxtError:
        return UnitxtError("A streamed evaluation keeps scores, not instances: evaluate a Dataset or a list of rows "
                           "(in memory) to read per-instance results.")

    def __getitem__(self, index):
        raise self._no_instances()

    def __eq__(self, other: Any) -> bool:
        return other is self

    __hash__ = None

    @property
    def instance_scores(self):
        raise self._no_instances()

    @property
    def signature(self) -> str:
        """Computed when first read (it hashes the catalogs in use), from what the stream contributed."""
        if self._signature is None:
            self._signature = self._signature_source()
            self._signature_source = None
        return self._signature

    def input_rows(self):
        raise self._no_instances()

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_signature"], state["_signature_source"] = self.signature, None
        return state


def evaluate_in_chunks(predictions: Iterable[Any], data: Any, with_ci: bool = True,
                       chunk_size: Optional[int] = None) -> StreamedEvaluationResults:
    """Score a stream of predictions against a stream of unitxt rows, `chunk_size` rows at a time."""
    chunk_size = DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size
    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
        raise UnitxtError(f"chunk_size must be a positive number of rows, got {chunk_size!r}.", field="chunk_size")
    predictions = iter(check_predictions(predictions, "evaluate"))
    partitions: Dict[PartitionKey, StreamedPartition] = {}
    resolver = _Resolver()
    signature = StreamSignature()
    total, non_text = 0, None
    with collector_paused():
        row_chunks = _row_chunks(data, chunk_size)
        for rows in row_chunks:
            chunk_predictions = list(itertools.islice(predictions, len(rows)))
            short = len(chunk_predictions) < len(rows)
            if short:  # the original scores the leading rows: the rest are counted for the warning, not scored
                rest = _count(itertools.chain.from_iterable(row_chunks))
                warn_fewer_predictions(total + len(chunk_predictions), total + len(rows) + rest,
                                       more_instances=rest >= _COUNT_LIMIT)
                rows = rows[:len(chunk_predictions)]
            if rows:
                chunk = score_chunk(chunk_predictions, rows, resolver, with_ci, total // chunk_size, total,
                                    kinds={key: partition.kinds() for key, partition in partitions.items()},
                                    signature=signature)
                non_text = merge_chunk(partitions, signature, chunk, non_text)
                total += len(rows)
            if short:
                break
        else:
            extra = _count(predictions)
            if extra:
                raise _count_mismatch(total + extra, total, more_predictions=extra >= _COUNT_LIMIT)
    if not total:
        from ..logging_utils import get_logger

        get_logger().warning("evaluate() got no instances: every score is NaN (num_of_instances = 0).")
    warn_about_non_text(non_text, total)
    _note_kept_metrics(partitions)
    metrics = [metric for partition in partitions.values() for metric in partition.metrics]
    return _results(partitions, total, with_ci, lambda: signature.signature(metrics, with_ci, chunk_size))


def _row_chunks(data: Any, chunk_size: int) -> Iterator[Any]:
    """Chunks of the rows: Dataset slices (read column-wise) or lists of row dicts from a stream."""
    if _is_dataset(data):
        for start in range(0, len(data), chunk_size):
            yield data.select(range(start, min(len(data), start + chunk_size)))
        return
    refuse_dataset_dict(data)
    if not hasattr(data, "__iter__") or isinstance(data, (str, bytes, dict)):
        raise UnitxtError(f"The data to evaluate must be rows (a Dataset, an IterableDataset, a list or a generator "
                          f"of row dicts), got {type(data).__name__}.", field="data")
    rows = iter(data)
    while True:
        chunk = list(itertools.islice(rows, chunk_size))
        if not chunk:
            return
        yield chunk


class ChunkScores:
    """What one chunk of a stream adds to an evaluation: its partitions' metric states (resamples seeded by the
    chunk's index), its data digest and recipes for the signature, its non-text prediction counts. Chunks scored
    anywhere, merged in stream order (merge_chunk), give the states of one sequential pass."""

    def __init__(self, index: int, partitions: Dict[PartitionKey, StreamedPartition], digest: bytes, recipes: set,
                 non_text: Any, count: int):
        self.index, self.partitions, self.digest, self.recipes = index, partitions, digest, recipes
        self.non_text, self.count = non_text, count


def score_chunk(predictions: List[Any], rows: Any, resolver: _Resolver, with_ci: bool, index: int, offset: int = 0,
                kinds: Optional[Dict[PartitionKey, List[Optional[type]]]] = None,
                signature: Optional[StreamSignature] = None) -> ChunkScores:
    """Score chunk number `index` of a stream (its first row is row `offset`, which errors name); `kinds`: the
    metric kinds earlier chunks chose per partition."""
    partitions: Dict[PartitionKey, StreamedPartition] = {}
    signature = signature or StreamSignature()
    with evaluation_memo():
        non_text, columns = _score_chunk(predictions, rows, partitions, resolver, with_ci, offset, index, kinds or {})
        digest, recipes = signature.chunk_part(columns)
    return ChunkScores(index, partitions, digest, recipes, non_text, len(predictions))


def merge_chunk(partitions: Dict[PartitionKey, StreamedPartition], signature: StreamSignature, chunk: ChunkScores,
                non_text: Any = None) -> Any:
    """Merge a chunk's scores into the stream's partitions and signature (chunks in stream order); returns the
    non-text prediction counts so far."""
    for key, partition in chunk.partitions.items():
        if key in partitions:
            partitions[key].merge(partition)
        else:
            partitions[key] = partition
    signature.add_part(chunk.digest, chunk.recipes)
    return chunk.non_text if non_text is None else non_text + chunk.non_text


def _score_chunk(predictions: List[Any], rows: Any, partitions: Dict[PartitionKey, StreamedPartition],
                 resolver: _Resolver, with_ci: bool, offset: int, index: int,
                 kinds: Dict[PartitionKey, List[Optional[type]]]) -> Any:
    """Score one chunk into fresh partitions; an error names its row in the whole stream (`offset`: the chunk's
    first row)."""
    try:
        inputs = EvaluationInputs(rows)
        processed, references, task_data = post_process_rows(predictions, inputs, resolver)
        chunk_partitions = _partitions(inputs)
        groups = _GroupSpecs(inputs)
        check_before_scoring(chunk_partitions, resolver, inputs, task_data)
    except UnitxtError as error:
        raise renumber(error, offset=offset) from error.__cause__
    for key, positions in chunk_partitions.items():
        partition = partitions.get(key)
        if partition is None:
            partition = partitions[key] = StreamedPartition(key, _metrics(key[1], resolver), with_ci, index,
                                                            kinds.get(key))
        for metric in partition.metrics:
            _check_policy(metric, inputs, positions)
        everything = len(positions) == len(inputs)
        part_task_data = task_data if everything else task_data.subset(positions)
        try:
            buckets = _partition_group_buckets(groups, task_data, positions, _group_value, _hashable)
        except UnitxtError as error:
            raise renumber(error, offset=offset) from error.__cause__
        try:
            partition.add(processed if everything else [processed[p] for p in positions],
                          references if everything else [references[p] for p in positions],
                          part_task_data, buckets)
        except UnitxtError as error:
            raise renumber(error, positions=positions, offset=offset) from error.__cause__
    return (non_text_prediction_counts(predictions, chunk_partitions, resolver),
            {key: inputs.column(key) for key in ROW_KEYS})


def _metrics(names: Tuple[str, ...], resolver: _Resolver) -> List[Tuple[str, Metric]]:
    metrics = []
    for name in names:
        metric = resolver.get(name, "metric")
        if not isinstance(metric, Metric):
            raise MetricError(f"'{name}' is a {type(metric).__name__}, not a metric.", artifact=name)
        metrics.append((name, metric))
    return metrics


_COUNT_LIMIT = 1_000_000  # left-over items counted after a mismatch (an endless generator is not drained)


def _count(iterator: Iterator[Any]) -> int:
    """How many items are left, counting at most _COUNT_LIMIT."""
    return sum(1 for _ in itertools.islice(iterator, _COUNT_LIMIT))


def _count_mismatch(predictions: int, instances: int, more_predictions: bool = False) -> MetricError:
    return MetricError(f"Got {'at least ' if more_predictions else ''}{predictions} predictions for {instances} "
                       "instances; they must match one to one.", stage="evaluate")


def _note_kept_metrics(partitions: Dict[PartitionKey, StreamedPartition]) -> None:
    kept = sorted({name for partition in partitions.values() for name in partition.kept_metric_names()})
    if kept:
        from ..logging_utils import get_logger

        get_logger().info(f"Streamed evaluation kept the processed inputs of {', '.join(kept)} (no mergeable "
                          "form): their memory grows with the stream.")


def _results(partitions: Dict[PartitionKey, StreamedPartition], total: int, with_ci: bool,
             signature: Callable[[], str]) -> StreamedEvaluationResults:
    results = StreamedEvaluationResults(total)
    subsets = {subset for subset, _ in partitions}
    if len(partitions) == 1 and subsets == {()}:
        (partition,) = partitions.values()
        results.global_scores = GlobalScores(partition.global_scores(with_ci=with_ci))
        results.groups_scores = partition.groups_scores()
        results.subsets_scores = SubsetsScores()
    else:
        subsets_scores = _subsets_scores(partitions, with_ci)
        for (subset, _), partition in partitions.items():
            if subset and partition.group_values:
                node = subsets_scores
                for part in subset:
                    node = node[part]
                node["groups"] = partition.groups_scores()
        results.global_scores = GlobalScores(subsets_scores)
        results.groups_scores = GroupsScores()
        results.subsets_scores = subsets_scores
    results._signature, results._signature_source = None, signature
    results.global_scores._results = results
    return results
