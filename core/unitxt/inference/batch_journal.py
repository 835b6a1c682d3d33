"""The journal of batch mode (`batches.journal.jsonl` next to the answer cache): what was uploaded and submitted, so
that a process killed at any point (during an upload, a create, a poll) resumes its batches instead of paying again.

Records are JSON lines, one append each (they survive kill -9): `uploaded` (an input file, with the cache keys of its
requests; written before its batch is created), `submitted` (the batch created from it), `finished`, `dropped` (an
uploaded file no batch will be made of). The file is opened without following links (a link planted at its path is
refused, its target untouched); a damaged record is skipped with a warning naming the file and line.
"""

import errno
import json
import os
import stat
import time
from typing import Any, Dict, List, Optional, Tuple

from .batch_files import SAFE_ID, BatchError

EVENTS = ("uploaded", "submitted", "finished", "dropped")


def _plain_id(value: Any) -> bool:
    return isinstance(value, str) and bool(SAFE_ID.match(value)) and ".." not in value


def record_problem(record: Any) -> Optional[str]:
    """Why a journal record can not be used (None: it can)."""
    if not isinstance(record, dict):
        return "not an object"
    event = record.get("event")
    if event not in EVENTS:
        return f"unknown event {str(event)[:40]!r}"
    if not isinstance(record.get("scope"), str):
        return "no 'scope' string"
    if event in ("submitted", "finished") and not _plain_id(record.get("batch_id")):
        return f"'batch_id' is not a plain id: {str(record.get('batch_id'))[:60]!r}"
    if event in ("uploaded", "dropped") and not _plain_id(record.get("file_id")):
        return f"'file_id' is not a plain id: {str(record.get('file_id'))[:60]!r}"
    if event == "submitted" and record.get("input_file_id") is not None and not _plain_id(record["input_file_id"]):
        return "'input_file_id' is not a plain id"
    if event in ("uploaded", "submitted"):
        keys = record.get("keys")
        if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
            return "'keys' is not a list of strings"
    return None


class BatchJournal:
    """Append-only record of uploaded, submitted and finished batches (JSON lines, one write per record)."""

    def __init__(self, directory: str):
        os.makedirs(directory, exist_ok=True)
        self.path = os.path.join(directory, "batches.journal.jsonl")

    def _open(self, flags: int) -> Optional[int]:
        """A descriptor of the journal (a regular file, never reached through a link); None if it does not exist."""
        try:
            descriptor = os.open(self.path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                                 | getattr(os, "O_CLOEXEC", 0), 0o600)
        except FileNotFoundError:
            return None
        except OSError as error:
            if error.errno == errno.ELOOP or os.path.islink(self.path):
                raise self._refused("is a symbolic link") from None
            raise BatchError(f"Can not open the batch journal {self.path}: {error}", field="cache_dir") from None
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.close(descriptor)
            raise self._refused("is not a regular file")
        return descriptor

    def _refused(self, why: str) -> BatchError:
        return BatchError(f"The batch journal {self.path} {why}; refused (it is only ever written as a regular file "
                          f"of its own). Remove it, or set cache_dir to another folder.", field="cache_dir")

    def _append(self, record: Dict[str, Any]) -> None:
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        descriptor = self._open(os.O_RDWR | os.O_CREAT | os.O_APPEND)
        try:
            size = os.fstat(descriptor).st_size
            if size and os.pread(descriptor, 1, size - 1) != b"\n":  # a line torn by a kill: end it first
                line = b"\n" + line
            os.write(descriptor, line)
        finally:
            os.close(descriptor)

    def uploaded(self, scope: str, file_id: str, keys: List[str], log_probs: bool) -> None:
        self._append({"event": "uploaded", "scope": scope, "file_id": file_id, "keys": keys, "log_probs": log_probs,
                      "time": time.time()})

    def dropped(self, scope: str, file_id: str) -> None:
        self._append({"event": "dropped", "scope": scope, "file_id": file_id, "time": time.time()})

    def submitted(self, scope: str, batch_id: str, file_id: str, keys: List[str], log_probs: bool = False) -> None:
        self._append({"event": "submitted", "scope": scope, "batch_id": batch_id, "input_file_id": file_id,
                      "keys": keys, "log_probs": log_probs, "time": time.time()})

    def finished(self, scope: str, batch_id: str, status: str) -> None:
        self._append({"event": "finished", "scope": scope, "batch_id": batch_id, "status": status,
                      "time": time.time()})

    def _records(self) -> Tuple[bytes, List[Tuple[int, Dict[str, Any]]], List[Tuple[int, str]]]:
        """(the file's bytes, its usable records with their line numbers, the damaged ones: (line, why))."""
        descriptor = self._open(os.O_RDONLY)
        if descriptor is None:
            return b"", [], []
        with os.fdopen(descriptor, "rb") as stream:
            data = stream.read()
        records, damaged = [], []
        lines = data.split(b"\n")
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                if number < len(lines):  # the unterminated last line is a write under way (or torn): not damage
                    damaged.append((number, "not JSON"))
                continue
            problem = record_problem(record)
            if problem:
                damaged.append((number, problem))
            else:
                records.append((number, record))
        return data, records, damaged

    @staticmethod
    def _open_entries(records: List[Tuple[int, Dict[str, Any]]]) -> Dict[str, Dict[str, Any]]:
        """{"batch:<id>" or "file:<id>": record} of the batches not finished and the uploads no batch came of."""
        entries: Dict[str, Dict[str, Any]] = {}
        for _, record in records:
            event = record["event"]
            scope = record["scope"]
            if event == "uploaded":
                entries[f"{scope}\0file:{record['file_id']}"] = record
            elif event == "dropped":
                entries.pop(f"{scope}\0file:{record['file_id']}", None)
            elif event == "submitted":
                if record.get("input_file_id"):
                    entries.pop(f"{scope}\0file:{record['input_file_id']}", None)
                entries[f"{scope}\0batch:{record['batch_id']}"] = record
            else:
                entries.pop(f"{scope}\0batch:{record['batch_id']}", None)
        return entries

    def compact(self) -> None:
        """Empty the journal when nothing of any scope is open (it would otherwise grow with every run)."""
        data, records, _ = self._records()
        if not data or self._open_entries(records):
            return
        descriptor = self._open(os.O_WRONLY)
        if descriptor is None:
            return
        try:
            if os.fstat(descriptor).st_size == len(data):  # nothing appended meanwhile
                os.ftruncate(descriptor, 0)
        finally:
            os.close(descriptor)

    def open_batches(self, scope: str) -> List[Dict[str, Any]]:
        """The submitted batches of this API root not yet finished, oldest first."""
        return [entry for entry in self.open_entries(scope) if entry["event"] == "submitted"]

    def open_entries(self, scope: str) -> List[Dict[str, Any]]:
        """The unfinished batches and the uploads without a batch of this API root, oldest first; damaged records
        are skipped with one warning naming the journal and their lines."""
        _, records, damaged = self._records()
        if damaged:
            from ..logging_utils import get_logger

            shown = ", ".join(f"line {number} ({why})" for number, why in damaged[:5])
            get_logger().warning(f"Batch journal {self.path}: skipping {len(damaged)} damaged record(s): {shown}"
                                 f"{', ...' if len(damaged) > 5 else ''}. The batches they name are not resumed.")
        return [record for record in self._open_entries(records).values() if record["scope"] == scope]
