"""The client side of the metrics service without the service (the round trip is in tests/tiers/service): tokens,
the UNITXT_REMOTE_METRICS settings, a service that is down, and `results["score"]` pointing to global_scores."""

import json
import socket
import time

import pytest

from unitxt import evaluate
from unitxt.errors import UnitxtError
from unitxt.metrics.remote import RemoteMetric, RemoteMetricError, remote_metrics_names
from unitxt.service.tokens import InvalidTokenError, create_token, verify_token
from unitxt.settings_utils import settings

ROWS = [{"task_data": {"text": t}, "references": [r], "metrics": ["metrics.accuracy"], "postprocessors": []}
        for t, r in (("a", "x"), ("b", "y"), ("c", "x"))]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_tokens_are_hs256_jwts_checked_against_the_master_key():
    token = create_token("alice", key="k" * 64)
    header, payload, _ = token.split(".")
    claims = verify_token(token, key="k" * 64)
    assert claims["sub"] == "alice" and claims["iss"] == "Unitxt Metrics"
    assert 359 * 86400 < claims["exp"] - time.time() <= 360 * 86400
    for bad in (token[:-2] + "xx", "not-a-token", f"{header}.{payload}."):
        with pytest.raises(InvalidTokenError):
            verify_token(bad, key="k" * 64)
    with pytest.raises(InvalidTokenError, match="bad signature"):
        verify_token(token, key="another key")
    expired = create_token("bob", key="k", days=-1)
    with pytest.raises(InvalidTokenError, match="expired"):
        verify_token(expired, key="k")
    assert verify_token("anything", key="") == {"sub": "Anonymous"}  # no master key: the original's anonymous mode


def test_remote_metrics_setting_is_a_json_list_of_names(monkeypatch):
    monkeypatch.setenv("UNITXT_REMOTE_METRICS", '["metrics.accuracy", "metrics.rouge"]')
    assert remote_metrics_names() == ["metrics.accuracy", "metrics.rouge"]
    monkeypatch.setenv("UNITXT_REMOTE_METRICS", '{"metrics.accuracy": 1}')
    with pytest.raises(UnitxtError, match="UNITXT_REMOTE_METRICS must be a JSON list of metric names"):
        remote_metrics_names()
    monkeypatch.delenv("UNITXT_REMOTE_METRICS")
    assert remote_metrics_names() == []


def test_a_listed_metric_without_an_endpoint_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("UNITXT_REMOTE_METRICS", '["metrics.accuracy"]')
    monkeypatch.delenv("UNITXT_REMOTE_METRICS_ENDPOINT", raising=False)
    with pytest.raises(UnitxtError, match="set UNITXT_REMOTE_METRICS_ENDPOINT"):
        evaluate(["x", "x", "x"], ROWS)


def test_service_down_is_a_clear_error_naming_the_url(monkeypatch):
    endpoint = f"http://127.0.0.1:{_closed_port()}/compute"
    monkeypatch.setenv("UNITXT_REMOTE_METRICS", '["metrics.accuracy"]')
    monkeypatch.setenv("UNITXT_REMOTE_METRICS_ENDPOINT", endpoint)
    with pytest.raises(RemoteMetricError) as caught:
        evaluate(["x", "x", "x"], ROWS)
    message = str(caught.value)
    assert f"Cannot reach the metrics service at {endpoint}/metrics.accuracy" in message
    assert "unitxt-metrics-service" in message
    # a metric not listed stays local
    monkeypatch.setenv("UNITXT_REMOTE_METRICS", '["metrics.rouge"]')
    assert evaluate(["x", "x", "x"], ROWS).global_scores["accuracy"] == pytest.approx(2 / 3)


def test_remote_metric_request_layout():
    metric = RemoteMetric(endpoint="http://127.0.0.1:1/compute/", metric_name="metrics.accuracy")
    assert metric.get_metric_url() == "http://127.0.0.1:1/compute/metrics.accuracy"
    request = metric.create_metric_request(["x"], [["x", "z"]], [{"text": "a"}])
    assert json.loads(json.dumps(request)) == {
        "instance_inputs": [{"prediction": "x", "references": ["x", "z"], "additional_inputs": {"text": "a"}}]}
    with settings.context(remote_metrics=[]):
        assert remote_metrics_names() == []


def test_results_indexed_by_a_score_name_points_to_global_scores():
    results = evaluate(["x", "x", "x"], ROWS)
    with pytest.raises(TypeError) as caught:
        results["score"]
    assert str(caught.value) == ("EvaluationResults is a list of evaluated instances, indexed by position, not by "
                                 "'score': use results.global_scores['score'] (or results.global_scores.summary)")
    assert results[0]["score"]["global"]["score"] == results.global_scores["score"]


def test_the_service_without_its_extra_says_what_to_install(monkeypatch):
    import sys

    from unitxt.errors import MissingRequirementError
    from unitxt.service.main import create_app

    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if not installed
    with pytest.raises(MissingRequirementError, match=r"pip install 'unitxt\[service\]'"):
        create_app()


def test_instance_scores_keep_the_main_score_the_service_names_for_them(monkeypatch):
    metric = RemoteMetric(endpoint="http://127.0.0.1:1/compute", metric_name="metrics.some_remote")
    answer = {"instances_scores": [{"f1": 0.25, "recall": 0.5, "score": 0.25, "score_name": "f1"},
                                   {"f1": 0.75, "recall": 1.0, "score": 0.75, "score_name": "f1"}],
              "global_score": {"overall": 0.4, "score": 0.4, "score_name": "overall"}}
    monkeypatch.setattr(metric, "get_metric_response", lambda request: answer)
    scored = list(metric.process([{"prediction": p, "references": [p], "task_data": {}} for p in ("a", "b")]))
    first = scored[0]["score"]["instance"]
    assert (first["score"], first["score_name"], first["recall"]) == (0.25, "f1", 0.5)
    assert scored[1]["score"]["instance"]["score"] == 0.75
    assert scored[0]["score"]["global"]["score"] == 0.4 and scored[0]["score"]["global"]["score_name"] == "overall"
