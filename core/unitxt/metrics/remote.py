"""RemoteMetric: a catalog metric computed by a unitxt metrics service (`unitxt-metrics-service`) over HTTP.

For callers that cannot run a metric themselves (model-based metrics without a GPU or torch): the instances go to
`POST <endpoint>/<metric_name>` as `{"instance_inputs": [{"prediction", "references", "additional_inputs"}]}` and the
service answers `{"instances_scores": [...], "global_score": {...}}`. The settings `remote_metrics`
(UNITXT_REMOTE_METRICS, a JSON list of catalog names) and `remote_metrics_endpoint` (UNITXT_REMOTE_METRICS_ENDPOINT)
send those metrics to the service wherever `evaluate` resolves a metric by name. Remote scores carry no confidence
intervals (as in the original); a group or subset of the instances is scored as the mean of its instance scores.
"""

import json
import math
from typing import Any, Dict, List, Optional, Tuple

from ..artifact import Dataclass
from ..errors import MetricError, UnitxtError
from ..settings_utils import settings
from .base import Metric, MetricScores

_SUMMARY_KEYS = ("score", "score_name", "num_of_instances")


# the environment variables of the settings `remote_metrics` and `remote_metrics_endpoint` (the original's names)
UNITXT_REMOTE_METRICS = "UNITXT_REMOTE_METRICS"
UNITXT_REMOTE_METRICS_ENDPOINT = "UNITXT_REMOTE_METRICS_ENDPOINT"


class RemoteMetricError(MetricError):
    """The metrics service could not be reached or refused the request."""


class RemoteMetricsSettingsError(UnitxtError, RuntimeError):
    """UNITXT_REMOTE_METRICS is not a JSON list of names, or no endpoint is set for them (a RuntimeError, as the
    original raises)."""


class MetricRequest(Dataclass):
    """The body sent to the metrics service (the original's `metric_utils.MetricRequest`): one
    {"prediction", "references", "additional_inputs"} object per instance."""

    instance_inputs: List[Dict[str, Any]]


class MetricResponse(Dataclass):
    """The service's answer (the original's `metric_utils.MetricResponse`): the scores of each instance, and the
    global scores over all of them."""

    instances_scores: List[Dict[str, Any]]
    global_score: Dict[str, Any]


class RemoteMetric(Metric):
    """Computes `metric_name` (a catalog name) on the metrics service at `endpoint` (its compute URL, the metric
    name is appended). `api_key` is sent as a bearer token (default: UNITXT_METRICS_API_KEY or none);
    `main_score` defaults to the one the service reports."""

    endpoint: str
    metric_name: str
    api_key: Optional[str] = None
    main_score: Optional[str] = None
    timeout: float = 600.0  # seconds for the whole request (connect, send, compute, read), not per read
    max_answer_bytes: int = 128 * 1024 * 1024  # ~2x the answer to a 50 MB request (the service limit)
    data_classification_policy: List[str] = ["public", "proprietary"]

    def verify(self) -> None:  # main_score may come from the service's answer
        pass

    def get_metric_url(self) -> str:
        return f"{self.endpoint.rstrip('/')}/{self.metric_name}"

    @staticmethod
    def wrap_inner_metric_pipeline_metric(metric_pipeline: Any, remote_metrics_endpoint: str) -> Any:
        """A copy of a MetricPipeline whose inner metric is computed by the service at `remote_metrics_endpoint`
        (by the inner metric's catalog name); the pipeline's own steps still run here."""
        import copy

        inner = metric_pipeline.metric
        name = getattr(inner, "__id__", None)
        if not isinstance(name, str) or not name:
            raise UnitxtError("The inner metric of this MetricPipeline has no catalog name; the service computes a "
                              "metric by its catalog name.", artifact=getattr(metric_pipeline, "__id__", None),
                              field="metric")
        wrapped = copy.deepcopy(metric_pipeline)  # the catalog's copy stays as it was
        wrapped.metric = RemoteMetric(main_score=inner.main_score, metric_name=name, endpoint=remote_metrics_endpoint)
        return wrapped

    def create_metric_request(self, predictions: List[Any], references: List[List[Any]],
                              task_data: List[Dict[str, Any]]) -> Dict[str, Any]:
        return {"instance_inputs": [{"prediction": p, "references": list(r), "additional_inputs": dict(t)}
                                    for p, r, t in zip(predictions, references, task_data)]}

    def get_metric_response(self, request: Dict[str, Any]) -> Dict[str, Any]:
        """POST the request with one total deadline (`timeout`), no redirects and at most `max_answer_bytes` read;
        any failure is a RemoteMetricError naming the URL and the reason."""
        from ..inference.concurrency import RequestError
        from ..inference.http_client import JSONHTTPClient

        url = self.get_metric_url()
        key = self.api_key if self.api_key is not None else _env_api_key()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            client = JSONHTTPClient(self.endpoint.rstrip("/") + "/", headers=headers, timeout=self.timeout)
            client.max_response_bytes = int(self.max_answer_bytes)
            # numpy values and tuples become plain JSON first; NaN stays the JSON literal the service reads back
            body = json.loads(json.dumps(request, default=_json_default))
            answer = client.post(self.metric_name, body)
        except RequestError as error:
            raise RemoteMetricError(self._failure(url, error), artifact=self.metric_name, field="endpoint") from None
        return answer

    def _failure(self, url: str, error: Any) -> str:
        message = error.message if hasattr(error, "message") else str(error)
        if "connection refused" in message:
            return (f"Cannot reach the metrics service at {url} (connection refused); start it with "
                    "unitxt-metrics-service or check UNITXT_REMOTE_METRICS_ENDPOINT.")
        status = getattr(error, "status", None)
        if status is not None and 300 <= status < 400:
            return (f"The metrics service at {url} answered with a redirect (HTTP {status}); redirects are not "
                    "followed (the token would go to another address): set UNITXT_REMOTE_METRICS_ENDPOINT to the "
                    "final address.")
        if status is not None:
            detail = message.split(": ", 1)[1] if message.startswith("HTTP ") and ": " in message else message
            try:
                parsed = json.loads(detail)
                if isinstance(parsed, dict):
                    detail = str(parsed.get("message") or parsed.get("detail") or parsed)
            except (ValueError, RecursionError):
                pass
            return f"The metrics service at {url} refused the request: HTTP {status} ({detail[:300]})."
        return f"The metrics service at {url} failed: {message}"

    def score(self, predictions, references, task_data) -> MetricScores:
        answer = self.get_metric_response(self.create_metric_request(predictions, references, task_data))
        try:
            instances, remote_global = checked_answer(answer, len(predictions), self.get_metric_url())
        except RemoteMetricError as error:
            raise error.with_context(artifact=self.metric_name) from None
        if self.main_score is None:
            self.main_score = remote_global.get("score_name") or (instances[0].get("score_name") if instances
                                                                  else "score")
        return _RemoteScores(self, [_raw(scores, keep_score_name=True) for scores in instances], _raw(remote_global))

    def _finish_instance(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        """An instance's scores as the service gave them: its own `score_name` (when it names one of its scores)
        wins over the metric's main score, as in the original."""
        own_main = scores.get("score_name")
        numbers = {name: value for name, value in scores.items() if name != "score_name"}
        result = super()._finish_instance(numbers)
        if isinstance(own_main, str) and own_main in numbers:
            result["score"] = result.get(self.score_prefix + own_main, math.nan)
            result["score_name"] = self.score_prefix + own_main
        return result

    def set_confidence_interval_calculation(self, return_confidence_interval: bool) -> None:
        """Remote scores have no confidence intervals; nothing to set."""

    def set_n_resamples(self, n_resample: Optional[int]) -> None:
        """Remote scores have no confidence intervals; nothing to set."""


class _RemoteScores(MetricScores):
    """The service's scores: its global scores for all instances, the mean of instance scores for a part."""

    def __init__(self, metric: RemoteMetric, instance_scores: List[Dict[str, Any]], remote_global: Dict[str, Any]):
        super().__init__(metric, instance_scores, self._mean_statistic, len(instance_scores))
        self.remote_global = remote_global

    def _mean_statistic(self, idx: Any) -> Dict[str, Any]:
        from ..lazy_imports import numpy_module

        np = numpy_module()
        names = [name for name, value in (self.instance_scores[0] if self.instance_scores else {}).items()
                 if isinstance(value, (int, float)) and not isinstance(value, bool)]
        result = {}
        for name in names:
            values = np.array([float(scores.get(name, math.nan)) for scores in self.instance_scores])
            result[name] = np.nanmean(values[idx], axis=1) if values.size else np.full(len(idx), math.nan)
        return result

    def point_scores(self, positions: Any) -> Dict[str, Any]:
        if len(positions) == self.n and self.remote_global:
            return dict(self.remote_global)
        return super().point_scores(positions)

    def ci_names(self, point: Dict[str, Any]) -> List[str]:
        return []


def _raw(scores: Dict[str, Any], keep_score_name: bool = False) -> Dict[str, Any]:
    """Scores without the summary keys and intervals the caller's side adds again (an instance keeps the name of
    its main score)."""
    dropped = [key for key in _SUMMARY_KEYS if not (keep_score_name and key == "score_name")]
    return {name: value for name, value in scores.items()
            if name not in dropped and "_ci_low" not in name and "_ci_high" not in name}


def _env_api_key() -> Optional[str]:
    import os

    return os.environ.get("UNITXT_METRICS_API_KEY") or None


def checked_answer(answer: Any, count: int, url: str) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
    """(instance scores, global score) of a service's answer after checking its shape and types: `count` instance
    score objects; every number finite or NaN; a score named by `score_name` (and `score`) a number everywhere; a
    field numeric in one instance numeric (or null) in all. Else one RemoteMetricError naming the URL."""

    def wrong(problem: str) -> RemoteMetricError:
        return RemoteMetricError(f"The metrics service at {url} gave an unusable answer: {problem}.",
                                 field="endpoint")

    if not isinstance(answer, dict):
        raise wrong(f"a JSON {type(answer).__name__}, not an object")
    instances = answer.get("instances_scores")
    if not isinstance(instances, list):
        raise wrong("no 'instances_scores' list")
    if len(instances) != count:
        raise wrong(f"{len(instances)} instance scores for {count} instances")
    remote_global = answer.get("global_score")
    if remote_global is None:
        remote_global = {}
    if not isinstance(remote_global, dict):
        raise wrong(f"'global_score' is a {type(remote_global).__name__}, not an object")
    numeric = set()
    for where, scores in [("global_score", remote_global)] + [(f"instances_scores[{i}]", item)
                                                              for i, item in enumerate(instances)]:
        if not isinstance(scores, dict):
            raise wrong(f"{where} is a {type(scores).__name__}, not an object")
        for name, value in scores.items():
            if _is_number(value):
                if math.isinf(value):
                    raise wrong(f"{where}['{name}'] is {value} (a score is finite or NaN)")
                if where != "global_score":
                    numeric.add(name)
        main = scores.get("score_name")
        if main is not None and not isinstance(main, str):
            raise wrong(f"{where}['score_name'] is not a string")
        for name in ("score", main) if main not in (None, "score") else ("score",):
            if name in scores and not _is_number(scores[name]):
                raise wrong(f"{where}['{name}'] is {str(scores[name])[:40]!r}, not a number")
    for index, scores in enumerate(instances):
        for name in numeric:
            value = scores.get(name)
            if value is not None and not _is_number(value):
                raise wrong(f"instances_scores[{index}]['{name}'] is {str(value)[:40]!r}, not a number as in the "
                            "other instances")
    return instances, remote_global


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, tuple)):
        return list(value)
    return str(value)


def remote_metrics_names() -> List[str]:
    """The catalog names in the `remote_metrics` setting (UNITXT_REMOTE_METRICS, a JSON list of strings)."""
    names = settings.remote_metrics
    if isinstance(names, str):
        try:
            names = json.loads(names) if names.strip() else []
        except ValueError:
            names = None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise RemoteMetricsSettingsError(f"UNITXT_REMOTE_METRICS must be a JSON list of metric names, e.g. "
                          f"'[\"metrics.rouge\"]'; got {settings.remote_metrics!r}.", artifact="settings",
                          field="remote_metrics")
    return names


def remote_metrics_endpoint() -> str:
    endpoint = settings.remote_metrics_endpoint
    if not endpoint:
        raise RemoteMetricsSettingsError("Remote metrics are listed in UNITXT_REMOTE_METRICS, but no endpoint is set: set "
                          "UNITXT_REMOTE_METRICS_ENDPOINT to the service's compute URL, e.g. "
                          "http://127.0.0.1:8000/compute.", artifact="settings", field="remote_metrics_endpoint")
    return str(endpoint)


get_remote_metrics_names = remote_metrics_names  # the original's names of the two functions
get_remote_metrics_endpoint = remote_metrics_endpoint


def as_remote_metric(name: Any) -> Optional[RemoteMetric]:
    """A RemoteMetric for a metric resolved by catalog name when the settings send it to a service, else None. The
    whole metric (with its pre- and post-processing) runs on the service; its main score is the one it reports."""
    if not isinstance(name, str) or name not in remote_metrics_names():
        return None
    return RemoteMetric(endpoint=remote_metrics_endpoint(), metric_name=name)
