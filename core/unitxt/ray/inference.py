"""Any inference engine over a Ray Dataset as a pool of actors, each building its engine once.

The pool is plain Ray actors fed the dataset's blocks directly (a Ray Data actor pool took seconds to start on a
busy machine before its first batch). A remote engine keeps its own request concurrency (num_parallel_requests) inside
each actor; its inference cache and journal work per worker process. A killed actor is restarted and its block asked
again (Ray's actor retries): the answers it had received are in its journal, which the actors adopt before each
batch, so only what was not answered is sent again."""

from typing import Any, Dict, List, Optional

from ..errors import UnitxtError
from .blocks import arrow_block, blocks
from .runtime import connect

PREDICTION_COLUMN = "prediction"
MAX_RESTARTS = 3  # times an actor is restarted (and a block retried on it) before the run stops naming the block
_IN_FLIGHT_PER_ACTOR = 2  # blocks given to an actor at once: the next one is ready (or already answering) when one ends


class EngineActor:
    """One actor of the pool: the engine, built when the actor starts, answers block after block."""

    def __init__(self, engine: Any, column: str, return_meta_data: bool, batch_size: int):
        self.engine, self.column, self.return_meta_data = engine, column, return_meta_data
        self.batch_size = batch_size
        if overlaps_blocks(engine):
            engine.keep_request_pool()

    def answer_block(self, block: Any) -> Any:
        """The block with each row's answer in the prediction column, `batch_size` rows per engine call."""
        import pyarrow as pa

        table = arrow_block(block)
        if not table.num_rows:
            return table
        pieces = [self(table.slice(start, self.batch_size)) for start in range(0, table.num_rows, self.batch_size)]
        return pa.concat_tables(pieces)

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        self._adopt_journals()
        rows = [{key: value for key, value in row.items() if key != self.column} for row in batch.to_pylist()]
        outputs = self.engine.infer(rows, return_meta_data=self.return_meta_data)
        if self.return_meta_data:
            outputs = [output.to_dict() for output in outputs]
        if self.column in batch.column_names:
            batch = batch.drop_columns([self.column])
        return batch.append_column(self.column, pa.array(outputs))

    def _adopt_journals(self) -> None:
        """Answers journaled by a worker killed since the cache was opened become cached here before the batch (Ray
        may retry the killed worker's block on this actor): none of them is asked again."""
        cache = self.engine._cache() if getattr(self.engine, "use_cache", False) else None
        if cache is not None:
            cache.adopt_journals()


def overlaps_blocks(engine: Any) -> bool:
    """Whether an actor answers its blocks at once (a remote engine: one pool of num_parallel_requests shared by the
    blocks, so requests stay in flight across a block's end); a local model answers one block at a time."""
    return bool(getattr(engine, "sends_requests", lambda: False)())


def infer(dataset: Any, engine: Any, concurrency: int = 2, batch_size: int = 64, num_cpus: float = 1,
          num_gpus: float = 0, column: str = PREDICTION_COLUMN, return_meta_data: bool = False,
          resources: Optional[dict] = None) -> Any:
    """The dataset with the engine's prediction of each row in `column`, computed by `concurrency` actors (each with
    `num_cpus` / `num_gpus` / `resources`, calling the engine with `batch_size` rows at a time); rows keep their
    order. Runs when called; the answers stay in the cluster's object store as the returned Dataset's blocks."""
    if not isinstance(concurrency, int) or concurrency < 1:
        raise UnitxtError(f"concurrency must be a positive number of actors, got {concurrency!r}.", field="concurrency")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise UnitxtError(f"batch_size must be a positive number of rows, got {batch_size!r}.", field="batch_size")
    ray = connect()
    blocks_at_once = _IN_FLIGHT_PER_ACTOR if overlaps_blocks(engine) else 1
    # a killed actor is restarted (its engine built again) and the calls it had are retried on it, a few times: a
    # row that kills every worker it reaches ends the run naming its block instead of killing workers forever
    actor_class = ray.remote(EngineActor).options(num_cpus=num_cpus, num_gpus=num_gpus, resources=resources or {},
                                                  max_restarts=MAX_RESTARTS, max_task_retries=MAX_RESTARTS,
                                                  max_concurrency=blocks_at_once)
    _check_sendable(engine)
    # the actors start (a process each, building the engine) while the dataset's blocks are computed
    actors = [actor_class.remote(engine, column, return_meta_data, batch_size) for _ in range(concurrency)]
    try:
        refs, counts = blocks(dataset)
        for extra in actors[max(1, len(refs)):]:  # more actors than blocks: the extra ones would only wait
            ray.kill(extra, no_restart=True)
        answered = _feed(ray, actors[:max(1, len(refs))], refs, counts, engine)
    finally:
        for actor in actors:
            ray.kill(actor, no_restart=True)
    return ray.data.from_arrow_refs(answered) if answered else dataset


def _check_sendable(engine: Any) -> None:
    """A UnitxtError naming what in the engine can not be sent to the workers (serialized as Ray does)."""
    from ray import cloudpickle

    try:
        cloudpickle.dumps(engine)
    except Exception as error:  # noqa: BLE001 - Ray's serializer raises TypeError, PicklingError, ...
        reason = " ".join(str(error).split())[:300]
        raise UnitxtError(f"The engine {type(engine).__name__} can not be sent to the Ray workers: "
                          f"{type(error).__name__}: {reason}. An engine holding an open handle (a lock, a client, a "
                          f"file) must build it on first use instead.", artifact=type(engine).__name__) from None


def _block_failure(error: Exception, positions: List[int], counts: List[int], engine: Any) -> UnitxtError:
    """A UnitxtError naming the block (and its rows) whose answering failed, and why; when the worker died, every
    block it held is named (one of them kills it)."""
    def rows(position: int) -> str:
        first = sum(counts[:position])
        return f"block {position} (rows {first}-{first + max(counts[position], 1) - 1})"

    cause = getattr(error, "cause", None) or error
    reason = " ".join(str(cause).split())[:500] or type(cause).__name__
    name, label = type(error).__name__, type(engine).__name__
    if "ActorDied" in name or "ActorError" in name or "WorkerCrashed" in name or "ActorUnavailable" in name:
        held = " or ".join(rows(position) for position in positions)
        return UnitxtError(f"The Ray workers answering {held} died {MAX_RESTARTS + 1} times ({name}); a row of "
                           f"{'this block' if len(positions) == 1 else 'these blocks'} kills the worker running "
                           f"{label} (out of memory, a crash in native code): run those rows alone to find it.",
                           artifact=label)
    if type(cause).__name__.startswith("Arrow") or "(Arrow" in name:
        return UnitxtError(f"The answers of {label} to {rows(positions[0])} can not be stored in the "
                           f"'{PREDICTION_COLUMN}' column: {type(cause).__name__}: {reason}", artifact=label)
    return UnitxtError(f"Answering {rows(positions[0])} with {label} failed: {type(cause).__name__}: {reason}",
                       artifact=label)


def _feed(ray: Any, actors: List[Any], refs: List[Any], counts: List[int], engine: Any) -> List[Any]:
    """Each block answered by the next actor with room (at most _IN_FLIGHT_PER_ACTOR blocks each); the answered
    blocks in the dataset's order, once all are ready. A block that fails is a UnitxtError naming it."""
    answered: List[Any] = [None] * len(refs)
    load: Dict[Any, int] = {}  # in-flight answer -> its actor's index
    positions: Dict[Any, int] = {}  # in-flight answer -> its block's position
    busy = [0] * len(actors)
    upcoming = iter(range(len(refs)))
    position = next(upcoming, None)
    while position is not None or load:
        while position is not None and min(busy) < _IN_FLIGHT_PER_ACTOR:
            actor = busy.index(min(busy))
            answered[position] = actors[actor].answer_block.remote(refs[position])
            load[answered[position]] = actor
            positions[answered[position]] = position
            busy[actor] += 1
            position = next(upcoming, None)
        (done,), _ = ray.wait(list(load), num_returns=1)
        try:
            ray.get(done)  # an engine error stops the run here, with its message
        except ray.exceptions.RayError as error:
            held = sorted(positions[ref] for ref, actor in load.items() if actor == load[done])  # the worker's blocks
            named = held if isinstance(error, ray.exceptions.RayActorError) else [positions[done]]
            raise _block_failure(error, named, counts, engine) from None
        busy[load.pop(done)] -= 1
    return answered
