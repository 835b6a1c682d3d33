"""The metrics service (`unitxt-metrics-service`): an HTTP service computing catalog metrics for callers that cannot
run them themselves (`main`: the FastAPI app and its start; `tokens`: the bearer tokens it accepts).

Layer 9 of README "The library's layers" (entry points): may import every lower layer. FastAPI and uvicorn come from
the `[service]` extra and are imported only when the service is built.
"""
