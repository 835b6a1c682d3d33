"""Catalog: criteria judges per provider and model (metrics.llm_as_judge.direct.<provider>.<model>, .pairwise.*).

Use with a criteria override: metrics.llm_as_judge.direct.rits.llama3_3_70b[criteria=metrics.llm_as_judge.direct.
criteria.answer_relevance, context_fields=[question]] (or criteria_field=... for per-instance criteria).
"""

from unitxt.inference import CrossProviderInferenceEngine, supported_models
from unitxt.llm_as_judge import LLMJudgeDirect, LLMJudgePairwise
from unitxt.llm_as_judge_constants import EVALUATOR_TO_MODEL_ID, PROVIDER_CATALOG_FOLDER

# model id -> short catalog label
LABELS = {
    "gpt-4o": "gpt_4o", "gpt-4-1": "gpt_4_1", "gpt-4-1-mini": "gpt_4_1_mini", "o1-mini": "o1_mini",
    "llama-3-1-8b-instruct": "llama3_1_8b", "llama-3-1-70b-instruct": "llama3_1_70b",
    "llama-3-1-405b-instruct": "llama3_1_405b", "llama-3-3-70b-instruct": "llama3_3_70b",
    "mixtral-8x7b-instruct": "mixtral8_7b", "mistral-large-instruct": "mixtral_large",
    "granite-3-8b-instruct": "granite3_8b", "granite-3-1-8b-instruct": "granite3_1_8b",
    "granite-3-2-8b-instruct": "granite3_2_8b", "granite-3-3-8b-instruct": "granite3_3_8b",
}


def judge_models():
    """(provider, catalog folder, evaluator name, model id) for every judge model a provider serves."""
    for provider, folder in PROVIDER_CATALOG_FOLDER.items():
        served = set(supported_models(provider))
        for evaluator, model in EVALUATOR_TO_MODEL_ID.items():
            if model in served:
                yield provider, folder, evaluator, model


def register(add):
    for provider, folder, evaluator, model in judge_models():
        for kind, judge_class in (("direct", LLMJudgeDirect), ("pairwise", LLMJudgePairwise)):
            engine = CrossProviderInferenceEngine(model=model, provider=provider, max_tokens=1024, temperature=0.0,
                                                  seed=42)
            add(f"metrics.llm_as_judge.{kind}.{folder}.{LABELS[model]}", judge_class(
                inference_engine=engine, evaluator_name=evaluator, generate_summaries=False,
                __description__=f"{'Direct' if kind == 'direct' else 'Pairwise'} criteria judge: {model} on "
                                f"{provider}. Give criteria=... (or criteria_field=...) and context_fields=[...].",
                __tags__={"kind": "metric", "family": "llm_as_judge", "judge": kind, "provider": provider}))
