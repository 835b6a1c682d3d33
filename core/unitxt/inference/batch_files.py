"""The OpenAI batch file format (also read by Azure OpenAI, Together AI and `vllm run-batch`): request lines, output
lines, splitting at a provider's limits, and the offline round trip of a recipe's requests.

A request line is `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {...}}`; an output line is
`{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`. Offline files name each row
`row-<index>` (its position in the evaluated data), so an output file produced elsewhere is matched back by custom_id.
"""

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .base import InferenceError, TextGenerationInferenceOutput, engine_input, rows_of


class BatchError(InferenceError):
    """Requests of a batch failed (per-request errors, an expired, cancelled or timed-out batch, a bad file)."""


def request_line(custom_id: str, url: str, body: Dict[str, Any]) -> bytes:
    """One request of a batch input file, as UTF-8 JSON with its newline."""
    line = {"custom_id": custom_id, "method": "POST", "url": url, "body": body}
    return (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def split_lines(sizes: Sequence[int], max_requests: int, max_bytes: int) -> List[Tuple[int, int]]:
    """[start, end) ranges of consecutive lines, each within both limits, as few as the limits allow (filling each
    file before opening the next is optimal for consecutive ranges)."""
    ranges: List[Tuple[int, int]] = []
    start, size = 0, 0
    for index, line_size in enumerate(sizes):
        if line_size > max_bytes:
            raise BatchError(f"Request {index} alone is {line_size:,} bytes, more than a batch file may hold "
                             f"({max_bytes:,}); send it live (batch=False).", field="batch_max_bytes")
        if index > start and (index - start >= max_requests or size + line_size > max_bytes):
            ranges.append((start, index))
            start, size = index, 0
        size += line_size
    if start < len(sizes):
        ranges.append((start, len(sizes)))
    return ranges


def multipart_file(content: bytes, filename: str, purpose: str = "batch") -> Tuple[bytes, str]:
    """The body and Content-Type of a files upload (multipart/form-data with `purpose` and `file`)."""
    import uuid

    boundary = f"unitxt-{uuid.uuid4().hex}"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n{purpose}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n"
            f"Content-Type: application/jsonl\r\n\r\n").encode("utf-8")
    return head + content + f"\r\n--{boundary}--\r\n".encode("utf-8"), f"multipart/form-data; boundary={boundary}"


def parse_output_lines(data: bytes, where: str) -> Dict[str, Dict[str, Any]]:
    """{custom_id: output line} of an output or error file; a line that is not an object with a custom_id is a
    BatchError naming the line (a file cut short is not silently half read)."""
    found: Dict[str, Dict[str, Any]] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise BatchError(f"{where}, line {number}: not JSON: {line[:200]!r}") from None
        if not isinstance(record, dict) or not isinstance(record.get("custom_id"), str):
            raise BatchError(f"{where}, line {number}: an output line needs a 'custom_id' string: {str(record)[:200]}")
        found[record["custom_id"]] = record
    return found


def line_answer(record: Dict[str, Any]) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
    """(the response body, None) of a successful output line, else (None, the reason it failed)."""
    error = record.get("error")
    response = record.get("response") if isinstance(record.get("response"), dict) else None
    if error:
        if isinstance(error, dict):
            return None, f"{error.get('code') or 'error'}: {error.get('message') or ''}".strip()
        return None, str(error)[:300]
    if response is None:
        return None, "the output line has no response"
    status = response.get("status_code")
    body = response.get("body")
    if status != 200:
        detail = body.get("error") if isinstance(body, dict) else body
        if isinstance(detail, dict):
            detail = detail.get("message", detail)
        return None, f"HTTP {status}: {str(detail)[:300]}"
    if not isinstance(body, dict):
        return None, f"the response body is {type(body).__name__}, not an object"
    return body, None


def failed_rows_message(failures: Dict[int, str], total: int, kept: int, limit: int = 20) -> str:
    """'<n> of <total> requests failed: row 3: reason; row 7: reason ...' (every row named, reasons up to `limit`)."""
    rows = sorted(failures)
    shown = "; ".join(f"row {row}: {failures[row]}" for row in rows[:limit])
    rest = f"; the other failed rows: {', '.join(str(row) for row in rows[limit:])}" if len(rows) > limit else ""
    answered = f" ({kept} answered rows were kept)" if kept else ""
    return f"{len(rows)} of {total} requests failed in batch mode: {shown}{rest}{answered}."


# ---------------------------------------------------------------------------------------------- offline round trip
def _provider_engine(engine: Any) -> Any:
    """The engine that speaks the protocol (a CrossProviderInferenceEngine's provider engine)."""
    return engine.engine() if hasattr(engine, "provider_model_name") else engine


def _checked_rows(engine: Any, dataset: Any) -> Tuple[Any, List[Dict[str, Any]], list]:
    engine = _provider_engine(engine)
    if not hasattr(engine, "request_body") or not hasattr(engine, "read_answer"):
        raise BatchError(f"{type(engine).__name__} does not speak the OpenAI protocol; batch files need an "
                         f"OpenAI-protocol engine (OpenAiInferenceEngine, VLLMRemoteInferenceEngine, ...).")
    rows = rows_of(dataset)
    engine.check_policy(rows)
    inputs = [engine_input(row, index) for index, row in enumerate(rows)]
    engine.before_infer(rows)
    return engine, rows, inputs


def write_batch_input(engine: Any, dataset: Any, path: str, log_probs: bool = False) -> int:
    """Write one request line per row (custom_id `row-<index>`) to `path`; the number of lines. The rows pass the
    engine's data policy first, as if they were sent."""
    engine, rows, inputs = _checked_rows(engine, dataset)
    url = engine.batch_url()
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as stream:
        for index, item in enumerate(inputs):
            stream.write(request_line(f"row-{index}", url, engine.request_body(item, log_probs)))
    return len(inputs)


def read_batch_output(engine: Any, dataset: Any, paths: Iterable[str], log_probs: bool = False
                      ) -> List[TextGenerationInferenceOutput]:
    """The answers of an output file (and error files) produced elsewhere, in row order, matched by custom_id
    `row-<index>`; each is checked as a live answer and stored in the engine's cache (the same entry a live request
    of that row would have). Rows without a good answer: a BatchError naming every one (the good answers are kept)."""
    engine, rows, inputs = _checked_rows(engine, dataset)
    records: Dict[str, Dict[str, Any]] = {}
    for path in [paths] if isinstance(paths, str) else paths:
        try:
            with open(path, "rb") as stream:
                data = stream.read()
        except OSError as error:
            raise BatchError(f"Can not read the batch output file {path!r}: {error}", field="--batch-file-in") \
                from None
        for custom_id, record in parse_output_lines(data, f"Batch output file {path!r}").items():
            if custom_id not in records or line_answer(record)[0] is not None:
                records[custom_id] = record
    unknown = sorted(set(records) - {f"row-{index}" for index in range(len(rows))})
    if unknown:
        raise BatchError(f"The batch output names custom_ids that match no row of the {len(rows)} rows "
                         f"(row-0 ... row-{len(rows) - 1}): {', '.join(unknown[:10])}.", field="custom_id")
    mode = "log_probs" if log_probs else "generate"
    keys = engine.request_keys(inputs, rows, mode)
    cache = engine._cache()
    outputs: List[Optional[TextGenerationInferenceOutput]] = [None] * len(rows)
    failures: Dict[int, str] = {}
    for index, item in enumerate(inputs):
        record = records.get(f"row-{index}")
        if record is None:
            failures[index] = "no line with this custom_id in the output file"
            continue
        body, reason = line_answer(record)
        if body is None:
            failures[index] = reason
            continue
        try:
            outputs[index] = engine.read_answer(body, item, log_probs)
        except InferenceError as error:
            failures[index] = error.message
            continue
        if cache is not None:
            cache.put(keys[index], outputs[index].to_dict())
    if cache is not None:
        cache.flush()
    if failures:
        error = BatchError(failed_rows_message(failures, len(rows), len(rows) - len(failures)),
                           artifact=engine.artifact_name)
        error.answers = [output.prediction if output is not None else None for output in outputs]
        error.failed_rows = sorted(failures)
        raise error
    return outputs
