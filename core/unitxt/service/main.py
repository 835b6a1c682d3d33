"""`unitxt-metrics-service`: catalog metrics over HTTP (FastAPI + uvicorn, the `[service]` extra).

Endpoints as the original's: `GET /` (a greeting), `GET /health` ("OK"), `POST /compute/{metric_name}` with body
`{"instance_inputs": [{"prediction", "references", "additional_inputs"}]}` and a bearer token (see `tokens`),
answering `{"instances_scores": [...], "global_score": {...}}` (no confidence intervals). Requests larger than the
`metrics_service_max_request_bytes` setting (UNITXT_METRICS_SERVICE_MAX_REQUEST_BYTES, default 50 MB) are refused
with 413; metrics run one request at a time (one GPU). Callers use `unitxt.metrics.remote.RemoteMetric`.
"""

import argparse
import json
import logging
import threading
import time
from typing import Any, Dict, List, Optional

from ..errors import MissingRequirementError, UnitxtError
from ..settings_utils import settings
from .tokens import InvalidTokenError, verify_token

logger = logging.getLogger("unitxt.service")
_INSTALL_HINT = "The metrics service needs FastAPI and uvicorn: pip install 'unitxt[service]'."
_compute_lock = threading.Lock()


def compute_metric(metric_name: str, request: Dict[str, Any]) -> Dict[str, Any]:
    """The scores of catalog metric `metric_name` on the request's instances (what `POST /compute/...` answers)."""
    from ..catalog import fetch_artifact
    from ..metrics.base import Metric

    inputs = request.get("instance_inputs") if isinstance(request, dict) else None
    if not isinstance(inputs, list) or not all(isinstance(item, dict) and "prediction" in item for item in inputs):
        raise UnitxtError("The request must be {'instance_inputs': [{'prediction', 'references', "
                          "'additional_inputs'}, ...]}.", artifact=metric_name, field="instance_inputs")
    metric, _ = fetch_artifact(metric_name)
    if not isinstance(metric, Metric):
        raise UnitxtError(f"'{metric_name}' is a {type(metric).__name__}, not a metric.", artifact=metric_name)
    if not inputs:
        return {"instances_scores": [], "global_score": {}}
    predictions = [item["prediction"] for item in inputs]
    references = [list(item.get("references") or []) for item in inputs]
    task_data = [dict(item.get("additional_inputs") or {}) for item in inputs]
    scores = metric.evaluate(predictions, references, task_data)
    return {"instances_scores": [dict(item) for item in metric.instance_results(scores)],
            "global_score": scores.global_scores(with_ci=False)}


def _fastapi():
    try:
        import fastapi
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import JSONResponse
    except ImportError:
        raise MissingRequirementError(_INSTALL_HINT) from None
    return fastapi, run_in_threadpool, JSONResponse


def create_app(max_request_bytes: Optional[int] = None) -> Any:
    """The FastAPI application of the service."""
    fastapi, run_in_threadpool, JSONResponse = _fastapi()
    limit = int(max_request_bytes or settings.metrics_service_max_request_bytes)
    app = fastapi.FastAPI(version="1.0.0", title="Unitxt Metrics Service")

    def refuse(status: int, message: str, **headers: str) -> Any:
        return JSONResponse(status_code=status, content={"message": message}, headers=headers or None)

    @app.get("/", include_in_schema=False)
    def read_root() -> Dict[str, str]:
        return {"Hello": "Unitxt Metrics"}

    @app.get("/health", include_in_schema=False)
    def health() -> str:
        return "OK"

    @app.post("/compute/{metric_name}")
    async def compute(metric_name: str, request: fastapi.Request) -> Any:
        started = time.perf_counter()
        authorization = request.headers.get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return refuse(401, "Not authenticated", **{"WWW-Authenticate": "Bearer"})
        try:
            claims = verify_token(token.strip())
        except InvalidTokenError:
            return refuse(401, "Could not validate credentials", **{"WWW-Authenticate": "Bearer"})
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return refuse(413, f"Request of {declared} bytes is over the limit of {limit} bytes.")
        body = bytearray()
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > limit:
                return refuse(413, f"Request is over the limit of {limit} bytes.")
        try:
            payload = json.loads(bytes(body).decode("utf-8"))
        except ValueError:
            return refuse(400, "The request body is not valid JSON.")

        def run() -> Dict[str, Any]:
            with _compute_lock:
                return compute_metric(metric_name, payload)

        try:
            answer = await run_in_threadpool(run)
        except UnitxtError as error:
            return refuse(400, str(error))
        except Exception:
            logger.exception("metric %s failed", metric_name)
            return refuse(500, "Internal Server Error")
        count = len(payload.get("instance_inputs") or [])
        logger.info("%s: %s on %d instances in %.2f s", claims.get("sub"), metric_name, count,
                    time.perf_counter() - started)
        return JSONResponse(content=json.loads(json.dumps(answer, default=_jsonable)))

    return app


def _jsonable(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


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
    result.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0, as the original)")
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
    if not settings.metrics_master_key_token:
        logger.warning("UNITXT_METRICS_MASTER_KEY_TOKEN is not set: any bearer token is accepted.")
    uvicorn.run(app, host=arguments.host, port=arguments.port, log_config=None)


def __getattr__(name: str) -> Any:
    """`app`, built on first use (`uvicorn unitxt.service.main:app`)."""
    if name == "app":
        globals()["app"] = application = create_app()
        return application
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    start_metrics_http_service()
