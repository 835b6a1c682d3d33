"""Option selection: for rows whose task_data lists `options`, predict the option the model finds most likely.

Each option is scored by the sum of its tokens' log-probs after the prompt; the highest wins (ties: the first).
Subclasses provide `options_log_probs(pairs)`; remote OpenAI-protocol servers score through completions with echo.
"""

from typing import Any, Dict, List, Tuple

from .base import EngineInput, InferenceEngine, TextGenerationInferenceOutput, task_options
from .concurrency import run_all
from .openai_engines import OpenAiInferenceEngine


class OptionSelectingByLogProbsInferenceEngine(InferenceEngine):
    """Base of engines that pick one of `task_data["options"]` by log-likelihood instead of generating.

    `select(dataset)` is the one path: engines here score each option by `options_log_probs(pairs)` (the sum of its
    tokens' log-probs, the highest wins, ties: the first); a subclass written for the original implements
    `get_token_count` and `get_options_log_probs` instead, and the options are then compared token by token.
    """

    __abstract__ = True
    _inference_type = "option-selection"

    def options_log_probs(self, pairs: List[Tuple[str, str]]) -> List[float]:
        """log P(option | context) for each (context, option)."""
        raise NotImplementedError(f"{type(self).__name__}.options_log_probs() is not implemented")

    def get_token_count(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The original's hook: set each instance's "token_count" (tokens of its "source") and return the instances."""
        raise NotImplementedError(f"{type(self).__name__}.get_token_count() is not implemented")

    def get_options_log_probs(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The original's hook: for each instance (a source ending with one option, task_data["token_count"] the
        tokens before it) set "prediction" to the option's tokens [{"text", "logprob"}, ...]; return them."""
        raise NotImplementedError(f"{type(self).__name__}.get_options_log_probs() is not implemented")

    def get_instance_cache_key(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """The answer depends on the options too, not only on the prompt."""
        return {**super().get_instance_cache_key(instance), "options": task_options(instance, 0)}

    def context_text(self, item: EngineInput) -> str:
        return item.as_text()

    def select(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Set each instance's "prediction" to the most likely of its task_data["options"] after its "source"."""
        if type(self).get_options_log_probs is not OptionSelectingByLogProbsInferenceEngine.get_options_log_probs:
            return self._select_token_by_token(dataset)
        pairs, owners = [], []
        for index, instance in enumerate(dataset):
            for option in task_options(instance, index):
                pairs.append((instance["source"], option))
                owners.append(index)
        best: Dict[int, Tuple[float, str]] = {}
        for owner, (_, option), score in zip(owners, pairs, self.options_log_probs(pairs)):
            if owner not in best or score > best[owner][0]:
                best[owner] = (score, option)
        for index, instance in enumerate(dataset):
            instance["prediction"] = best[index][1]
        return dataset

    def _select_token_by_token(self, dataset: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The original's protocol: options compared token by token; at the first position where the most likely
        token is not shared by another remaining option, that option wins (a shared token narrows the comparison
        to the options sharing it; when one of them has no more tokens: the first of them)."""
        counts = [instance["token_count"] for instance in self.get_token_count(dataset)]
        options = [task_options(instance, index) for index, instance in enumerate(dataset)]
        requests = [{"source": instance["source"] + option, "task_data": {"token_count": count}}
                    for instance, count, row_options in zip(dataset, counts, options) for option in row_options]
        scored = iter(self.get_options_log_probs(requests))
        for instance, row_options in zip(dataset, options):
            tokens = [next(scored)["prediction"] for _ in row_options]
            remaining, step = list(range(len(row_options))), 0
            while len(remaining) > 1 and all(step < len(tokens[k]) for k in remaining):
                top = max(remaining, key=lambda k: tokens[k][step]["logprob"])
                sharing = [k for k in remaining if tokens[k][step]["text"] == tokens[top][step]["text"]]
                remaining, step = ([top] if len(sharing) == 1 else sharing), step + 1
            instance["prediction"] = row_options[remaining[0]]
        return dataset

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        dataset = [{"source": self.context_text(item), "task_data": {"options": task_options(row, index)}}
                   for index, (item, row) in enumerate(zip(inputs, rows))]
        self.select(dataset)
        return [TextGenerationInferenceOutput(prediction=instance["prediction"], input_text=instance["source"],
                                              model_name=self.model_label(), inference_type=self._inference_type,
                                              stop_reason="option_selected")
                for instance in dataset]


class OpenAiOptionSelectingInferenceEngine(OptionSelectingByLogProbsInferenceEngine, OpenAiInferenceEngine):
    """Option selection on an OpenAI-protocol server that returns prompt log-probs (completions with echo, as vLLM
    does); chat prompts are sent as "role: content" text."""

    def _infer_log_probs(self, inputs, rows):  # generation log-probs are not what this engine does
        return OpenAiInferenceEngine._infer_log_probs(self, inputs, rows)

    def options_log_probs(self, pairs: List[Tuple[str, str]]) -> List[float]:
        return run_all(lambda pair: self.option_log_prob(*pair), pairs, self.num_parallel_requests,
                       description="option scoring", show_progress=self.show_progress)
