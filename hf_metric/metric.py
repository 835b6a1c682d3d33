"""unitxt/metric: scores predictions against unitxt rows with the metrics each row names."""
import datasets
import evaluate
from .unitxt_vendored import unitxt


class Metric(evaluate.Metric):
    """`compute(predictions=..., references=<unitxt rows or dataset>)` returns unitxt's EvaluationResults."""

    def _info(self):
        return evaluate.MetricInfo(
            description=__doc__,
            citation="",
            inputs_description="predictions: model outputs (list); references: the unitxt rows they answer.",
            features=datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("string")}),
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Evaluate all predictions at once (rows are not cached to Arrow: they are scored directly)."""
        return self._compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions, references, **kwargs):
        return unitxt.evaluate(predictions, references, **kwargs)
