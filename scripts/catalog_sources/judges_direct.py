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


# the later judges, per catalog folder: provider and (label, evaluator name) — the model is the evaluator's model id
LATER_JUDGES = {
    "aws": ("aws", [("deepseek_v3", "DEEPSEEK_V3"), ("llama4_maverick", "LLAMA3_4_MAVERICK"),
                    ("llama4_scout", "LLAMA3_4_SCOUT")]),
    "azure_openai": ("azure", [("gpt_4_1_nano", "GPT4_1_NANO"), ("llama3_3_70b", "LLAMA3_3_70B"),
                               ("llama4_maverick", "LLAMA3_4_MAVERICK"), ("llama4_scout", "LLAMA3_4_SCOUT"),
                               ("o1_preview", "O1_PREVIEW")]),
    "openai": ("open-ai", [("gpt_4_1_nano", "GPT4_1_NANO"), ("o1_preview", "O1_PREVIEW")]),
    "replicate": ("replicate", [("gpt_4_1", "GPT4_1"), ("llama4_maverick", "LLAMA3_4_MAVERICK"),
                                ("llama4_scout", "LLAMA3_4_SCOUT")]),
    "rits": ("rits", [("deepseek_v3", "DEEPSEEK_V3"), ("granite3_0_8b", "GRANITE3_8B"),
                      ("llama4_maverick", "LLAMA3_4_MAVERICK"), ("llama4_scout", "LLAMA3_4_SCOUT")]),
    "together_ai": ("together-ai", [("deepseek_v3", "DEEPSEEK_V3"), ("llama4_maverick", "LLAMA3_4_MAVERICK"),
                                    ("llama4_scout", "LLAMA3_4_SCOUT")]),
    "vertex_ai": ("vertex-ai", [("gemini_2_5_flash", "GEMINI_2_5_FLASH"), ("gemmini_2_5_pro", "GEMMA_2_5_PRO")]),
    "watsonx": ("watsonx", [("granite3_0_8b", "GRANITE3_8B")]),
}


def judge_models():
    """(provider, catalog folder, evaluator name, model id, label) for every judge model a provider serves, then the
    later judges of LATER_JUDGES."""
    later = {(folder, label) for folder, (_, judges) in LATER_JUDGES.items() for label, _ in judges}
    for provider, folder in PROVIDER_CATALOG_FOLDER.items():
        if provider == "replicate":
            continue  # only the later judges
        served = set(supported_models(provider))
        for evaluator, model in EVALUATOR_TO_MODEL_ID.items():
            if model in served and model in LABELS and (folder, LABELS[model]) not in later:
                yield provider, folder, evaluator, model, LABELS[model]
    for folder, (provider, judges) in LATER_JUDGES.items():
        for label, evaluator in judges:
            yield provider, folder, evaluator, EVALUATOR_TO_MODEL_ID[evaluator], label


def register(add):
    for provider, folder, evaluator, model, label in judge_models():
        for kind, judge_class in (("direct", LLMJudgeDirect), ("pairwise", LLMJudgePairwise)):
            engine = CrossProviderInferenceEngine(model=model, provider=provider, max_tokens=1024, temperature=0.0,
                                                  seed=42)
            add(f"metrics.llm_as_judge.{kind}.{folder}.{label}", judge_class(
                inference_engine=engine, evaluator_name=evaluator, generate_summaries=False,
                __description__=f"{'Direct' if kind == 'direct' else 'Pairwise'} criteria judge: {model} on "
                                f"{provider}. Give criteria=... (or criteria_field=...) and context_fields=[...].",
                __tags__={"kind": "metric", "family": "llm_as_judge", "judge": kind, "provider": provider}))
