"""Metrics: `base` (Metric, InstanceMetric, GlobalMetric, BulkInstanceMetric, MetricScores: score once, then global
scores and bootstrap CIs for any subset), one module per family (classification, text, string_match, correlation,
ner, retrieval, rag, ...) and `kernels/` (the numpy kernels the families share).
Layer 6 of README "Layout": may import layers 1-5 (foundations ... rendering); never inference, judges or above.

`from unitxt.metrics import X` works for the base classes and for every built-in metric class; names are imported
lazily, on first use, from the one module that defines them, so importing a single family stays cheap.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_BASE = ("BulkInstanceMetric", "GlobalMetric", "InstanceMetric", "Metric", "MetricScores",
         "MetricWithConfidenceInterval",
         "mean_statistic")
_CLASSIFICATION = ("Accuracy", "ExactMatchMM", "StringContainment", "UnsortedListExactMatch", "JaccardIndex",
                   "PredictionLength", "F1", "F1Macro", "F1Micro", "F1Weighted", "ClassificationScore",
                   "PrecisionMacro", "PrecisionMicro", "RecallMacro", "RecallMicro", "MatthewsCorrelation", "F1Binary",
                   "F1MultiLabel", "F1MicroMultiLabel", "F1MacroMultiLabel")
_EXPORTS: Dict[str, str] = {
    **{name: ".base" for name in _BASE},
    **{name: ".classification" for name in _CLASSIFICATION},
    "MetricPipeline": ".pipeline",
    "HuggingfaceMetric": ".huggingface",
    "MetricsEnsemble": ".ensemble",
    "Statistic": ".map_reduce",  # the original's bootstrap statistic of map-reduce metrics
    **{name: ".subgroup_comparison" for name in ("nan_mean", "nan_max", "nan_std", "validate_subgroup_types",
                                                 "mean_subgroup_score", "performance_drop_rate",
                                                 "interpret_effect_size", "normalized_cohens_h",
                                                 "normalized_hedges_g")},
    # the original's helpers of unitxt.metrics, from the module of their concept
    "EvaluationInput": ".base",
    "KO_ERROR_MESSAGE": ".bleu",
    "SacreBleuStats": ".bleu",
    "ReflectionToolCallingMixin": ".tool_calling",
    "abstract_factory": "..general.dataclass_fields",
    "abstract_field": "..general.dataclass_fields",
    "get_index_or_default": ".retrieval",
    "pytrec_eval_at_k": ".retrieval",
    "hf_evaluate_load": ".huggingface",
    "is_original_key": ".scores",
    "new_random_generator": ".intervals",
    "normalize_answer": ".kernels.text_match",
    "parse_string_types_instead_of_actual_objects": "..types.checking",
    "RISK_TYPE_TO_CLASS": ".model_based",
    "RiskType": ".model_based",
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "metrics.")


__all__ = list(_EXPORTS)
