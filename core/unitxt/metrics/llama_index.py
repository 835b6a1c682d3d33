"""LlamaIndex judge metrics: an LLM (through llama-index) grades each prediction; `model_name="mock"` (or
settings.mock_inference_mode) stands for a judge that always gives the top grade, needing no package or network.

Score names follow the original system: `<score_prefix>llama_index_by_<model>_judge` (model name with "." and "-"
as "_"), e.g. correctness_llama_index_by_gpt_3_5_turbo_judge.
"""

import re
from typing import Any, Dict, List

from ..errors import MetricError
from ..settings_utils import settings
from .base import InstanceMetric

_HINT = "pip install llama-index-core llama-index-llms-openai"


class LlamaIndexLLMMetric(InstanceMetric):
    """Base of llama-index judge metrics: the judge model and the score name derived from it."""

    __abstract__ = True
    model_name: str = ""
    main_score: str = "llama_index_judge"
    prediction_type = "str"
    openai_models: List[str] = ["gpt-3.5-turbo"]
    anthropic_models: List[str] = []
    mock_models: List[str] = ["mock"]
    data_classification_policy: List[str] = ["public"]

    def prepare(self) -> None:
        super().prepare()
        normalized = self.model_name.replace(".", "_").replace("-", "_")
        self.main_score = f"llama_index_by_{normalized}_judge"
        self.reduction_map = {"mean": [self.main_score]}

    def is_mock(self) -> bool:
        return bool(settings.mock_inference_mode) or self.model_name in self.mock_models

    def judge_llm(self) -> Any:
        """The llama-index LLM of `model_name` (OpenAI models only, as in the original)."""
        if self.model_name not in self.openai_models:
            raise MetricError(f"{type(self).__name__} supports the models {self.openai_models + self.mock_models}, "
                              f"not {self.model_name!r}.", artifact=self.artifact_name, field="model_name")
        try:
            from llama_index.llms.openai import OpenAI
        except ImportError as error:
            raise MetricError(f"{type(self).__name__} needs llama-index: {_HINT}.",
                              artifact=self.artifact_name) from error
        return OpenAI(self.model_name)


def grade_of(response: str) -> float:
    """The first number in a judge's response (its grade out of 5)."""
    match = re.search(r"\b\d+\.\d+\b|\b\d+\b", response)
    if not match:
        raise MetricError(f"Could not read a grade from the judge's response {response[:100]!r}.")
    return float(match.group())


class LlamaIndexCorrectness(LlamaIndexLLMMetric):
    """Correctness of the answer to task_data `question` against the best reference (optional task_data
    `contexts`), graded 1-5 by llama-index's CorrectnessEvaluator and scaled to [0, 1]."""

    score_prefix: str = "correctness_"

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, Any]:
        if "question" not in task_data:
            raise MetricError(f"{type(self).__name__} needs task_data field 'question'.",
                              artifact=self.artifact_name, field="task_data")
        if self.is_mock():
            return {self.main_score: 1.0}
        evaluator = getattr(self, "_evaluator", None)
        if evaluator is None:
            from llama_index.core.evaluation import CorrectnessEvaluator

            evaluator = self._evaluator = CorrectnessEvaluator(
                llm=self.judge_llm(), parser_function=lambda text: (grade_of(text), text.split("\n", 1)[-1].strip()))
        grades = [evaluator.evaluate(query=task_data["question"], response=prediction,
                                     contexts=task_data.get("contexts"), reference=reference).score
                  for reference in references]
        return {self.main_score: max(grades) / 5}


class LlamaIndexFaithfulness(LlamaIndexLLMMetric):
    """Faithfulness of the answer to task_data `contexts` (for `question`), judged by llama-index's
    FaithfulnessEvaluator (1.0 when the answer is supported, else 0.0)."""

    score_prefix: str = "faithfulness_"

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, Any]:
        missing = [field for field in ("question", "contexts") if field not in task_data]
        if missing:
            raise MetricError(f"{type(self).__name__} needs task_data field(s) {missing}.",
                              artifact=self.artifact_name, field="task_data")
        if self.is_mock():
            return {self.main_score: 1.0}
        evaluator = getattr(self, "_evaluator", None)
        if evaluator is None:
            from llama_index.core.evaluation import FaithfulnessEvaluator

            evaluator = self._evaluator = FaithfulnessEvaluator(llm=self.judge_llm())
        result = evaluator.evaluate(query=task_data["question"], response=prediction, contexts=task_data["contexts"])
        return {self.main_score: result.score}
