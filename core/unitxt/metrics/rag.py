"""Lexical RAG metrics (no GPU): faithfulness as K-precision, answer correctness as token recall, context
correctness as MRR (see the RAG support docs; Adlakha et al. 2023 for the lexical measures).

Inputs follow the RAG task: the prediction is either the generated answer (str) or the whole RAG response dict
{"answer", "contexts", "context_ids"} (or the earlier "contexts_id"); fields missing from the prediction are read from task_data (e.g. "contexts"
given as task input, "reference_answers", "reference_context_ids"). Field names are configurable per metric.
"""

from typing import Any, Dict, List

from ..errors import MetricError
from .base import InstanceMetric


def rag_field(name: str, prediction: Any, task_data: Dict[str, Any], metric: InstanceMetric) -> Any:
    """A RAG field: from the prediction when it is a dict holding it, else from task_data (else an error)."""
    if isinstance(prediction, dict) and name in prediction:
        return prediction[name]
    if name in task_data:
        return task_data[name]
    raise MetricError(
        f"{type(metric).__name__} needs the field '{name}' in the prediction (a RAG response dict) or in task_data "
        f"(it has {sorted(task_data)}).", artifact=metric.artifact_name, field=name,
    )


def _answer(metric: InstanceMetric, prediction: Any, task_data: Dict[str, Any], field: str) -> str:
    value = prediction if isinstance(prediction, str) else rag_field(field, prediction, task_data, metric)
    if not isinstance(value, str):
        raise MetricError(f"The answer must be a string, got {type(value).__name__}.", artifact=metric.artifact_name,
                          field=field)
    return value


def _texts(value: Any) -> List[str]:
    return [value] if isinstance(value, str) else [str(item) for item in value]


class TokenKPrecision(InstanceMetric):
    """Faithfulness: share of the answer's tokens found in the retrieved contexts (K-precision, SQuAD tokens)."""

    main_score = "faithfulness"
    prediction_type = "Union[str, Dict[str, Any]]"
    answer_field: str = "answer"
    contexts_field: str = "contexts"
    ci_scores = ["faithfulness"]

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .string_match import token_overlap_scores

        answer = _answer(self, prediction, task_data, self.answer_field)
        contexts = " ".join(_texts(rag_field(self.contexts_field, prediction, task_data, self)))
        return {self.main_score: token_overlap_scores([contexts], answer)["precision"]}


class TokenRecall(InstanceMetric):
    """Answer correctness: share of a ground-truth answer's tokens found in the answer (best ground truth).

    Ground truths come from task_data[reference_answers_field] when present, else from the references.
    """

    main_score = "answer_correctness"
    prediction_type = "Union[str, Dict[str, Any]]"
    answer_field: str = "answer"
    reference_answers_field: str = "reference_answers"
    ci_scores = ["answer_correctness"]

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .string_match import token_overlap_scores

        answer = _answer(self, prediction, task_data, self.answer_field)
        gold = task_data.get(self.reference_answers_field)
        gold = _texts(gold) if gold is not None else _texts(references)
        if not gold:
            raise MetricError("No ground-truth answer (neither task_data field nor references).",
                              artifact=self.artifact_name, field=self.reference_answers_field)
        return {self.main_score: token_overlap_scores(gold, answer)["recall"]}


class ContextCorrectnessMRR(InstanceMetric):
    """Context correctness: reciprocal rank of the first ground-truth context id among the retrieved ids.

    Retrieved ids: the prediction when it is a list, else the `context_ids_field` of the prediction dict or of
    task_data (a str prediction, the generated answer, is ignored). Gold ids: task_data[reference_context_ids_field]
    when present, else the pooled references when they are id lists.
    """

    main_score = "context_correctness"
    prediction_type = "Union[str, List[str], Dict[str, Any]]"
    context_ids_field: str = "context_ids"  # the original's RAG response field ("contexts_id", an earlier name, too)
    reference_context_ids_field: str = "reference_context_ids"
    ci_scores = ["context_correctness"]

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .retrieval import gold_ids
        from .kernels.retrieval import reciprocal_rank

        field = self.context_ids_field
        if field == "context_ids" and not (isinstance(prediction, dict) and field in prediction) \
                and field not in task_data and ((isinstance(prediction, dict) and "contexts_id" in prediction)
                                                or "contexts_id" in task_data):
            field = "contexts_id"
        retrieved = prediction if isinstance(prediction, list) else rag_field(field, prediction, task_data, self)
        gold = task_data.get(self.reference_context_ids_field)
        if gold is None:
            if not references or not all(isinstance(ref, list) for ref in references):
                raise MetricError(
                    f"{type(self).__name__} needs the gold context ids: task_data['{self.reference_context_ids_field}'] "
                    "or references that are lists of ids.", artifact=self.artifact_name,
                    field=self.reference_context_ids_field)
            gold = gold_ids(references)
        return {self.main_score: reciprocal_rank(list(gold), list(retrieved))}
