"""The OpenAI batch file format (also read by Azure OpenAI, Together AI and `vllm run-batch`): request lines, output
lines read as a stream, splitting at a provider's limits, the ids a provider chooses, and the failure message.

A request line is `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {...}}`; an output line is
`{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`. Output files are read from disk line
by line (bounded memory whatever their size); a line that is not JSON, or a custom_id found on two lines, costs only
that line's request, never the good answers of the file.
"""

import json
import re
from typing import IO, Any, Dict, Iterator, List, Optional, Sequence, Tuple

from .base import InferenceError

SAFE_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,254}\Z")
LINE_MAX_BYTES = 64 << 20  # one output line (one answer) longer than this is reported, not read
_CUSTOM_ID = re.compile(rb'"custom_id"\s*:\s*"([^"\\]{1,1000})"')


class BatchError(InferenceError):
    """Requests of a batch failed (per-request errors, an expired, cancelled or timed-out batch, a bad file)."""


def checked_id(value: Any, what: str, artifact: Optional[str] = None) -> str:
    """A provider-chosen batch or file id, refused unless it is a plain id (it goes into URL paths)."""
    if not isinstance(value, str) or not SAFE_ID.match(value) or ".." in value:
        raise BatchError(f"{what} {str(value)[:100]!r} is not a plain id (letters, digits, '_', '-', '.'); refused: "
                         f"ids are put into URL paths.", artifact=artifact)
    return value


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


def _lines(stream: IO[bytes]) -> Iterator[Tuple[int, Optional[bytes]]]:
    """(line number, line) of a binary file from its start; None for a line over LINE_MAX_BYTES (skipped)."""
    stream.seek(0)
    number = 0
    while True:
        line = stream.readline(LINE_MAX_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > LINE_MAX_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the long line
                line = stream.readline(1 << 20)
            yield number, None
            continue
        yield number, line


class OutputFile:
    """An output or error file on disk, read in two streamed passes: the custom_ids (found by pattern, cheap: the
    duplicates), then the records of the ids found on one line only. A line is used only when its parsed custom_id is
    the one the pattern found (a custom_id nested in a body never counts for the line's own). `where` names the file
    in messages; problems() is complete once records() was read through."""

    def __init__(self, stream: IO[bytes], where: str):
        self.stream = stream
        self.where = where
        self.lines: Dict[str, List[int]] = {}  # custom_id -> its line numbers (up to 3, then -1 for "more")
        self.bad: List[Tuple[int, Optional[str], str]] = []  # (line, custom_id if legible, why), the first 5
        self.bad_count = 0
        for number, line in _lines(stream):
            found = _CUSTOM_ID.search(line) if line is not None else None
            if found is not None:
                numbers = self.lines.setdefault(found.group(1).decode("utf-8", "replace"), [])
                if len(numbers) < 4:
                    numbers.append(number if len(numbers) < 3 else -1)

    def _bad(self, number: int, custom_id: Optional[str], why: str) -> None:
        self.bad_count += 1
        if len(self.bad) < 5:
            self.bad.append((number, custom_id, why))

    @property
    def duplicates(self) -> Dict[str, List[int]]:
        """{custom_id: its line numbers} of the ids found on more than one line (none of those lines is used)."""
        return {custom_id: numbers for custom_id, numbers in self.lines.items() if len(numbers) > 1}

    def records(self) -> Iterator[Tuple[str, Dict[str, Any]]]:
        """(custom_id, output line) of every readable line whose custom_id is on no other line, in file order."""
        self.bad, self.bad_count = [], 0
        for number, line in _lines(self.stream):
            if line is None:
                self._bad(number, None, "longer than the line limit")
                continue
            if not line.strip():
                continue
            found = _CUSTOM_ID.search(line)
            legible = found.group(1).decode("utf-8", "replace") if found else None
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                self._bad(number, legible, "not JSON")
                continue
            if not isinstance(record, dict) or not isinstance(record.get("custom_id"), str):
                self._bad(number, None, "no 'custom_id' string")
            elif record["custom_id"] != legible:
                self._bad(number, None, "its custom_id is not plain, or not the first one in the line")
            elif len(self.lines.get(legible, ())) == 1:
                yield legible, record

    def problems(self) -> Optional[str]:
        """One sentence on the unreadable lines and duplicated custom_ids of the file, None if there are none."""
        parts = []
        if self.bad_count:
            shown = ", ".join(f"line {number}" + (f" (custom_id {custom_id!r})" if custom_id else "") + f": {why}"
                              for number, custom_id, why in self.bad)
            parts.append(f"{self.bad_count} unreadable line(s) ({shown}{', ...' if self.bad_count > 5 else ''})")
        duplicates = self.duplicates
        if duplicates:
            shown = ", ".join(f"{custom_id!r} on lines " + ", ".join("..." if n < 0 else str(n) for n in numbers)
                              for custom_id, numbers in list(duplicates.items())[:5])
            parts.append(f"{len(duplicates)} custom_id(s) on more than one line, none of those lines used ({shown}"
                         f"{', ...' if len(duplicates) > 5 else ''})")
        return f"{self.where} has " + " and ".join(parts) if parts else None


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


def line_error_code(record: Dict[str, Any]) -> Optional[str]:
    """The error code of a failed output line (e.g. "batch_cancelled", "batch_expired"), None if it has none."""
    error = record.get("error")
    return str(error.get("code")) if isinstance(error, dict) and error.get("code") else None


def failed_rows_message(failures: Dict[int, str], total: int, kept: int, reasons: int = 10, rows: int = 10) -> str:
    """'<n> of <total> requests failed in batch mode: row 3: reason; 4 rows (5, 6, 8, 9): reason ...': rows grouped
    by identical reason, at most `reasons` reasons and `rows` row numbers each (bounded whatever the number of rows;
    the error's failed_rows lists them all)."""
    groups: Dict[str, List[int]] = {}
    for row in sorted(failures):
        groups.setdefault(failures[row], []).append(row)
    parts = []
    for reason, members in list(groups.items())[:reasons]:
        names = ", ".join(str(row) for row in members[:rows])
        more = f" and {len(members) - rows:,} more" if len(members) > rows else ""
        label = f"row {names}" if len(members) == 1 else f"{len(members):,} rows ({names}{more})"
        parts.append(f"{label}: {reason[:400]}")
    if len(groups) > reasons:
        other = sum(len(members) for members in list(groups.values())[reasons:])
        parts.append(f"{other:,} more rows with {len(groups) - reasons:,} other reasons")
    answered = f" ({kept} answered rows were kept)" if kept else ""
    return f"{len(failures):,} of {total:,} requests failed in batch mode: {'; '.join(parts)}{answered}."
