"""evaluate() of a Ray Dataset of rows and predictions: every chunk scored on the cluster, its states merged here.

Chunks are fixed ranges of `chunk_size` rows of the whole dataset (whatever its blocks), each scored by one task into
mergeable metric states with resamples seeded by the chunk's index (evaluation/streamed.py); merged in row order,
they are the states of the streamed evaluation of the same rows: the same global, group and subset scores as the
in-memory evaluate() and the streamed evaluation's confidence intervals, whatever the number of blocks and workers.
Metrics with no mergeable state keep their processed inputs (from every chunk) and are scored here at the end;
model-based metrics (judges) call their engines inside the chunk tasks, on the cluster."""

import itertools
from typing import Any, Dict, List, Optional, Tuple

from ..errors import UnitxtError
from ..evaluation.streamed import (DEFAULT_CHUNK_SIZE, ChunkScores, StreamedPartition, _note_kept_metrics, _results,
                                   merge_chunk)
from ..evaluation.signature import StreamSignature
from .blocks import arrow_block as _arrow, blocks as _blocks
from .inference import PREDICTION_COLUMN
from .runtime import connect

Span = Tuple[int, int, int]  # (block number, first row in the block, number of rows)

_REMOTE: Dict[str, Any] = {}


def _remote(name: str) -> Any:
    """The Ray remote functions, made once (retried by Ray when their worker dies)."""
    if not _REMOTE:
        import ray

        _REMOTE["chunks"] = ray.remote(num_cpus=1, max_retries=3)(_score_chunks_task)
    return _REMOTE[name]


def _score_chunks_task(column: str, with_ci: bool, seed: int, plan: List[Tuple[int, int, List[Span]]],
                       *tables: Any) -> Tuple[List[ChunkScores], str, float]:
    """Score consecutive chunks: each (index, first row in the dataset, spans of the given blocks)."""
    import os
    import socket

    from ..evaluation.post_processing import _Resolver
    from ..evaluation.streamed import score_chunk
    from ..settings_utils import settings

    import time

    started, wall = time.process_time(), time.perf_counter()
    resolver, kinds, scored = _Resolver(), {}, []
    with settings.context(seed=seed):
        for index, first, spans in plan:
            predictions, rows = _chunk_inputs([(tables[block], start, length) for block, start, length in spans],
                                              column)
            chunk = score_chunk(predictions, rows, resolver, with_ci, index, first, kinds)
            kinds.update({key: partition.kinds() for key, partition in chunk.partitions.items()})
            scored.append(chunk)
    return scored, f"{socket.gethostname()}:{os.getpid()}", (time.process_time() - started, time.perf_counter() - wall)


def _chunk_inputs(pieces: List[Tuple[Any, int, int]], column: str) -> Tuple[List[Any], Any]:
    """(predictions, rows) of a chunk from slices of Arrow blocks: the rows as an Arrow table (read column by column,
    as evaluate() reads a Dataset), or as row dicts when a column is a tensor (a numpy-format step made it)."""
    import pyarrow as pa

    table = pa.concat_tables([_arrow(block).slice(start, length) for block, start, length in pieces])
    if column not in table.column_names:
        raise UnitxtError(f"The dataset to evaluate has no '{column}' column (its columns: "
                          f"{sorted(table.column_names)}).", field="predictions")
    rest = table.drop_columns([column])
    if any(isinstance(field.type, pa.ExtensionType) for field in table.schema):
        return [_plain(value) for value in table.column(column).to_pylist()], _plain_rows(rest.to_pylist())
    return table.column(column).to_pylist(), rest


def _plain_rows(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Rows with lists where a numpy-format step left arrays (a map_batches in numpy format makes tensor columns)."""
    if not rows:
        return rows
    if not any(hasattr(value, "dtype") for value in rows[0].values()):
        return rows
    return [{key: _plain(value) for key, value in row.items()} for row in rows]


def _plain(value: Any) -> Any:
    if hasattr(value, "dtype") and hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def chunk_spans(block_rows: List[int], chunk_size: int) -> List[Tuple[int, List[Span]]]:
    """Each chunk's first row and its (block, start, length) spans, for blocks of the given row counts."""
    chunks: List[Tuple[int, List[Span]]] = []
    block_starts = list(itertools.accumulate([0] + block_rows))
    total = block_starts[-1]
    block = 0
    for first in range(0, total, chunk_size):
        last = min(total, first + chunk_size)
        spans: List[Span] = []
        position = first
        while position < last:
            while block_starts[block + 1] <= position:
                block += 1
            length = min(last, block_starts[block + 1]) - position
            spans.append((block, position - block_starts[block], length))
            position += length
        chunks.append((first, spans))
    return chunks


def evaluate(dataset: Any, predictions: Optional[str] = None, calc_confidence_intervals: bool = True,
             chunk_size: Optional[int] = None) -> Any:
    """Score a Ray Dataset of unitxt rows with their predictions in column `predictions` (default "prediction")."""
    from ..logging_utils import get_logger
    from ..settings_utils import settings

    column = PREDICTION_COLUMN if predictions is None else predictions
    if not isinstance(column, str):
        raise UnitxtError("With a Ray Dataset, the predictions are one of its columns: give its name (default "
                          f"'{PREDICTION_COLUMN}'), not {type(column).__name__}.", field="predictions")
    chunk_size = DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size
    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
        raise UnitxtError(f"chunk_size must be a positive number of rows, got {chunk_size!r}.", field="chunk_size")
    ray = connect()
    blocks, block_rows = _blocks(dataset)
    seed = int(settings.seed)
    plan = [(index, first, spans) for index, (first, spans) in enumerate(chunk_spans(block_rows, chunk_size))]
    per_task = max(1, -(-len(plan) // (4 * max(1, int(ray.cluster_resources().get("CPU", 1))))))
    pending = []
    for start in range(0, len(plan), per_task):  # a task scores a few consecutive chunks (one resolver, warm caches)
        group = plan[start:start + per_task]
        used = sorted({block for _, _, spans in group for block, _, _ in spans})
        position = {block: number for number, block in enumerate(used)}
        local = [(index, first, [(position[block], begin, length) for block, begin, length in spans])
                 for index, first, spans in group]
        pending.append(_remote("chunks").remote(column, calc_confidence_intervals, seed, local,
                                                *[blocks[block] for block in used]))
    partitions: Dict[Any, StreamedPartition] = {}
    signature = StreamSignature()
    non_text, total, where, cpu = None, 0, set(), 0.0
    for task in pending:  # merged in row order (each task's result fetched once it is needed)
        chunks, worker, (seconds, wall) = ray.get(task)
        cpu += seconds
        get_logger().debug(f"chunk task: {seconds:.2f} CPU s, {wall:.2f} s")
        for chunk in chunks:
            non_text = merge_chunk(partitions, signature, chunk, non_text)
            total += chunk.count
        where.add(worker)
    from ..evaluation.partitions import warn_about_non_text

    if not total:
        get_logger().warning("evaluate() got no instances: every score is NaN (num_of_instances = 0).")
    warn_about_non_text(non_text, total)
    _note_kept_metrics(partitions)
    get_logger().info(_where_scored(partitions, total, where, len(pending), cpu))
    metrics = [metric for partition in partitions.values() for metric in partition.metrics]
    return _results(partitions, total, calc_confidence_intervals,
                    lambda: signature.signature(metrics, calc_confidence_intervals, chunk_size))


def _where_scored(partitions: Dict[Any, StreamedPartition], total: int, workers: set, tasks: int, cpu: float) -> str:
    """One line: which metrics were scored on the cluster (merged states; judges' engine calls) and which here."""
    merged, kept, engines = set(), set(), set()
    for partition in partitions.values():
        for accumulator in partition.accumulators:
            name = accumulator.metric.artifact_name or type(accumulator.metric).__name__
            (kept if accumulator.keeps_inputs() else merged).add(name)
            if any(hasattr(accumulator.metric, field) for field in ("inference_model", "inference_engine")):
                engines.add(name)
    line = (f"Ray evaluation of {total} rows in {tasks} task(s) on {len(workers)} worker process(es), {cpu:.1f} CPU "
            f"seconds: merged from per-chunk states on the cluster: {', '.join(sorted(merged)) or 'none'}")
    if engines:
        line += f"; engine calls on the cluster (inside the chunk tasks): {', '.join(sorted(engines))}"
    if kept:
        line += f"; no mergeable state, scored in the driver from inputs prepared on the cluster: {', '.join(sorted(kept))}"
    return line + "."
