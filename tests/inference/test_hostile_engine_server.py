"""Issue 29, the engine half: OpenAI-protocol engines against a hostile server on loopback (the real client, no
mocks). Every request has a total deadline, malformed answers are errors naming the engine and the row and are never
cached, nothing answered is lost, proxies and CA bundles are honoured."""

import http.server
import http.client
import json
import logging
import os
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer, Reply, default_answer
from unitxt.errors import UnitxtError
from unitxt.inference import OllamaInferenceEngine, OpenAiInferenceEngine
from unitxt.inference.cache import InferenceCache
from unitxt.inference.http_client import JSONHTTPClient
from unitxt.inference.option_selection import OpenAiOptionSelectingInferenceEngine


def engine_for(server, tmp_path, **kwargs):
    settings = dict(model_name="m", credentials={"api_key": "k", "api_url": server.base_url},
                    cache_dir=str(tmp_path / "cache"), show_progress=False, max_retries=0, retry_base_delay=0.01)
    settings.update(kwargs)
    return OpenAiInferenceEngine(**settings)


class Script:
    """Answers by prompt: prompts listed in `bad` get that Reply until `fix()` is called."""

    def __init__(self, bad):
        self.bad = bad
        self.fixed = False

    def fix(self):
        self.fixed = True

    def __call__(self, request):
        prompt = request["messages"][-1]["content"] if "messages" in request else request.get("prompt")
        if not self.fixed and prompt in self.bad:
            return self.bad[prompt]
        return default_answer(request)


def test_a_dripping_server_hits_the_total_deadline(tmp_path):
    with OpenAIProtocolServer(answer=lambda request: Reply(text="slow", drip=0.05)) as server:
        started = time.monotonic()
        with pytest.raises(UnitxtError, match=r"Row 0: .*timed out after 1.0s \(the total deadline") as caught:
            engine_for(server, tmp_path, timeout=1.0)([{"source": "x"}])
        assert time.monotonic() - started < 4.0  # the answer alone would take ~20 s
    assert "OpenAiInferenceEngine" in str(caught.value)


@pytest.mark.parametrize("reply, complaint", [
    (Reply(content=None), "content is NoneType, not text"),
    (Reply(content=7), "content is int, not text"),
    (Reply(content=[{"type": "image_url", "image_url": {}}]), "content is list, not text"),
    (Reply(body={"choices": "nope"}), "no choices"),
    (Reply(body=[1, 2]), "JSON list, not an object"),
    (Reply(status=302, body={"choices": [{"message": {"content": "moved"}}]}, headers={"Location": "/v2/x"}),
     "HTTP 302 .*redirect .*not followed"),
    (Reply(raw=b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n\xff\xfe\x00\x01"), "not JSON"),
    (Reply(raw=b"HTTP/1.1 200 OK\r\nContent-Length: 200001\r\n\r\n" + b"[" * 200000 + b"1"), "not JSON"),
])
def test_malformed_answers_are_errors_and_never_cached(tmp_path, reply, complaint):
    script = Script({"bad": reply})
    rows = [{"source": "good"}, {"source": "bad"}]
    with OpenAIProtocolServer(answer=script) as server:
        engine = engine_for(server, tmp_path, num_parallel_requests=1)
        with pytest.raises(UnitxtError, match=complaint) as caught:
            engine(rows)
        assert "Row 1:" in str(caught.value) and "OpenAiInferenceEngine" in str(caught.value)
        script.fix()
        sent = server.count
        assert engine(rows) == ["echo: good", "echo: bad"]
        assert server.count == sent + 1  # the good answer was cached, the bad one was not


def test_text_parts_content_is_read_as_text(tmp_path):
    parts = [{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}]
    with OpenAIProtocolServer(answer=lambda request: Reply(content=parts)) as server:
        assert engine_for(server, tmp_path)([{"source": "x"}]) == ["Hello there"]


def test_missing_or_impossible_log_probs_are_errors(tmp_path):
    with OpenAIProtocolServer(answer=lambda request: Reply(text="yes", drop_logprobs=True)) as server:
        with pytest.raises(UnitxtError, match="log-probs were asked for but the answer has none"):
            engine_for(server, tmp_path, logprobs=True, top_logprobs=2).infer_log_probs([{"source": "x"}])
    with OpenAIProtocolServer(answer=lambda request: "yes", token_logprob=lambda token, request: 5.0) as server:
        with pytest.raises(UnitxtError, match="unreadable log-probs"):
            engine_for(server, tmp_path, logprobs=True, top_logprobs=2).infer_log_probs([{"source": "y"}])


def test_a_huge_answer_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(JSONHTTPClient, "max_response_bytes", 50_000)
    with OpenAIProtocolServer(answer=lambda request: "x" * 100_000) as server:
        with pytest.raises(UnitxtError, match="more than the 50,000 an answer may have"):
            engine_for(server, tmp_path)([{"source": "x"}])
    raw = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + b"x" * 100_000  # no Content-Length: counted as read
    with OpenAIProtocolServer(answer=lambda request: Reply(raw=raw)) as server:
        with pytest.raises(UnitxtError, match="exceeds 50,000 bytes"):
            engine_for(server, tmp_path)([{"source": "y"}])


def test_a_truncated_answer_is_retried(tmp_path):
    calls = []

    def answer(request):
        calls.append(1)
        if len(calls) == 1:
            return Reply(raw=b'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"choi')
        return default_answer(request)

    with OpenAIProtocolServer(answer=answer) as server:
        assert engine_for(server, tmp_path, max_retries=2)([{"source": "x"}]) == ["echo: x"]
        assert len(calls) == 2
    with OpenAIProtocolServer(answer=lambda request: Reply(raw=b"garbage\r\n\r\n")) as server:
        with pytest.raises(UnitxtError, match="BadStatusLine|RemoteDisconnected"):
            engine_for(server, tmp_path)([{"source": "y"}])


def test_a_refused_connection_fails_fast_and_retries_are_logged(tmp_path, caplog):
    engine = OpenAiInferenceEngine(model_name="m", base_url="http://127.0.0.1:9/v1", credentials={"api_key": "k"},
                                   use_cache=False, max_retries=5, retry_base_delay=2.0, show_progress=False)
    started = time.monotonic()
    with pytest.raises(UnitxtError, match="connection refused .*not retried"):
        engine([{"source": "x"}])
    assert time.monotonic() - started < 1.5
    with OpenAIProtocolServer() as server:
        server.fail_next(2, 503)
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            assert engine_for(server, tmp_path, max_retries=3)([{"source": "x"}]) == ["echo: x"]
    retries = [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) == 2 and "attempt 1 of 4 failed (HTTP 503" in retries[0]


def test_a_base_url_without_v1_gets_a_hint(tmp_path):
    with OpenAIProtocolServer(prefix="/v1/") as server:
        engine = engine_for(server, tmp_path, credentials={"api_key": "k", "api_url": server.base_url[:-3]})
        with pytest.raises(UnitxtError, match="HTTP 404 .*base_url usually ends with /v1"):
            engine([{"source": "x"}])


def test_answers_in_flight_are_kept_when_one_request_fails(tmp_path):
    def answer(request):
        prompt = request["messages"][-1]["content"]
        if prompt == "p9":
            return Reply(status=400, error_message="bad request")
        return Reply(text="ok " + prompt, delay=0.3)

    rows = [{"source": f"p{i}"} for i in range(10)]
    with OpenAIProtocolServer(answer=answer) as server:
        engine = engine_for(server, tmp_path, num_parallel_requests=10)
        with pytest.raises(UnitxtError, match="Row 9: .*HTTP 400 .*9 answered rows were kept") as caught:
            engine(rows)
        assert caught.value.answers[:9] == [f"ok p{i}" for i in range(9)] and caught.value.answers[9] is None
        sent = server.count
        with pytest.raises(UnitxtError, match="Row 9"):
            engine(rows)
        assert server.count == sent + 1  # only the failing row is sent again
        uncached = engine_for(server, tmp_path, num_parallel_requests=10, use_cache=False)
        with pytest.raises(UnitxtError) as caught:
            uncached(rows)
        assert caught.value.answers[:9] == [f"ok p{i}" for i in range(9)]


def test_each_answer_is_on_disk_as_it_arrives(tmp_path):
    """While request k is served, the k-1 answers before it are on disk (committed to sqlite or in the process's
    journal), so a kill -9 at any moment loses at most the request in flight."""
    cache_file = tmp_path / "cache" / "inference_cache.sqlite"
    seen = []

    def on_disk():
        committed = 0
        if cache_file.exists():
            with sqlite3.connect(str(cache_file)) as connection:
                committed = connection.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        journaled = sum(len(path.read_bytes().splitlines()) for path in cache_file.parent.glob("*.journal"))
        return committed + journaled

    def answer(request):
        seen.append(on_disk())
        return default_answer(request)

    with OpenAIProtocolServer(answer=answer) as server:
        engine_for(server, tmp_path, num_parallel_requests=1)([{"source": f"q{i}"} for i in range(150)])
    assert seen == list(range(150))


def test_kill_9_keeps_every_answer_received(tmp_path):
    script = ("import sys; sys.path[:0] = ['core', '.']\n"
              "from unitxt.inference import OpenAiInferenceEngine\n"
              f"e = OpenAiInferenceEngine(model_name='m', credentials={{'api_key': 'k', 'api_url': sys.argv[1]}}, "
              f"cache_dir={str(tmp_path / 'cache')!r}, show_progress=False, num_parallel_requests=1)\n"
              "e([{'source': f'k{i}'} for i in range(1000)])\n")
    served = []

    def answer(request):
        served.append(1)
        return default_answer(request)

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with OpenAIProtocolServer(answer=answer, latency=0.01) as server:
        process = subprocess.Popen(["python3", "-c", script, server.base_url], cwd=root)
        while len(served) < 30 and process.poll() is None:
            time.sleep(0.01)
        process.kill()
        process.wait()
        answered = len(served)
    stored = len(InferenceCache(str(tmp_path / "cache" / "inference_cache.sqlite")))  # replays the dead's journal
    assert answered >= 30 and stored >= answered - 1  # at most the request in flight at the kill
    assert not list((tmp_path / "cache").glob("*.journal"))


def test_the_journal_of_a_killed_process_not_yet_reaped_is_replayed(tmp_path):
    """A process killed but not yet reaped by its parent (a zombie) has ended: its journal is replayed at once."""
    process = subprocess.Popen(["sleep", "60"])
    try:
        process.kill()
        deadline = time.time() + 10
        while _process_state(process.pid) != "Z" and time.time() < deadline:
            time.sleep(0.01)
        assert _process_state(process.pid) == "Z"  # killed, still in the process table: not reaped
        path = tmp_path / "cache" / "inference_cache.sqlite"
        path.parent.mkdir()
        entry = ["k1", json.dumps({"prediction": "from the zombie"}), 1.0]
        Path(f"{path}.{process.pid}.journal").write_text(json.dumps(entry) + "\n")
        cache = InferenceCache(str(path))
        assert cache.get_many(["k1"]) == {0: {"prediction": "from the zombie"}}
        assert not list(path.parent.glob(f"*.{process.pid}.journal"))
    finally:
        process.wait()


def test_adopting_dead_journals_keeps_this_process_journal_on_disk(tmp_path):
    """A pool worker adopts the journals of dead workers before each batch; its own journal stays where a kill -9
    would leave it, holding every answer not yet committed."""
    cache = InferenceCache(str(tmp_path / "cache" / "inference_cache.sqlite"))
    cache.commit_seconds = 1e9  # nothing committed while the test looks
    journal = Path(f"{cache.path}.{os.getpid()}.journal")
    cache.put("k1", {"prediction": "a"})
    cache.adopt_journals()
    cache.put("k2", {"prediction": "b"})
    assert [json.loads(line)[0] for line in journal.read_bytes().splitlines()] == ["k1", "k2"]


def _process_state(pid):
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_option_selection_without_prompt_log_probs_is_an_error(tmp_path):
    with OpenAIProtocolServer(answer=lambda request: Reply(text="", drop_logprobs=True)) as server:
        engine = OpenAiOptionSelectingInferenceEngine(
            model_name="m", credentials={"api_key": "k", "api_url": server.base_url},
            cache_dir=str(tmp_path / "cache"), show_progress=False)
        rows = [{"source": "Pick:", "task_data": {"options": ["a", "b"]}}]
        with pytest.raises(UnitxtError, match="returned no prompt log-probs"):
            engine(rows)
        assert len(engine._cache()) == 0


def test_ollama_takes_proprietary_data_only_on_local_hosts(tmp_path):
    row = {"source": "secret", "data_classification_policy": ["proprietary"]}
    with OpenAIProtocolServer() as server:
        local = OllamaInferenceEngine(model_name="m", base_url=server.base_url, cache_dir=str(tmp_path / "c"),
                                      show_progress=False)
        assert local([row]) == ["echo: secret"]
    remote = OllamaInferenceEngine(model_name="m", base_url="https://ollama.example.com/v1", show_progress=False)
    with pytest.raises(UnitxtError, match=r"(?s)only configured to support the data with classification '\['public'\]'.*Nothing was"):
        remote([row])
    assert OllamaInferenceEngine(model_name="m", base_url="http://192.168.1.5:11434/v1").effective_policy() == \
        ["public", "proprietary"]
    chosen = OllamaInferenceEngine(model_name="m", base_url="https://ollama.example.com/v1",
                                   data_classification_policy=["public", "proprietary"])
    assert chosen.effective_policy() == ["public", "proprietary"]


def test_a_policy_of_the_wrong_type_is_a_clear_error(tmp_path):
    with OpenAIProtocolServer() as server:
        with pytest.raises(UnitxtError, match="must be a list of classification names"):
            engine_for(server, tmp_path)([{"source": "x", "data_classification_policy": 5}])
        assert server.count == 0


class _ForwardProxy(http.server.BaseHTTPRequestHandler):
    """A plain-HTTP forward proxy: takes absolute-URL requests and forwards them."""

    protocol_version = "HTTP/1.1"
    seen = []

    def log_message(self, *args):
        pass

    def do_POST(self):
        type(self).seen.append(self.path)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        target = http.client.HTTPConnection(self.path.split("/")[2])
        target.request("POST", self.path, body=body, headers={"Content-Type": "application/json"})
        answer = target.getresponse()
        payload = answer.read()
        self.send_response(answer.status)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def test_requests_go_through_http_proxy_unless_no_proxy(tmp_path, monkeypatch):
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ForwardProxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    for name in ("no_proxy", "NO_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    try:
        with OpenAIProtocolServer() as server:
            monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.server_address[1]}")
            assert engine_for(server, tmp_path, use_cache=False)([{"source": "via"}]) == ["echo: via"]
            assert _ForwardProxy.seen == [f"{server.base_url}/chat/completions"]
            monkeypatch.setenv("NO_PROXY", "127.0.0.1")
            assert engine_for(server, tmp_path, use_cache=False)([{"source": "direct"}]) == ["echo: direct"]
            assert len(_ForwardProxy.seen) == 1 and server.count == 2
    finally:
        proxy.shutdown()
        proxy.server_close()


def test_a_custom_ca_bundle_is_honoured(tmp_path, monkeypatch):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=loopback",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with OpenAIProtocolServer(tls=(str(cert), str(key))) as server:
        with pytest.raises(UnitxtError, match="TLS certificate of 127.0.0.1.* not trusted .*REQUESTS_CA_BUNDLE"):
            engine_for(server, tmp_path, use_cache=False)([{"source": "x"}])
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))
        assert engine_for(server, tmp_path, use_cache=False)([{"source": "x"}]) == ["echo: x"]


def test_an_engine_used_here_pickles_without_its_process_handles(tmp_path):
    """A used engine (its cache database and HTTP client open) goes to another process - a Ray worker, a judge's
    scores sent back from one - as its fields only; the copy opens its own handles and answers from the cache."""
    import pickle

    with OpenAIProtocolServer() as server:
        engine = engine_for(server, tmp_path)
        assert engine.infer([{"source": "hello"}]) == ["echo: hello"]
        assert engine._cache_store is not None and engine._http is not None
        copy = pickle.loads(pickle.dumps(engine))
        assert copy._cache_store is None and copy._http is None
        assert copy.infer([{"source": "hello"}, {"source": "again"}]) == ["echo: hello", "echo: again"]
        assert server.count == 2  # "hello" came from the cache
        assert engine.infer([{"source": "again"}]) == ["echo: again"] and server.count == 2


def test_calls_from_two_threads_share_a_kept_request_pool(tmp_path):
    """keep_request_pool(): calls running at once (an actor answering two blocks) share num_parallel_requests - the
    limit holds across them - and each call gets, and caches, its own rows' answers."""
    with OpenAIProtocolServer(latency=0.05) as server:
        engine = engine_for(server, tmp_path, num_parallel_requests=4)
        engine.keep_request_pool()
        blocks = [[{"source": f"block {block} row {row}"} for row in range(12)] for block in range(2)]
        answers = [None, None]

        def answer(block):
            answers[block] = engine.infer(blocks[block])

        threads = [threading.Thread(target=answer, args=(block,)) for block in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == [[f"echo: {row['source']}" for row in rows] for rows in blocks]
        assert server.count == 24 and server.max_in_flight == 4
        again = engine_for(server, tmp_path, num_parallel_requests=4)
        assert again.infer(blocks[1] + blocks[0]) == answers[1] + answers[0] and server.count == 24  # cached
