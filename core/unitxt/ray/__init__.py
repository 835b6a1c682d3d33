"""Beyond one machine: recipe rows, model inference and scoring on a Ray cluster, with the scores of one process.

    import unitxt.ray as uray
    data = uray.load_dataset("card=cards.wnli,template=...", split="test")   # rows as a Ray Dataset, in order
    data = uray.infer(data, engine, concurrency=2, batch_size=64)            # an actor pool of the engine
    results = uray.evaluate(data)                                            # scored per chunk on the cluster

Needs the optional extra (pip install 'unitxt[ray]'); nothing of Ray is imported until one of these is called.
`unitxt.evaluate(predictions="prediction", data=<Ray Dataset>)` takes the same path as `unitxt.ray.evaluate`: this
package registers its scorer with evaluation (evaluation/data_scorers.py) when imported, which `import unitxt` does.
"""

from typing import Any, Dict, Optional

from ..evaluation.data_scorers import register_data_scorer
from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "connect": ".runtime",
    "require_ray": ".runtime",
    "is_ray_dataset": ".runtime",
    "load_dataset": ".data",
    "from_rows": ".data",
    "from_table": ".data",
    "infer": ".inference",
    "evaluate": ".scoring",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "ray.")


def _is_ray_dataset(data: Any) -> bool:
    from .runtime import is_ray_dataset

    return is_ray_dataset(data)


def _evaluate_on_cluster(data: Any, predictions: Any, calc_confidence_intervals: bool,
                         chunk_size: Optional[int]) -> Any:
    from .scoring import evaluate as evaluate_on_ray

    return evaluate_on_ray(data, predictions, calc_confidence_intervals, chunk_size)


# unitxt.evaluate(data=<Ray Dataset>) is scored on the cluster: evaluation finds this scorer without importing us
register_data_scorer("ray", _is_ray_dataset, _evaluate_on_cluster)
