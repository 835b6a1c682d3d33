"""The files and batches endpoints of the loopback OpenAI-protocol server (OpenAI's Batch API, as Azure OpenAI and
Together AI serve it), for offline tests of batch mode through the real client code.

POST /v1/files (multipart, purpose=batch) stores a JSONL file, checking the request and byte limits
(`max_file_requests`, `max_file_bytes`); POST /v1/batches creates a batch from it; each GET /v1/batches/{id} moves it
one step validating -> in_progress -> finalizing -> completed (a held batch stays in_progress until `release()`; with
`expire_batches` it ends expired; POST /v1/batches/{id}/cancel makes it cancelling, then cancelled). When it ends,
its requests are answered by the server's scripted `answer` (the first `partial` of them for an expired or cancelled
batch): status 200 answers go to the output file, others to the error file, requests never run are listed in the
error file as expired or cancelled (as OpenAI does); GET /v1/files/{id}/content serves the files; GET /v1/batches
lists the batches newest first (`limit`, `after`, `has_more`). Every call is recorded in `calls` as (method, path);
the requests answered in batches in `batch_requests`.

Hostile behaviours for the hardening tests: `create_delays` (seconds the next creates wait, the batch already made,
before answering: a late answer or a kill during the create), `output_edits(lines) -> lines` (rewrites the output
file's lines: a line that is not JSON, a duplicated custom_id, padding), `hostile_ids` ({"file", "batch", "output"}:
the id answered for an upload, a create or an output file, e.g. "../../admin/keys"), `list_status` (the list
endpoint's status: 404 for a provider without it).
"""

import json
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

STEPS = ("validating", "in_progress", "finalizing", "completed")


def parse_multipart(body: bytes, content_type: str) -> Dict[str, bytes]:
    """{field name: value bytes} of a multipart/form-data body."""
    boundary = content_type.split("boundary=", 1)[1].strip().strip('"').encode("ascii")
    fields: Dict[str, bytes] = {}
    for part in body.split(b"--" + boundary):
        if b"\r\n\r\n" not in part:
            continue
        head, value = part.split(b"\r\n\r\n", 1)
        marker = b'name="'
        if marker not in head:
            continue
        name = head.split(marker, 1)[1].split(b'"', 1)[0].decode("utf-8")
        fields[name] = value[:-2] if value.endswith(b"\r\n") else value
    return fields


class BatchService:
    """The batch state of one server (files, batches) and its scripted behaviour."""

    def __init__(self, owner: Any):
        self.owner = owner
        self.files: Dict[str, bytes] = {}
        self.batches: Dict[str, Dict[str, Any]] = {}
        self.calls: List[Tuple[str, str]] = []
        self.batch_requests: List[Dict[str, Any]] = []
        self.max_file_requests = 50_000
        self.max_file_bytes = 200 * 1024 * 1024
        self.hold = False
        self.expire_batches = False
        self.partial = 0
        self.create_delays: List[float] = []
        self.output_edits: Optional[Callable[[List[bytes]], List[bytes]]] = None
        self.hostile_ids: Dict[str, str] = {}
        self.list_status = 200
        self._lock = threading.Lock()

    def release(self) -> None:
        """Held batches move on at their next retrieve."""
        self.hold = False

    def count(self, method: str, fragment: str) -> int:
        """Calls of this method whose path contains `fragment` (e.g. ("GET", "/batches/"))."""
        return sum(1 for m, path in self.calls if m == method and fragment in path)

    # ------------------------------------------------------------------ routing
    def handle(self, method: str, path: str, headers: Any, raw: bytes, query: str = "") -> Optional[Tuple[int, Any]]:
        """(status, JSON object or bytes) for a files/batches path, None for any other path."""
        delay = 0.0
        if method == "POST" and path.rstrip("/").endswith("/batches"):
            with self._lock:
                delay = self.create_delays.pop(0) if self.create_delays else 0.0
        answer = self._handle(method, path, headers, raw, query)
        if delay:
            time.sleep(delay)  # the batch exists already; its answer comes late
        return answer

    def _handle(self, method: str, path: str, headers: Any, raw: bytes, query: str) -> Optional[Tuple[int, Any]]:
        segments = path.strip("/").split("/")  # /v1/batches/... or Azure's /openai/batches/...
        start = next((index for index, part in enumerate(segments) if part in ("files", "batches")), None)
        if start is None:
            return None
        parts = segments[start:]
        with self._lock:
            self.calls.append((method, path))
            if method == "POST" and parts == ["files"]:
                return self.upload(headers.get("Content-Type", ""), raw)
            if method == "GET" and len(parts) == 3 and parts[0] == "files" and parts[2] == "content":
                return (200, self.files[parts[1]]) if parts[1] in self.files else _missing("file", parts[1])
            if method == "POST" and parts == ["batches"]:
                return self.create(json.loads(raw or b"{}"))
            if method == "GET" and parts == ["batches"]:
                return self.listing(query)
            if parts[0] == "batches" and len(parts) >= 2 and parts[1] not in self.batches:
                return _missing("batch", parts[1])
            if method == "GET" and len(parts) == 2:
                return 200, self.retrieve(self.batches[parts[1]])
            if method == "POST" and len(parts) == 3 and parts[2] == "cancel":
                batch = self.batches[parts[1]]
                if batch["status"] not in ("completed", "failed", "expired", "cancelled"):
                    batch["status"] = "cancelling"
                return 200, dict(batch)
        return 404, {"error": {"message": f"unknown path {path}"}}

    def upload(self, content_type: str, raw: bytes) -> Tuple[int, Any]:
        if not content_type.startswith("multipart/form-data"):
            return 400, {"error": {"message": "an upload is multipart/form-data"}}
        fields = parse_multipart(raw, content_type)
        if fields.get("purpose") != b"batch" or "file" not in fields:
            return 400, {"error": {"message": "purpose=batch and a file are required"}}
        content = fields["file"]
        lines = [line for line in content.splitlines() if line.strip()]
        if len(lines) > self.max_file_requests:
            return 400, {"error": {"message": f"The batch input file has {len(lines)} requests, more than the "
                                              f"maximum of {self.max_file_requests}."}}
        if len(content) > self.max_file_bytes:
            return 413, {"error": {"message": f"File too large ({len(content)} bytes)."}}
        ids = [json.loads(line)["custom_id"] for line in lines]
        if len(set(ids)) != len(ids):
            return 400, {"error": {"message": "custom_id values must be unique in a batch file"}}
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = content
        file_id = self.hostile_ids.get("file", file_id)
        return 200, {"id": file_id, "object": "file", "bytes": len(content), "purpose": "batch"}

    def create(self, request: Dict[str, Any]) -> Tuple[int, Any]:
        file_id = request.get("input_file_id")
        if file_id not in self.files:
            return _missing("file", str(file_id))
        if request.get("endpoint") not in ("/v1/chat/completions", "/v1/completions", "/chat/completions"):
            return 400, {"error": {"message": f"unsupported endpoint {request.get('endpoint')}"}}
        batch_id = f"batch_{len(self.batches) + 1}"
        total = len([line for line in self.files[file_id].splitlines() if line.strip()])
        self.batches[batch_id] = {
            "id": batch_id, "object": "batch", "endpoint": request["endpoint"], "errors": None,
            "input_file_id": file_id, "completion_window": request.get("completion_window"), "status": "validating",
            "output_file_id": None, "error_file_id": None,
            "request_counts": {"total": total, "completed": 0, "failed": 0}}
        return 200, dict(self.batches[batch_id], id=self.hostile_ids.get("batch", batch_id))

    def listing(self, query: str) -> Tuple[int, Any]:
        if self.list_status != 200:
            return self.list_status, {"error": {"message": "listing batches is not supported"}}
        from urllib.parse import parse_qs

        options = {key: values[-1] for key, values in parse_qs(query).items()}
        newest = list(reversed(list(self.batches.values())))
        if options.get("after") in self.batches:
            newest = newest[[batch["id"] for batch in newest].index(options["after"]) + 1:]
        limit = int(options.get("limit", 20))
        page = [dict(batch) for batch in newest[:limit]]
        return 200, {"object": "list", "data": page, "has_more": len(newest) > limit,
                     "first_id": page[0]["id"] if page else None, "last_id": page[-1]["id"] if page else None}

    # ------------------------------------------------------------------ the life of a batch
    def retrieve(self, batch: Dict[str, Any]) -> Dict[str, Any]:
        status = batch["status"]
        if status == "cancelling":
            self.finish(batch, "cancelled")
        elif status in ("validating", "finalizing"):
            batch["status"] = STEPS[STEPS.index(status) + 1]
            if batch["status"] == "completed":
                self.finish(batch, "completed")
        elif status == "in_progress" and not self.hold:
            if self.expire_batches:
                self.finish(batch, "expired")
            else:
                batch["status"] = "finalizing"
        return dict(batch)

    def finish(self, batch: Dict[str, Any], status: str) -> None:
        """Answer the batch's requests (all, or the first `partial` of them) and write its files."""
        lines = [json.loads(line) for line in self.files[batch["input_file_id"]].splitlines() if line.strip()]
        answered = lines if status == "completed" else lines[:self.partial]
        output, errors = [], []
        for number, line in enumerate(answered):
            self.batch_requests.append(line["body"])
            code, body = self.owner.answer_for_batch(line["url"], line["body"])
            record = {"id": f"batch_req_{number}", "custom_id": line["custom_id"],
                      "response": {"status_code": code, "request_id": f"req_{number}", "body": body}, "error": None}
            (output if code == 200 else errors).append(record)
        if status in ("expired", "cancelled"):
            code, why = ("batch_expired", "could not be executed before the completion window expired") \
                if status == "expired" else ("batch_cancelled", "was cancelled before it could be executed")
            errors += [{"id": f"batch_req_x{number}", "custom_id": line["custom_id"], "response": None,
                        "error": {"code": code, "message": f"This request {why}."}}
                       for number, line in enumerate(lines[len(answered):])]
        for field, records in (("output_file_id", output), ("error_file_id", errors)):
            if records:
                file_id = f"file-{len(self.files) + 1}"
                encoded = [json.dumps(r).encode("utf-8") for r in records]
                if field == "output_file_id" and self.output_edits is not None:
                    encoded = self.output_edits(encoded)
                self.files[file_id] = b"".join(line + b"\n" for line in encoded)
                batch[field] = file_id
                if field == "output_file_id" and "output" in self.hostile_ids:
                    batch[field] = self.hostile_ids["output"]
        batch["status"] = status
        batch["request_counts"] = {"total": len(lines), "completed": len(output), "failed": len(errors)}


def _missing(kind: str, name: str) -> Tuple[int, Any]:
    return 404, {"error": {"message": f"No such {kind}: {name}"}}
