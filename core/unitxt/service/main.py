"""`unitxt-metrics-service`: catalog metrics over HTTP (FastAPI + uvicorn, the `[service]` extra).

Endpoints as the original's: `GET /` (a greeting), `GET /health` ("OK"), `POST /compute/{metric_name}` with body
`{"instance_inputs": [{"prediction", "references", "additional_inputs"}]}` and a bearer token (see `tokens`),
answering `{"instances_scores": [...], "global_score": {...}}` (no confidence intervals). Requests larger than the
`metrics_service_max_request_bytes` setting (UNITXT_METRICS_SERVICE_MAX_REQUEST_BYTES, default 50 MB) are refused
with 413; bodies beyond that many bytes in all wait unread (`BodyBudget`); metrics run one request at a time (one
GPU). What a request may ask is checked in `requests`. Without a master key the service listens on 127.0.0.1 only
and answers only callers on this machine. Callers use `unitxt.metrics.remote.RemoteMetric`.
"""

import argparse
import asyncio
import ipaddress
import logging
import threading
import time
from typing import Any, Dict, List, Optional

from ..errors import MissingRequirementError
from ..settings_utils import settings
from .requests import (BadRequest, answer_bytes, check_metric_name, compute_metric, failure_answer, gc_paused,
                       parse_body)
from .tokens import InvalidTokenError, verify_token

logger = logging.getLogger("unitxt.service")
_INSTALL_HINT = "The metrics service needs FastAPI and uvicorn: pip install 'unitxt[service]'."
_compute_lock = threading.Lock()
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
SMALL_BODY_BYTES = 1 << 20  # bodies up to 1 MiB skip the budget: a held budget never stalls small requests
BODY_SECONDS = 300.0  # a body must arrive within this time (a client dripping it holds the budget no longer)


def _fastapi():
    try:
        import fastapi
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse, Response
    except ImportError:
        raise MissingRequirementError(_INSTALL_HINT) from None
    return fastapi, run_in_threadpool, JSONResponse, Response


class BodyBudget:
    """Bytes of request bodies the service holds at once (read, parsed or being scored): a parsed body takes ~30
    times its size, so bodies beyond the budget wait unread (in the socket) instead of piling up in memory. One
    body is always admitted, however large (the request limit bounds it)."""

    def __init__(self, budget: int):
        self.budget = max(1, int(budget))
        self.used = 0
        self._changed: Optional[asyncio.Condition] = None

    async def acquire(self, size: int) -> int:
        size = max(1, min(int(size), self.budget))
        if self._changed is None:
            self._changed = asyncio.Condition()
        async with self._changed:
            await self._changed.wait_for(lambda: self.used == 0 or self.used + size <= self.budget)
            self.used += size
        return size

    async def release(self, size: int) -> None:
        async with self._changed:
            self.used -= size
            self._changed.notify_all()


def is_loopback(host: Optional[str]) -> bool:
    """Whether `host` (a listening address or a client's address) is this machine only."""
    if not host:
        return False
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def create_app(max_request_bytes: Optional[int] = None, max_pending_bytes: Optional[int] = None) -> Any:
    """The FastAPI application of the service."""
    fastapi, run_in_threadpool, JSONResponse, Response = _fastapi()
    limit = int(max_request_bytes or settings.metrics_service_max_request_bytes)
    budget = BodyBudget(max_pending_bytes or limit)
    app = fastapi.FastAPI(version="1.0.0", title="Unitxt Metrics Service")

    def refuse(status: int, message: str, **headers: str) -> Any:
        return JSONResponse(status_code=status, content={"message": message}, headers=headers or None)

    @app.get("/", include_in_schema=False)
    async def read_root() -> Dict[str, str]:
        return {"Hello": "Unitxt Metrics"}

    @app.get("/health", include_in_schema=False)
    async def health() -> str:  # on the event loop: answers while worker threads score
        return "OK"

    def authenticate(request: Any) -> Any:
        """The token's claims, or the refusal to send (401; 403 for a remote caller of a service without key)."""
        if not settings.metrics_master_key_token and not is_loopback(getattr(request.client, "host", None)):
            return refuse(403, "This service has no master key (UNITXT_METRICS_MASTER_KEY_TOKEN), so it answers "
                               "callers on this machine only.")
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return refuse(401, "Not authenticated", **{"WWW-Authenticate": "Bearer"})
        try:
            return verify_token(token.strip())
        except InvalidTokenError as error:
            logger.info("refused a token: %s", error)
        except Exception as error:  # noqa: BLE001 - a forged token is the caller's problem, never a traceback
            logger.warning("refused an unreadable token (%s)", type(error).__name__)
        return refuse(401, "Could not validate credentials", **{"WWW-Authenticate": "Bearer"})

    @app.post("/compute/{metric_name}")
    async def compute(metric_name: str, request: fastapi.Request) -> Any:
        started = time.perf_counter()
        claims = authenticate(request)
        if not isinstance(claims, dict):
            return claims
        try:
            check_metric_name(metric_name)
        except BadRequest as error:
            return refuse(error.status, str(error))
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return refuse(413, f"Request of {declared} bytes is over the limit of {limit} bytes.")
        size = int(declared) if declared and declared.isdigit() else limit
        reserved = await budget.acquire(size) if size > SMALL_BODY_BYTES else 0
        try:
            body = bytearray()

            async def receive() -> bool:
                async for chunk in request.stream():
                    body.extend(chunk)
                    if len(body) > limit:
                        return False
                return True

            try:
                if not await asyncio.wait_for(receive(), timeout=BODY_SECONDS):
                    return refuse(413, f"Request is over the limit of {limit} bytes.")
            except asyncio.TimeoutError:
                return refuse(408, f"The request body did not arrive within {BODY_SECONDS:.0f} s.")
            holder = [body]
            del body  # the worker thread owns the body from here: its memory goes as soon as it is parsed
            count = [0]

            def run() -> bytes:
                with gc_paused():
                    payload = parse_body(holder.pop())
                    count[0] = len(payload.get("instance_inputs") or []) \
                        if isinstance(payload.get("instance_inputs"), list) else 0
                    with _compute_lock:
                        answer = compute_metric(metric_name, payload)
                    del payload
                    return answer_bytes(answer)

            try:
                content = await run_in_threadpool(run)
            except Exception as error:  # noqa: BLE001 - every failure is an answer, see failure_answer
                status, message = failure_answer(metric_name, error)
                if status == 502:
                    logger.warning("metric %s: the model call failed: %s", metric_name, error)
                elif status >= 500:
                    logger.exception("metric %s failed", metric_name)
                return refuse(status, message)
        finally:
            if reserved:
                await budget.release(reserved)
        logger.info("%s: %s on %d instances in %.2f s", claims.get("sub"), metric_name, count[0],
                    time.perf_counter() - started)
        return Response(content=content, media_type="application/json")

    return app


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="unitxt-metrics-service",
        description="Serve unitxt catalog metrics over HTTP: POST /compute/<metric name>, GET /health.\n"
                    "Tokens: set UNITXT_METRICS_MASTER_KEY_TOKEN and give callers `python -m "
                    "unitxt.service.tokens NAME`.",
        epilog="example:\n  UNITXT_METRICS_MASTER_KEY_TOKEN=$(openssl rand -hex 32) unitxt-metrics-service --port 8000\n"
               "  # callers: UNITXT_REMOTE_METRICS='[\"metrics.rouge\"]' "
               "UNITXT_REMOTE_METRICS_ENDPOINT=http://HOST:8000/compute",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    result.add_argument("--host", default=None,
                        help="address to listen on (default: 0.0.0.0 with a master key, as the original; 127.0.0.1 "
                             "without one - the service refuses any other address without a master key)")
    result.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    result.add_argument("--max_request_bytes", type=int, default=None,
                        help="largest accepted request body (default: UNITXT_METRICS_SERVICE_MAX_REQUEST_BYTES, 50 MB)")
    return result


def start_metrics_http_service(argv: Optional[List[str]] = None) -> None:
    """Run the service with uvicorn until interrupted."""
    arguments = parser().parse_args(argv)
    try:
        app = create_app(arguments.max_request_bytes)
        import uvicorn
    except (ImportError, MissingRequirementError):
        raise SystemExit(_INSTALL_HINT) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
    host = listening_host(arguments.host)
    uvicorn.run(app, host=host, port=arguments.port, log_config=None)


def listening_host(requested: Optional[str]) -> str:
    """Where the service listens: without a master key anyone reaching the port could use it (any token is
    accepted), so it listens on 127.0.0.1 only and refuses any other address."""
    if settings.metrics_master_key_token:
        return requested or "0.0.0.0"
    if requested is None:
        logger.warning("UNITXT_METRICS_MASTER_KEY_TOKEN is not set: any bearer token is accepted, so the service "
                       "listens on 127.0.0.1 only (callers on this machine). Set a master key to serve others.")
        return "127.0.0.1"
    if not is_loopback(requested):
        raise SystemExit(f"unitxt-metrics-service: refusing to listen on {requested} without a master key: anyone "
                         "reaching the port could run metrics with this machine's credentials. Set "
                         "UNITXT_METRICS_MASTER_KEY_TOKEN (e.g. `openssl rand -hex 32`) or listen on 127.0.0.1.")
    logger.warning("UNITXT_METRICS_MASTER_KEY_TOKEN is not set: any bearer token is accepted (listening on %s only).",
                   requested)
    return requested


def __getattr__(name: str) -> Any:
    """`app`, built on first use (`uvicorn unitxt.service.main:app`)."""
    if name == "app":
        globals()["app"] = application = create_app()
        return application
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    start_metrics_http_service()
