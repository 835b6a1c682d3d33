"""Engines behind optional packages that are not OpenAI-compatible: watsonx.ai (`ibm-watsonx-ai`) and local vLLM
(`vllm`); lmms-eval engines are in `lmms_eval`. Same contract as every engine; each names its package in the install
hint."""

import os
from typing import Any, Dict, List, Optional

from ..artifact import Field
from .base import EngineInput, InferenceEngine, InferenceError, TextGenerationInferenceOutput
from .concurrency import RequestError
from .openai_engines import RemoteEngineMixin, enterprise_data
from .params import GenerationParamsMixin
from ..artifact import InertField


class WMLInferenceEngineBase(RemoteEngineMixin, GenerationParamsMixin):
    """IBM watsonx.ai through `ibm-watsonx-ai`: credentials {"url", "api_key", "project_id" | "space_id"} or env
    WML_URL, WML_APIKEY, WML_PROJECT_ID / WML_SPACE_ID; `model_name` or `deployment_id`."""

    parameters: Any = InertField(default=None, reason="generation parameters are this engine's own fields here")
    external_client: Any = InertField(default=None, reason='this engine builds its own client here')

    __abstract__ = True

    model_name: Optional[str] = None
    deployment_id: Optional[str] = None
    credentials: Optional[Dict[str, str]] = None
    concurrency_limit: int = 10
    data_classification_policy: Optional[List[str]] = Field(default_factory=enterprise_data)
    _requirements_list = {"ibm_watsonx_ai": "pip install ibm-watsonx-ai"}
    _inference_type = "watsonx"
    label: str = "wml"  # names the engine in results (engine id)

    def wml_credentials(self) -> Dict[str, str]:
        given = dict(self.credentials or {})
        for key, env in (("url", "WML_URL"), ("api_key", "WML_APIKEY"), ("project_id", "WML_PROJECT_ID"),
                         ("space_id", "WML_SPACE_ID")):
            if not given.get(key) and os.environ.get(env):
                given[key] = os.environ[env]
        if not given.get("url") or not (given.get("api_key") or given.get("token")):
            raise InferenceError("watsonx.ai needs credentials url and api_key (or env WML_URL, WML_APIKEY).",
                                 artifact=self.artifact_name, field="credentials")
        if not given.get("project_id") and not given.get("space_id"):
            raise InferenceError("watsonx.ai needs project_id or space_id (or env WML_PROJECT_ID / WML_SPACE_ID).",
                                 artifact=self.artifact_name, field="credentials")
        return given

    def answering_server(self) -> Optional[str]:
        """The watsonx.ai URL and project/space the answers come from (credentials or env)."""
        given = dict(self.credentials or {})
        for key, env in (("url", "WML_URL"), ("project_id", "WML_PROJECT_ID"), ("space_id", "WML_SPACE_ID")):
            given[key] = given.get(key) or os.environ.get(env) or ""
        return f"{given['url'].rstrip('/')}|{given['project_id']}|{given['space_id']}"

    def before_infer(self, rows: List[Dict[str, Any]]) -> None:
        if (self.model_name is None) == (self.deployment_id is None):
            raise InferenceError("Set exactly one of model_name and deployment_id.", artifact=self.artifact_name,
                                 field="model_name")
        super().before_infer(rows)
        from ibm_watsonx_ai import Credentials
        from ibm_watsonx_ai.foundation_models import ModelInference

        given = self.wml_credentials()
        credentials = Credentials(url=given["url"], api_key=given.get("api_key"), token=given.get("token"))
        self._model = ModelInference(model_id=self.model_name, deployment_id=self.deployment_id,
                                     credentials=credentials, project_id=given.get("project_id"),
                                     space_id=given.get("space_id"))

    def wml_call(self, call) -> Any:
        try:
            return call()
        except Exception as error:  # the SDK raises its own exception family
            status = getattr(getattr(error, "response", None), "status_code", None)
            raise RequestError(f"watsonx.ai request failed: {error}", status=status,
                               retriable=status in (408, 429, 500, 502, 503, 504)) from error


class WMLInferenceEngineGeneration(WMLInferenceEngineBase):
    """watsonx.ai text generation (text prompts; chat rows are sent as "role: content" text)."""

    decoding_method: Optional[str] = None
    repetition_penalty: Optional[float] = None
    min_new_tokens: Optional[int] = None

    def send(self, item: EngineInput) -> TextGenerationInferenceOutput:
        params = {"max_new_tokens": self.token_limit, "temperature": self.temperature, "top_p": self.top_p,
                  "top_k": self.top_k, "random_seed": self.seed, "stop_sequences": self.stop_list(),
                  "decoding_method": self.decoding_method, "repetition_penalty": self.repetition_penalty,
                  "min_new_tokens": self.min_new_tokens}
        params = {key: value for key, value in params.items() if value is not None}
        result = self.wml_call(lambda: self._model.generate(prompt=item.as_text(), params=params))
        answer = result["results"][0]
        return TextGenerationInferenceOutput(
            prediction=answer.get("generated_text", ""), input_tokens=answer.get("input_token_count"),
            output_tokens=answer.get("generated_token_count"), stop_reason=answer.get("stop_reason"), seed=self.seed,
            input_text=item.as_text(), model_name=self.model_name or self.deployment_id,
            inference_type=self._inference_type)

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        return self.run_requests(self.send, inputs, "generation")


class WMLInferenceEngine(WMLInferenceEngineGeneration):
    """The documented name of watsonx.ai text generation."""


class WMLInferenceEngineChat(WMLInferenceEngineBase):
    """watsonx.ai chat (chat rows as messages, text rows as one user message, images as content parts)."""

    image_encoder: Any = InertField(default=None, reason='images are sent as data URLs here')

    def send(self, item: EngineInput) -> TextGenerationInferenceOutput:
        params = {key: value for key, value in {
            "max_tokens": self.token_limit, "temperature": self.temperature, "top_p": self.top_p,
            "seed": self.seed, "stop": self.stop_list()}.items() if value is not None}
        result = self.wml_call(lambda: self._model.chat(messages=item.as_messages(), params=params))
        choice = result["choices"][0]
        usage = result.get("usage") or {}
        return TextGenerationInferenceOutput(
            prediction=choice["message"].get("content", ""), input_tokens=usage.get("prompt_tokens"),
            output_tokens=usage.get("completion_tokens"), stop_reason=choice.get("finish_reason"), seed=self.seed,
            model_name=self.model_name or self.deployment_id, inference_type=self._inference_type)

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        return self.run_requests(self.send, inputs, "chat")


class VLLMInferenceEngine(InferenceEngine, GenerationParamsMixin):
    """A model run in-process by vLLM (`pip install vllm`, a GPU machine); chat rows through `LLM.chat`."""

    model: str
    engine_args: Optional[Dict[str, Any]] = None
    _requirements_list = {"vllm": "pip install vllm"}
    _inference_type = "vllm"
    label = "vllm"
    _positional_args = ("model",)

    def _llm(self) -> Any:
        if getattr(self, "_engine", None) is None:
            from vllm import LLM

            self._engine = LLM(model=self.model, **(self.engine_args or {}))
        return self._engine

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        from vllm import SamplingParams

        params = {key: value for key, value in {
            "max_tokens": self.token_limit, "temperature": self.temperature if self.temperature is not None else 0.0,
            "top_p": self.top_p, "top_k": self.top_k, "seed": self.seed, "stop": self.stop_list()}.items()
            if value is not None}
        sampling = SamplingParams(**params)
        llm = self._llm()
        outputs = []
        for item in inputs:
            result = (llm.chat(item.value, sampling, use_tqdm=False) if item.kind == "chat"
                      else llm.generate([item.value], sampling, use_tqdm=False))[0]
            completion = result.outputs[0]
            outputs.append(TextGenerationInferenceOutput(
                prediction=completion.text, input_tokens=len(result.prompt_token_ids or []),
                output_tokens=len(completion.token_ids), stop_reason=completion.finish_reason, seed=self.seed,
                model_name=self.model, inference_type=self._inference_type))
        return outputs
