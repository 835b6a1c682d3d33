"""What the metrics service accepts from a caller, checked before any metric runs: the metric name (a catalog name
with `[key=value]` overrides that can neither redirect traffic nor run code), the request body's shape and types, and
how a failure becomes an answer (the caller's mistakes a 400 naming the field; a model call that failed a 502 that
never echoes the upstream answer).

Why so strict: the service runs metrics with its own credentials (e.g. a judge's OPENAI_API_KEY), so a request that
could choose an engine, a URL or an artifact's JSON could send those credentials anywhere.
"""

import contextlib
import gc
import json
import re
import threading
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..errors import UnitxtError

MAX_METRIC_NAME_CHARS = 1000
# override keys that could name where traffic goes, which credentials it uses, or code to run
_UNSAFE_OVERRIDE_KEY = re.compile(
    r"url|endpoint|host|port|engine|credential|api|key|token|header|proxy|secret|auth|expression|code|func|script|"
    r"path|dir|file|provider|model|judge|type|catalog|link|import|module|class|template|processor|cache",
    re.IGNORECASE)
_SAFE_OVERRIDE_VALUE = re.compile(r"[A-Za-z0-9_.+\-]{0,200}")


class BadRequest(UnitxtError):
    """The caller's request is wrong: answered with HTTP 400 (or `status`) and this message."""

    def __init__(self, message: str, field: Optional[str] = None, status: int = 400):
        super().__init__(message, field=field)
        self.status = status


def check_metric_name(text: str) -> str:
    """`text` when it is a catalog name with only harmless scalar overrides, else BadRequest."""
    from ..query_parser import Unquoted, parse_artifact_query

    if not isinstance(text, str) or not text.strip():
        raise BadRequest("The metric name is empty; use a catalog name such as metrics.accuracy.", field="metric_name")
    if len(text) > MAX_METRIC_NAME_CHARS:
        raise BadRequest(f"The metric name has {len(text)} characters, more than {MAX_METRIC_NAME_CHARS}.",
                         field="metric_name")
    if text.lstrip().startswith("{"):
        raise BadRequest("The service computes catalog metrics by name (e.g. metrics.accuracy); an artifact's JSON "
                         "is not accepted.", field="metric_name")
    try:
        _, overrides = parse_artifact_query(text)
    except UnitxtError as error:
        raise BadRequest(f"Invalid metric name {text[:100]!r}: {error.message}", field="metric_name") from None
    for key, value in overrides.items():
        if _UNSAFE_OVERRIDE_KEY.search(key):
            raise BadRequest(f"The override '{key}' is not accepted by the service: overrides may not choose engines, "
                             "URLs, credentials, files or code; the service's own configuration decides those.",
                             field="metric_name")
        if not isinstance(value, Unquoted) or not _SAFE_OVERRIDE_VALUE.fullmatch(str(value)):
            raise BadRequest(f"The override '{key}' must be a plain number, word or catalog name (letters, digits, "
                             "'_', '.', '-', '+'), not a list, object or quoted text.", field="metric_name")
    return text.strip()


def parse_body(body: bytearray) -> Dict[str, Any]:
    """The JSON object of a request body (emptied as it is read); BadRequest when it is not JSON or nests too
    deeply. Parsed one list item at a time, so the worker thread lets the event loop run (`/health` keeps answering
    while a 45 MB body is read) - one `json.loads` of such a body holds the interpreter for seconds. Call it within
    `gc_paused()`."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("The request body is not UTF-8 text.", field="body") from None
    body.clear()
    try:
        payload = _parse_yielding(text)
    except RecursionError:
        raise BadRequest("The request body nests too deeply.", field="body") from None
    except (ValueError, IndexError) as error:
        raise BadRequest(f"The request body is not valid JSON ({error}).", field="body") from None
    if not isinstance(payload, dict):
        raise BadRequest(f"The request body must be a JSON object, got {type(payload).__name__}.", field="body")
    return payload


_GC_STATE = {"pausers": 0, "was_enabled": False}
_GC_LOCK = threading.Lock()


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while requests are parsed and scored: a million new containers would
    trigger full collections over and over, each holding the interpreter (and `/health`) for seconds; what a
    request allocates is freed by reference counting when it ends."""
    with _GC_LOCK:
        if _GC_STATE["pausers"] == 0:
            _GC_STATE["was_enabled"] = gc.isenabled()
            gc.disable()
        _GC_STATE["pausers"] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_STATE["pausers"] -= 1
            if _GC_STATE["pausers"] == 0 and _GC_STATE["was_enabled"]:
                gc.enable()


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _parse_yielding(text: str) -> Any:
    """json.loads(text) for a JSON object whose list values are decoded item by item (same values, same errors)."""
    skip = _SPACE.match
    pos = skip(text, 0).end()
    if text[pos:pos + 1] != "{":
        return json.loads(text)
    result: Dict[str, Any] = {}
    pos = skip(text, pos + 1).end()
    if text[pos:pos + 1] != "}":
        while True:
            if text[pos:pos + 1] != '"':
                raise ValueError(f"expected a quoted key at character {pos}")
            key, pos = _DECODER.raw_decode(text, pos)
            pos = skip(text, pos).end()
            if text[pos:pos + 1] != ":":
                raise ValueError(f"expected ':' at character {pos}")
            pos = skip(text, pos + 1).end()
            if text[pos:pos + 1] == "[":
                result[key], pos = _list_yielding(text, pos)
            else:
                result[key], pos = _DECODER.raw_decode(text, pos)
            pos = skip(text, pos).end()
            if text[pos:pos + 1] == ",":
                pos = skip(text, pos + 1).end()
                continue
            if text[pos:pos + 1] == "}":
                break
            raise ValueError(f"expected ',' or '}}' at character {pos}")
    if skip(text, pos + 1).end() != len(text):
        raise ValueError(f"extra data after character {pos}")
    return result


def _list_yielding(text: str, pos: int) -> Tuple[List[Any], int]:
    items: List[Any] = []
    append, scan, skip = items.append, _DECODER.scan_once, _SPACE.match
    pos = skip(text, pos + 1).end()
    if text[pos:pos + 1] == "]":
        return items, pos + 1
    while True:
        try:
            item, pos = scan(text, pos)
        except StopIteration as stop:
            raise ValueError(f"expecting a value at character {stop.value}") from None
        append(item)
        char = text[pos:pos + 1]
        if char in _BLANKS:
            pos = skip(text, pos).end()
            char = text[pos:pos + 1]
        if char == ",":
            pos += 1
            if text[pos:pos + 1] in _BLANKS:
                pos = skip(text, pos).end()
            continue
        if char == "]":
            return items, pos + 1
        raise ValueError(f"expected ',' or ']' at character {pos}")


_BLANKS = (" ", "\t", "\n", "\r")


def metric_inputs(payload: Dict[str, Any]) -> Tuple[List[Any], List[List[Any]], List[Dict[str, Any]]]:
    """(predictions, references, task data) of `{"instance_inputs": [{"prediction", "references",
    "additional_inputs"}]}`; BadRequest naming the first wrong field."""
    inputs = payload.get("instance_inputs")
    if not isinstance(inputs, list):
        raise BadRequest("The request must be {'instance_inputs': [{'prediction', 'references', 'additional_inputs'}, "
                         f"...]}}; 'instance_inputs' is {type(inputs).__name__}.", field="instance_inputs")
    predictions, references, task_data = [], [], []
    for index, item in enumerate(inputs):
        where = f"instance_inputs[{index}]"
        if not isinstance(item, dict) or "prediction" not in item:
            raise BadRequest(f"{where} must be an object with a 'prediction'.", field=where)
        refs = item.get("references")
        if refs is None:
            refs = []
        elif not isinstance(refs, list):
            raise BadRequest(f"{where}.references must be a list, got {type(refs).__name__}.",
                             field=f"{where}.references")
        extra = item.get("additional_inputs")
        if extra is None:
            extra = {}
        elif not isinstance(extra, dict):
            raise BadRequest(f"{where}.additional_inputs must be an object, got {type(extra).__name__}.",
                             field=f"{where}.additional_inputs")
        predictions.append(item["prediction"])
        references.append(refs)
        task_data.append(extra)
    inputs.clear()  # the instance dicts are no longer needed: their memory goes back before scoring
    return predictions, references, task_data


def compute_metric(metric_name: str, payload: Dict[str, Any]) -> Dict[str, Any]:
    """The scores of catalog metric `metric_name` on the request's instances (what `POST /compute/...` answers)."""
    from ..catalog import fetch_artifact
    from ..metrics.base import Metric

    check_metric_name(metric_name)
    predictions, references, task_data = metric_inputs(payload)
    metric, _ = fetch_artifact(metric_name)
    if not isinstance(metric, Metric):
        raise BadRequest(f"'{metric_name}' is a {type(metric).__name__}, not a metric.", field="metric_name")
    if not predictions:
        return {"instances_scores": [], "global_score": {}}
    scores = metric.evaluate(predictions, references, task_data)
    for values in (predictions, references, task_data):
        release(values)
    return {"instances_scores": [dict(item) for item in metric.instance_results(scores)],
            "global_score": scores.global_scores(with_ci=False)}


def release(values: List[Any]) -> None:
    """Empty a long list a slice at a time: freeing a million values in one C call holds the interpreter (and the
    event loop) for a second."""
    while values:
        del values[-5000:]


def answer_bytes(answer: Dict[str, Any]) -> bytes:
    """The answer as JSON; NaN (and infinities) as the literals Python's json writes, as `evaluate()` keeps them.
    Instance scores are written in slices, so the event loop runs between them (see `parse_body`)."""
    scores = answer["instances_scores"]
    parts = [json.dumps(scores[start:start + 2000], default=_jsonable)[1:-1] for start in range(0, len(scores), 2000)]
    release(scores)
    global_score = json.dumps(answer["global_score"], default=_jsonable)
    return ('{"instances_scores": [' + ", ".join(parts) + '], "global_score": ' + global_score + "}").encode("utf-8")


def _jsonable(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, tuple)):
        return list(value)
    return str(value)


def failure_answer(metric_name: str, error: BaseException) -> Tuple[int, str]:
    """(HTTP status, message) for a failed computation. A failed model call (a judge's engine) is a 502 whose
    message never carries what the upstream server said; the caller's own mistakes are a 400 with the reason."""
    from ..inference.base import InferenceError

    if any(isinstance(cause, InferenceError) for cause in _causes(error)):
        return 502, (f"The metric '{metric_name[:100]}' could not get its model's answers; the details are in the "
                     "service's log.")
    if isinstance(error, RecursionError):
        return 400, "The request's values nest too deeply."
    if isinstance(error, BadRequest):
        return error.status, str(error)
    if isinstance(error, (UnitxtError, TypeError, ValueError, KeyError)):  # the inputs do not suit the metric
        message = f"{str(error)}" if isinstance(error, UnitxtError) else f"{type(error).__name__}: {error}"
        return 400, message[:2000] + ("..." if len(message) > 2000 else "")
    return 500, "Internal Server Error"


def _causes(error: BaseException) -> List[BaseException]:
    chain, seen = [], set()
    while error is not None and id(error) not in seen and len(chain) < 20:
        seen.add(id(error))
        chain.append(error)
        error = error.__cause__ or error.__context__
    return chain

