"""A loopback HTTP server speaking the OpenAI chat/completions protocol, for offline tests of remote engines.

`OpenAIProtocolServer(answer=...)` listens on 127.0.0.1 at a random port (stdlib `ThreadingHTTPServer`, HTTP/1.1
keep-alive) and answers `POST /v1/chat/completions` and `POST /v1/completions` (JSON, non-streaming). What it answers
is scripted by `answer(request) -> str | Reply`, a function of the decoded request body (the default echoes the last
user message, or the prompt, prefixed by "echo: "). A `Reply` can also set an HTTP status (429/500...), a delay, a
finish reason and token log-probs, and behave badly on purpose (hostile servers for the hardening tests): replace the
message content (`content`: None, an int, a list), drop log-probs, send another JSON `body`, send `raw` bytes and
close (a truncated answer), send the answer one byte every `drip` seconds, add `headers` (a 302's Location).
`fail_next(n, status)` makes the next n requests fail whatever the answer says. The files and batches endpoints
(OpenAI's Batch API) are served by `server.batches` (tests/support/openai_protocol_batches.py).
Every request body is recorded (`requests`, `count`) with the moment it arrived (`arrivals`, time.monotonic()), and
the largest number of requests served at once (`max_in_flight`). Tokens are whitespace-separated words (a leading
space belongs to the word), log-probs come from `token_logprob(token, request)` (default: -0.1 per character), and the
top alternatives are the token itself plus "alt1", "alt2"... each 1.0 less likely.
"""

import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Union

from tests.support.openai_protocol_batches import BatchService


@dataclass
class Reply:
    """One scripted answer."""

    text: str = ""
    status: int = 200
    delay: float = 0.0
    finish_reason: str = "stop"
    error_message: str = "scripted failure"
    extra: Dict[str, Any] = field(default_factory=dict)
    content: Any = "__text__"  # the message content sent instead of `text` (None, 7, [...])
    drop_logprobs: bool = False  # no log-probs even when asked
    body: Any = "__protocol__"  # a JSON body sent instead of the protocol's (with `status`)
    raw: Optional[bytes] = None  # these bytes are the whole response, then the connection closes
    drip: float = 0.0  # seconds between the bytes of the response
    headers: Dict[str, str] = field(default_factory=dict)


def split_tokens(text: str) -> List[str]:
    """The server's tokenizer: words with their leading whitespace ("a b" -> ["a", " b"])."""
    return re.findall(r"\s*\S+|\s+$", text) if text else []


def default_answer(request: Dict[str, Any]) -> str:
    """Echo the last user message's text (or the prompt)."""
    if "messages" in request:
        content = request["messages"][-1]["content"]
        if isinstance(content, list):
            content = " ".join(part.get("text", "") for part in content if part.get("type") == "text")
        return "echo: " + content
    prompt = request.get("prompt", "")
    return "echo: " + (prompt[0] if isinstance(prompt, list) else prompt)


def default_token_logprob(token: str, request: Dict[str, Any]) -> float:
    return -0.1 * len(token.strip())


class _Server(ThreadingHTTPServer):
    """A listen backlog as deep as a production server's (uvicorn's 2048): the standard library's 5 drops the SYNs
    of a client opening dozens of connections at once, which then wait a second for TCP to send them again."""

    request_queue_size = 2048


class OpenAIProtocolServer:
    """Start with `with OpenAIProtocolServer(...) as server:`; `server.base_url` ends with /v1."""

    def __init__(self, answer: Optional[Callable[[Dict[str, Any]], Union[str, Reply]]] = None, latency: float = 0.0,
                 token_logprob: Callable[[str, Dict[str, Any]], float] = default_token_logprob,
                 model: str = "test-model", tls: Optional[tuple] = None, prefix: str = ""):
        self.answer = answer or default_answer
        self.prefix = prefix  # paths not starting with it get 404 (as a real server's /v1 root)
        self.tls = tls  # (certfile, keyfile): serve https
        self.latency = latency
        self.token_logprob = token_logprob
        self.model = model
        self.requests: List[Dict[str, Any]] = []
        self.arrivals: List[float] = []
        self.paths: List[str] = []
        self.headers: List[Dict[str, str]] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._failures: List[int] = []
        self._lock = threading.Lock()
        self._special = threading.local()  # the reply of this handler thread that needs raw sending
        self._server: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None
        self.batches = BatchService(self)

    # ------------------------------------------------------------------ control
    @property
    def base_url(self) -> str:
        scheme = "https" if self.tls else "http"
        return f"{scheme}://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def fail_next(self, times: int, status: int = 429) -> None:
        """The next `times` requests get `status` (then the scripted answers resume)."""
        with self._lock:
            self._failures.extend([status] * times)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.arrivals.clear()
            self.paths.clear()
            self.headers.clear()
            self.max_in_flight = 0

    def start(self) -> "OpenAIProtocolServer":
        owner = self

        class Handler(_Handler):
            server_owner = owner

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if self.tls:
            import ssl

            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.tls)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "OpenAIProtocolServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ------------------------------------------------------------------ protocol
    def _logprobs_content(self, text: str, request: Dict[str, Any]) -> List[Dict[str, Any]]:
        top = int(request.get("top_logprobs") or 0)
        content = []
        for token in split_tokens(text):
            value = self.token_logprob(token, request)
            alternatives = [{"token": token, "logprob": value, "bytes": None}]
            alternatives += [{"token": f"alt{k}", "logprob": value - k, "bytes": None} for k in range(1, top)]
            content.append({"token": token, "logprob": value, "bytes": None, "top_logprobs": alternatives[:top]})
        return content

    def answer_for_batch(self, path: str, request: Dict[str, Any]) -> Any:
        """(status, body) of one request of a batch: the scripted answer, without transport effects."""
        status, body = self._answer(path, request, in_batch=True)
        return status, body

    def respond(self, path: str, request: Dict[str, Any]) -> Any:
        """(status, body) for one request."""
        with self._lock:
            failure = self._failures.pop(0) if self._failures else None
        if failure is not None:
            return failure, {"error": {"message": "scripted failure", "code": failure}}
        return self._answer(path, request)

    def _answer(self, path: str, request: Dict[str, Any], in_batch: bool = False) -> Any:
        reply = self.answer(request)
        if not isinstance(reply, Reply):
            reply = Reply(text=str(reply))
        if reply.delay and not in_batch:
            time.sleep(reply.delay)
        if (reply.raw is not None or reply.drip or reply.headers) and not in_batch:
            self._special.reply = reply
        if reply.body != "__protocol__":
            return reply.status, reply.body
        if reply.status != 200:
            return reply.status, {"error": {"message": reply.error_message, "code": reply.status}}
        usage = {"prompt_tokens": len(split_tokens(json.dumps(request.get("messages", request.get("prompt"))))),
                 "completion_tokens": len(split_tokens(reply.text))}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        model = request.get("model") or self.model
        if path.endswith("/chat/completions"):
            choice = {"index": 0, "finish_reason": reply.finish_reason,
                      "message": {"role": "assistant",
                                  "content": reply.text if reply.content == "__text__" else reply.content},
                      "logprobs": {"content": self._logprobs_content(reply.text, request)}
                      if request.get("logprobs") and not reply.drop_logprobs else None}
            body = {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
                    "choices": [choice], "usage": usage, "system_fingerprint": "test"}
        else:
            prompt = request.get("prompt", "")
            prompt = prompt[0] if isinstance(prompt, list) else prompt
            text = (prompt if request.get("echo") else "") + reply.text
            choice = {"index": 0, "text": text, "finish_reason": reply.finish_reason, "logprobs": None}
            if request.get("logprobs") is not None and not reply.drop_logprobs:
                tokens = split_tokens(text)
                offsets, position = [], 0
                for token in tokens:
                    offsets.append(position)
                    position += len(token)
                values = [self.token_logprob(token, request) for token in tokens]
                top = int(request["logprobs"] or 0)
                choice["logprobs"] = {
                    "tokens": tokens, "token_logprobs": values, "text_offset": offsets,
                    "top_logprobs": [{token: value, **{f"alt{k}": value - k for k in range(1, top)}}
                                     for token, value in zip(tokens, values)]}
            body = {"id": "cmpl-test", "object": "text_completion", "created": 0, "model": model,
                    "choices": [choice], "usage": usage}
        body.update(reply.extra)
        return 200, body


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_owner: OpenAIProtocolServer

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no delayed-ACK stalls

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        handled = self.server_owner.batches.handle("GET", path, self.headers, b"", query)
        if handled is None:
            return self._send(404, {"error": {"message": f"unknown path {self.path}"}})
        self._send(*handled)

    def do_POST(self) -> None:
        owner = self.server_owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        handled = owner.batches.handle("POST", self.path.split("?")[0], self.headers, raw)
        if handled is not None:
            return self._send(*handled)
        try:
            request = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return self._send(400, {"error": {"message": "invalid JSON"}})
        path = self.path.split("?")[0]
        if not path.endswith(("/chat/completions", "/completions")) or not path.startswith(owner.prefix):
            return self._send(404, {"error": {"message": f"unknown path {path}"}})
        with owner._lock:
            owner.requests.append(request)
            owner.arrivals.append(time.monotonic())
            owner.paths.append(self.path)  # with the query string
            owner.headers.append({key.lower(): value for key, value in self.headers.items()})
            owner._in_flight += 1
            owner.max_in_flight = max(owner.max_in_flight, owner._in_flight)
        try:
            if owner.latency:
                time.sleep(owner.latency)
            status, body = owner.respond(path, request)
        finally:
            with owner._lock:
                owner._in_flight -= 1
        self._send(status, body)

    def _send(self, status: int, body: Any) -> None:
        special = getattr(self.server_owner._special, "reply", None)
        self.server_owner._special.reply = None
        if special is not None and special.raw is not None:
            self.wfile.write(special.raw)
            self.wfile.flush()
            self.close_connection = True
            return
        payload = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        if special is not None and special.drip:
            head = (f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}"
                    f"\r\n\r\n").encode("ascii")
            try:
                for position in range(len(head + payload)):
                    self.wfile.write((head + payload)[position:position + 1])
                    self.wfile.flush()
                    time.sleep(special.drip)
            except OSError:  # the client gave up
                pass
            self.close_connection = True
            return
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (special.headers.items() if special is not None else ()):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)
