"""Batch mode of the OpenAI-protocol engines: the uncached requests of a run go to the provider's batch API (OpenAI,
Azure OpenAI, Together AI: about half the price of live requests), are polled until done, and come back in row order.

`run_batches(engine, inputs, rows, log_probs)` turns the requests into batch files (custom_id = the request's cache
key, so duplicates go once and any process can file an answer under its cache entry), split at the provider's
request and byte limits (and split further, with a log line, when the provider refuses a file as too large). Each file
is uploaded and journaled (batch_journal.py) before its batch is created, and a batch is created only when the batches
list has none for that input file: a kill during the create, or a create answer lost to a timeout and retried, never
makes a second paid batch. A rerun resumes the journaled batches holding its requests. The batch id is logged when
created and its request counts at every poll (INFO). Each finished batch's output and error files are streamed to disk
and read line by line; every good answer is cached, also those of requests the current call does not hold (a resume
with fewer rows loses nothing paid for). Failures end in one BatchError grouping identical reasons (a batch cancelled
for `batch_timeout` says so, with the value and the batch id); `batch_fallback="live"` sends the failed requests one
by one instead.
"""

import math
import re
import tempfile
import time
from typing import Any, Dict, List, Optional, Set

from .base import EngineInput, TextGenerationInferenceOutput
from .batch_files import BatchError, OutputFile, checked_id, failed_rows_message, line_answer, line_error_code, \
    multipart_file, request_line, split_lines
from .batch_journal import BatchJournal  # noqa: F401 (also imported from here)
from .concurrency import RequestError, with_retries

# engine fields of batch mode: none changes an answer, so none is in the cache key
BATCH_FIELDS = ("batch", "batch_poll_interval", "batch_poll_max_interval", "batch_timeout", "batch_fallback",
                "batch_max_requests", "batch_max_bytes", "batch_completion_window")
TERMINAL = ("completed", "failed", "expired", "cancelled")
OUTPUT_MAX_BYTES = 1 << 34  # an output file of 50,000 long answers is far above a live answer's cap (streamed to disk)
LIST_PAGES = 20  # pages of 100 batches searched for the batch of an input file (newest first)
TOO_LARGE = re.compile(r"too (large|big|many)|exceed|maximum|limit|size", re.IGNORECASE)


def _logger():
    from ..logging_utils import get_logger

    return get_logger()


def check_batch_settings(engine: Any) -> None:
    """Refuse timeouts, poll intervals and limits that are not finite positive numbers (NaN would poll forever)."""
    for name, optional, integer in (("batch_timeout", False, False), ("batch_poll_interval", False, False),
                                    ("batch_poll_max_interval", True, False), ("batch_max_requests", True, True),
                                    ("batch_max_bytes", True, True)):
        value = getattr(engine, name, None)
        if value is None and optional:
            continue
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or value <= 0 or (integer and int(value) != value):
            kind = "a positive whole number" if integer else "a finite number of seconds above 0"
            raise BatchError(f"{name} must be {kind}, got {value!r}.", artifact=engine.artifact_name, field=name)


class BatchRun:
    """One engine call in batch mode: submit (or resume), poll, read, report, fail or fall back."""

    def __init__(self, engine: Any, inputs: List[EngineInput], rows: List[Dict[str, Any]], log_probs: bool):
        check_batch_settings(engine)
        self.engine = engine
        self.name = type(engine).__name__
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
        self.notes: List[str] = []  # file problems, said once at the end
        self.cancelled: Set[str] = set()
        self.listing = True  # False once the provider answered that it does not list batches

    # ------------------------------------------------------------------ HTTP, with the engine's retries
    def call(self, method: str, path: str, body: Any = None, sink: Any = None, retried: bool = True) -> Any:
        def once():
            if method == "GET":
                if sink is not None:
                    return self.client.request("GET", path, max_bytes=OUTPUT_MAX_BYTES, sink=sink)
                return self.client.get(path)
            if isinstance(body, tuple):  # (payload, content type): an upload
                return self.client.post_bytes(path, *body)
            return self.client.post(path, body or {})

        try:
            if not retried:
                return once()
            return with_retries(once, self.engine.max_retries, self.engine.retry_base_delay,
                                self.engine.retry_max_delay, label=f"{self.name} batch")
        except RequestError as error:
            error.artifact = error.artifact or self.engine.artifact_name
            error.args = (error._compose(),)
            raise

    def checked(self, value: Any, what: str) -> str:
        return checked_id(value, what, self.engine.artifact_name)

    # ------------------------------------------------------------------ the run
    def run(self) -> List[Optional[TextGenerationInferenceOutput]]:
        pending: Set[str] = set(self.positions)
        tracked: List[Dict[str, Any]] = []
        for entry in self.journal.open_entries(self.scope):
            if not pending.intersection(entry["keys"]):
                continue
            batch = self.resume(entry)
            if batch is not None:
                tracked.append(batch)
                pending.difference_update(entry["keys"])
        if tracked:
            _logger().info(f"{self.name}: resuming {len(tracked)} submitted batch(es) "
                           f"({', '.join(batch['id'] for batch in tracked)}).")
        tracked += self.submit([key for key in dict.fromkeys(self.keys) if key in pending])
        self.wait(tracked)
        self.journal.compact()
        if self.failures:
            self.handle_failures()
        elif self.notes:
            _logger().warning(f"{self.name}: " + "; ".join(self.notes) + ".")
        return self.outputs

    def resume(self, entry: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """The batch of a journal entry to poll (a journaled upload: the batch made of it, found or created now);
        None when the provider no longer knows it (then it is asked again)."""
        log_probs = bool(entry.get("log_probs", self.log_probs))
        if entry["event"] == "submitted":
            if self.still_known(entry["batch_id"]):
                return {"id": entry["batch_id"], "keys": entry["keys"], "log_probs": log_probs}
            return None
        batch_id = self.create(entry["file_id"], entry["keys"], log_probs)
        return None if batch_id is None else {"id": batch_id, "keys": entry["keys"], "log_probs": log_probs}

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
        """Upload the requests of `keys` as few files as the limits allow and create one batch per file; a file the
        provider refuses as too large is split in two and tried again."""
        if not keys:
            return []
        url = self.engine.batch_url()
        lines = [request_line(key, url, self.engine.request_body(self.inputs[self.positions[key][0]],
                                                                 self.log_probs)) for key in keys]
        max_requests, max_bytes = self.engine.batch_limits()
        queue = split_lines([len(line) for line in lines], max_requests, max_bytes)
        batches = []
        while queue:
            start, end = queue.pop(0)
            try:
                batch_id = self.submit_file(b"".join(lines[start:end]), keys[start:end], len(batches))
            except RequestError as error:
                if error.status not in (400, 413) or (error.status == 400 and not TOO_LARGE.search(error.message)):
                    raise
                size = sum(len(line) for line in lines[start:end])
                if end - start == 1:
                    raise BatchError(f"The provider refused a batch file of one request ({size:,} bytes) as too "
                                     f"large ({error.message}); lower batch_max_bytes / batch_max_requests or send "
                                     f"it live (batch=False).", artifact=self.engine.artifact_name,
                                     field="batch_max_bytes") from None
                middle = (start + end) // 2
                _logger().info(f"{self.name}: the provider refused a batch file of {end - start:,} requests "
                               f"({size:,} bytes) as too large ({error.message[:200]}); splitting it in two "
                               f"(batch_max_requests / batch_max_bytes set to the provider's limits avoid this).")
                queue[:0] = [(start, middle), (middle, end)]
                continue
            if batch_id is not None:
                batches.append({"id": batch_id, "keys": keys[start:end], "log_probs": self.log_probs})
        return batches

    def submit_file(self, content: bytes, keys: List[str], number: int) -> Optional[str]:
        """Upload one batch file, journal it, create its batch; the batch id."""
        uploaded = self.call("POST", "files", multipart_file(content, f"unitxt-batch-{number}.jsonl"))
        file_id = self.checked(uploaded.get("id"), "The file id the files endpoint answered")
        self.journal.uploaded(self.scope, file_id, keys, self.log_probs)
        try:
            return self.create(file_id, keys, self.log_probs, count=len(keys))
        except RequestError as error:
            if not error.retriable:  # refused: no batch will come of it (a lost answer keeps it for a rerun's lookup)
                self.journal.dropped(self.scope, file_id)
            raise

    def create(self, file_id: str, keys: List[str], log_probs: bool, count: Optional[int] = None) -> Optional[str]:
        """The batch of an uploaded file: the one the provider lists for it, else a new one (each retry of a lost
        create answer looks again first; a file just uploaded has none yet); journaled. None if the provider no longer
        has the file."""
        look = count is None  # a resumed upload is looked up at once, a fresh one only when a create is retried

        def once() -> str:
            nonlocal look
            found = self.find_batch(file_id) if look else None
            look = True
            if found is not None:
                _logger().info(f"{self.name}: batch {found} of input file {file_id} already exists; polling it.")
                return found
            created = self.call("POST", "batches", {"input_file_id": file_id, "endpoint": self.engine.batch_url(),
                                                    "completion_window": self.engine.batch_completion_window},
                                retried=False)
            batch_id = self.checked(created.get("id"), "The batch id the batches endpoint answered")
            _logger().info(f"{self.name}: created batch {batch_id} ({count if count is not None else len(keys)} "
                           f"requests, input file {file_id}); polling it every {self.engine.batch_poll_interval:g}s "
                           f"or more, cancelled after batch_timeout={self.engine.batch_timeout:g}s.")
            return batch_id

        try:
            batch_id = with_retries(once, self.engine.max_retries, self.engine.retry_base_delay,
                                    self.engine.retry_max_delay, label=f"{self.name} batch create")
        except RequestError as error:
            if error.status == 404 and count is None:  # a journaled upload the provider no longer has
                self.journal.dropped(self.scope, file_id)
                return None
            error.artifact = error.artifact or self.engine.artifact_name
            error.args = (error._compose(),)
            raise
        self.journal.submitted(self.scope, batch_id, file_id, keys, log_probs)
        return batch_id

    def find_batch(self, file_id: str) -> Optional[str]:
        """The id of a batch the provider lists with this input file (newest first, LIST_PAGES pages), else None."""
        if not self.listing:
            return None
        after = None
        for _ in range(LIST_PAGES):
            path = "batches?limit=100" + (f"&after={after}" if after else "")
            try:
                page = self.call("GET", path)
            except RequestError as error:
                if error.status in (404, 405, 501):
                    self.listing = False
                    _logger().warning(f"{self.name}: the provider does not list batches (HTTP {error.status}); a "
                                      f"create whose answer is lost may leave a second batch.")
                    return None
                raise
            data = page.get("data") if isinstance(page.get("data"), list) else []
            for item in data:
                if isinstance(item, dict) and item.get("input_file_id") == file_id:
                    return self.checked(item.get("id"), "The batch id the batches list answered")
            if not page.get("has_more") or not data or not isinstance(data[-1], dict):
                return None
            after = self.checked(data[-1].get("id"), "The batch id the batches list answered")
        return None

    def wait(self, batches: List[Dict[str, Any]]) -> None:
        """Poll every unfinished batch each round (sleeping between rounds, longer while nothing changes), logging
        its request counts; read each batch as it finishes; past batch_timeout cancel the rest and read them."""
        interval = float(self.engine.batch_poll_interval)
        ceiling = max(interval, float(self.engine.batch_poll_max_interval or interval))
        deadline = time.monotonic() + float(self.engine.batch_timeout)
        waiting = list(batches)
        statuses: Dict[str, str] = {}
        while waiting:
            changed = False
            for batch in list(waiting):
                state = self.call("GET", f"batches/{batch['id']}")
                status = str(state.get("status"))
                changed |= statuses.get(batch["id"]) != status
                statuses[batch["id"]] = status
                self.log_progress(batch["id"], status, state)
                if status in TERMINAL:
                    self.read(batch, state)
                    waiting.remove(batch)
            if not waiting:
                break
            if time.monotonic() >= deadline:
                if self.cancelled:  # the cancel did not settle: these rows fail; the journal keeps the batch
                    for batch in waiting:
                        for key in batch["keys"]:
                            if key in self.positions:
                                self.failures[key] = f"{self.timeout_reason(batch['id'])}, and did not confirm the " \
                                                     f"cancel (a rerun resumes it)"
                    break
                for batch in waiting:
                    _logger().warning(f"{self.name}: batch {batch['id']} did not finish within batch_timeout="
                                      f"{self.engine.batch_timeout:g}s; cancelling it.")
                    self.call("POST", f"batches/{batch['id']}/cancel")
                    self.cancelled.add(batch["id"])
                deadline = time.monotonic() + min(600.0, max(1.0, 10 * ceiling))  # a cancel settles within this
            interval = interval if changed else min(ceiling, max(interval * 1.5, 0.001))
            time.sleep(interval)

    def log_progress(self, batch_id: str, status: str, state: Dict[str, Any]) -> None:
        counts = state.get("request_counts") if isinstance(state.get("request_counts"), dict) else {}
        numbers = [counts.get(name) if isinstance(counts.get(name), int) else "?"
                   for name in ("completed", "failed", "total")]
        _logger().info(f"{self.name}: batch {batch_id} {status}: {numbers[0]} of {numbers[2]} requests completed, "
                       f"{numbers[1]} failed.")

    def timeout_reason(self, batch_id: str) -> str:
        return f"batch {batch_id} did not finish within batch_timeout={self.engine.batch_timeout:g}s and was " \
               f"cancelled by unitxt"

    def read(self, batch: Dict[str, Any], state: Dict[str, Any]) -> None:
        """Stream the batch's output and error files; hand every good answer to the engine (or, for a request of
        another call, to the cache); note why each other request of this call failed; journal it finished."""
        status = str(state.get("status"))
        timed_out = batch["id"] in self.cancelled
        own = set(batch["keys"])
        answered: Set[str] = set()
        reasons: Dict[str, str] = {}
        for field in ("output_file_id", "error_file_id"):  # output lines win over error lines of the same request
            file_id = state.get(field)
            if not file_id:
                continue
            try:
                file_id = self.checked(file_id, f"The {field} of batch {batch['id']}")
            except BatchError as error:  # its rows fail naming why; the batch is closed (a rerun asks them again)
                self.notes.append(error.message)
                continue
            with tempfile.TemporaryFile(prefix="unitxt-batch-") as spool:
                try:
                    self.call("GET", f"files/{file_id}/content", sink=spool)
                except RequestError as error:
                    if error.retriable:  # the batch stays journaled: a rerun reads it again
                        raise
                    self.notes.append(f"the {field} {file_id} of batch {batch['id']} could not be read "
                                      f"({error.message[:300]}); the batch is closed")
                    continue
                output = OutputFile(spool, f"the {field.split('_')[0]} file {file_id} of batch {batch['id']}")
                for key, numbers in output.duplicates.items():
                    reasons[key] = f"{len(numbers)} lines of {output.where} have this custom_id; none used"
                for key, record in output.records():
                    if key not in own or key in answered:
                        continue
                    body, failure = line_answer(record)
                    if body is None:
                        timeout_cancel = timed_out and line_error_code(record) == "batch_cancelled"
                        reasons.setdefault(key, self.timeout_reason(batch["id"]) if timeout_cancel
                                           else f"batch {batch['id']}: {failure}")
                        continue
                    if self.file_answer(key, body, batch["log_probs"], batch["id"], reasons):
                        answered.add(key)
                        reasons.pop(key, None)
                problems = output.problems()
            if problems:
                self.notes.append(f"{problems}; its good answers were kept")
        unanswered = len(own) - len(answered)
        for key in batch["keys"]:
            if key not in self.positions or key in answered:
                continue
            if key in reasons:
                self.failures[key] = reasons[key]
            elif timed_out:
                self.failures[key] = self.timeout_reason(batch["id"])
            else:
                self.failures[key] = f"batch {batch['id']} {status} without an answer for it" + \
                    self.batch_errors(state)
        if unanswered and not timed_out and status == "completed":
            _logger().info(f"{self.name}: batch {batch['id']} completed with {unanswered} request(s) unanswered.")
        self.journal.finished(self.scope, batch["id"], status)

    def file_answer(self, key: str, body: Dict[str, Any], log_probs: bool, batch_id: str,
                    reasons: Dict[str, str]) -> bool:
        """Check one answer and file it: under this call's positions, and in the cache for a request of another
        call (a resume with fewer rows loses nothing paid for). False when the answer is malformed."""
        positions = self.positions.get(key)
        item = self.inputs[positions[0]] if positions else None
        try:
            output = self.engine.read_answer(body, item, log_probs)
        except BatchError:
            raise
        except Exception as error:  # a malformed answer: not cached, a failure of that row
            reasons[key] = f"batch {batch_id}: {getattr(error, 'message', error)}"
            return False
        if positions:
            for position in positions:
                self.outputs[position] = output
                self.engine.report(position, output)
        else:
            cache = self.engine._cache()
            if cache is not None:
                cache.put(key, output.to_dict())
        return True

    @staticmethod
    def batch_errors(state: Dict[str, Any]) -> str:
        errors = state.get("errors")
        data = errors.get("data") if isinstance(errors, dict) else None
        if isinstance(data, list) and data:
            return " (" + "; ".join(str(item.get("message", item))[:300] if isinstance(item, dict) else str(item)[:300]
                                    for item in data[:3]) + ")"
        return ""

    def handle_failures(self) -> None:
        """Send the failed requests live (batch_fallback="live"), else raise one BatchError grouping the rows."""
        failed_keys = [key for key in dict.fromkeys(self.keys) if key in self.failures]
        if self.engine.batch_fallback == "live":
            _logger().warning(f"{self.name}: {len(failed_keys)} request(s) failed in batch mode; sending them live "
                              f"(batch_fallback='live')." + (" " + "; ".join(self.notes) + "." if self.notes else ""))
            self.live(failed_keys)
            return
        caller_rows = getattr(self.engine, "_missing_rows", None) or list(range(len(self.inputs)))
        failures = {caller_rows[position]: self.failures[key] for key in failed_keys
                    for position in self.positions[key]}
        kept = sum(output is not None for output in self.outputs)
        message = failed_rows_message(failures, len(self.inputs), kept)
        if self.notes:
            message += " " + "; ".join(self.notes) + "."
        message += " A rerun sends only the failed rows (batch_fallback='live' sends them live at once)."
        error = BatchError(message, artifact=self.engine.artifact_name)
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

