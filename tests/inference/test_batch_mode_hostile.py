"""Batch mode under faults and hostile input (issue 46): creating a batch is idempotent (a kill during the create, a
create answer lost to the timeout), damaged and duplicated output lines cost only their rows, the journal refuses
links and skips damaged records, provider ids are checked before they go into URLs, settings are validated, progress
is logged, output files are streamed, a timeout says so once, and files too large for the provider are split."""

import json
import logging
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer, Reply
from unitxt.errors import UnitxtError
from unitxt.inference import OpenAiInferenceEngine, engine_input
from unitxt.inference.batch_files import BatchError, failed_rows_message


def engine(server, tmp_path, **kwargs):
    kwargs.setdefault("cache_dir", str(tmp_path / "cache"))
    kwargs.setdefault("batch", True)
    kwargs.setdefault("batch_poll_interval", 0.005)
    kwargs.setdefault("batch_poll_max_interval", 0.02)
    return OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k", "api_url": server.base_url},
                                 show_progress=False, retry_base_delay=0.01, **kwargs)


def rows(n, start=0):
    return [{"source": f"question {i}"} for i in range(start, start + n)]


def echoes(n, start=0):
    return [f"echo: question {i}" for i in range(start, start + n)]


CHILD = """
import sys
from unitxt.inference import OpenAiInferenceEngine
engine = OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k", "api_url": sys.argv[1]},
                               cache_dir=sys.argv[2], batch=True, batch_poll_interval=0.01,
                               batch_poll_max_interval=0.02, show_progress=False)
print(engine.infer([{"source": f"question {i}"} for i in range(int(sys.argv[3]))]))
"""


def kill_child_when(server, tmp_path, count, ready):
    """Run CHILD over `count` rows and SIGKILL it once `ready()` holds."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, server.base_url, str(tmp_path / "cache"), str(count)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 60
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert child.poll() is None, child.communicate()[1][-2000:]
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL


# 1 -------------------------------------------------------------------------------------------------------------
def test_a_kill_during_create_resumes_the_created_batch_instead_of_paying_again(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.create_delays = [30.0]  # the batch is made, its answer never reaches the killed process
        kill_child_when(server, tmp_path, 5, lambda: "batch_1" in server.batches.batches)
        assert engine(server, tmp_path).infer(rows(5)) == echoes(5)
        assert list(server.batches.batches) == ["batch_1"]  # one paid batch
        assert server.batches.count("POST", "/files") == 1 and server.count == 0
        assert os.path.getsize(tmp_path / "cache" / "batches.journal.jsonl") == 0  # nothing left open


def test_a_create_answer_lost_to_the_timeout_is_not_created_again(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.create_delays = [1.5, 1.5]  # each create answers after the client's 0.5 s deadline
        assert engine(server, tmp_path, timeout=0.5).infer(rows(4)) == echoes(4)
        assert list(server.batches.batches) == ["batch_1"]
        assert server.batches.count("GET", "/batches") >= 1  # looked up by its input file before any new create


# 2 -------------------------------------------------------------------------------------------------------------
def test_an_unreadable_output_line_costs_only_its_row_and_the_rerun_gets_out(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.output_edits = lambda lines: [line[:len(line) // 2] if number == 2 else line
                                                     for number, line in enumerate(lines)]
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path).infer(rows(6))
        message = str(caught.value)
        assert caught.value.failed_rows == [2]
        assert "1 unreadable line(s) (line 3 (custom_id '" in message and "not JSON" in message
        assert "its good answers were kept" in message and "A rerun sends only the failed rows" in message
        assert caught.value.answers == echoes(2) + [None] + echoes(3, 3)
        server.batches.output_edits = None
        assert engine(server, tmp_path).infer(rows(6)) == echoes(6)
        assert len(server.batches.batch_requests) == 6 + 1  # only the unreadable row was asked again


def test_an_output_file_the_provider_no_longer_has_closes_its_batch_and_the_rerun_gets_out(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.hostile_ids = {"output": "file-999"}  # a plain id the files endpoint answers 404 for
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path).infer(rows(3))
        assert caught.value.failed_rows == [0, 1, 2]
        assert "the output_file_id file-999 of batch batch_1 could not be read (HTTP 404" in str(caught.value)
        server.batches.hostile_ids = {}
        assert engine(server, tmp_path).infer(rows(3)) == echoes(3)
        assert list(server.batches.batches) == ["batch_1", "batch_2"]  # asked again, not failed again


# 3 -------------------------------------------------------------------------------------------------------------
def test_a_link_planted_at_the_journal_path_is_refused_and_its_target_kept(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    (tmp_path / "cache").mkdir()
    os.symlink(target, tmp_path / "cache" / "batches.journal.jsonl")
    with OpenAIProtocolServer() as server:
        with pytest.raises(BatchError, match=r"batches.journal.jsonl is a symbolic link; refused") as caught:
            engine(server, tmp_path).infer(rows(3))
        assert caught.value.field == "cache_dir"
        assert server.batches.calls == []  # refused before anything was uploaded
    assert target.read_text() == "keep me\n"


# 4 and 12 ------------------------------------------------------------------------------------------------------
def answer_file(requests_path, output_path):
    """Answer every request line of a batch input file (as `vllm run-batch` does)."""
    with open(requests_path) as source, open(output_path, "w") as target:
        for number, line in enumerate(source):
            request = json.loads(line)
            body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "positive"},
                                 "finish_reason": "stop"}], "model": "served"}
            target.write(json.dumps({"id": f"r{number}", "custom_id": request["custom_id"],
                                     "response": {"status_code": 200, "body": body}, "error": None}) + "\n")


def cli(server, tmp_path, max_tokens, *options):
    from unitxt.cli.evaluate import main

    model_args = f"model_name=served,base_url={server.base_url},max_tokens={max_tokens}"
    return main(["--tasks", "card=cards.demo.sentiment,template=templates.key_val", "--model", "cross_provider",
                 "--model_args", model_args, "-v", "WARNING", *options])


def test_an_output_file_made_for_other_requests_is_refused_by_batch_file_in(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("UNITXT_INFERENCE_CACHE_DIR", str(tmp_path / "cache"))
    with OpenAIProtocolServer(answer=lambda request: "negative") as server:
        assert cli(server, tmp_path, 8, "--batch-file-out", str(tmp_path / "requests.jsonl")) == 0
        answer_file(tmp_path / "requests.jsonl", tmp_path / "answers.jsonl")
        # another run (max_tokens=16: other requests) is given these answers: refused, nothing cached
        assert cli(server, tmp_path, 16, "--batch-file-in", str(tmp_path / "answers.jsonl"),
                   "--output_path", str(tmp_path / "wrong")) == 1
        refusal = capsys.readouterr().err
        assert "custom_id(s) that are not requests of these" in refusal and "nothing was read" in refusal
        assert not (tmp_path / "wrong").exists() or not list((tmp_path / "wrong").glob("*.json"))
        assert cli(server, tmp_path, 16, "--output_path", str(tmp_path / "live")) == 0
        requests = (tmp_path / "requests.jsonl").read_text().splitlines()
        assert server.count == len(requests) > 0  # the live run found none of the refused answers in the cache


def test_batch_file_out_never_overwrites_a_file_or_follows_a_link(tmp_path, capsys):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    os.symlink(precious, tmp_path / "link.jsonl")
    existing = tmp_path / "existing.jsonl"
    existing.write_text("old requests\n")
    with OpenAIProtocolServer() as server:
        assert cli(server, tmp_path, 8, "--batch-file-out", str(tmp_path / "link.jsonl")) == 1
        assert cli(server, tmp_path, 8, "--batch-file-out", str(existing)) == 1
        assert capsys.readouterr().err.count("already exists (or is a link); a batch file is never overwritten") == 2
        assert cli(server, tmp_path, 8, "--batch-file-out", str(tmp_path / "new.jsonl")) == 0
    assert precious.read_text() == "keep me\n" and existing.read_text() == "old requests\n"
    assert os.path.islink(tmp_path / "link.jsonl")
    first = json.loads((tmp_path / "new.jsonl").read_text().splitlines()[0])
    assert first["custom_id"].startswith("row-0-") and len(first["custom_id"]) == len("row-0-") + 16


# 5 -------------------------------------------------------------------------------------------------------------
def test_a_resume_with_fewer_rows_caches_the_answers_of_the_other_rows(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.hold = True
        kill_child_when(server, tmp_path, 10, lambda: server.batches.count("GET", "/batches/") >= 3)
        server.batches.release()
        assert engine(server, tmp_path).infer(rows(4)) == echoes(4)  # resumes the batch of 10
        assert engine(server, tmp_path).infer(rows(10)) == echoes(10)  # the other 6 were cached when it was read
        assert list(server.batches.batches) == ["batch_1"] and len(server.batches.batch_requests) == 10
        assert server.count == 0


# 6 -------------------------------------------------------------------------------------------------------------
MEMORY_CHILD = """
import resource, sys
from unitxt.inference import OpenAiInferenceEngine
engine = OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k", "api_url": sys.argv[1]},
                               cache_dir=sys.argv[2], batch=True, batch_poll_interval=0.01,
                               batch_poll_max_interval=0.02, show_progress=False)
data = [{"source": f"question {i}"} for i in range(int(sys.argv[3]))]
engine.infer(data[:1])  # imports and first-use costs are paid before the measure
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
answers = engine.infer(data[1:])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
assert answers == ["ok"] * (len(data) - 1), answers[:3]
print((after - before) // 1024)
"""


def output_file_peak_mb(server, tmp_path, rows_count):
    """Peak memory growth (MB) of a process reading the batch output file of `rows_count` rows."""
    done = subprocess.run([sys.executable, "-c", MEMORY_CHILD, server.base_url, str(tmp_path / "cache"),
                           str(rows_count)], capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


def test_output_files_are_streamed_in_bounded_memory(tmp_path):
    # each answer carries 2,000 small JSON values (as a log-probs answer does): 14 KB of JSON, far more as objects
    pad = [[number, -number] for number in range(1000, 3000)]
    with OpenAIProtocolServer(answer=lambda request: Reply(text="ok", extra={"pad": pad})) as server:
        growth = output_file_peak_mb(server, tmp_path, 1501)
        size = max(len(content) for content in server.batches.files.values())
    assert size > 30e6  # the output file of the 1,500 rows
    assert growth < 40, f"reading a {size / 1e6:.0f} MB output file grew the process by {growth} MB"


# 7 -------------------------------------------------------------------------------------------------------------
def test_a_custom_id_on_two_output_lines_is_refused(tmp_path):
    def duplicate_first(lines):
        forged = json.loads(lines[0])
        forged["response"]["body"]["choices"][0]["message"]["content"] = "forged"
        return lines + [json.dumps(forged).encode("utf-8")]

    with OpenAIProtocolServer() as server:
        server.batches.output_edits = duplicate_first
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path).infer(rows(3))
        message = str(caught.value)
        assert caught.value.failed_rows == [0]
        assert "row 0: 2 lines of the output file" in message and "have this custom_id; none used" in message
        assert "1 custom_id(s) on more than one line" in message and "on lines 1, 4" in message
        assert caught.value.answers == [None] + echoes(2, 1)


# 8 -------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["file", "batch", "output"])
def test_provider_ids_that_are_not_plain_are_refused_before_they_reach_a_url(tmp_path, kind):
    with OpenAIProtocolServer() as server:
        server.batches.hostile_ids = {kind: "../../admin/keys"}
        with pytest.raises(BatchError, match=r"'\.\./\.\./admin/keys' is not a plain id .* refused"):
            engine(server, tmp_path).infer(rows(2))
        assert not [path for _, path in server.batches.calls if "admin" in path or ".." in path]


# 9 -------------------------------------------------------------------------------------------------------------
def test_a_damaged_journal_record_is_skipped_with_a_warning_naming_file_and_line(tmp_path, caplog):
    with OpenAIProtocolServer() as server:
        keys = engine(server, tmp_path).request_keys([engine_input(row) for row in rows(2)], rows(2))
        journal = tmp_path / "cache" / "batches.journal.jsonl"
        journal.parent.mkdir(parents=True, exist_ok=True)
        damaged = [{"event": "submitted", "scope": server.base_url, "batch_id": ["batch_9"], "keys": keys},
                   {"event": "submitted", "scope": server.base_url, "batch_id": "batch_8", "keys": [{"k": 1}]}]
        journal.write_text("".join(json.dumps(record) + "\n" for record in damaged))
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            assert engine(server, tmp_path).infer(rows(2)) == echoes(2)
        warnings = [record.getMessage() for record in caplog.records if "damaged" in record.getMessage()]
        assert warnings and str(journal) in warnings[0]
        assert "line 1 ('batch_id' is not a plain id" in warnings[0] and "line 2 ('keys' is not a list" in warnings[0]
        assert list(server.batches.batches) == ["batch_1"]


# 10 ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("field, value", [("batch_timeout", math.nan), ("batch_timeout", math.inf),
                                          ("batch_timeout", -1.0), ("batch_poll_interval", math.nan),
                                          ("batch_poll_interval", 0.0), ("batch_poll_max_interval", math.nan),
                                          ("batch_max_requests", 0), ("batch_max_bytes", -5)])
def test_timeouts_intervals_and_limits_must_be_finite_and_positive(tmp_path, field, value):
    with OpenAIProtocolServer() as server:
        with pytest.raises(UnitxtError, match=rf"{field} must be .*, got {value!r}") as caught:
            engine(server, tmp_path, **{field: value}).infer(rows(2))
        assert caught.value.field == field
        assert server.batches.calls == []


# 11 ------------------------------------------------------------------------------------------------------------
def test_the_batch_id_and_its_progress_are_logged_while_waiting(tmp_path, caplog):
    with OpenAIProtocolServer() as server:
        with caplog.at_level(logging.INFO, logger="unitxt"):
            assert engine(server, tmp_path).infer(rows(3)) == echoes(3)
    messages = [record.getMessage() for record in caplog.records if record.levelno == logging.INFO]
    assert any("created batch batch_1 (3 requests, input file file-1)" in message for message in messages)
    assert any("batch batch_1 in_progress: 0 of 3 requests completed, 0 failed" in message for message in messages)
    assert any("batch batch_1 completed: 3 of 3 requests completed, 0 failed" in message for message in messages)


# 13 ------------------------------------------------------------------------------------------------------------
def test_a_batch_cancelled_for_its_timeout_says_so_once_in_a_bounded_message(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.hold, server.batches.partial = True, 1
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path, batch_timeout=0.2).infer(rows(40))
        message = str(caught.value)
        assert "39 of 40 requests failed in batch mode: 39 rows (1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 29 more): batch " \
               "batch_1 did not finish within batch_timeout=0.2s and was cancelled by unitxt" in message
        assert message.count("batch_timeout") == 1 and "batch_cancelled" not in message
        assert caught.value.failed_rows == list(range(1, 40))
    huge = failed_rows_message({row: "batch batch_7: batch_cancelled: cancelled" for row in range(50_000)}, 50_000, 0)
    assert len(huge) < 400 and "50,000 rows (0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 49,990 more)" in huge
    varied = failed_rows_message({row: f"HTTP 400: refused {row}" for row in range(50_000)}, 50_000, 0)
    assert len(varied) < 1000 and "49,990 more rows with 49,990 other reasons" in varied


# 14 ------------------------------------------------------------------------------------------------------------
def test_a_file_the_provider_refuses_as_too_large_is_split_with_a_log_line(tmp_path, caplog):
    with OpenAIProtocolServer() as server:
        server.batches.max_file_requests = 4  # the engine believes 50,000
        with caplog.at_level(logging.INFO, logger="unitxt"):
            assert engine(server, tmp_path).infer(rows(10)) == echoes(10)
        assert any("refused a batch file of 10 requests" in record.getMessage() and "splitting it in two" in
                   record.getMessage() for record in caplog.records)
        assert len(server.batches.batches) == 4 and len(server.batches.batch_requests) == 10  # 3 + 2 + 3 + 2
        server.batches.max_file_requests, server.batches.max_file_bytes = 50_000, 10  # no request fits
        with pytest.raises(BatchError, match="refused a batch file of one request .* as too large") as caught:
            engine(server, tmp_path).infer(rows(2, 10))
        assert caught.value.field == "batch_max_bytes"
