"""Offline stand-in for the Hub's `matthews_correlation` evaluate script, which the oracle loads by name: the same
computation (scikit-learn's matthews_corrcoef of integer labels)."""

import datasets
import evaluate
from sklearn.metrics import matthews_corrcoef


class MatthewsCorrelation(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="Matthews correlation coefficient (test stand-in).", citation="", inputs_description="",
            features=datasets.Features({"predictions": datasets.Value("int32"),
                                        "references": datasets.Value("int32")}))

    def _compute(self, predictions, references, sample_weight=None):
        return {"matthews_correlation": float(matthews_corrcoef(references, predictions, sample_weight=sample_weight))}
