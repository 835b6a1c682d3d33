"""Batch mode of the OpenAI-protocol engines: the uncached requests of a run go to the provider's batch API (OpenAI,
Azure OpenAI, Together AI: about half the price of live requests), are polled until done, and come back in row order.

`run_batches(engine, inputs, rows, log_probs)` turns the requests into batch files (custom_id = the request's cache
key, so duplicates go once and any process can file an answer under its cache entry), split at the provider's
request and byte limits, uploads each (POST files), creates its batch (POST batches) and journals the batch id at once
(`batches.journal.jsonl` next to the cache, one append per record: it survives kill -9). A rerun finds the journaled
batches that still hold its requests and polls them instead of submitting again. Each finished batch's answers are
read with the engine's own answer checks and handed to the engine (so they are cached as they arrive, the same entries
as live answers). Per-request errors, expired or cancelled batches and batches past `batch_timeout` (then cancelled)
end in one BatchError naming every failed row, the received answers kept; `batch_fallback="live"` sends the failed
requests one by one instead.
"""

import json
import os
import time
from typing import Any, Dict, List, Optional, Set

from .base import EngineInput, TextGenerationInferenceOutput
from .batch_files import BatchError, failed_rows_message, line_answer, multipart_file, parse_output_lines, \
    request_line, split_lines
from .concurrency import RequestError, with_retries

# engine fields of batch mode: none changes an answer, so none is in the cache key
BATCH_FIELDS = ("batch", "batch_poll_interval", "batch_poll_max_interval", "batch_timeout", "batch_fallback",
                "batch_max_requests", "batch_max_bytes", "batch_completion_window")
TERMINAL = ("completed", "failed", "expired", "cancelled")
OUTPUT_MAX_BYTES = 1 << 34  # an output file of 50,000 long answers is far above a live answer's cap


class BatchJournal:
    """Append-only record of submitted and finished batches (JSON lines, one write per record)."""

    def __init__(self, directory: str):
        os.makedirs(directory, exist_ok=True)
        self.path = os.path.join(directory, "batches.journal.jsonl")

    def _append(self, record: Dict[str, Any]) -> None:
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(descriptor, line)
        finally:
            os.close(descriptor)

    def submitted(self, scope: str, batch_id: str, file_id: str, keys: List[str]) -> None:
        self._append({"event": "submitted", "scope": scope, "batch_id": batch_id, "input_file_id": file_id,
                      "keys": keys, "time": time.time()})

    def finished(self, scope: str, batch_id: str, status: str) -> None:
        self._append({"event": "finished", "scope": scope, "batch_id": batch_id, "status": status,
                      "time": time.time()})

    def compact(self) -> None:
        """Empty the journal when no batch of any scope is open (it would otherwise grow with every run)."""
        try:
            with open(self.path, "rb") as stream:
                data = stream.read()
        except FileNotFoundError:
            return
        open_ids: Set[str] = set()
        for line in data.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("event") == "submitted":
                open_ids.add(record.get("batch_id"))
            elif isinstance(record, dict) and record.get("event") == "finished":
                open_ids.discard(record.get("batch_id"))
        if not open_ids and os.path.getsize(self.path) == len(data):  # nothing appended meanwhile
            os.truncate(self.path, 0)

    def open_batches(self, scope: str) -> List[Dict[str, Any]]:
        """The submitted batches of this API root not yet finished, oldest first (torn lines of a kill skipped)."""
        try:
            with open(self.path, "rb") as stream:
                lines = stream.read().splitlines()
        except FileNotFoundError:
            return []
        submitted: Dict[str, Dict[str, Any]] = {}
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict) or record.get("scope") != scope:
                continue
            if record.get("event") == "submitted" and isinstance(record.get("keys"), list):
                submitted[record["batch_id"]] = record
            elif record.get("event") == "finished":
                submitted.pop(record.get("batch_id"), None)
        return list(submitted.values())


class BatchRun:
    """One engine call in batch mode: submit (or resume), poll, read, report, fail or fall back."""

    def __init__(self, engine: Any, inputs: List[EngineInput], rows: List[Dict[str, Any]], log_probs: bool):
        self.engine = engine
        self.inputs = inputs
        self.log_probs = log_probs
        self.client = engine.batch_client()
        self.scope = engine.batch_scope()
        from .cache import default_cache_dir

        self.journal = BatchJournal(engine.cache_dir or default_cache_dir())
        keys = getattr(engine, "_missing_keys", None)
        if not keys or len(keys) != len(inputs):
            keys = engine.request_keys(inputs, rows, "log_probs" if log_probs else "generate")
        self.keys = keys
        self.positions: Dict[str, List[int]] = {}
        for position, key in enumerate(keys):
            self.positions.setdefault(key, []).append(position)
        self.outputs: List[Optional[TextGenerationInferenceOutput]] = [None] * len(inputs)
        self.failures: Dict[str, str] = {}

    # ------------------------------------------------------------------ HTTP, with the engine's retries
    def call(self, method: str, path: str, body: Any = None, raw: bool = False) -> Any:
        def once():
            if method == "GET":
                return self.client.request("GET", path, max_bytes=OUTPUT_MAX_BYTES) if raw else self.client.get(path)
            if isinstance(body, tuple):  # (payload, content type): an upload
                return self.client.post_bytes(path, *body)
            return self.client.post(path, body or {})

        try:
            return with_retries(once, self.engine.max_retries, self.engine.retry_base_delay,
                                self.engine.retry_max_delay, label=f"{type(self.engine).__name__} batch")
        except RequestError as error:
            error.artifact = error.artifact or self.engine.artifact_name
            error.args = (error._compose(),)
            raise

    # ------------------------------------------------------------------ the run
    def run(self) -> List[Optional[TextGenerationInferenceOutput]]:
        pending: Set[str] = set(self.positions)
        tracked: List[Dict[str, Any]] = []
        for record in self.journal.open_batches(self.scope):
            if pending.intersection(record["keys"]) and self.still_known(record["batch_id"]):
                tracked.append({"id": record["batch_id"], "keys": record["keys"]})
                pending.difference_update(record["keys"])
        if tracked:
            from ..logging_utils import get_logger

            get_logger().info(f"{type(self.engine).__name__}: resuming {len(tracked)} submitted batch(es) "
                              f"({', '.join(batch['id'] for batch in tracked)}).")
        tracked += self.submit([key for key in dict.fromkeys(self.keys) if key in pending])
        self.wait(tracked)
        self.journal.compact()
        if self.failures:
            self.handle_failures()
        return self.outputs

    def still_known(self, batch_id: str) -> bool:
        """Whether the provider still has a journaled batch (one it no longer knows is closed and asked again)."""
        try:
            self.call("GET", f"batches/{batch_id}")
        except RequestError as error:
            if error.status != 404:
                raise
            self.journal.finished(self.scope, batch_id, "not found")
            return False
        return True

    def submit(self, keys: List[str]) -> List[Dict[str, Any]]:
        """Upload the requests of `keys` as few files as the limits allow and create one batch per file."""
        if not keys:
            return []
        url = self.engine.batch_url()
        lines = [request_line(key, url, self.engine.request_body(self.inputs[self.positions[key][0]],
                                                                 self.log_probs)) for key in keys]
        max_requests, max_bytes = self.engine.batch_limits()
        batches = []
        for number, (start, end) in enumerate(split_lines([len(line) for line in lines], max_requests, max_bytes)):
            payload = multipart_file(b"".join(lines[start:end]), f"unitxt-batch-{number}.jsonl")
            uploaded = self.call("POST", "files", payload)
            file_id = uploaded.get("id")
            if not isinstance(file_id, str):
                raise BatchError(f"The files endpoint answered without a file id: {str(uploaded)[:300]}",
                                 artifact=self.engine.artifact_name)
            created = self.call("POST", "batches", {"input_file_id": file_id, "endpoint": url,
                                                    "completion_window": self.engine.batch_completion_window})
            batch_id = created.get("id")
            if not isinstance(batch_id, str):
                raise BatchError(f"The batches endpoint answered without a batch id: {str(created)[:300]}",
                                 artifact=self.engine.artifact_name)
            self.journal.submitted(self.scope, batch_id, file_id, keys[start:end])
            batches.append({"id": batch_id, "keys": keys[start:end]})
        return batches

    def wait(self, batches: List[Dict[str, Any]]) -> None:
        """Poll every unfinished batch each round (sleeping between rounds, longer while nothing changes); read each
        batch as it finishes; past batch_timeout cancel the rest and read what they produced."""
        interval = max(0.0, float(self.engine.batch_poll_interval))
        ceiling = max(interval, float(self.engine.batch_poll_max_interval or interval))
        deadline = time.monotonic() + float(self.engine.batch_timeout)
        waiting = list(batches)
        statuses: Dict[str, str] = {}
        cancelled: Set[str] = set()
        while waiting:
            changed = False
            for batch in list(waiting):
                state = self.call("GET", f"batches/{batch['id']}")
                status = str(state.get("status"))
                changed |= statuses.get(batch["id"]) != status
                statuses[batch["id"]] = status
                if status in TERMINAL:
                    reason = "did not finish within batch_timeout and was cancelled" \
                        if batch["id"] in cancelled else None
                    self.read(batch, state, reason)
                    waiting.remove(batch)
            if not waiting:
                break
            if time.monotonic() >= deadline:
                if cancelled:  # the cancel did not settle: these rows fail; the journal keeps the batch for a rerun
                    for batch in waiting:
                        for key in batch["keys"]:
                            if key in self.positions:
                                self.failures[key] = f"batch {batch['id']} did not finish within batch_timeout " \
                                                     f"and did not confirm its cancel"
                    break
                for batch in waiting:
                    self.call("POST", f"batches/{batch['id']}/cancel")
                    cancelled.add(batch["id"])
                deadline = time.monotonic() + min(600.0, max(1.0, 10 * ceiling))  # a cancel settles within this
            interval = interval if changed else min(ceiling, max(interval * 1.5, 0.001))
            time.sleep(interval)

    def read(self, batch: Dict[str, Any], state: Dict[str, Any], reason: Optional[str]) -> None:
        """Hand the batch's good answers to the engine; note why each other request failed; journal it finished."""
        status = str(state.get("status"))
        records: Dict[str, Dict[str, Any]] = {}
        for field in ("error_file_id", "output_file_id"):  # output lines win over error lines of the same request
            file_id = state.get(field)
            if isinstance(file_id, str) and file_id:
                data = self.call("GET", f"files/{file_id}/content", raw=True)
                records.update(parse_output_lines(data, f"Batch {batch['id']} {field.split('_')[0]} file"))
        for key in batch["keys"]:
            if key not in self.positions:  # a request of another run in the same batch
                continue
            record = records.get(key)
            if record is None:
                self.failures[key] = f"batch {batch['id']} {reason or status} without an answer for it" + \
                    self.batch_errors(state)
                continue
            body, failure = line_answer(record)
            if body is None:
                self.failures[key] = f"batch {batch['id']}: {failure}"
                continue
            first = self.positions[key][0]
            try:
                output = self.engine.read_answer(body, self.inputs[first], self.log_probs)
            except BatchError:
                raise
            except Exception as error:  # a malformed answer: not cached, a failure of that row
                self.failures[key] = f"batch {batch['id']}: {getattr(error, 'message', error)}"
                continue
            for position in self.positions[key]:
                self.outputs[position] = output
                self.engine.report(position, output)
        self.journal.finished(self.scope, batch["id"], status)

    @staticmethod
    def batch_errors(state: Dict[str, Any]) -> str:
        errors = state.get("errors")
        data = errors.get("data") if isinstance(errors, dict) else None
        if isinstance(data, list) and data:
            return " (" + "; ".join(str(item.get("message", item)) if isinstance(item, dict) else str(item)
                                    for item in data[:3]) + ")"
        return ""

    def handle_failures(self) -> None:
        """Send the failed requests live (batch_fallback="live"), else raise one BatchError naming every row."""
        failed_keys = [key for key in dict.fromkeys(self.keys) if key in self.failures]
        if self.engine.batch_fallback == "live":
            from ..logging_utils import get_logger

            get_logger().warning(f"{type(self.engine).__name__}: {len(failed_keys)} request(s) failed in batch mode; "
                                 f"sending them live (batch_fallback='live').")
            self.live(failed_keys)
            return
        caller_rows = getattr(self.engine, "_missing_rows", None) or list(range(len(self.inputs)))
        failures = {caller_rows[position]: self.failures[key] for key in failed_keys
                    for position in self.positions[key]}
        kept = sum(output is not None for output in self.outputs)
        error = BatchError(failed_rows_message(failures, len(self.inputs), kept), artifact=self.engine.artifact_name)
        error.failed_rows = sorted(failures)
        raise error

    def live(self, keys: List[str]) -> None:
        """Send these requests one by one (the engine's parallelism and retries), filing each answer as it arrives;
        a request that fails live too is raised naming its row."""
        from .concurrency import run_all

        engine = self.engine

        def one(key: str) -> TextGenerationInferenceOutput:
            item = self.inputs[self.positions[key][0]]
            return with_retries(lambda: engine.send(item, log_probs=self.log_probs), engine.max_retries,
                                engine.retry_base_delay, engine.retry_max_delay, label=type(engine).__name__)

        def file(index: int, output: TextGenerationInferenceOutput) -> None:
            for position in self.positions[keys[index]]:
                self.outputs[position] = output
                engine.report(position, output)

        try:
            run_all(one, keys, engine.num_parallel_requests, on_result=file,
                    description=f"{type(engine).__name__} fallback", show_progress=engine.show_progress)
        except BaseException as error:
            index = getattr(error, "position", None)
            if isinstance(index, int) and 0 <= index < len(keys):  # the failed request's place in the engine call
                error.position = self.positions[keys[index]][0]
            raise


def run_batches(engine: Any, inputs: List[EngineInput], rows: List[Dict[str, Any]], log_probs: bool = False
                ) -> List[Optional[TextGenerationInferenceOutput]]:
    """The answers of `inputs` through the engine's batch API, in input order (see the module docstring)."""
    return BatchRun(engine, inputs, rows, log_probs).run()
