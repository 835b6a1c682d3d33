"""Catalog: criteria judges per provider and model (metrics.llm_as_judge.direct.<provider>.<model>, .pairwise.*).

Use with a criteria override: metrics.llm_as_judge.direct.rits.llama3_3_70b[criteria=metrics.llm_as_judge.direct.
criteria.answer_relevance, context_fields=[question]] (or criteria_field=... for per-instance criteria).

The judges are the original's: one per judge model of EVALUATORS_METADATA and provider that serves it, the model id
from EVALUATOR_TO_MODEL_ID, named after the model's display name; Azure judges carry their deployment's URL.
EARLIER_JUDGES are names this library shipped before that the original does not have (kept so they still resolve).
"""

from unitxt.inference import CrossProviderInferenceEngine
from unitxt.llm_as_judge import LLMJudgeDirect, LLMJudgePairwise
from unitxt.llm_as_judge_constants import EVALUATOR_TO_MODEL_ID, EVALUATORS_METADATA, EvaluatorNameEnum

AZURE_DEPLOYMENT = "https://eteopenai.azure-api.net/openai/deployments/{model}/chat/completions" \
                   "?api-version=2024-08-01-preview"

# (catalog folder, label, evaluator member name, model id, provider) of judges only this library has
EARLIER_JUDGES = [
    ("aws", "llama3_1_70b", "LLAMA3_1_70B", "llama-3-1-70b-instruct", "aws"),
    ("aws", "llama3_1_8b", "LLAMA3_1_8B", "llama-3-1-8b-instruct", "aws"),
    ("aws", "mixtral8_7b", "MIXTRAL8_7b", "mixtral-8x7b-instruct", "aws"),
    ("ollama", "granite3_1_8b", "GRANITE3_1_8B", "granite-3-1-8b-instruct", "ollama"),
    ("ollama", "granite3_2_8b", "GRANITE3_2_8B", "granite-3-2-8b-instruct", "ollama"),
    ("ollama", "granite3_8b", "GRANITE3_8B", "granite-3-8b-instruct", "ollama"),
    ("ollama", "mixtral8_7b", "MIXTRAL8_7b", "mixtral-8x7b-instruct", "ollama"),
    ("ollama", "mixtral_large", "MIXTRAL_LARGE", "mistral-large-instruct", "ollama"),
    ("rits", "granite3_8b", "GRANITE3_8B", "granite-3-8b-instruct", "rits"),
    ("rits", "llama3_1_70b", "LLAMA3_1_70B", "llama-3-1-70b-instruct", "rits"),
    ("together_ai", "mixtral8_7b", "MIXTRAL8_7b", "mixtral-8x7b-instruct", "together-ai"),
    ("vertex_ai", "llama3_1_405b", "LLAMA3_1_405B", "llama-3-1-405b-instruct", "vertex-ai"),
    ("vertex_ai", "llama3_1_70b", "LLAMA3_1_70B", "llama-3-1-70b-instruct", "vertex-ai"),
    ("vertex_ai", "llama3_1_8b", "LLAMA3_1_8B", "llama-3-1-8b-instruct", "vertex-ai"),
    ("watsonx", "granite3_1_8b", "GRANITE3_1_8B", "granite-3-1-8b-instruct", "watsonx"),
    ("watsonx", "granite3_8b", "GRANITE3_8B", "granite-3-8b-instruct", "watsonx"),
]


def folder_of(provider: str) -> str:
    """The catalog folder of a provider: azure_openai and openai by their earlier names, else the provider id."""
    return {"azure": "azure_openai", "open-ai": "openai"}.get(provider, provider.replace("-", "_"))


def label_of(evaluator: EvaluatorNameEnum) -> str:
    """The catalog name of a judge model: its display name in lower case, '-', '.' and ' ' as '_'."""
    return evaluator.value.lower().replace("-", "_").replace(".", "_").replace(" ", "_")


def judge_models():
    """(provider, catalog folder, evaluator member name, model id, label, credentials) of every judge."""
    for metadata in EVALUATORS_METADATA:
        for provider in metadata.providers:
            model = EVALUATOR_TO_MODEL_ID[metadata.name]
            credentials = {"api_base": AZURE_DEPLOYMENT.format(model=model)} if provider.value == "azure" else None
            yield provider.value, folder_of(provider.value), metadata.name.name, model, label_of(metadata.name), \
                credentials
    for folder, label, evaluator, model, provider in EARLIER_JUDGES:
        yield provider, folder, evaluator, model, label, None


def register(add):
    for provider, folder, evaluator, model, label, credentials in judge_models():
        for kind, judge_class in (("direct", LLMJudgeDirect), ("pairwise", LLMJudgePairwise)):
            engine = CrossProviderInferenceEngine(model=model, provider=provider, max_tokens=1024, temperature=0.0,
                                                  seed=42, **({"credentials": credentials} if credentials else {}))
            add(f"metrics.llm_as_judge.{kind}.{folder}.{label}", judge_class(
                inference_engine=engine, evaluator_name=evaluator, generate_summaries=False,
                __description__=f"{'Direct' if kind == 'direct' else 'Pairwise'} criteria judge: {model} on "
                                f"{provider}. Give criteria=... (or criteria_field=...) and context_fields=[...].",
                __tags__={"kind": "metric", "family": "llm_as_judge", "judge": kind, "provider": provider}))
