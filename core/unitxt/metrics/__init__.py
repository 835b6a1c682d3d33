"""Metrics: `base` (Metric, InstanceMetric, GlobalMetric, BulkInstanceMetric, MetricScores: score once, then global
scores and bootstrap CIs for any subset), one module per family (classification, text, string_match, correlation,
ner, retrieval, rag, ...) and `kernels/` (the numpy kernels the families share).

`from unitxt.metrics import X` works for the base classes and for every built-in metric class; names are imported
lazily, on first use, from the one module that defines them, so importing a single family stays cheap.
"""

import importlib
from typing import Any, Dict

_BASE = ("BulkInstanceMetric", "GlobalMetric", "InstanceMetric", "Metric", "MetricScores", "Statistic",
         "mean_statistic")
_CLASSIFICATION = ("Accuracy", "ExactMatchMM", "StringContainment", "UnsortedListExactMatch", "JaccardIndex",
                   "PredictionLength", "F1", "F1Macro", "F1Micro", "F1Weighted", "ClassificationScore",
                   "PrecisionMacro", "PrecisionMicro", "RecallMacro", "RecallMicro", "MatthewsCorrelation", "F1Binary",
                   "F1MultiLabel", "F1MicroMultiLabel", "F1MacroMultiLabel")
_EXPORTS: Dict[str, str] = {
    **{name: "base" for name in _BASE},
    **{name: "classification" for name in _CLASSIFICATION},
    "MetricPipeline": "pipeline",
    "HuggingfaceMetric": "huggingface",
    "MetricsEnsemble": "ensemble",
}


def _module_of(name: str) -> str:
    """The family module defining `name`: the table above, else the generated type index (metric classes only)."""
    if name in _EXPORTS:
        return _EXPORTS[name]
    from .._type_index import TYPE_MODULES
    from ..artifact import camel_to_snake

    module = TYPE_MODULES.get(camel_to_snake(name), "")
    return module[len("metrics."):] if module.startswith("metrics.") else ""


def __getattr__(name: str) -> Any:
    module = _module_of(name) if name[:1].isupper() or name in _EXPORTS else ""
    if not module:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_EXPORTS))


__all__ = list(_EXPORTS)
