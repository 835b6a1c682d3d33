"""How a metric reads evaluation instances of a stream and writes its scores back into them (`instance["score"]`,
{"instance": ..., "global": ...}): the original's Metric methods of that name, the one path Metric.process uses, so
a subclass overriding one of them changes what the stream gets."""

from typing import Any, Dict, Iterable, List, Tuple

from ..errors import Documentation, UnitxtWarning

# global score keys every metric writes (the latest metric's values replace the earlier ones without a warning)
_SHARED_GLOBAL_KEYS = ("score", "score_name", "score_ci_low", "score_ci_high", "num_of_instances")


def _score_field(instance: Dict[str, Any]) -> Dict[str, Any]:
    """instance["score"], made with empty "instance" and "global" parts when missing."""
    scores = instance.setdefault("score", {})
    scores.setdefault("instance", {})
    scores.setdefault("global", {})
    return scores


class StreamScoresMixin:
    """Reading a stream's evaluation instances and writing scores into them."""

    def consume_stream(self, stream: Iterable[Dict[str, Any]]) -> Tuple[List[Any], List[Any], List[Any], List[Dict[str, Any]]]:
        """(predictions, references, task_data, instances) of a stream of evaluation instances; the third list is
        what the original calls additional inputs (each instance's task_data here, {} when it has none)."""
        predictions, references, task_data, instances = [], [], [], []
        for instance in stream:
            instance = self.verify_instance(instance)
            predictions.append(instance["prediction"])
            references.append(instance.get("references") or [])
            data = instance.get("task_data")
            if data is None:
                data = instance.get("additional_inputs") or {}
            task_data.append(data)
            instances.append(instance)
        return predictions, references, task_data, instances

    @staticmethod
    def update_instance_scores(instances: List[Dict[str, Any]], instances_scores: List[Dict[str, Any]]) -> None:
        """Add each instance's new scores to its instance["score"]["instance"] (new values replace old ones)."""
        for instance, new_scores in zip(instances, instances_scores):
            _score_field(instance)["instance"].update(new_scores)

    @staticmethod
    def set_global_score(instances: List[Dict[str, Any]], global_score: Dict[str, Any]) -> None:
        """Make `global_score` every instance's instance["score"]["global"] (replacing what was there)."""
        for instance in instances:
            _score_field(instance)["global"] = global_score

    def update_and_adjust_global_score(self, instance: Dict[str, Any], global_score: Dict[str, Any]) -> None:
        """Merge this metric's global scores into instance["score"]["global"]: a score name an earlier metric wrote
        is replaced with a warning; score_ci_low/high of an earlier metric are dropped when this one has none, so that
        "score", "score_name" and the CI keys all describe this metric."""
        existing = _score_field(instance)["global"]
        for name, value in global_score.items():
            if name not in _SHARED_GLOBAL_KEYS and name in existing:
                UnitxtWarning(
                    f"Global metric '{name}' that has just been evaluated to {value}, is already recorded to have value "
                    f"{existing[name]} by a previous metric evaluation on this stream. To avoid overwriting the value, "
                    f"add a score_prefix to the metric (e.g. score_prefix='my_{name}').",
                    additional_info_id=Documentation.MULTIPLE_METRICS_OUTPUTS)
        existing.update(global_score)
        for name in ("score_ci_low", "score_ci_high"):
            if name not in global_score:
                existing.pop(name, None)
