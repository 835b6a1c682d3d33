"""The metrics service as an attacker and a careless user meet it (Hardening III, findings 1, 4, 5, 6): requests
never choose where the service sends traffic nor which credentials it uses, errors never echo an upstream answer,
NaN scores are numbers, bad input a 400 naming the field, forged tokens a 401 without a traceback, bodies in flight
bounded, and without a master key the service stays on loopback. All through real HTTP on 127.0.0.1."""

import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.support.local_processes import free_port
from tests.support.openai_protocol_server import OpenAIProtocolServer, Reply
from unitxt.metrics.remote import RemoteMetric
from unitxt.service.tokens import create_token

MASTER_KEY = "fedcba9876543210" * 4
SECRET = "UPSTREAM-SECRET-4711"


def start_service(tmp_path, env=None, args=(), name="service"):
    """(process, base URL, log path) of a service on loopback; waits for /health."""
    port = free_port()
    log = tmp_path / f"{name}.log"
    environment = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", **(env or {}))
    process = subprocess.Popen([sys.executable, "-m", "unitxt.service.main", "--port", str(port), *args],
                               env=environment, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=2):
                return process, base, log
        except OSError:
            if process.poll() is not None or time.time() > deadline:
                process.kill()
                raise RuntimeError(f"the service did not start:\n{log.read_text()}")
            time.sleep(0.3)


@pytest.fixture(scope="module")
def upstream():
    """The judge's model server the service is configured with; its error messages carry SECRET."""
    server = OpenAIProtocolServer(answer=lambda request: Reply(status=400, error_message=f"{SECRET} bad request"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def service(tmp_path_factory, upstream):
    tmp_path = tmp_path_factory.mktemp("service")
    env = {"UNITXT_METRICS_MASTER_KEY_TOKEN": MASTER_KEY, "OPENAI_API_KEY": "service-own-key",
           "OPENAI_API_URL": upstream.base_url, "UNITXT_INFERENCE_CACHE_DIR": str(tmp_path / "cache")}
    process, base, log = start_service(tmp_path, env, ["--max_request_bytes", "3000000"])
    yield base, log
    process.terminate()
    process.wait(timeout=20)


def post(url, body, token=None, raw_authorization=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    if raw_authorization is not None:  # bytes the client library would refuse to send
        request.headers.pop("Authorization", None)
        return _raw_post(url, body, raw_authorization)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def _raw_post(url, body, authorization: bytes):
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=60) as connection:
        connection.sendall(b"POST " + parts.path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                           b"\r\nConnection: close\r\nContent-Length: " + str(len(body)).encode() +
                           b"\r\nAuthorization: " + authorization + b"\r\n\r\n" + body)
        answer = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, content = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), content.decode("utf-8")


def token():
    return create_token("tester", key=MASTER_KEY)


ONE = json.dumps({"instance_inputs": [{"prediction": "a", "references": ["a"], "additional_inputs": {}}]}).encode()


def test_a_metric_given_as_json_never_sends_traffic_anywhere(service, upstream):
    base, _ = service
    with OpenAIProtocolServer() as elsewhere:
        judge = {"__type__": "llm_judge_direct", "inference_engine": {
            "__type__": "open_ai_inference_engine", "model_name": "x",
            "base_url": elsewhere.base_url.replace("/", "\\u002f")}}
        for name in (json.dumps(judge), json.dumps(judge).replace("\\\\u002f", "/")):
            status, answer = post(f"{base}/compute/{urllib.parse.quote(name, safe='')}", ONE, token())
            assert status in (400, 404) and elsewhere.count == 0
            if status == 400:
                assert "an artifact's JSON is not accepted" in json.loads(answer)["message"]
        assert elsewhere.count == 0 and upstream.count == 0


@pytest.mark.parametrize("override", [
    "base_url=127.0.0.1", "api_url=x", "inference_engine=engines.x", "inference_model=engines.x",
    "credentials=k", "expression=len", "__type__=x", "model=gpt"])
def test_overrides_that_could_redirect_traffic_or_run_code_are_refused(service, override):
    base, _ = service
    status, answer = post(f"{base}/compute/metrics.accuracy[{override}]", ONE, token())
    assert status == 400
    assert f"The override '{override.split('=')[0]}' is not accepted by the service" in json.loads(answer)["message"]


def test_harmless_overrides_still_work(service):
    base, _ = service
    status, answer = post(f"{base}/compute/metrics.rouge[n_resamples=0]", ONE, token())
    assert status == 200 and json.loads(answer)["global_score"]["score_name"] == "rougeL"


def test_a_failed_model_call_is_a_502_that_never_echoes_the_upstream_answer(service, upstream):
    base, log = service
    body = json.dumps({"instance_inputs": [{"prediction": "an answer", "references": [],
                                            "additional_inputs": {"question": "a question"}}]}).encode()
    metric = "metrics.llm_as_judge.rating.gpt_4o_openai_template_mt_bench_single_turn"
    status, answer = post(f"{base}/compute/{metric}", body, token())
    assert upstream.count >= 1  # the service's own configuration chose the server
    assert upstream.headers[-1]["authorization"] == "Bearer service-own-key"
    assert status == 502 and SECRET not in answer
    assert "could not get its model's answers" in json.loads(answer)["message"]


@pytest.mark.parametrize("metric, instances", [
    ("metrics.spearman", [{"prediction": 1.0, "references": [2.0]}]),
    ("metrics.spearman", [{"prediction": 1.0, "references": [2.0]}, {"prediction": 1.0, "references": [3.0]}]),
    ("metrics.f1_binary", [{"prediction": 0.2, "references": [0.0]}, {"prediction": 0.1, "references": [0.0]}]),
])
def test_nan_scores_are_json_numbers_as_evaluate_gives_them(service, metric, instances):
    base, _ = service
    status, answer = post(f"{base}/compute/{metric}", json.dumps({"instance_inputs": instances}).encode(), token())
    assert status == 200
    scores = json.loads(answer)  # Python's json reads the NaN literal
    assert any(isinstance(value, float) and math.isnan(value) for item in scores["instances_scores"]
               for value in item.values())
    remote = RemoteMetric(endpoint=base + "/compute", metric_name=metric, api_key=token())
    result = remote.score([i["prediction"] for i in instances], [i["references"] for i in instances],
                          [{} for _ in instances])
    assert result.global_scores(with_ci=False)["score_name"] in (metric.split(".")[-1], "spearmanr")


@pytest.mark.parametrize("authorization", [
    "Bearer " + "a.b." + "\u00e9" * 40, "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.\u00ff\u00fe",
    "Bearer " + "e" * 100_000])
def test_forged_tokens_are_a_401_without_a_traceback(service, authorization):
    base, log = service
    status, answer = post(base + "/compute/metrics.accuracy", ONE, raw_authorization=authorization.encode("latin-1"))
    assert status == 401 and json.loads(answer)["message"] == "Could not validate credentials"
    assert "Traceback" not in log.read_text()


def test_a_deeply_nested_token_is_a_401_without_a_traceback(service):
    import base64

    base, log = service
    nested = base64.urlsafe_b64encode(b"[" * 3000 + b"]" * 3000).rstrip(b"=").decode()  # deeper than recursion
    header = base64.urlsafe_b64encode(b'{"alg":"HS256"}').rstrip(b"=").decode()
    for forged in (f"{nested}.e30.sig", f"{header}.{nested}.sig"):
        status, answer = post(base + "/compute/metrics.accuracy", ONE, token=forged)
        assert status == 401
    assert "Traceback" not in log.read_text()


@pytest.mark.parametrize("body, field", [
    ("[" * 100_000 + "]" * 100_000, "body"),
    ('{"instance_inputs": [{"prediction": "a", "references": ' + "[" * 100_000 + "]" * 100_000 + "}]}", "body"),
    ('{"instance_inputs": [{"prediction": "a", "references": 5}]}', "instance_inputs[0].references"),
    ('{"instance_inputs": [{"prediction": "a", "references": "abc"}]}', "instance_inputs[0].references"),
    ('{"instance_inputs": [{"prediction": "a", "references": ["a"]}, {"prediction": "b", "additional_inputs": 3}]}',
     "instance_inputs[1].additional_inputs"),
    ('{"instance_inputs": [{"prediction": "a", "additional_inputs": ["x"]}]}', "instance_inputs[0].additional_inputs"),
    ('{"instance_inputs": {"prediction": "a"}}', "instance_inputs"),
    ('{"instance_inputs": [7]}', "instance_inputs[0]"),
])
def test_bad_input_is_a_400_naming_the_field(service, body, field):
    base, log = service
    status, answer = post(base + "/compute/metrics.accuracy", body.encode(), token())
    assert status == 400, answer
    assert f"[field '{field}']" in json.loads(answer)["message"]
    assert "Traceback" not in log.read_text()


def test_bodies_in_flight_are_bounded_and_health_keeps_answering(service):
    base, _ = service
    count = 60_000  # ~2.3 MB each, under the 3 MB limit: one at a time fits the budget
    body = json.dumps({"instance_inputs": [{"prediction": str(i % 2), "references": [str(i % 3 % 2)]}
                                           for i in range(count)]}, separators=(",", ":")).encode()
    results, health = [], []

    def one():
        results.append(post(base + "/compute/metrics.accuracy", body, token()))

    threads = [threading.Thread(target=one) for _ in range(3)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        started = time.monotonic()
        with urllib.request.urlopen(base + "/health", timeout=30) as response:
            assert json.loads(response.read()) == "OK"
        health.append(time.monotonic() - started)
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    assert [status for status, _ in results] == [200, 200, 200]
    expected = sum(str(i % 2) == str(i % 3 % 2) for i in range(count)) / count
    assert all(json.loads(answer)["global_score"]["accuracy"] == pytest.approx(expected) for _, answer in results)
    assert health and max(health) < 10


def test_without_a_master_key_the_service_refuses_other_interfaces(tmp_path):
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    env.pop("UNITXT_METRICS_MASTER_KEY_TOKEN", None)
    completed = subprocess.run([sys.executable, "-m", "unitxt.service.main", "--host", "0.0.0.0", "--port",
                                str(free_port())], env=env, capture_output=True, text=True, timeout=120)
    assert completed.returncode != 0
    assert "refusing to listen on 0.0.0.0 without a master key" in completed.stderr


def test_without_a_master_key_the_service_listens_on_loopback_and_says_so(tmp_path):
    env = {"UNITXT_METRICS_MASTER_KEY_TOKEN": ""}
    process, base, log = start_service(tmp_path, env, name="nokey")
    try:
        status, answer = post(base + "/compute/metrics.accuracy", ONE, token="anything")
        assert status == 200
        text = log.read_text()
        assert "listens on 127.0.0.1 only" in text and "Uvicorn running on http://127.0.0.1:" in text
    finally:
        process.terminate()
        process.wait(timeout=20)
