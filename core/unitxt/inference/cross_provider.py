"""CrossProviderInferenceEngine: one model id (e.g. "llama-3-2-1b-instruct") run on any provider that serves it.

The provider comes from `provider`, else the `default_provider` setting (UNITXT_DEFAULT_PROVIDER). Each provider maps
the id to its own model name and is served by one engine class (OpenAI-protocol engines, LiteLLM for watsonx / AWS
Bedrock / Vertex AI / Replicate, the watsonx SDK, local Hugging Face or vLLM).
"""

from typing import Any, Dict, List, Optional

from ..artifact import camel_to_snake, get_artifact_class
from .base import InferenceEngine, InferenceError, mock_mode
from .openai_engines import RemoteEngineMixin
from .params import GenerationParamsMixin
from ..artifact import InertField

_LLAMA = {
    "llama-3-2-1b-instruct": ("meta-llama/llama-3-2-1b-instruct", "meta-llama/Llama-3.2-1B-Instruct", "llama3.2:1b",
                              "meta.llama3-2-1b-instruct-v1:0", None),
    "llama-3-2-3b-instruct": ("meta-llama/llama-3-2-3b-instruct", "meta-llama/Llama-3.2-3B-Instruct", "llama3.2:3b",
                              "meta.llama3-2-3b-instruct-v1:0", None),
    "llama-3-1-8b-instruct": ("meta-llama/llama-3-1-8b-instruct", "meta-llama/Llama-3.1-8B-Instruct", "llama3.1:8b",
                              "meta.llama3-1-8b-instruct-v1:0", "meta/meta-llama-3.1-8b-instruct"),
    "llama-3-1-70b-instruct": ("meta-llama/llama-3-1-70b-instruct", "meta-llama/Llama-3.1-70B-Instruct",
                               "llama3.1:70b", "meta.llama3-1-70b-instruct-v1:0", None),
    "llama-3-1-405b-instruct": ("meta-llama/llama-3-405b-instruct", "meta-llama/Llama-3.1-405B-Instruct",
                                "llama3.1:405b", "meta.llama3-1-405b-instruct-v1:0",
                                "meta/meta-llama-3.1-405b-instruct"),
    "llama-3-3-70b-instruct": ("meta-llama/llama-3-3-70b-instruct", "meta-llama/Llama-3.3-70B-Instruct",
                               "llama3.3", "meta.llama3-3-70b-instruct-v1:0", None),
    "llama-3-8b-instruct": ("meta-llama/llama-3-8b-instruct", "meta-llama/Meta-Llama-3-8B-Instruct", "llama3:8b",
                            "meta.llama3-8b-instruct-v1:0", "meta/meta-llama-3-8b-instruct"),
    "llama-3-70b-instruct": ("meta-llama/llama-3-70b-instruct", "meta-llama/Meta-Llama-3-70B-Instruct", "llama3:70b",
                             "meta.llama3-70b-instruct-v1:0", "meta/meta-llama-3-70b-instruct"),
}
_TOGETHER_LLAMA = {
    "llama-3-2-1b-instruct": "meta-llama/Llama-3.2-1B-Instruct-Turbo",
    "llama-3-2-3b-instruct": "meta-llama/Llama-3.2-3B-Instruct-Turbo",
    "llama-3-1-8b-instruct": "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
    "llama-3-1-70b-instruct": "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
    "llama-3-1-405b-instruct": "meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo",
    "llama-3-3-70b-instruct": "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "llama-3-8b-instruct": "meta-llama/Llama-3-8b-chat-hf",
    "llama-3-70b-instruct": "meta-llama/Llama-3-70b-chat-hf",
}


# models hosted on Azure AI besides OpenAI's: model id -> deployment name
_AZURE_HOSTED = {"llama-3-3-70b-instruct": "Llama-3.3-70B-Instruct",
                 "llama-4-maverick": "Llama-4-Maverick-17B-128E-Instruct-FP8",
                 "llama-4-scout": "Llama-4-Scout-17B-16E-Instruct"}


def _add_newer_models(**maps: Dict[str, str]) -> None:
    """Llama 4, DeepSeek-V3, GPT-4.1 nano and Gemini 2.5 on the providers that serve them (provider model names)."""
    maverick_fp8 = "meta-llama/llama-4-maverick-17b-128e-instruct-fp8"
    maps["watsonx"]["llama-4-maverick"] = maverick_fp8
    maps["rits"].update({"llama-4-maverick": maverick_fp8, "llama-4-scout": "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                         "deepseek-v3": "deepseek-ai/DeepSeek-V3"})
    maps["together"].update({"llama-4-maverick": "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
                             "llama-4-scout": "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                             "deepseek-v3": "deepseek-ai/DeepSeek-V3"})
    maps["aws"].update({"llama-4-maverick": "meta.llama4-maverick-17b-instruct-v1:0",
                        "llama-4-scout": "meta.llama4-scout-17b-instruct-v1:0"})
    maps["replicate"].update({"llama-4-maverick": "meta/llama-4-maverick-instruct",
                              "llama-4-scout": "meta/llama-4-scout-instruct", "gpt-4-1": "openai/gpt-4.1"})
    maps["openai"]["gpt-4-1-nano"] = "gpt-4.1-nano"
    maps["vertex"].update({"gemini-2-5-flash": "gemini-2.5-flash", "gemini-2-5-pro": "gemini-2.5-pro"})
    # RITS serves these under the original's names (judge score names derive from them: llama_3_3_70b_instruct_rits)
    maps["rits"].update({"llama-3-1-70b-instruct": "meta-llama/llama-3-1-70b-instruct",
                         "llama-3-1-405b-instruct": "meta-llama/llama-3-1-405b-instruct-fp8",
                         "llama-3-3-70b-instruct": "meta-llama/llama-3-3-70b-instruct",
                         "mistral-large-instruct": "mistralai/mistral-large-instruct-2407",
                         "mixtral-8x7b-instruct": "mistralai/mixtral-8x7B-instruct-v0.1"})
    # the ids the original's judges use for GPT-4o and Mixtral 8x7B (EVALUATOR_TO_MODEL_ID)
    maps["openai"]["gpt-4o-2024-08-06"] = "gpt-4o-2024-08-06"
    for provider in ("watsonx", "rits"):
        maps[provider]["mixtral-8x7b-instruct-v01"] = maps[provider]["mixtral-8x7b-instruct"]


def _build_model_map() -> Dict[str, Dict[str, str]]:
    """provider -> {model id -> the provider's model name}."""
    watsonx, hf, ollama, aws, replicate = {}, {}, {}, {}, {}
    for model, (wx, hf_id, ollama_id, bedrock, replicate_id) in _LLAMA.items():
        watsonx[model], hf[model], ollama[model], aws[model] = wx, hf_id, ollama_id, bedrock
        if replicate_id:
            replicate[model] = replicate_id
    granite = {
        "granite-3-8b-instruct": ("ibm/granite-3-8b-instruct", "ibm-granite/granite-3.0-8b-instruct",
                                  "granite3-dense:8b"),
        "granite-3-2b-instruct": ("ibm/granite-3-2b-instruct", "ibm-granite/granite-3.0-2b-instruct",
                                  "granite3-dense:2b"),
        "granite-3-1-8b-instruct": ("ibm/granite-3-1-8b-instruct", "ibm-granite/granite-3.1-8b-instruct",
                                    "granite3.1-dense:8b"),
        "granite-3-2-8b-instruct": ("ibm/granite-3-2-8b-instruct", "ibm-granite/granite-3.2-8b-instruct",
                                    "granite3.2:8b"),
        "granite-3-3-8b-instruct": ("ibm/granite-3-3-8b-instruct", "ibm-granite/granite-3.3-8b-instruct",
                                    "granite3.3:8b"),
        "granite-guardian-3-2b": ("ibm/granite-guardian-3-2b", "ibm-granite/granite-guardian-3.0-2b",
                                  "granite3-guardian:2b"),
        "granite-guardian-3-8b": ("ibm/granite-guardian-3-8b", "ibm-granite/granite-guardian-3.0-8b",
                                  "granite3-guardian:8b"),
    }
    for model, (wx, hf_id, ollama_id) in granite.items():
        watsonx[model], hf[model], ollama[model] = wx, hf_id, ollama_id
    mistral = {
        "mixtral-8x7b-instruct": ("mistralai/mixtral-8x7b-instruct-v01", "mistralai/Mixtral-8x7B-Instruct-v0.1",
                                  "mixtral:8x7b", "mistral.mixtral-8x7b-instruct-v0:1"),
        "mistral-large-instruct": ("mistralai/mistral-large", "mistralai/Mistral-Large-Instruct-2407",
                                   "mistral-large", "mistral.mistral-large-2407-v1:0"),
        "mistral-7b-instruct": ("mistralai/mistral-7b-instruct-v0-2", "mistralai/Mistral-7B-Instruct-v0.2",
                                "mistral:7b", "mistral.mistral-7b-instruct-v0:2"),
    }
    for model, (wx, hf_id, ollama_id, bedrock) in mistral.items():
        watsonx[model], hf[model], ollama[model], aws[model] = wx, hf_id, ollama_id, bedrock
    replicate["mixtral-8x7b-instruct"] = "mistralai/mixtral-8x7b-instruct-v0.1"
    openai = {name: name for name in ("gpt-4o", "gpt-4o-mini", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo", "o1-mini",
                                      "o1-preview", "o3-mini", "gpt-4-1", "gpt-4-1-mini")}
    openai.update({"gpt-4-1": "gpt-4.1", "gpt-4-1-mini": "gpt-4.1-mini"})
    rits_models = ("llama-3-1-8b-instruct", "llama-3-1-70b-instruct", "llama-3-1-405b-instruct",
                   "llama-3-3-70b-instruct", "llama-3-2-1b-instruct", "granite-3-8b-instruct",
                   "granite-3-1-8b-instruct", "granite-3-2-8b-instruct", "granite-3-3-8b-instruct",
                   "mixtral-8x7b-instruct", "mistral-large-instruct")
    rits = {model: hf[model] for model in rits_models}
    together = dict(_TOGETHER_LLAMA, **{"mixtral-8x7b-instruct": "mistralai/Mixtral-8x7B-Instruct-v0.1",
                                        "mistral-7b-instruct": "mistralai/Mistral-7B-Instruct-v0.2"})
    vertex = {"gemini-1-5-pro": "gemini-1.5-pro", "gemini-1-5-flash": "gemini-1.5-flash",
              "gemini-2-0-flash": "gemini-2.0-flash", "llama-3-1-405b-instruct": "meta/llama-3.1-405b-instruct-maas",
              "llama-3-1-70b-instruct": "meta/llama-3.1-70b-instruct-maas",
              "llama-3-1-8b-instruct": "meta/llama-3.1-8b-instruct-maas"}
    _add_newer_models(watsonx=watsonx, together=together, openai=openai, rits=rits, vertex=vertex, aws=aws,
                      replicate=replicate)
    azure = dict(openai, **_AZURE_HOSTED)
    return {
        "watsonx": {model: f"watsonx/{name}" for model, name in watsonx.items()},
        "watsonx-sdk": dict(watsonx),
        "together-ai": together,
        "open-ai": openai,
        "azure": azure,
        "ollama": ollama,
        "rits": rits,
        "vertex-ai": {model: f"vertex_ai/{name}" for model, name in vertex.items()},
        "aws": {model: f"bedrock/{name}" for model, name in aws.items()},
        "replicate": {model: f"replicate/{name}" for model, name in replicate.items()},
        "hf-local": dict(hf),
        "vllm": dict(hf),
    }


PROVIDER_MODEL_MAP: Dict[str, Dict[str, str]] = _build_model_map()

# provider -> (engine class name in unitxt.inference, the field that takes the model name)
PROVIDER_ENGINES: Dict[str, tuple] = {
    "watsonx": ("LiteLLMInferenceEngine", "model"),
    "watsonx-sdk": ("WMLInferenceEngineChat", "model_name"),
    "together-ai": ("TogetherAiInferenceEngine", "model_name"),
    "open-ai": ("OpenAiInferenceEngine", "model_name"),
    "azure": ("AzureOpenAIInferenceEngine", "model_name"),
    "ollama": ("OllamaInferenceEngine", "model_name"),
    "rits": ("RITSInferenceEngine", "model_name"),
    "vertex-ai": ("LiteLLMInferenceEngine", "model"),
    "aws": ("LiteLLMInferenceEngine", "model"),
    "replicate": ("LiteLLMInferenceEngine", "model"),
    "hf-local": ("HFAutoModelInferenceEngine", "model_name"),
    "vllm": ("VLLMInferenceEngine", "model"),
}


def supported_models(provider: Optional[str] = None) -> List[str]:
    """Model ids served by a provider (by any provider when None)."""
    if provider is not None:
        return sorted(PROVIDER_MODEL_MAP.get(provider, {}))
    return sorted({model for models in PROVIDER_MODEL_MAP.values() for model in models})


class CrossProviderInferenceEngine(RemoteEngineMixin, GenerationParamsMixin):
    """Run `model` (a provider-neutral id) on `provider` (or settings.default_provider / UNITXT_DEFAULT_PROVIDER).

    `credentials` and the generation/concurrency settings go to the provider's engine; `provider_specific_args`
    ({provider: {field: value}}) adds settings for one provider only. Supported: see PROVIDER_MODEL_MAP.
    """

    provider_model_map: Any = InertField(
        default=None, reason="models are mapped by this library's own provider tables here")

    model: str
    provider: Optional[str] = None
    provider_specific_args: Optional[Dict[str, Dict[str, Any]]] = None
    credentials: Optional[Dict[str, str]] = None
    data_classification_policy: Optional[List[str]] = None  # None: the provider engine's own default
    use_cache: bool = True
    _positional_args = ("model",)
    _inference_type = "cross-provider"

    def prepare(self) -> None:
        super().prepare()
        self._engines: Dict[tuple, InferenceEngine] = {}

    def get_provider_name(self) -> str:
        """The provider requests go to: `provider`, else settings.default_provider (the original's method)."""
        from ..settings_utils import settings

        return self.provider if self.provider is not None else settings.default_provider

    def get_return_object(self, *args: Any, **kwargs: Any) -> Any:
        """The provider engine's get_return_object (that engine builds each answer)."""
        return self.engine().get_return_object(*args, **kwargs)

    def current_provider(self) -> str:
        provider = self.get_provider_name()
        if provider not in PROVIDER_MODEL_MAP:
            raise InferenceError(f"Unknown provider {provider!r}; supported providers: "
                                 f"{', '.join(sorted(PROVIDER_MODEL_MAP))}.", artifact=self.artifact_name,
                                 field="provider")
        return provider

    def provider_model_name(self, provider: str) -> str:
        """The provider's name for `model`; a model the provider's table lacks is passed on as given, with a warning
        (as the original: the provider may still serve it, but the id no longer switches between providers)."""
        models = PROVIDER_MODEL_MAP[provider]
        if self.model in models:
            return models[self.model]
        import difflib

        from ..errors import UnitxtWarning

        close = difflib.get_close_matches(self.model, list(models), n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        elsewhere = sorted(name for name, served in PROVIDER_MODEL_MAP.items() if self.model in served)
        also = f" It is served by: {', '.join(elsewhere)}." if elsewhere else ""
        UnitxtWarning(f"{self.artifact_name}: model {self.model!r} is not configured for "
                      f"provider {provider!r}; sending the name as given.{hint}{also} Configured models for "
                      f"{provider}: {', '.join(sorted(models))}.")
        return self.model

    def engine(self) -> InferenceEngine:
        """The provider's engine for the current provider (built once per provider)."""
        provider = self.current_provider()
        key = (provider,)
        if key not in self._engines:
            class_name, model_field = PROVIDER_ENGINES[provider]
            engine_class = get_artifact_class(camel_to_snake(class_name))
            fields = engine_class.get_fields()
            skip = {"model", "provider", "provider_specific_args"}
            kwargs = {name: getattr(self, name) for name in self._given_fields
                      if name not in skip and name in fields}
            for name in ("use_cache", "cache_dir"):
                kwargs[name] = getattr(self, name)
            kwargs[model_field] = self.provider_model_name(provider)
            kwargs.update((self.provider_specific_args or {}).get(provider, {}))
            self._engines[key] = engine_class(**kwargs)
        return self._engines[key]

    def sends_requests(self) -> bool:
        return bool(getattr(self.engine(), "sends_requests", lambda: False)())

    def keep_request_pool(self) -> None:
        """The provider's engine keeps it (it sends the requests)."""
        keep = getattr(self.engine(), "keep_request_pool", None)
        if keep is not None:
            keep()

    def kept_request_pool(self) -> Any:
        return getattr(self.engine(), "kept_request_pool", lambda: None)()

    def check_policy(self, rows: Any) -> None:
        """Its own policy when set, else the provider engine's (a remote provider refuses proprietary rows)."""
        if mock_mode():
            return
        if self.effective_policy() is not None:
            return super().check_policy(rows)
        return self.engine().check_policy(rows)

    def infer(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        if mock_mode():
            return super().infer(dataset, return_meta_data=return_meta_data)
        return self.engine().infer(dataset, return_meta_data=return_meta_data)

    def forget_answers(self, dataset: Any, mode: str = "generate") -> int:
        """The provider engine keeps the answers, so it forgets them."""
        return 0 if mock_mode() else self.engine().forget_answers(dataset, mode=mode)

    def infer_log_probs(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        if mock_mode():
            return self._run(dataset, return_meta_data, mode="log_probs")
        return self.engine().infer_log_probs(dataset, return_meta_data=return_meta_data)

    label: str = "cross_provider"  # names the engine in results (engine id)

    def get_engine_id(self) -> str:
        """As the original: the provider's model id with the provider as label (e.g. "llama_3_3_70b_instruct_watsonx")."""
        from .base import get_model_and_label_id

        provider = self.current_provider()
        return get_model_and_label_id(self.provider_model_name(provider), provider)
