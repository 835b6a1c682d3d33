"""Catalog: inference engines (engines.*): named, ready-to-use engines for recipes (`unitxt.infer`) and judges.

engines.model.*: local models; engines.cross_provider.<model>: a model on the default provider (UNITXT_DEFAULT_PROVIDER);
engines.classification.<model>_<provider>: short greedy answers with log-probs, for judges that classify;
engines.openai.*, engines.ollama.*: one provider's models; engines.generic: the engine named by UNITXT_INFERENCE_ENGINE.
"""

from unitxt.inference import (
    CrossProviderInferenceEngine,
    GenericInferenceEngine,
    HFPipelineBasedInferenceEngine,
    OllamaInferenceEngine,
    OpenAiInferenceEngine,
    supported_models,
)


def _tags(provider: str) -> dict:
    return {"kind": "inference_engine", "provider": provider}


def _name(model_id: str) -> str:
    return model_id.replace("-", "_").replace(".", "_").replace(":", "_")


CLASSIFICATION = {  # provider key in the catalog name -> CrossProvider provider
    "wml": "watsonx-sdk",
    "watsonx": "watsonx",
    "rits": "rits",
    "openai": "open-ai",
    "azure_openai": "azure",
    "together": "together-ai",
    "ollama": "ollama",
}

OLLAMA = {"llama2": "llama2", "llama3_2_1b": "llama3.2:1b", "llama3_1_8b": "llama3.1:8b",
          "granite3_dense_8b": "granite3-dense:8b", "mistral_7b": "mistral:7b", "mixtral_8x7b": "mixtral:8x7b"}
OPENAI = ("gpt-4o", "gpt-4o-mini", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo", "o1-mini", "o1-preview")


# model ids served only as the names the original's judges use (EVALUATOR_TO_MODEL_ID): no engine entries of their own
JUDGE_MODEL_IDS = {"gpt-4o-2024-08-06", "mixtral-8x7b-instruct-v01"}


def register(add):
    add("engines.model.flan.t5_small.hf", HFPipelineBasedInferenceEngine(
        model_name="google/flan-t5-small", max_new_tokens=32,
        __description__="google/flan-t5-small run locally with a transformers pipeline (needs transformers, torch).",
        __tags__=_tags("hf-local")))
    add("engines.generic", GenericInferenceEngine(
        __description__="The engine named by UNITXT_INFERENCE_ENGINE (a catalog name or an engine's JSON).",
        __tags__=_tags("any")))
    for model in sorted(set(supported_models()) - JUDGE_MODEL_IDS):
        add(f"engines.cross_provider.{_name(model)}", CrossProviderInferenceEngine(
            model=model, max_tokens=1024, temperature=0.0, seed=42,
            __description__=f"{model} on the default provider (settings.default_provider / UNITXT_DEFAULT_PROVIDER), "
                            f"greedy, up to 1024 new tokens.",
            __tags__=_tags("cross-provider")))
    for key, provider in CLASSIFICATION.items():
        for model in sorted(set(supported_models(provider)) - JUDGE_MODEL_IDS):
            add(f"engines.classification.{_name(model)}_{key}", CrossProviderInferenceEngine(
                model=model, provider=provider, max_tokens=5, temperature=0.0, seed=42, logprobs=True,
                top_logprobs=5,
                __description__=f"{model} on {provider} for classification by judges: greedy, at most 5 new tokens, "
                                f"with the top-5 log-probs of each token.",
                __tags__=_tags(provider)))
    for key, model in OLLAMA.items():
        add(f"engines.ollama.{key}", OllamaInferenceEngine(
            model_name=model, __description__=f"{model} on a local Ollama server (http://localhost:11434/v1).",
            __tags__=_tags("ollama")))
    for model in OPENAI:
        add(f"engines.openai.{_name(model)}", OpenAiInferenceEngine(
            model_name=model, __description__=f"OpenAI {model} (OPENAI_API_KEY).", __tags__=_tags("open-ai")))
