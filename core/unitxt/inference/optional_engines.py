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
        self._model = self._load_model()

    def _load_model(self) -> Any:
        """The SDK's model client for these credentials and model."""
        from ibm_watsonx_ai import Credentials
        from ibm_watsonx_ai.foundation_models import ModelInference

        given = self.wml_credentials()
        credentials = Credentials(url=given["url"], api_key=given.get("api_key"), token=given.get("token"))
        return ModelInference(model_id=self.model_name, deployment_id=self.deployment_id, credentials=credentials,
                              project_id=given.get("project_id"), space_id=given.get("space_id"))

    def _sdk_model(self) -> Any:
        """The watsonx.ai SDK model, loaded on first use (private: the original has no public `model` here)."""
        if getattr(self, "_model", None) is None:
            self.check_missing_requirements()
            self._model = self._load_model()
        return self._model

    def get_model_details(self) -> Dict[str, Any]:
        """The model's details as watsonx.ai reports them."""
        return self._sdk_model().get_details()

    def get_return_object(self, predict_result: Any, result: Any, input_text: Any, return_meta_data: bool) -> Any:
        """The answer to one request (defined by the generation and chat engines)."""
        raise NotImplementedError(f"{type(self).__name__}.get_return_object() is not implemented")

    def get_token_count(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Set each instance's "token_count" (tokens of its text "source", by the model's tokenizer)."""
        for instance in dataset:
            answer = self.wml_call(lambda: self._sdk_model().tokenize(prompt=instance["source"], return_tokens=True))
            instance["token_count"] = answer["result"]["token_count"]
        return dataset

    def get_options_log_probs(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Set each instance's "prediction" to the log-probs of its source's tokens from task_data["token_count"]
        on (the option appended to the context), as [{"text", "logprob"}, ...]."""
        params = {"decoding_method": "greedy", "max_new_tokens": 1,
                  "return_options": {"input_tokens": True, "token_logprobs": True}}
        for instance in dataset:
            answer = self.wml_call(lambda: self._sdk_model().generate(prompt=instance["source"], params=params))
            tokens = [{"text": token["text"], "logprob": token.get("logprob", 1)}
                      for token in answer["results"][0]["input_tokens"]]
            instance["prediction"] = tokens[instance["task_data"]["token_count"] - 1:]
        return dataset

    def select(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The most likely of each instance's task_data["options"] (see OptionSelectingByLogProbsInferenceEngine)."""
        from .option_selection import OptionSelectingByLogProbsInferenceEngine

        return OptionSelectingByLogProbsInferenceEngine._select_token_by_token(self, dataset)

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
        return _output(self.get_return_object(answer.get("generated_text", ""), answer, item.as_text(), True))

    def get_return_object(self, predict_result: Any, result: Dict[str, Any], input_text: Any,
                          return_meta_data: bool) -> Any:
        """One generation's answer: with return_meta_data a TextGenerationInferenceOutput from the result's token
        counts and stop reason, else the prediction."""
        if not return_meta_data:
            return predict_result
        return TextGenerationInferenceOutput(
            prediction=predict_result, generated_text=result.get("generated_text"),
            input_tokens=result.get("input_token_count"), output_tokens=result.get("generated_token_count"),
            stop_reason=result.get("stop_reason"), seed=self.seed, input_text=input_text,
            model_name=self.model_name or self.deployment_id, inference_type=self._inference_type)

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
        messages = item.as_messages()
        self.verify_messages(messages)
        result = self.wml_call(lambda: self._model.chat(messages=messages, params=params))
        content = result["choices"][0]["message"].get("content", "")
        return _output(self.get_return_object(content, content, result, None, True))

    def get_return_object(self, predict_result: Any, generated_text: Any, result: Dict[str, Any], input_text: Any,
                          return_meta_data: bool) -> Any:
        """One chat answer: with return_meta_data a TextGenerationInferenceOutput from the result's usage and finish
        reason, else the prediction."""
        if not return_meta_data:
            return predict_result
        choice = result["choices"][0]
        usage = result.get("usage") or {}
        return TextGenerationInferenceOutput(
            prediction=predict_result, generated_text=generated_text, input_tokens=usage.get("prompt_tokens"),
            output_tokens=usage.get("completion_tokens"), stop_reason=choice.get("finish_reason"), seed=self.seed,
            input_text=input_text, model_name=self.model_name or self.deployment_id,
            inference_type=self._inference_type)

    @staticmethod
    def verify_messages(messages: List[Dict[str, Any]]) -> None:
        """watsonx.ai chat takes images only as base64 "image_url" parts, and one image per conversation."""
        images = 0
        for message in messages:
            parts = message.get("content")
            for part in parts if isinstance(parts, list) else []:
                kind = str(part.get("type", "")) if isinstance(part, dict) else ""
                if "image" in kind and kind != "image_url":
                    raise InferenceError(f"watsonx.ai chat takes images as base64 'image_url' parts, got a "
                                         f"'{kind}' part.", field="source")
                images += kind == "image_url"
                if images > 1:
                    raise InferenceError("watsonx.ai chat takes one image per conversation; this row has more.",
                                         field="source")

    @staticmethod
    def check_instance_contains_image(instance: Dict[str, Any]) -> bool:
        """Whether a row carries images (media["images"] non-empty)."""
        media = instance.get("media")
        return isinstance(media, dict) and bool(media.get("images"))

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        return self.run_requests(self.send, inputs, "chat")


def _output(answer: Any) -> TextGenerationInferenceOutput:
    """A get_return_object override that returns only the prediction still gives an output to cache."""
    return answer if isinstance(answer, TextGenerationInferenceOutput) else TextGenerationInferenceOutput(answer)


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
