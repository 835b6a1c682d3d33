"""`LoadFromAPI` against hostile servers on 127.0.0.1: a redirect to another host is not followed (the bearer token
stays with the host the URL names), a silent server ends at the deadline, an oversized answer is not read whole, and
a non-JSON answer is a LoaderError naming the split and the URL."""

import http.server
import threading
import time

import pytest

from unitxt.errors import UnitxtError
from unitxt.loaders import LoadFromAPI


class _Server:
    """A loopback HTTP server answering every GET with `answer(handler)`; records the Authorization headers."""

    def __init__(self, answer):
        self.authorizations = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the server's hook name
                owner.authorizations.append(self.headers.get("Authorization"))
                answer(self)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _send(handler, status, body, headers=()):
    handler.send_response(status)
    for key, value in headers:
        handler.send_header(key, value)
    if not any(key == "Content-Length" for key, _ in headers):
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@pytest.fixture
def servers():
    started = []

    def start(answer):
        started.append(_Server(answer))
        return started[-1]

    yield start
    for server in started:
        server.close()


def test_a_redirect_to_another_host_gets_no_token(servers, monkeypatch):
    monkeypatch.setenv("API_TOKEN", "s3cret-token")
    other = servers(lambda h: _send(h, 200, b'{"data": [{"q": "stolen"}]}'))
    first = servers(lambda h: _send(h, 302, b"", [("Location", other.url + "/rows")]))
    loader = LoadFromAPI(urls={"test": first.url + "/rows"}, api_key_env_var="API_TOKEN")
    with pytest.raises(UnitxtError, match=r"split 'test' \(http://127\.0\.0\.1:\d+/rows\) failed: HTTP 302.*not "
                                          r"followed"):
        list(loader()["test"])
    assert first.authorizations == ["Bearer s3cret-token"]
    assert other.authorizations == []


def test_a_silent_server_ends_at_the_deadline(servers):
    release = threading.Event()
    silent = servers(lambda h: release.wait(30))
    start = time.monotonic()
    try:
        with pytest.raises(UnitxtError, match=r"split 'train'.*timed out after 1\.0s"):
            list(LoadFromAPI(urls={"train": silent.url + "/rows"}, timeout=1.0)()["train"])
    finally:
        release.set()
    assert time.monotonic() - start < 5


def test_an_oversized_answer_is_not_read_whole(servers):
    def endless(handler):  # no Content-Length: the body streams until the client stops reading
        handler.send_response(200)
        handler.end_headers()
        chunk = b" " * (1 << 16)
        try:
            for _ in range(200):  # 12.5 MB at most
                handler.wfile.write(chunk)
        except OSError:
            pass

    big = servers(endless)
    declared = servers(lambda h: _send(h, 200, b"{}", [("Content-Length", str(10 ** 12))]))
    with pytest.raises(UnitxtError, match=r"split 'test'.*exceeds 1,000,000 bytes"):
        list(LoadFromAPI(urls={"test": big.url + "/rows"}, max_response_bytes=1_000_000)()["test"])
    with pytest.raises(UnitxtError, match=r"is 1,000,000,000,000 bytes, more than the 1,000,000"):
        list(LoadFromAPI(urls={"test": declared.url + "/rows"}, max_response_bytes=1_000_000)()["test"])


def test_a_non_json_answer_names_the_split_and_url(servers):
    html = servers(lambda h: _send(h, 200, b"<html>login</html>"))
    with pytest.raises(UnitxtError, match=r"answer for split 'test' \(http://127\.0\.0\.1:\d+/rows\) is not JSON "
                                          r"\(JSONDecodeError\); it starts with b'<html>login"):
        list(LoadFromAPI(urls={"test": html.url + "/rows?page=1"})()["test"])
    scalar = servers(lambda h: _send(h, 200, b'{"data": 5}'))
    with pytest.raises(UnitxtError, match=r"must hold a list of JSON objects \(rows\) in 'data', got int"):
        list(LoadFromAPI(urls={"test": scalar.url + "/rows"})()["test"])
