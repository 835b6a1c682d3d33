"""unitxt/metric: scores predictions against unitxt rows with the metrics each row names."""
import importlib

import datasets
import evaluate
from .unitxt_vendored import unitxt

# rows of text recipes, of chat recipes, of multimodal chat recipes (content parts) and of multimodal text
# recipes (images stored as datasets.Image); imported by name so that
# evaluate's dependency scan does not ask for a `unitxt` install (the vendored module provides it)
row_features = importlib.import_module("unitxt.dataset_builder").row_features
ROW_SCHEMAS = [row_features(chat_source=False), row_features(chat_source=True),
               row_features(chat_source=True, content_parts=True, media_images=True),
               row_features(chat_source=False, media_images=True)]


class Metric(evaluate.Metric):
    """`compute(predictions=..., references=<unitxt rows or dataset>)` returns unitxt's EvaluationResults; `add`,
    `add_batch` and distributed evaluation (`num_process`/`process_id`) give the same scores."""

    def _info(self):
        return evaluate.MetricInfo(
            description=__doc__,
            citation="",
            inputs_description="predictions: model outputs (strings); references: the unitxt rows they answer.",
            features=[datasets.Features({"predictions": datasets.Value("string"), "references": schema})
                      for schema in ROW_SCHEMAS],
        )

    def _compute(self, predictions, references, **kwargs):
        return unitxt.evaluate(predictions, references, **kwargs)
