"""Any inference engine over a Ray Dataset as a pool of actors, each building its engine once.

A remote engine keeps its own request concurrency (num_parallel_requests) inside each actor; its inference cache and
journal work per worker process, so a rerun (or Ray's retry of a batch whose actor was killed) sends only what was
not answered."""

from typing import Any, Optional

from ..errors import UnitxtError
from .runtime import connect

PREDICTION_COLUMN = "prediction"


class EngineActor:
    """One actor of the pool: the engine, built when the actor starts, answers batch after batch."""

    def __init__(self, engine: Any, column: str, return_meta_data: bool):
        import os

        self.engine, self.column, self.return_meta_data = engine, column, return_meta_data
        self.pid = os.getpid()

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
        may retry the killed worker's batch on this actor): none of them is asked again."""
        cache = self.engine._cache() if getattr(self.engine, "use_cache", False) else None
        if cache is not None:
            cache.adopt_journals()


def infer(dataset: Any, engine: Any, concurrency: int = 2, batch_size: int = 64, num_cpus: float = 1,
          num_gpus: float = 0, column: str = PREDICTION_COLUMN, return_meta_data: bool = False,
          resources: Optional[dict] = None) -> Any:
    """The dataset with the engine's prediction of each row in `column`, computed by `concurrency` actors (each with
    `num_cpus` / `num_gpus`, fed `batch_size` rows at a time); rows keep their order."""
    if not isinstance(concurrency, int) or concurrency < 1:
        raise UnitxtError(f"concurrency must be a positive number of actors, got {concurrency!r}.", field="concurrency")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise UnitxtError(f"batch_size must be a positive number of rows, got {batch_size!r}.", field="batch_size")
    ray = connect()
    # Ray Data restarts a dead actor and retries its batch (max_restarts / max_task_retries -1 for actor pools)
    return dataset.map_batches(EngineActor, fn_constructor_kwargs={"engine": engine, "column": column,
                                                                   "return_meta_data": return_meta_data},
                               batch_size=batch_size, batch_format="pyarrow",
                               compute=ray.data.ActorPoolStrategy(size=concurrency), num_cpus=num_cpus,
                               num_gpus=num_gpus, resources=resources)
