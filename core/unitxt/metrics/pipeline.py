"""MetricPipeline: operators prepare the evaluation instances, an inner metric scores them, operators adjust the
scores (the metrics tutorial's pipelines)."""

import threading
from typing import Any, Dict, List, Optional

from ..errors import MetricError
from .base import Metric, MetricScores, _as_dict
from ..operator import InstanceOperator, Operator, SequentialOperator
from ..artifact import InertField


_NESTING = threading.local()  # catalog names of the pipelines being evaluated (a pipeline naming itself is refused)


class UpdateStream(InstanceOperator):
    """Updates every instance with the dict `update` (top-level keys, as dict.update): a preprocess step of metric
    pipelines."""

    update: Dict[str, Any]

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        instance.update(self.update)
        return instance


class MetricPipeline(Metric):
    """Prepare instances with operators, score them with an inner metric, then adjust the scores.

    `preprocess_steps` see evaluation instances {"prediction", "references", "task_data"}; `postprocess_steps` see
    {"score": {"instance": {...}, "global": {...}}} (as in the metrics tutorial: Rename "score/global/f1" ...).
    As the original: a pipeline's score_prefix replaces the inner metric's, and `score` / `score_name` name the inner
    metric's (prefixed) main_score; main_score="score" keeps the inner metric's score under the name "score".
    """

    postpreprocess_steps: Any = InertField(
        default=None, reason="use postprocess_steps (the original's corrected name)")

    metric: Metric
    main_score: Optional[str] = "score"
    preprocess_steps: List[Operator] = []
    postprocess_steps: List[Operator] = []

    def set_confidence_interval_calculation(self, return_confidence_interval: bool) -> None:
        super().set_confidence_interval_calculation(return_confidence_interval)
        self.metric.set_confidence_interval_calculation(return_confidence_interval)

    def evaluate(self, predictions, references, task_data=None):
        return self._evaluate_prepared(*self.prepared_inputs(predictions, references, task_data))

    def evaluate_instances(self, instances):
        """Stream instances: the preprocess steps see whole instances (fields besides prediction / references /
        task_data, e.g. the records of eval_utils.evaluate), then the inner metric scores them."""
        instances = [dict(instance) for instance in instances]
        for instance in instances:
            if "task_data" in instance:
                instance["task_data"] = _as_dict(instance["task_data"])
        if self.preprocess_steps:
            instances = SequentialOperator(steps=list(self.preprocess_steps)).process_instances(instances)
        for instance in instances:
            if "prediction" not in instance:
                raise MetricError(f"After its preprocess steps an instance has no 'prediction' (fields: "
                                  f"{sorted(instance)}).", artifact=self.artifact_name, field="prediction")
        return self._evaluate_prepared([i["prediction"] for i in instances],
                                       [list(i.get("references") or []) for i in instances],
                                       [i.get("task_data") or {} for i in instances])

    def _evaluate_prepared(self, predictions, references, task_data):
        names = getattr(_NESTING, "names", None)
        if names is None:
            names = _NESTING.names = []
        own = self.__dict__.get("__id__") or f"<{type(self).__name__} {id(self)}>"
        if own in names or len(names) > 32:
            raise MetricError(f"Metric pipeline {own} contains itself (through {' -> '.join(names + [own])}).",
                              artifact=own, field="metric")
        names.append(own)
        try:
            return _PipelineScores(self, self.inner_metric().evaluate(predictions, references, task_data))
        finally:
            names.pop()

    def inner_metric(self) -> Metric:
        """The inner metric, with the pipeline's score_prefix (when it has one) in place of its own."""
        if not self.score_prefix or self.metric.score_prefix == self.score_prefix:
            return self.metric
        return self.metric.copy(score_prefix=self.score_prefix)  # afresh: the inner metric's settings may change

    def main_score_name(self) -> str:
        """The name `score` is copied from: the main score with the inner metric's prefix (not for "score")."""
        if self.main_score in ("score", "score_name", "num_of_instances"):
            return self.main_score
        return (self.score_prefix or self.metric.score_prefix) + self.main_score

    def prepared_inputs(self, predictions, references, task_data=None) -> tuple:
        """(predictions, references, task_data) after the preprocess steps, as the inner metric gets them."""
        task_data = list(task_data) if task_data is not None else [{} for _ in predictions]
        instances = [
            {"prediction": p, "references": list(r), "task_data": t} for p, r, t in zip(predictions, references, task_data)
        ]
        if self.preprocess_steps:
            instances = SequentialOperator(steps=list(self.preprocess_steps)).process_instances(instances)
        return ([i["prediction"] for i in instances], [i["references"] for i in instances],
                [i["task_data"] for i in instances])

    def adjusted_global_scores(self, computed: Dict[str, Any]) -> Dict[str, Any]:
        """The pipeline's global scores from the inner metric's (postprocess steps, prefix, main score)."""
        if not computed:
            return {}
        wrapped = _post(self, [{"score": {"instance": {}, "global": computed}}])[0]["score"]["global"]
        result = _finish(self, wrapped)
        result["num_of_instances"] = computed.get("num_of_instances")
        return result

    def score(self, predictions, references, task_data):
        return self.evaluate(predictions, references, task_data)

    def instance_results(self, scores: MetricScores) -> List[Dict[str, Any]]:
        return scores.instance_scores

    def _finish_instance(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        """A pipeline's instance scores are finished already (prefix, main score: see `_finish`)."""
        return dict(scores)


class _PipelineScores(MetricScores):
    """Scores of the inner metric after the pipeline's postprocess steps (and score prefix)."""

    def __init__(self, pipeline: MetricPipeline, inner: MetricScores):
        super().__init__(pipeline, inner.instance_scores, inner.statistic, inner.n)
        self.inner = inner
        global_scores = inner.global_scores(with_ci=False) if pipeline.postprocess_steps else {}
        wrapped = [{"score": {"instance": dict(scores), "global": dict(global_scores)}}
                   for scores in inner.metric.instance_results(inner)]
        self.instance_scores = [_finish(pipeline, item["score"]["instance"]) for item in _post(pipeline, wrapped)]

    def global_scores(self, positions=None, with_ci=True):
        return self.metric.adjusted_global_scores(self.inner.global_scores(positions, with_ci))


def _post(pipeline: MetricPipeline, wrapped: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    steps = pipeline.postprocess_steps
    return SequentialOperator(steps=list(steps)).process_instances(wrapped) if steps and wrapped else wrapped


def _finish(pipeline: MetricPipeline, scores: Dict[str, Any]) -> Dict[str, Any]:
    result = {key: value for key, value in scores.items() if key != "num_of_instances"}
    main = pipeline.main_score_name()
    result["score"] = result.get(main, scores.get("score"))
    result["score_name"] = main
    if f"{main}_ci_low" in result:
        result["score_ci_low"], result["score_ci_high"] = result[f"{main}_ci_low"], result[f"{main}_ci_high"]
    return result
