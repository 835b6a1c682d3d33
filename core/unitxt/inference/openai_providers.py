"""The hosted and local servers of the OpenAI protocol, each an OpenAiInferenceEngine with its own address, key
header and defaults: Azure OpenAI, vLLM servers, Together AI, Ollama, IBM RITS, LiteLLM (proxy or library)."""

from typing import Any, Dict, List, Optional

from ..artifact import Field, InertField
from ..errors import MissingRequirementError
from .base import EngineInput, InferenceError, TextGenerationInferenceOutput
from .concurrency import RequestError
from .openai_engines import OpenAiInferenceEngine, _local_data, _public, enterprise_data, local_host


class AzureOpenAIInferenceEngine(OpenAiInferenceEngine):
    """Azure OpenAI: `api_url` is the resource endpoint, `model_name` the deployment; key in the `api-key` header.
    Env AZURE_OPENAI_API_KEY / AZURE_OPENAI_API_URL."""


    api_version: str = "2024-08-01-preview"
    _env_prefix = "AZURE_OPENAI"
    _default_base_url = None
    _inference_type = "azure"
    _batch_limits = (100_000, 200 * 1024 * 1024)

    def batch_api_root(self) -> str:
        """The resource's /openai root (batches are per resource, not per deployment)."""
        return self.api_root().split("/deployments/", 1)[0]

    def batch_url(self) -> str:
        return "/completions" if self.api == "completions" else "/chat/completions"
    label: str = "azure_openai"  # names the engine in results (engine id)

    def api_root(self) -> str:
        root = super().api_root().rstrip("/")
        if "/openai/deployments/" in root:
            return root
        return f"{root}/openai/deployments/{self.model_name}"

    def auth_headers(self) -> Dict[str, str]:
        headers = super().auth_headers()
        return {"api-key": headers["Authorization"].split(" ", 1)[1]} if headers else {}

    def url_query(self) -> Optional[Dict[str, str]]:
        return {"api-version": self.api_version}


class VLLMRemoteInferenceEngine(OpenAiInferenceEngine):
    """A vLLM OpenAI-compatible server: base_url or env VLLM_API_URL; an API key (VLLM_API_KEY) only if it needs one."""


    _env_prefix = "VLLM"
    _default_base_url = None
    _requires_api_key = False
    _inference_type = "vllm-remote"
    _supports_batch = False
    label: str = "vllm-remote"  # names the engine in results (engine id)


class TogetherAiInferenceEngine(OpenAiInferenceEngine):
    """Together AI's OpenAI-compatible API (env TOGETHER_API_KEY)."""


    _env_prefix = "TOGETHER"
    _default_base_url = "https://api.together.xyz/v1"
    _inference_type = "together"
    _batch_limits = (50_000, 100 * 1024 * 1024)
    label: str = "together"  # names the engine in results (engine id)


class OllamaInferenceEngine(OpenAiInferenceEngine):
    """A local Ollama server through its OpenAI-compatible endpoint (default http://localhost:11434/v1, env
    OLLAMA_API_URL); no key needed. The model runs on the user's machine, so proprietary data is allowed too."""


    data_classification_policy: Optional[List[str]] = Field(default_factory=_local_data)
    num_parallel_requests: int = 4
    model: Optional[str] = None  # the original catalog format's name for model_name
    _env_prefix = "OLLAMA"
    _default_base_url = "http://localhost:11434/v1"
    _requires_api_key = False
    _inference_type = "ollama"
    _supports_batch = False
    label: str = "ollama"  # names the engine in results (engine id)

    def get_client_model_name(self) -> str:
        return self.model_name or self.model

    def own_endpoint(self) -> bool:
        return local_host(self.api_root())  # the default URL is this machine

    def effective_policy(self) -> Optional[List[str]]:
        """Proprietary data is allowed by default only when the server is this machine or a private network; for any
        other host only public data, unless data_classification_policy is given explicitly."""
        policy = super().effective_policy()
        if "data_classification_policy" in self._given_fields or policy != _local_data():
            return policy
        return policy if self.own_endpoint() else _public()


RITS_HOST = "https://inference-3scale-apicast-production.apps.rits.fmaas.res.ibm.com"
# models whose RITS endpoint is not derived from their name (the original's table)
RITS_ENDPOINTS = {
    "microsoft/phi-4": "microsoft-phi-4",
    "meta-llama/llama-4-maverick-17b-128e-instruct-fp8": "llama-4-mvk-17b-128e-fp8",
    "deepseek-ai/DeepSeek-V3": "deepseek-v3-h200",
    "meta-llama/Llama-3.1-8B-Instruct": "llama-3-1-8b-instruct",
    "meta-llama/Llama-4-Scout-17B-16E-Instruct": "llama-4-scout-17b-16e-instruct",
    "mistralai/Mistral-Small-3.1-24B-Instruct-2503": "mistral-small-3-1-24b-2503",
    "ibm-granite/granite-guardian-3.2-3b-a800m": "granite-guardian-3-2-3b-a800m",
    "ibm-granite/granite-guardian-3.2-5b": "granite-guardian-3-2-5b-ris",
    "granite-guardian-3-2-5b-ris": "granite-guardian-3-3-8b",
    "openai/gpt-oss-20b": "gpt-oss-20b",
    "openai/gpt-oss-120b": "gpt-oss-120b",
}


def rits_endpoint(model_name: str) -> str:
    """The RITS endpoint segment of a model, as the original derives it: the table above; for a "byom-..." model its
    first path part; else its last path part in lower case, "v0.1" as "v01", without "vision-", dots as dashes."""
    if model_name in RITS_ENDPOINTS:
        return RITS_ENDPOINTS[model_name]
    if model_name.startswith("byom-"):
        return model_name.split("/")[0]
    return model_name.split("/")[-1].lower().replace("v0.1", "v01").replace("vision-", "").replace(".", "-")


class RITSInferenceEngine(OpenAiInferenceEngine):
    """IBM RITS: one OpenAI-compatible endpoint per model; the key goes in the RITS_API_KEY header (env
    RITS_API_KEY)."""

    data_classification_policy: Optional[List[str]] = Field(default_factory=enterprise_data)
    _env_prefix = "RITS"
    _default_base_url = None
    _inference_type = "rits"
    _supports_batch = False
    label: str = "rits"  # names the engine in results (engine id)
    rits_host: str = RITS_HOST

    @staticmethod
    def get_base_url_from_model_name(model_name: str, host: Optional[str] = None) -> str:
        """The model's RITS endpoint (without "/v1"): `<host>/<endpoint of the model>`."""
        return f"{(host or RITS_HOST).rstrip('/')}/{rits_endpoint(model_name)}"

    def api_root(self) -> str:
        explicit = self.base_url or self.credential("api_url")
        return explicit or f"{self.get_base_url_from_model_name(self.model_name, self.rits_host)}/v1"

    def get_client_model_name(self) -> str:
        """A "byom-<endpoint>/<model>" name is sent without its endpoint part (the endpoint is in the URL)."""
        if self.model_name and self.model_name.startswith("byom-"):
            return "/".join(self.model_name.split("/")[1:])
        return self.model_name

    def auth_headers(self) -> Dict[str, str]:
        super().auth_headers()  # the key is required; it travels in get_default_headers()
        return {}

    def get_default_headers(self) -> Dict[str, str]:
        """default_headers and the key in the RITS_API_KEY header."""
        headers = super().get_default_headers()
        key = self.credential("api_key")
        if key:
            headers["RITS_API_KEY"] = key
        return headers


class LiteLLMInferenceEngine(OpenAiInferenceEngine):
    """LiteLLM: with `base_url` (or env LITELLM_API_URL) requests go to a LiteLLM proxy over the OpenAI protocol;
    without, through the `litellm` library (optional: pip install litellm) with provider-prefixed model names."""

    max_requests_per_second: Any = InertField(
        default=6, reason="requests are paced by the engine's concurrency settings here")

    model: Optional[str] = None
    _env_prefix = "LITELLM"
    _default_base_url = None
    _requires_api_key = False
    _inference_type = "litellm"
    _supports_batch = False
    label: str = "litellm"  # names the engine in results (engine id)

    def get_client_model_name(self) -> str:
        return self.model or self.model_name

    def proxy_mode(self) -> bool:
        return bool(self.base_url or self.credential("api_url"))

    def before_infer(self, rows: List[Dict[str, Any]]) -> None:
        if self.proxy_mode():
            return super().before_infer(rows)
        try:
            import litellm  # noqa: F401
        except ImportError:
            raise MissingRequirementError(
                "LiteLLMInferenceEngine without base_url uses the litellm library: pip install litellm "
                "(or point base_url at a LiteLLM proxy).", artifact=self.artifact_name) from None
        if not self.get_client_model_name():
            raise InferenceError("LiteLLMInferenceEngine needs model.", artifact=self.artifact_name, field="model")

    def send(self, item: EngineInput, log_probs: bool = False) -> TextGenerationInferenceOutput:
        if self.proxy_mode():
            return super().send(item, log_probs)
        import litellm

        params = self.generation_params()
        if log_probs:
            params.update(logprobs=True, top_logprobs=params.get("top_logprobs", 5))
        try:
            response = litellm.completion(model=self.get_client_model_name(), messages=item.as_messages(),
                                          timeout=self.timeout, **params)
        except Exception as error:  # litellm raises its own exception family
            status = getattr(error, "status_code", None)
            raise RequestError(f"litellm request failed: {error}", status=status,
                               retriable=status in (408, 429, 500, 502, 503, 504)) from error
        answer = response.model_dump() if hasattr(response, "model_dump") else dict(response)
        return self.read_answer(answer, item, log_probs)


