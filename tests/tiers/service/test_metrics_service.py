"""The metrics service round trip: `unitxt-metrics-service` (FastAPI + uvicorn) started on loopback, and evaluations
sent to it through UNITXT_REMOTE_METRICS / RemoteMetric - the same scores as local, tokens checked, oversize bodies
refused, and a service that is down named in the error."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.support.local_processes import free_port, wait_until_serving
from unitxt import evaluate
from unitxt.metrics.remote import RemoteMetric, RemoteMetricError
from unitxt.service.tokens import create_token
from unitxt.settings_utils import settings

MASTER_KEY = "0123456789abcdef" * 4
LIMIT = 200_000
METRICS = ["metrics.accuracy", "metrics.rouge", "metrics.f1_micro"]
ANSWERS = [("the cat sat", "the cat sat"), ("a dog ran", "the dog ran"), ("blue", "red"), ("the cat", "the cat sat")]
ROWS = [{"task_data": {"index": i}, "references": [reference], "metrics": METRICS, "postprocessors": []}
        for i, (_, reference) in enumerate(ANSWERS)]
PREDICTIONS = [prediction for prediction, _ in ANSWERS]


@pytest.fixture(scope="module")
def service():
    port = free_port()
    env = dict(os.environ, UNITXT_METRICS_MASTER_KEY_TOKEN=MASTER_KEY, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    process = subprocess.Popen([sys.executable, "-m", "unitxt.service.main", "--host", "127.0.0.1", "--port",
                                str(port), "--max_request_bytes", str(LIMIT)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    wait_until_serving(process, base + "/health", "the service", timeout=60, poll=0.3,
                       accept=lambda status, body: json.loads(body) == "OK")
    yield base
    process.terminate()
    process.wait(timeout=20)


def post(url: str, body: bytes, token: str = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _without_intervals(scores):
    return {name: value for name, value in scores.items() if "_ci_" not in name}


def test_remote_scores_equal_local_scores(service, monkeypatch):
    local = evaluate(PREDICTIONS, ROWS)
    monkeypatch.setenv("UNITXT_METRICS_API_KEY", create_token("tester", key=MASTER_KEY))
    with settings.context(remote_metrics=list(METRICS), remote_metrics_endpoint=service + "/compute"):
        remote = evaluate(PREDICTIONS, ROWS)
    assert remote.instance_scores == local.instance_scores
    assert remote.global_scores == _without_intervals(local.global_scores)  # remote scores carry no intervals
    assert remote.global_scores["rougeL"] == pytest.approx(local.global_scores["rougeL"])
    assert 0 < remote.global_scores["accuracy"] < 1


def test_the_service_answers_the_original_request_layout(service):
    request = {"instance_inputs": [{"prediction": p, "references": [r], "additional_inputs": {}} for p, r in ANSWERS]}
    status, answer = post(service + "/compute/metrics.accuracy", json.dumps(request).encode(),
                          create_token("tester", key=MASTER_KEY))
    assert status == 200
    assert [scores["accuracy"] for scores in answer["instances_scores"]] == [1.0, 0.0, 0.0, 0.0]
    assert answer["global_score"]["score"] == 0.25 and answer["global_score"]["score_name"] == "accuracy"
    with urllib.request.urlopen(service + "/", timeout=10) as greeting:
        assert json.loads(greeting.read()) == {"Hello": "Unitxt Metrics"}
    status, answer = post(service + "/compute/metrics.no_such_metric", json.dumps(request).encode(),
                          create_token("tester", key=MASTER_KEY))
    assert status == 400 and "'metrics.no_such_metric' is not in any catalog" in answer["message"]


def test_requests_without_a_valid_token_are_refused(service):
    body = json.dumps({"instance_inputs": [{"prediction": "a", "references": ["a"]}]}).encode()
    assert post(service + "/compute/metrics.accuracy", body) == (401, {"message": "Not authenticated"})
    forged = create_token("mallory", key="not the master key")
    assert post(service + "/compute/metrics.accuracy", body, forged) == (401, {"message": "Could not validate "
                                                                                          "credentials"})
    metric = RemoteMetric(endpoint=service + "/compute", metric_name="metrics.accuracy", api_key=forged)
    with pytest.raises(RemoteMetricError, match=r"refused the request: HTTP 401 \(Could not validate credentials\)"):
        metric.evaluate(["a"], [["a"]])


def test_oversize_requests_are_refused(service):
    token = create_token("tester", key=MASTER_KEY)
    big = [{"prediction": "word " * 2000, "references": ["word"], "additional_inputs": {}} for _ in range(30)]
    status, answer = post(service + "/compute/metrics.accuracy", json.dumps({"instance_inputs": big}).encode(), token)
    assert status == 413 and f"over the limit of {LIMIT} bytes" in answer["message"]
    metric = RemoteMetric(endpoint=service + "/compute", metric_name="metrics.accuracy", api_key=token)
    with pytest.raises(RemoteMetricError, match="HTTP 413"):
        metric.evaluate([item["prediction"] for item in big], [["word"]] * len(big))


def test_a_stopped_service_is_a_clear_error(tmp_path):
    port = free_port()
    metric = RemoteMetric(endpoint=f"http://127.0.0.1:{port}/compute", metric_name="metrics.accuracy", api_key="t")
    with pytest.raises(RemoteMetricError, match=f"Cannot reach the metrics service at http://127.0.0.1:{port}/"):
        metric.evaluate(["a"], [["a"]])
