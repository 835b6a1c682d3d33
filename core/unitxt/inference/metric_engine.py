"""MetricInferenceEngine: a metric's per-row scores as the predictions, to evaluate metrics themselves (an LLM judge,
Granite Guardian) with a card whose references are the expected scores."""

import json
from typing import Any, Dict, List, Optional

from ..metrics.base import BulkInstanceMetric, InstanceMetric, Metric
from .base import EngineInput, InferenceEngine, InferenceError, TextGenerationInferenceOutput


class MetricInferenceEngine(InferenceEngine):
    """Each row's prediction is what `metric.compute` gives for it: the metric reads the row's task_data, its
    references, and the prediction found at task_data[`prediction_field`] (none when unset). A bulk metric (an LLM
    judge) scores all rows in one call, as the original's engine calls it; an instance metric (a Granite Guardian
    risk) row by row. Not cached: the metric caches its own model calls."""

    metric: Metric
    prediction_field: Optional[str] = None
    use_cache: bool = False
    _inference_type = "metric"

    def get_engine_id(self) -> str:
        return "metric_inference_engine"

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        task_data = [self._task_data(row) for row in rows]
        if self.prediction_field:
            missing = [index for index, data in enumerate(task_data) if self.prediction_field not in data]
            if missing:
                raise InferenceError(f"Row {missing[0]}: task_data has no '{self.prediction_field}' (the "
                                     f"prediction_field); fields: {sorted(task_data[missing[0]])}.",
                                     artifact=self.artifact_name, field="prediction_field")
        predictions = [data[self.prediction_field] for data in task_data] if self.prediction_field else []
        references = [row.get("references") for row in rows]
        if isinstance(self.metric, InstanceMetric) and not isinstance(self.metric, BulkInstanceMetric):
            # an instance-at-a-time metric (Granite Guardian risks): one compute per row, no prediction when unset
            scores = [self.metric.compute(references=refs, prediction=predictions[index] if predictions else None,
                                          task_data=data)
                      for index, (refs, data) in enumerate(zip(references, task_data))]
        else:
            scores = self.metric.compute(task_data=task_data, predictions=predictions, references=references)
        return [TextGenerationInferenceOutput(prediction=score, inference_type=self._inference_type)
                for score in scores]

    @staticmethod
    def _task_data(row: Dict[str, Any]) -> Dict[str, Any]:
        task_data = row.get("task_data", {})
        return json.loads(task_data) if isinstance(task_data, str) else dict(task_data or {})
