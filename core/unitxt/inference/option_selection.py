"""Option selection: for rows whose task_data lists `options`, predict the option the model finds most likely.

Each option is scored by the sum of its tokens' log-probs after the prompt; the highest wins (ties: the first).
Subclasses provide `options_log_probs(pairs)`; remote OpenAI-protocol servers score through completions with echo.
"""

import json
from typing import Any, Dict, List, Tuple

from .base import EngineInput, InferenceEngine, TextGenerationInferenceOutput, task_options
from .concurrency import run_all
from .openai_engines import OpenAiInferenceEngine


class OptionSelectingByLogProbsInferenceEngine(InferenceEngine):
    """Base of engines that pick one of `task_data["options"]` by log-likelihood instead of generating."""

    __abstract__ = True
    _inference_type = "option-selection"

    def options_log_probs(self, pairs: List[Tuple[str, str]]) -> List[float]:
        """log P(option | context) for each (context, option)."""
        raise NotImplementedError(f"{type(self).__name__}.options_log_probs() is not implemented")

    def cache_input_key(self, item: EngineInput, row: Dict[str, Any]) -> str:
        """The answer depends on the options too, not only on the prompt."""
        return json.dumps([item.key(), task_options(row, 0)], ensure_ascii=False)

    def context_text(self, item: EngineInput) -> str:
        return item.as_text()

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        pairs, owners = [], []
        options_per_row = [task_options(row, index) for index, row in enumerate(rows)]
        for index, (item, options) in enumerate(zip(inputs, options_per_row)):
            context = self.context_text(item)
            for option in options:
                pairs.append((context, option))
                owners.append(index)
        scores = self.options_log_probs(pairs)
        best: Dict[int, Tuple[float, str]] = {}
        for owner, (_, option), score in zip(owners, pairs, scores):
            if owner not in best or score > best[owner][0]:
                best[owner] = (score, option)
        return [TextGenerationInferenceOutput(prediction=best[index][1], input_text=self.context_text(item),
                                              model_name=self.model_label(), inference_type=self._inference_type,
                                              stop_reason="option_selected")
                for index, item in enumerate(inputs)]


class OpenAiOptionSelectingInferenceEngine(OptionSelectingByLogProbsInferenceEngine, OpenAiInferenceEngine):
    """Option selection on an OpenAI-protocol server that returns prompt log-probs (completions with echo, as vLLM
    does); chat prompts are sent as "role: content" text."""

    def _infer_log_probs(self, inputs, rows):  # generation log-probs are not what this engine does
        return OpenAiInferenceEngine._infer_log_probs(self, inputs, rows)

    def options_log_probs(self, pairs: List[Tuple[str, str]]) -> List[float]:
        return run_all(lambda pair: self.option_log_prob(*pair), pairs, self.num_parallel_requests,
                       description="option scoring", show_progress=self.show_progress)
