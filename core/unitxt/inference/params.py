"""One set of generation parameters shared by every engine, named as documented.

`max_tokens` and `max_new_tokens` (and the older `max_generated_tokens`) are the same limit; each engine maps the
set to its own API (OpenAI JSON fields, transformers `generate` kwargs...). Unset parameters are not sent.
"""

from typing import Any, Dict, List, Optional, Union

from ..artifact import Artifact
from ..errors import ArtifactDefinitionError


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
            kwargs["do_sample"] = False
        if self.top_p is not None and kwargs["do_sample"]:
            kwargs["top_p"] = self.top_p
        if self.top_k is not None and kwargs["do_sample"]:
            kwargs["top_k"] = self.top_k
        if self.stop_list():
            kwargs["stop_strings"] = self.stop_list()
        return kwargs
