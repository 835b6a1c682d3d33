"""A minimal JSON-over-HTTP client for OpenAI-protocol servers, on the standard library only.

Why not `huggingface_hub.InferenceClient`: it refuses every URL (even a loopback or self-hosted vLLM server) when
HF_HUB_OFFLINE=1, has no `/v1/completions` call (needed for prompt log-probs), and its transport changes between
huggingface_hub releases. This client keeps one keep-alive connection per thread, a per-request timeout, and turns
HTTP failures into RequestError (429/408/5xx, timeouts and dropped connections are retriable).
"""

import http.client
import json
import socket
import ssl
import threading
from typing import Any, Dict, Optional
from urllib.parse import urlencode, urlsplit

from .concurrency import RequestError

RETRIABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


def _no_delay(connection: http.client.HTTPConnection) -> None:
    """Disable Nagle's algorithm: small JSON requests otherwise wait ~40 ms for delayed ACKs."""
    if connection.sock is not None:
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _HTTPConnection(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        _no_delay(self)


class _HTTPSConnection(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        _no_delay(self)


class JSONHTTPClient:
    """POST JSON to `base_url` + path; `headers` go with every request (e.g. Authorization)."""

    def __init__(self, base_url: str, headers: Optional[Dict[str, str]] = None, timeout: float = 60.0,
                 query: Optional[Dict[str, str]] = None):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RequestError(f"base_url must be an http(s) URL, got {base_url!r}.", field="base_url")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.prefix = parts.path.rstrip("/")
        self.query = ("?" + urlencode(query)) if query else ""
        self.headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        self.timeout = timeout
        self._local = threading.local()
        self._ssl_context = ssl.create_default_context() if self.scheme == "https" else None

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            if self.scheme == "https":
                connection = _HTTPSConnection(self.host, self.port, timeout=self.timeout,
                                                         context=self._ssl_context)
            else:
                connection = _HTTPConnection(self.host, self.port, timeout=self.timeout)
            self._local.connection = connection
        return connection

    def _drop_connection(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        self._local.connection = None

    def post(self, path: str, body: Dict[str, Any]) -> Dict[str, Any]:
        """The decoded JSON answer; RequestError on any failure."""
        url = f"{self.prefix}/{path.lstrip('/')}{self.query}"
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        for attempt in range(2):  # a kept-alive connection the server closed is reopened once
            connection = self._connection()
            try:
                connection.request("POST", url, body=payload, headers=self.headers)
                response = connection.getresponse()
                data = response.read()
                status = response.status
                retry_after = response.getheader("Retry-After")
                if response.getheader("Connection", "").lower() == "close":
                    self._drop_connection()
                break
            except (socket.timeout, TimeoutError) as error:
                self._drop_connection()
                raise RequestError(f"Request to {self.host}:{self.port}{url} timed out after {self.timeout}s.",
                                   retriable=True) from error
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.CannotSendRequest, http.client.BadStatusLine) as error:
                self._drop_connection()
                if attempt == 0:
                    continue
                raise RequestError(f"Connection to {self.host}:{self.port} dropped: {error}", retriable=True) from error
            except OSError as error:
                self._drop_connection()
                raise RequestError(f"Can not reach {self.scheme}://{self.host}:{self.port}: {error}",
                                   retriable=True) from error
        if status >= 400:
            detail = data.decode("utf-8", "replace")[:500]
            try:
                parsed = json.loads(detail)
                detail = parsed.get("error", {}).get("message", detail) if isinstance(parsed, dict) else detail
            except (json.JSONDecodeError, AttributeError):
                pass
            try:
                wait = float(retry_after) if retry_after else None
            except ValueError:
                wait = None
            raise RequestError(f"HTTP {status} from {self.host}:{self.port}{url}: {detail}", status=status,
                               retriable=status in RETRIABLE_STATUS, retry_after=wait)
        try:
            return json.loads(data)
        except json.JSONDecodeError as error:
            raise RequestError(f"Answer from {self.host}:{self.port}{url} is not JSON: {data[:200]!r}",
                               retriable=False) from error
