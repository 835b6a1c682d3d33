"""`unitxt-evaluate --ray [ADDRESS]`: the rendered rows to the cluster, the model as actors, the scoring per chunk."""

import argparse
import logging
from typing import Any

from ..errors import UnitxtError

logger = logging.getLogger("unitxt.cli")


def infer_and_evaluate(arguments: argparse.Namespace, dataset: Any, engine: Any) -> Any:
    """Results of the engine's answers to `dataset` (a rendered Dataset), inferred and scored on the cluster."""
    from .data import from_table
    from .inference import infer
    from .runtime import connect
    from .scoring import evaluate

    if arguments.log_samples:
        raise UnitxtError("--log_samples needs every instance's scores, which a Ray evaluation does not keep (it merges "
                          "per-chunk states): drop --log_samples or --ray.", field="--log_samples")
    connect(arguments.ray or None)
    if getattr(dataset, "_indices", None) is not None:
        dataset = dataset.flatten_indices()
    rows = from_table(dataset.data.table)
    logger.info("Inference on the Ray cluster: %d actor(s)", arguments.ray_actors)
    answered = infer(rows, engine, concurrency=arguments.ray_actors, batch_size=max(64, arguments.batch_size))
    logger.info("Scoring %d predictions on the Ray cluster", len(dataset))
    return evaluate(answered)
