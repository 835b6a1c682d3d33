"""Beyond one machine: recipe rows, model inference and scoring on a Ray cluster, with the scores of one process.

    import unitxt.ray as uray
    data = uray.load_dataset("card=cards.wnli,template=...", split="test")   # rows as a Ray Dataset, in order
    data = uray.infer(data, engine, concurrency=2, batch_size=64)            # an actor pool of the engine
    results = uray.evaluate(data)                                            # scored per chunk on the cluster

Needs the optional extra (pip install 'unitxt[ray]'); nothing of Ray is imported until one of these is called.
`unitxt.evaluate(predictions="prediction", data=<Ray Dataset>)` takes the same path as `unitxt.ray.evaluate`.
"""

from typing import Dict

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
