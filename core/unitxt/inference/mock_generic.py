"""MockInferenceEngine (fixed or echoed answers, no model) and GenericInferenceEngine (the engine named by
UNITXT_INFERENCE_ENGINE, else a default)."""

from typing import Any, Dict, List, Optional, Union

from ..errors import UnitxtError
from .base import (EngineInput, InferenceEngine, engine_input, InferenceError, TextGenerationInferenceOutput,
                   mock_logprobs_default_value_factory, mock_mode)
from ..artifact import InertField


class MockInferenceEngine(InferenceEngine):
    """Answers `default_inference_value` for every row, or echoes the prompt text with `echo=True`.

    `default_inference_value_logprob` is what `infer_log_probs` returns. Nothing is cached (there is nothing to save).
    """


    model_name: str = "mock"
    default_inference_value: str = "[[10]]"
    default_inference_value_logprob: Optional[List[Dict[str, Any]]] = None
    echo: bool = False
    use_cache: bool = False
    _inference_type = "mock"
    label: str = "mock"  # names the engine in results (engine id)

    def get_return_object(self, predict_result: Any, generated_text: Any, instance: Dict[str, Any],
                          return_meta_data: bool) -> Any:
        """The answer to one row (the original's hook): with return_meta_data a TextGenerationInferenceOutput
        (token counts are whitespace-separated words here), else the prediction."""
        if not return_meta_data:
            return predict_result
        text = engine_input(instance).as_text()
        return TextGenerationInferenceOutput(prediction=predict_result, generated_text=generated_text,
                                             input_tokens=len(text.split()),
                                             output_tokens=len(str(predict_result).split()), stop_reason="stop",
                                             input_text=text, model_name=self.model_name,
                                             inference_type=self._inference_type)

    def _output(self, row: Dict[str, Any], prediction: Any) -> TextGenerationInferenceOutput:
        generated = prediction if isinstance(prediction, str) else self.default_inference_value
        output = self.get_return_object(prediction, generated, row, True)
        return output if isinstance(output, TextGenerationInferenceOutput) else \
            TextGenerationInferenceOutput(prediction=output)

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        return [self._output(row, item.as_text() if self.echo else self.default_inference_value)
                for item, row in zip(inputs, rows)]

    def mock_mode_answers(self, rows: List[Dict[str, Any]], return_meta_data: bool, mode: str) -> List[Any]:
        """In mock mode too, the mock answers its own value (the shared mock log-probs for log-probs), as the
        original's."""
        if mode == "log_probs" or self.echo:
            return super().mock_mode_answers(rows, return_meta_data, mode)
        value = self.default_inference_value
        return [TextGenerationInferenceOutput(prediction=value) if return_meta_data else value for _ in rows]

    def _infer_log_probs(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]
                         ) -> List[TextGenerationInferenceOutput]:
        value = self.default_inference_value_logprob or [
            {"text": self.default_inference_value, "logprob": 0.0,
             "top_tokens": [{"text": self.default_inference_value, "logprob": 0.0}]}]
        return [self._output(row, [dict(token) for token in value]) for row in rows]


class GenericInferenceEngine(InferenceEngine):
    """Delegates to the engine named by the `inference_engine` setting (env UNITXT_INFERENCE_ENGINE: a catalog name
    or an engine's JSON), else to `default` (a catalog name). Lets catalog entries leave the choice of model
    to the user."""

    default: Optional[str] = None  # a catalog name (or an engine's JSON), resolved only when the engine runs
    use_cache: bool = False  # the delegate caches
    _inference_type = "generic"

    def resolve(self) -> InferenceEngine:
        from ..settings_utils import settings

        chosen = settings.inference_engine or self.default
        if chosen is None:
            raise InferenceError(
                "GenericInferenceEngine has no engine: set UNITXT_INFERENCE_ENGINE (e.g. "
                "'engines.ollama.llama3' or an engine JSON) or pass default=.", artifact=self.artifact_name,
                field="default")
        return load_engine(chosen)

    def infer(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        if mock_mode():
            return super().infer(dataset, return_meta_data=return_meta_data)
        return self.resolve().infer(dataset, return_meta_data=return_meta_data)

    def forget_answers(self, dataset: Any, mode: str = "generate") -> int:
        """The delegate keeps the answers, so it forgets them."""
        return 0 if mock_mode() else self.resolve().forget_answers(dataset, mode=mode)

    def infer_log_probs(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        if mock_mode():
            return self._run(dataset, return_meta_data, mode="log_probs")
        return self.resolve().infer_log_probs(dataset, return_meta_data=return_meta_data)

    def get_engine_id(self) -> str:
        """'generic_' and the id of the engine it stands for ('generic_inference_engine' in mock mode or while none
        is set)."""
        if mock_mode():
            return "generic_inference_engine"
        try:
            return f"generic_{self.resolve().get_engine_id()}"
        except UnitxtError:
            return "generic_inference_engine"


def load_engine(engine: Union[InferenceEngine, str, Dict[str, Any]]) -> InferenceEngine:
    """An engine object as is; a catalog name (with [overrides]) or a JSON/dict artifact loaded."""
    if isinstance(engine, InferenceEngine):
        return engine
    if isinstance(engine, dict):
        from ..artifact import from_serializable

        loaded = from_serializable(engine)
    elif isinstance(engine, str) and engine.lstrip().startswith("{"):
        import json

        from ..artifact import from_serializable

        loaded = from_serializable(json.loads(engine))
    elif isinstance(engine, str):
        from ..catalog import fetch_artifact

        loaded, _ = fetch_artifact(engine)
    else:
        raise InferenceError(f"engine must be an InferenceEngine or a catalog name, got {type(engine).__name__}.",
                             field="engine")
    if not isinstance(loaded, InferenceEngine):
        raise InferenceError(f"{engine!r} is a {type(loaded).__name__}, not an inference engine.", field="engine")
    return loaded
