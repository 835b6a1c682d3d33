"""One set of generation parameters shared by every engine, named as documented.

`max_tokens` and `max_new_tokens` (and the older `max_generated_tokens`) are the same limit; each engine maps the
set to its own API (OpenAI JSON fields, transformers `generate` kwargs...). Unset parameters are not sent.
"""

from typing import Any, Dict, List, Literal, Optional, Union

from ..artifact import Artifact, InertField
from ..errors import ArtifactDefinitionError
from ..general.deprecation import warn_on_call


_NOT_SENT = "not a parameter this library's engines send"


class GenerationParamsMixin(Artifact):
    """Generation parameters: length limit, sampling, seed, stop sequences, log-probs."""

    __abstract__ = True

    max_tokens: Optional[int] = None
    max_new_tokens: Optional[int] = None
    max_generated_tokens: Optional[int] = None
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    top_k: Optional[int] = None
    seed: Optional[int] = None
    random_seed: Optional[int] = None  # the original catalog format's name for seed (watsonx engines)
    stop: Optional[Union[str, List[str]]] = None
    logprobs: Optional[bool] = None
    top_logprobs: Optional[int] = None
    frequency_penalty: Optional[float] = None
    presence_penalty: Optional[float] = None
    n: Optional[int] = None
    # sent to OpenAI-style APIs as these JSON fields when set
    logit_bias: Optional[Dict[str, int]] = None
    parallel_tool_calls: Optional[bool] = None
    service_tier: Optional[Literal["auto", "default"]] = None
    response_format: Optional[Dict[str, Any]] = None
    # passed to transformers `generate` when set (local HF engines)
    do_sample: bool = False  # sample even at temperature 0 / None
    num_beams: Optional[int] = None
    repetition_penalty: Optional[float] = None
    pad_token_id: Optional[int] = None
    eos_token_id: Optional[int] = None
    # the original's parameters of other APIs (watsonx, vLLM, Together AI) not sent by this library's engines
    extra_headers: Optional[Dict[str, str]] = InertField(default=None, reason=_NOT_SENT)
    min_p: Optional[float] = InertField(default=None, reason=_NOT_SENT)
    echo: Optional[bool] = InertField(default=None, reason=_NOT_SENT)
    best_of: Optional[int] = InertField(default=None, reason=_NOT_SENT)
    bad_words: Optional[List[str]] = InertField(default=None, reason=_NOT_SENT)
    ignore_eos: bool = InertField(default=False, reason=_NOT_SENT)
    min_tokens: int = InertField(default=0, reason=_NOT_SENT)
    prompt_logprobs: Optional[int] = InertField(default=None, reason=_NOT_SENT)
    stop_token_ids: Optional[List[int]] = InertField(default=None, reason=_NOT_SENT)
    length_penalty: Optional[Dict[str, Union[int, float]]] = InertField(default=None, reason=_NOT_SENT)
    prompt_variables: Optional[Dict[str, Any]] = InertField(default=None, reason=_NOT_SENT)
    return_options: Optional[Dict[str, bool]] = InertField(default=None, reason=_NOT_SENT)
    stop_sequences: Optional[List[str]] = InertField(default=None, reason=_NOT_SENT)
    truncate_input_tokens: Optional[int] = InertField(default=None, reason=_NOT_SENT)
    time_limit: Optional[int] = InertField(default=None, reason=_NOT_SENT)

    def verify(self) -> None:
        super().verify()
        if self.random_seed is not None:
            if self.seed is not None and self.seed != self.random_seed:
                raise ArtifactDefinitionError(f"seed ({self.seed}) and random_seed ({self.random_seed}) name the same "
                                              "setting but differ; set only one.", artifact=type(self).__name__,
                                              field="random_seed")
            self.seed = self.random_seed
        limits = {name: getattr(self, name) for name in ("max_tokens", "max_new_tokens", "max_generated_tokens")
                  if getattr(self, name) is not None}
        if len(set(limits.values())) > 1:
            raise ArtifactDefinitionError(
                f"{', '.join(limits)} name the same limit but differ ({limits}); set only one.",
                artifact=type(self).__name__, field="max_tokens")
        for name in ("max_tokens", "max_new_tokens", "max_generated_tokens", "top_logprobs", "n"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ArtifactDefinitionError(f"{name} must be >= 0, got {value}.", artifact=type(self).__name__,
                                              field=name)
        if self.temperature is not None and self.temperature < 0:
            raise ArtifactDefinitionError(f"temperature must be >= 0, got {self.temperature}.",
                                          artifact=type(self).__name__, field="temperature")
        if self.top_p is not None and not 0 <= self.top_p <= 1:
            raise ArtifactDefinitionError(f"top_p must be in [0, 1], got {self.top_p}.",
                                          artifact=type(self).__name__, field="top_p")

    @property
    def token_limit(self) -> Optional[int]:
        for name in ("max_tokens", "max_new_tokens", "max_generated_tokens"):
            value = getattr(self, name)
            if value is not None:
                return value
        return None

    def stop_list(self) -> Optional[List[str]]:
        if self.stop is None:
            return None
        return [self.stop] if isinstance(self.stop, str) else list(self.stop)

    def generation_params(self) -> Dict[str, Any]:
        """The set parameters under their OpenAI names (max_tokens for the limit)."""
        params = {
            "max_tokens": self.token_limit,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "seed": self.seed,
            "stop": self.stop_list(),
            "logprobs": self.logprobs,
            "top_logprobs": self.top_logprobs,
            "frequency_penalty": self.frequency_penalty,
            "presence_penalty": self.presence_penalty,
            "n": self.n,
            "logit_bias": self.logit_bias,
            "parallel_tool_calls": self.parallel_tool_calls,
            "service_tier": self.service_tier,
            "response_format": self.response_format,
        }
        return {key: value for key, value in params.items() if value is not None}

    def hf_generate_kwargs(self) -> Dict[str, Any]:
        """The same parameters as transformers `generate` kwargs (sampling on when a temperature > 0 is set)."""
        kwargs: Dict[str, Any] = {}
        if self.token_limit is not None:
            kwargs["max_new_tokens"] = self.token_limit
        if self.temperature:
            kwargs["do_sample"] = True
            kwargs["temperature"] = self.temperature
        else:
            kwargs["do_sample"] = bool(self.do_sample)
        if self.top_p is not None and kwargs["do_sample"]:
            kwargs["top_p"] = self.top_p
        if self.top_k is not None and kwargs["do_sample"]:
            kwargs["top_k"] = self.top_k
        if self.stop_list():
            kwargs["stop_strings"] = self.stop_list()
        for name in ("num_beams", "repetition_penalty", "pad_token_id", "eos_token_id"):
            if getattr(self, name) is not None:
                kwargs[name] = getattr(self, name)
        return kwargs


# ---------------------------------------------------------------------------------------------------------------------
# The original's per-API parameter sets (same names, fields and defaults): catalogs and user code subclass or build
# them; each engine here takes the same settings through GenerationParamsMixin plus its own fields.


class StandardAPIParamsMixin(Artifact):
    """The parameters every OpenAI-style chat API takes, plus the model, credentials and extra headers."""

    model: str
    frequency_penalty: Optional[float] = None
    presence_penalty: Optional[float] = None
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    stop: Union[Optional[str], List[str]] = None
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    top_logprobs: Optional[int] = None
    logit_bias: Optional[Dict[str, int]] = None
    logprobs: Optional[bool] = None
    n: Optional[int] = None
    parallel_tool_calls: Optional[bool] = None
    service_tier: Optional[Literal["auto", "default"]] = None
    credentials: Optional[Dict[str, str]] = None
    extra_headers: Optional[Dict[str, str]] = None


class OpenAiInferenceEngineParamsMixin(Artifact):
    """OpenAI chat parameters; log-probs on with the top 20 tokens by default, as the original's."""

    frequency_penalty: Optional[float] = None
    presence_penalty: Optional[float] = None
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    stop: Union[Optional[str], List[str]] = None
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    top_logprobs: Optional[int] = 20
    logit_bias: Optional[Dict[str, int]] = None
    logprobs: Optional[bool] = True
    n: Optional[int] = None
    parallel_tool_calls: Optional[bool] = None
    service_tier: Optional[Literal["auto", "default"]] = None


class TogetherAiInferenceEngineParamsMixin(Artifact):
    """Together AI completion parameters (integer logprobs, echo, min_p, repetition_penalty)."""

    max_tokens: Optional[int] = None
    stop: Optional[List[str]] = None
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    top_k: Optional[int] = None
    repetition_penalty: Optional[float] = None
    logprobs: Optional[int] = None
    echo: Optional[bool] = None
    n: Optional[int] = None
    min_p: Optional[float] = None
    presence_penalty: Optional[float] = None
    frequency_penalty: Optional[float] = None


class WMLGenerationParamsMixin(Artifact):
    """watsonx.ai text-generation parameters."""

    decoding_method: Optional[Literal["greedy", "sample"]] = None
    length_penalty: Optional[Dict[str, Union[int, float]]] = None
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    top_k: Optional[int] = None
    random_seed: Optional[int] = None
    repetition_penalty: Optional[float] = None
    min_new_tokens: Optional[int] = None
    max_new_tokens: Optional[int] = None
    stop_sequences: Optional[List[str]] = None
    time_limit: Optional[int] = None
    truncate_input_tokens: Optional[int] = None
    prompt_variables: Optional[Dict[str, Any]] = None
    return_options: Optional[Dict[str, bool]] = None


class WMLChatParamsMixin(Artifact):
    """watsonx.ai chat parameters."""

    frequency_penalty: Optional[float] = None
    top_logprobs: Optional[int] = None
    presence_penalty: Optional[float] = None
    response_format: Optional[Dict[str, Any]] = None
    temperature: Optional[float] = None
    max_tokens: Optional[int] = None
    time_limit: Optional[int] = None
    top_p: Optional[float] = None
    n: Optional[int] = None
    seed: Optional[int] = None
    logit_bias: Optional[Dict[str, Any]] = None
    stop: Optional[List[str]] = None


class VLLMParamsMixin(Artifact):
    """vLLM `SamplingParams` fields with vLLM's defaults (greedy, 16 tokens)."""

    model: str
    n: int = 1
    best_of: Optional[int] = None
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    repetition_penalty: float = 1.0
    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = -1
    min_p: float = 0.0
    seed: Optional[int] = None
    stop: Optional[Union[str, List[str]]] = None
    stop_token_ids: Optional[List[int]] = None
    bad_words: Optional[List[str]] = None
    ignore_eos: bool = False
    max_tokens: Optional[int] = 16
    min_tokens: int = 0
    logprobs: Optional[int] = None
    prompt_logprobs: Optional[int] = None


class HFGenerationParamsMixin(Artifact):
    """transformers `generate` parameters (greedy unless do_sample)."""

    max_new_tokens: Optional[int] = None
    do_sample: bool = False
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    top_k: Optional[int] = None
    num_beams: Optional[int] = None
    repetition_penalty: Optional[float] = None
    pad_token_id: Optional[int] = None
    eos_token_id: Optional[int] = None


# deprecated names of the original: they still work, and building one warns (DeprecationWarning) naming the successor
@warn_on_call(DeprecationWarning, "OpenAiInferenceEngineParams is deprecated. Use OpenAiInferenceEngineParamsMixin "
                                  "instead.")
class OpenAiInferenceEngineParams(OpenAiInferenceEngineParamsMixin):
    """Deprecated name of OpenAiInferenceEngineParamsMixin."""


@warn_on_call(DeprecationWarning, "WMLInferenceEngineParams is deprecated. Use WMLGenerationParamsMixin instead.")
class WMLInferenceEngineParams(WMLGenerationParamsMixin):
    """Deprecated name of WMLGenerationParamsMixin."""


@warn_on_call(DeprecationWarning, "WMLInferenceEngineParamsMixin is deprecated. You can specify inference parameters "
                                  "directly when initializing an inference engine.")
class WMLInferenceEngineParamsMixin(WMLGenerationParamsMixin):
    """Deprecated name of WMLGenerationParamsMixin."""
