"""MetricsList: a catalog entry naming a set of metrics (e.g. the recommended lexical metrics for open QA).

A catalog entry must be an artifact, so a recommended set of metrics is stored as this small artifact. Its items
stay catalog names in JSON; `names()` gives them, `metrics()` resolves them. Task and evaluate() take metric names
one by one, so expand the list first: `metrics=MetricsList.expand(["metrics.qa.open.recommended_no_gpu"])`.
"""

import copy
from typing import Any, Dict, Generator, Iterable, List, Optional

from ..artifact import Artifact, fetch_artifact
from ..errors import ArtifactConfigurationError, MetricError
from ..operator import StreamOperator
from .base import Metric


class MetricsList(Artifact):
    """An ordered list of metrics (catalog names, with optional [overrides], or inline metric artifacts)."""

    items: List[Metric]
    _positional_args = ("items",)  # MetricsList(["metrics.accuracy", ...]), as in the original

    def names(self) -> List[str]:
        """The items as given (catalog names stay names; inline metrics are serialised to JSON text)."""
        import json

        raw = self.__dict__["items"]
        return [item if isinstance(item, str) else json.dumps(item.to_dict(), sort_keys=True) for item in raw]

    def metrics(self) -> List[Metric]:
        """The items resolved to metric artifacts."""
        return list(self.items)

    @staticmethod
    def expand(names: List[str], within: tuple = ()) -> List[str]:
        """Replace every name that refers to a MetricsList in the catalog by the list's item names (recursively); a
        list that contains itself is an error."""
        from ..catalog import fetch_artifact

        expanded: List[str] = []
        for name in names:
            artifact = fetch_artifact(name)[0] if isinstance(name, str) and not name.lstrip().startswith("{") else None
            if isinstance(artifact, MetricsList):
                if name in within or len(within) > 32:
                    raise MetricError(f"Metrics list {name!r} contains itself (through "
                                      f"{' -> '.join(within + (name,))}).", artifact=name, field="items")
                expanded.extend(MetricsList.expand(artifact.names(), within + (name,)))
            else:
                expanded.append(name)
        return expanded


class ApplyMetric(StreamOperator):
    """Score a stream with the metrics named in the field `metric_field` of its first instance (a name, a list of
    names, or MetricsList entries), adding each instance's `score` ({"instance", "global"}) as evaluate() does. With
    several metrics the scores are merged and the first listed metric gives `score` and `score_name`. Confidence
    intervals only when `calc_confidence_intervals`."""

    metric_field: str
    calc_confidence_intervals: bool = False

    def _metrics(self, names: Any) -> List[Metric]:
        metrics: List[Metric] = []
        for name in names if isinstance(names, (list, tuple)) else [names]:
            artifact = fetch_artifact(name)[0] if isinstance(name, str) else name
            if isinstance(artifact, MetricsList):
                metrics.extend(artifact.metrics())
            elif isinstance(artifact, Metric):
                metrics.append(artifact)
            else:
                raise ArtifactConfigurationError(f"Operator {name} must be a Metric or MetricsList",
                                                 artifact=self.artifact_name, field=self.metric_field)
        return metrics

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        instances = list(stream)
        if not instances:
            return
        names = instances[0].get(self.metric_field)
        if not names:
            raise MetricError(f"Missing metric names in field '{self.metric_field}' and instance '{instances[0]}'.",
                              artifact=self.artifact_name, field=self.metric_field)
        predictions = [instance["prediction"] for instance in instances]
        references = [instance.get("references") or [] for instance in instances]
        task_data = [instance.get("task_data") or {} for instance in instances]
        instance_scores: List[Dict[str, Any]] = [{} for _ in instances]
        global_scores: Dict[str, Any] = {}
        for metric in reversed(self._metrics(names)):  # the first listed metric is merged last: its score is `score`
            if not self.calc_confidence_intervals:
                metric = copy.copy(metric)
                metric.__dict__["n_resamples"] = 0
            scores = metric.evaluate(predictions, references, task_data)
            global_scores.update(scores.global_scores(with_ci=self.calc_confidence_intervals))
            for merged, new in zip(instance_scores, metric.instance_results(scores)):
                merged.update(new)
        for instance, scores in zip(instances, instance_scores):
            instance["score"] = {"instance": scores, "global": dict(global_scores)}
            yield instance
