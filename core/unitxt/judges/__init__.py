"""LLM as a judge: criteria judges (direct, pairwise), template judges (rating, RAG, conversation), their criteria,
prompts, operators, verdict and model processors, and judge meta-evaluation.
Layer 7 of README "Layout" (with inference): may import layers 1-6 and inference; never evaluation or entry points.

`from unitxt.judges import LLMJudgeDirect` works for every judge class (the original's `unitxt.llm_as_judge` path
leads here); names are imported on first use from the module that defines them.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "MetricsEnsemble": "..metrics.ensemble",
    "Criteria": ".constants",
    "CriteriaWithOptions": ".constants",
    "CriteriaOption": ".constants",
    "DIRECT_CRITERIA": ".constants",
    "PAIRWISE_CRITERIA": ".constants",
    "EVALUATOR_TO_MODEL_ID": ".constants",
    "EVALUATORS_METADATA": ".constants",
    "EvaluatorMetadata": ".constants",
    "EvaluatorNameEnum": ".constants",
    "EvaluatorTypeEnum": ".constants",
    "ModelProviderEnum": ".constants",
    "OptionSelectionStrategyEnum": ".constants",
    "DirectCriteriaCatalogEnum": ".constants",
    "PairwiseCriteriaCatalogEnum": ".constants",
    "get_evaluator_metadata": ".constants",
    "get_parsed_context": ".constants",
    "rank_indexes": ".constants",
    "get_likert_scale_criteria": ".constants",
    "get_yes_no_criteria": ".constants",
    "EmptyPrediction": "..evaluation.subset_streams",  # what a judge reads as "no prediction given"
    "criteria_from_value": ".operators",
    "competition_ranking": ".prompts",
    "parse_option": ".prompts",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "judges.")
