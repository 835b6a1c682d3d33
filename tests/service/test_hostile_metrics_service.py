"""RemoteMetric against a hostile metrics service on loopback (Hardening III, findings 2, 7, 8): no redirect is
followed (the token never leaves the configured host), one total deadline per request, answers bounded in size, and
every unusable answer one RemoteMetricError naming the URL."""

import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from unitxt.metrics.remote import RemoteMetric, RemoteMetricError

PREDICTIONS, REFERENCES, TASK_DATA = ["a", "b"], [["a"], ["c"]], [{}, {}]


class FakeService:
    """A loopback HTTP server answering every POST as `self.script` says; records paths and headers."""

    def __init__(self):
        self.script = ("json", 200, {})
        self.seen = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                owner.seen.append((self.path, dict(self.headers)))
                kind, *rest = owner.script
                try:
                    if kind == "json":
                        status, body = rest
                        self._send(status, json.dumps(body).encode(), {})
                    elif kind == "bytes":
                        status, body, headers = rest
                        self._send(status, body, headers)
                    elif kind == "redirect":
                        status, location = rest
                        self._send(status, b"", {"Location": location})
                    elif kind == "truncated":
                        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"instances_scores\": [")
                        self.wfile.flush()
                        self.close_connection = True
                    elif kind == "drip":
                        body = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b" " * 100000
                        for position in range(len(body)):
                            self.wfile.write(body[position:position + 1])
                            self.wfile.flush()
                            time.sleep(rest[0])
                    elif kind == "endless":  # no Content-Length, megabytes until the client hangs up
                        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                         b"Connection: close\r\n\r\n[")
                        for _ in range(300):
                            self.wfile.write(b"1," * 500_000)
                        self.close_connection = True
                except OSError:  # the client gave up: what the test wants
                    self.close_connection = True

            def _send(self, status, body, headers):
                self.send_response(status)
                self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}/compute"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service():
    server = FakeService()
    yield server
    server.close()


@pytest.fixture
def other_host():
    server = FakeService()
    yield server
    server.close()


def score(service, **fields):
    metric = RemoteMetric(endpoint=service.endpoint, metric_name="metrics.accuracy", api_key="secret-token", **fields)
    return metric.score(PREDICTIONS, REFERENCES, TASK_DATA)


def good_answer(first=1.0, second=0.0):
    return {"instances_scores": [{"accuracy": first, "score": first, "score_name": "accuracy"},
                                 {"accuracy": second, "score": second, "score_name": "accuracy"}],
            "global_score": {"accuracy": (first + second) / 2, "score": (first + second) / 2,
                             "score_name": "accuracy", "num_of_instances": 2}}


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_refused_and_the_token_never_reaches_the_other_host(service, other_host, status):
    other_host.script = ("json", 200, good_answer(1.0, 1.0))
    service.script = ("redirect", status, other_host.endpoint + "/metrics.accuracy")
    with pytest.raises(RemoteMetricError) as caught:
        score(service)
    assert f"{service.endpoint}/metrics.accuracy" in str(caught.value)
    assert f"redirect (HTTP {status})" in str(caught.value)
    assert other_host.seen == []
    assert service.seen[0][1]["Authorization"] == "Bearer secret-token"


def test_the_timeout_bounds_the_whole_request_not_each_read(service):
    service.script = ("drip", 0.05)  # one byte every 50 ms: each read is quick, the answer takes 80+ minutes
    started = time.monotonic()
    with pytest.raises(RemoteMetricError, match="timed out after 1.5s"):
        score(service, timeout=1.5)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("answer, problem", [
    ({**good_answer(), "instances_scores": [{"accuracy": "high", "score": "high", "score_name": "accuracy"},
                                            {"accuracy": 0.0, "score": 0.0, "score_name": "accuracy"}]},
     "instances_scores[0]['score'] is 'high', not a number"),
    ({**good_answer(), "global_score": {"accuracy": "high", "score": 1.0, "score_name": "accuracy"}},
     "global_score['accuracy'] is 'high', not a number"),
    ({**good_answer(), "instances_scores": [{"accuracy": 1.0, "score": 1.0, "score_name": "accuracy", "f": 2.0},
                                            {"accuracy": 0.0, "score": 0.0, "score_name": "accuracy", "f": "x"}]},
     "instances_scores[1]['f'] is 'x', not a number as in the other instances"),
])
def test_non_numeric_scores_are_refused(service, answer, problem):
    service.script = ("json", 200, answer)
    with pytest.raises(RemoteMetricError) as caught:
        score(service)
    assert problem in str(caught.value) and service.endpoint in str(caught.value)


@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_infinite_scores_are_refused(service, value):
    answer = good_answer()
    answer["instances_scores"][1]["accuracy"] = value
    service.script = ("bytes", 200, json.dumps(answer).encode(), {})
    with pytest.raises(RemoteMetricError, match=r"\['accuracy'\] is -?inf \(a score is finite or NaN\)"):
        score(service)


def test_nan_scores_are_numbers():
    answer = good_answer()
    answer["instances_scores"][0]["accuracy"] = answer["instances_scores"][0]["score"] = math.nan
    answer["global_score"]["accuracy"] = answer["global_score"]["score"] = math.nan
    server = FakeService()
    try:
        server.script = ("bytes", 200, json.dumps(answer).encode(), {})
        scores = score(server)
        assert math.isnan(scores.global_scores(with_ci=False)["accuracy"])
    finally:
        server.close()


@pytest.mark.parametrize("script, problem", [
    (("bytes", 200, b"{not json", {}), "is not JSON"),
    (("bytes", 200, b"<html><body>Bad gateway</body></html>", {"Content-Type": "text/html"}), "is not JSON"),
    (("bytes", 200, b"\xff\xfe{\"instances_scores\": []}", {}), "is not JSON"),
    (("truncated",), "IncompleteRead"),
    (("json", 200, []), "not an object"),
    (("json", 200, {"instances_scores": {"0": {}}}), "no 'instances_scores' list"),
    (("json", 200, {"instances_scores": [{"score": 1.0}]}), "1 instance scores for 2 instances"),
    (("json", 200, {"instances_scores": [1, 2]}), "instances_scores[0] is a int, not an object"),
    (("json", 200, {**good_answer(), "global_score": [1]}), "'global_score' is a list, not an object"),
    (("json", 500, {"message": "boom"}), "refused the request: HTTP 500"),
])
def test_unusable_answers_are_one_error_naming_the_url(service, script, problem):
    service.script = script
    with pytest.raises(RemoteMetricError) as caught:
        score(service)
    message = str(caught.value)
    assert f"{service.endpoint}/metrics.accuracy" in message or f"127.0.0.1:{service.server.server_address[1]}" \
        in message
    assert problem in message


@pytest.mark.parametrize("script", [("bytes", 200, b"[" + b"1," * 600_000 + b"1]", {}), ("endless",)])
def test_answers_are_bounded(service, script):
    service.script = script
    started = time.monotonic()
    with pytest.raises(RemoteMetricError, match="1,000,000"):
        score(service, max_answer_bytes=1_000_000)
    assert time.monotonic() - started < 10


def test_a_good_answer_still_scores(service):
    service.script = ("json", 200, good_answer())
    scores = score(service)
    assert scores.global_scores(with_ci=False)["accuracy"] == 0.5
    path, headers = service.seen[0]
    assert path == "/compute/metrics.accuracy" and headers["Authorization"] == "Bearer secret-token"
