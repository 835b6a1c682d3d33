"""Catalog: judge engines (engines.classification.* short-answer engines with log-probs, engines.rits.*,
engines.ibm_wml.*, engines.model.*).

Classification engines answer in a few tokens (max 5) at temperature 0 and return the top-5 log-probs, so a judge can
read P(Yes); WML engines decode greedily with seed 42. gpt-oss needs room to reason, so it has no token cap.
"""

from _factory import make

# label -> (provider, model id, max_tokens)
CROSS_PROVIDER = {
    "gpt_4_turbo_open_ai": ("open-ai", "gpt-4-turbo", 5),
    "gpt_4o_open_ai": ("open-ai", "gpt-4o", 5),
    "gpt_oss_120b_rits": ("rits", "gpt-oss-120b", None),
    "gpt_oss_120b_watsonx": ("watsonx", "gpt-oss-120b", None),
    "llama3_3_ollama": ("ollama", "llama-3-3-70b-instruct", 5),
    "llama3_8b_ollama": ("ollama", "llama-3-8b-instruct", 5),
    "llama_3_1_405b_instruct_fp8_rits": ("rits", "llama-3-1-405b-instruct-fp8", 5),
    "llama_4_maverick_17b_128e_instruct_fp8_rits": ("rits", "llama-4-maverick", 5),
    "llama_4_maverick_17b_128e_instruct_fp8_watsonx": ("watsonx", "llama-4-maverick", 5),
    "mistral_large_instruct_2407_rits": ("rits", "mistral-large-instruct", 5),
    "mistral_large_watsonx": ("watsonx", "mistral-large-instruct", 5),
}
AZURE = {"gpt_4_turbo_2024_04_09_azure_openai": "gpt-4-turbo-2024-04-09",
         "gpt_4o_2024_08_06_azure_openai": "gpt-4o-2024-08-06"}
WML = {"llama_3_405b_instruct_wml": "meta-llama/llama-3-405b-instruct",
       "mistral_small_3_1_24b_instruct_2503_wml": "mistralai/mistral-small-3-1-24b-instruct-2503",
       "mixtral_8x7b_instruct_v01_wml": "mistralai/mixtral-8x7b-instruct-v01"}
TAGS = {"kind": "engine", "use": "classification"}


def register(add):
    for label, (provider, model, max_tokens) in CROSS_PROVIDER.items():
        add(f"engines.classification.{label}", make(
            "cross_provider_inference_engine", model=model, provider=provider, logprobs=True, max_tokens=max_tokens,
            temperature=0.0, top_logprobs=5, tags=TAGS,
            description=f"Short-answer engine with top-5 log-probs: {model} on {provider}."))
    for label, model in AZURE.items():
        add(f"engines.classification.{label}", make(
            "azure_open_ai_inference_engine", model_name=model, logprobs=True, max_tokens=5, temperature=0.0,
            top_logprobs=5, tags=TAGS, description=f"Short-answer engine with top-5 log-probs: {model} on Azure OpenAI."))
    for label, model in WML.items():
        add(f"engines.classification.{label}", make(
            "wml_inference_engine_generation", model_name=model, max_new_tokens=5, random_seed=42,
            decoding_method="greedy", tags=TAGS,
            description=f"Short-answer greedy engine: {model} on watsonx.ai (ibm-watsonx-ai)."))
    for label, model in (("llama_3.1_8b_instruct", "meta-llama/Llama-3.1-8B-Instruct"),
                         ("llama_3_1_405b_instruct_fp8", "meta-llama/llama-3-1-405b-instruct-fp8"),
                         ("llama_3_1_70b_instruct", "meta-llama/llama-3-1-70b-instruct")):
        add(f"engines.rits.{label}", make("rits_inference_engine", model_name=model, max_tokens=2048, seed=42,
                                          tags={"kind": "engine"}, description=f"{model} on RITS."))
    add("engines.ibm_wml.llama_3_3_70b_instruct", make(
        "wml_inference_engine", model_name="meta-llama/llama-3-3-70b-instruct", max_new_tokens=2048, random_seed=42,
        tags={"kind": "engine"}, description="Llama-3.3-70B-Instruct on watsonx.ai (ibm-watsonx-ai)."))
    add("engines.model.llama_3_8b_instruct", make(
        "cross_provider_inference_engine", model="llama-3-8b-instruct", tags={"kind": "engine"},
        description="Llama-3-8B-Instruct on the default provider (settings / UNITXT_DEFAULT_PROVIDER)."))
