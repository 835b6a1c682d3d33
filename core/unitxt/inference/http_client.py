"""A minimal JSON-over-HTTP client for OpenAI-protocol servers, on the standard library only.

Why not `huggingface_hub.InferenceClient`, `httpx` or `requests`: the first refuses every URL when HF_HUB_OFFLINE=1 and
has no `/v1/completions` call (needed for prompt log-probs); `httpx`/`requests` are not always in the dependency tree
(huggingface_hub 1.x brings httpx, datasets brings requests, neither is promised) and cost more per request than this
client (see scripts/benchmarks/inference_throughput.py), and none of the three bounds a request's total time. This
client keeps one keep-alive connection per thread, gives every request a total deadline (a watchdog closes the socket
of a server that drips bytes), caps the answer's size, honours HTTP(S)_PROXY / NO_PROXY and custom CA bundles
(SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE), and turns every failure into a RequestError (429/408/5xx,
timeouts and dropped connections are retriable; a refused connection is not).
"""

import base64
import http.client
import json
import os
import socket
import ssl
import threading
import time
import urllib.request
from typing import Any, Dict, Optional
from urllib.parse import unquote, urlencode, urlsplit

from .concurrency import RequestError

RETRIABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
MAX_RESPONSE_BYTES = 32 * 1024 * 1024  # an OpenAI-protocol answer is far smaller; a larger one is a broken server


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


class _Watchdog:
    """One daemon thread that shuts the socket of every request past its total deadline (a per-read timeout never
    ends a server sending one byte every half second)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._deadlines: Dict[int, tuple] = {}
        self._wake = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def watch(self, token: int, connection: http.client.HTTPConnection, deadline: float) -> None:
        with self._lock:
            idle = not self._deadlines
            self._deadlines[token] = (deadline, connection)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="unitxt-http-deadlines", daemon=True)
                self._thread.start()
        if idle:  # the thread sleeps until there is something to watch, then checks every 0.1 s
            self._wake.set()

    def release(self, token: int) -> None:
        with self._lock:
            self._deadlines.pop(token, None)

    def _run(self) -> None:
        while True:
            with self._lock:
                idle = not self._deadlines
            self._wake.wait(None if idle else 0.1)
            self._wake.clear()
            now = time.monotonic()
            with self._lock:
                expired = [(token, connection) for token, (deadline, connection) in self._deadlines.items()
                           if deadline <= now]
                for token, _ in expired:
                    self._deadlines.pop(token)
            for _, connection in expired:
                sock = connection.sock
                if sock is not None:
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass


_WATCHDOG = _Watchdog()


def ca_bundle() -> Optional[str]:
    """A custom CA bundle named by REQUESTS_CA_BUNDLE or CURL_CA_BUNDLE (SSL_CERT_FILE/SSL_CERT_DIR are read by
    OpenSSL itself)."""
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        if os.environ.get(name):
            return os.environ[name]
    return None


def proxy_for(scheme: str, host: str) -> Optional[str]:
    """The proxy URL for a request (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, any case), None when NO_PROXY covers host."""
    proxies = urllib.request.getproxies()
    proxy = proxies.get(scheme) or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass(host):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


class JSONHTTPClient:
    """POST JSON to `base_url` + path; `headers` go with every request (e.g. Authorization); `timeout` bounds each
    request's total time (connect, send, wait and read)."""

    max_response_bytes = MAX_RESPONSE_BYTES

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
        self.timeout = float(timeout)
        self._local = threading.local()
        self.ssl_context = ssl.create_default_context(cafile=ca_bundle()) if self.scheme == "https" else None
        self._proxy = proxy_for(self.scheme, self.host)

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._new_connection()
            self._local.connection = connection
        return connection

    def _new_connection(self) -> http.client.HTTPConnection:
        host, port, tunnel_headers = self.host, self.port, {}
        if self._proxy:
            proxy = urlsplit(self._proxy)
            host, port = proxy.hostname, proxy.port or (443 if proxy.scheme == "https" else 80)
            if proxy.username:
                secret = f"{unquote(proxy.username)}:{unquote(proxy.password or '')}".encode("utf-8")
                tunnel_headers["Proxy-Authorization"] = "Basic " + base64.b64encode(secret).decode("ascii")
        if self.scheme == "https":
            connection = _HTTPSConnection(host, port, timeout=self.timeout, context=self.ssl_context)
            if self._proxy:
                connection.set_tunnel(self.host, self.port, headers=tunnel_headers)
        else:
            connection = _HTTPConnection(host, port, timeout=self.timeout)
        self._local.proxy_headers = tunnel_headers if self._proxy and self.scheme == "http" else {}
        return connection

    def _drop_connection(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        self._local.connection = None

    def _url(self, path: str) -> str:
        query = "&" + self.query[1:] if self.query and "?" in path else self.query  # path may carry its own query
        url = f"{self.prefix}/{path.lstrip('/')}{query}"
        if self._proxy and self.scheme == "http":  # a plain-HTTP proxy takes the absolute URL
            return f"http://{self.host}:{self.port}{url}"
        return url

    def _read_body(self, response: http.client.HTTPResponse, url: str, max_bytes: Optional[int] = None,
                   sink: Optional[Any] = None) -> bytes:
        limit = max_bytes or self.max_response_bytes
        if sink is not None and not 200 <= response.status < 300:  # an error body is read into memory: the usual cap
            limit = self.max_response_bytes
        declared = response.getheader("Content-Length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise RequestError(f"Answer from {self.host}:{self.port}{url} is {int(declared):,} bytes, more than the "
                               f"{limit:,} an answer may have.", retriable=False)
        chunks, size = [], 0
        while response.length != 0:  # None: no Content-Length (read to the end)
            chunk = response.read1(1 << 20)
            if not chunk:
                if response.length:
                    raise http.client.IncompleteRead(b"".join(chunks), response.length)
                break
            size += len(chunk)
            if size > limit:
                raise RequestError(f"Answer from {self.host}:{self.port}{url} exceeds {limit:,} "
                                   f"bytes; not read further.", retriable=False)
            if sink is not None and 200 <= response.status < 300:  # streamed to a file: memory stays bounded
                sink.write(chunk)
            else:
                chunks.append(chunk)
        response.close()  # done with this answer: the kept-alive connection is ready for the next request
        return b"".join(chunks)

    def post(self, path: str, body: Dict[str, Any]) -> Dict[str, Any]:
        """The decoded JSON answer (an object); RequestError on any failure."""
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        return self._json(self.request("POST", path, payload), path)

    def get(self, path: str) -> Dict[str, Any]:
        """GET a JSON object (e.g. a batch's status); RequestError on any failure."""
        return self._json(self.request("GET", path), path)

    def post_bytes(self, path: str, payload: bytes, content_type: str) -> Dict[str, Any]:
        """POST a non-JSON body (a multipart file upload) and decode the JSON answer."""
        return self._json(self.request("POST", path, payload, {"Content-Type": content_type}), path)

    def _json(self, data: bytes, path: str) -> Dict[str, Any]:
        where = f"{self.host}:{self.port}{self._url(path)}"
        try:
            answer = json.loads(data)
        except (ValueError, RecursionError) as error:  # JSONDecodeError, UnicodeDecodeError, nesting too deep
            raise RequestError(f"Answer from {where} is not JSON ({type(error).__name__}): {data[:200]!r}",
                               retriable=False) from error
        if not isinstance(answer, dict):
            raise RequestError(f"Answer from {where} is JSON {type(answer).__name__}, not an object: "
                               f"{str(answer)[:200]}", retriable=False)
        return answer

    def request(self, method: str, path: str, payload: Optional[bytes] = None,
                headers: Optional[Dict[str, str]] = None, max_bytes: Optional[int] = None,
                sink: Optional[Any] = None) -> bytes:
        """The raw body of a successful answer (status < 300); RequestError on any failure. `headers` override the
        client's (e.g. Content-Type of an upload); `max_bytes` raises the size cap (a batch's output file); with
        `sink` (a binary file) a successful body is written there as it arrives and b"" returned."""
        url = self._url(path)
        where = f"{self.host}:{self.port}{url}"
        deadline = time.monotonic() + self.timeout
        all_headers = {**self.headers, **(headers or {})}
        for attempt in range(2):  # a kept-alive connection the server closed is reopened once
            connection = self._connection()
            token = id(connection)
            _WATCHDOG.watch(token, connection, deadline)
            try:
                sent = {**all_headers, **self._local.proxy_headers} if self._local.proxy_headers else all_headers
                connection.request(method, url, body=payload, headers=sent)
                response = connection.getresponse()
                status = response.status
                retry_after = response.getheader("Retry-After")
                location = response.getheader("Location")
                if sink is not None:  # a retried download starts the file again
                    sink.seek(0)
                    sink.truncate()
                data = self._read_body(response, url, max_bytes, sink)
                if time.monotonic() >= deadline:  # the watchdog cut the answer short (maybe inside its headers)
                    raise TimeoutError("total deadline")
                if response.getheader("Connection", "").lower() == "close":
                    self._drop_connection()
                break
            except RequestError:
                self._drop_connection()
                raise
            except ConnectionRefusedError as error:
                self._drop_connection()
                via = f" through the proxy {self._proxy}" if self._proxy else ""
                raise RequestError(f"Can not reach {self.scheme}://{self.host}:{self.port}{via}: connection refused "
                                   f"(is the server running and base_url right?); not retried.",
                                   retriable=False) from error
            except (socket.timeout, TimeoutError) as error:
                self._drop_connection()
                raise RequestError(f"Request to {where} timed out after {self.timeout}s (the total deadline of a "
                                   f"request).", retriable=True) from error
            except ssl.SSLCertVerificationError as error:
                self._drop_connection()
                raise RequestError(f"TLS certificate of {self.host}:{self.port} not trusted ({error.verify_message}); "
                                   f"a custom CA bundle goes in SSL_CERT_FILE or REQUESTS_CA_BUNDLE.",
                                   retriable=False) from error
            except (OSError, http.client.HTTPException) as error:
                self._drop_connection()
                if time.monotonic() >= deadline:
                    raise RequestError(f"Request to {where} timed out after {self.timeout}s (the total deadline of "
                                       f"a request: the server answered too slowly).", retriable=True) from error
                if attempt == 0 and isinstance(error, (http.client.RemoteDisconnected, ConnectionResetError,
                                                       BrokenPipeError, http.client.CannotSendRequest)):
                    continue
                raise RequestError(f"Connection to {where} failed: {type(error).__name__}: {error}",
                                   retriable=True) from error
            finally:
                _WATCHDOG.release(token)
        if status >= 300:
            raise self._status_error(status, data, where, retry_after, location)
        return data

    def _status_error(self, status: int, data: bytes, where: str, retry_after: Optional[str],
                      location: Optional[str]) -> RequestError:
        detail = data.decode("utf-8", "replace")[:500]
        try:
            parsed = json.loads(detail)
            if isinstance(parsed, dict) and isinstance(parsed.get("error"), dict):
                detail = str(parsed["error"].get("message", detail))
        except (ValueError, RecursionError):
            pass
        try:
            wait = float(retry_after) if retry_after else None
        except ValueError:
            wait = None
        hint = ""
        if status < 400:
            hint = (f" A redirect (to {location!r}) is not followed: a POST's body would be lost; set base_url to "
                    f"the final address.")
        elif status == 404 and not self.prefix.rstrip("/").endswith("/v1") and "/openai/deployments/" not in \
                self.prefix:
            hint = " base_url usually ends with /v1 (e.g. http://localhost:8000/v1)."
        return RequestError(f"HTTP {status} from {where}: {detail}{hint}", status=status,
                            retriable=status in RETRIABLE_STATUS, retry_after=wait)
