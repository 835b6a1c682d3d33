"""Batch mode (provider batch APIs) of the OpenAI-protocol engines against the loopback server's files and batches
endpoints: same answers and cache entries as live mode, resume after SIGKILL, per-row errors, expiry, timeout and
cancel, the live fallback, splitting at the limits, and the offline batch file round trip of unitxt-evaluate."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer, Reply
from tests.judges.test_criteria_judges import by_content
from unitxt.inference import AzureOpenAIInferenceEngine, OpenAiInferenceEngine, VLLMRemoteInferenceEngine, engine_input
from unitxt.inference.batch import BatchJournal
from unitxt.inference.batch_files import BatchError, request_line, split_lines
from unitxt.llm_as_judge import LLMJudgeDirect
from unitxt.llm_as_judge_constants import direct_criteria


def engine(server, tmp_path, **kwargs):
    kwargs.setdefault("cache_dir", str(tmp_path / "cache"))
    kwargs.setdefault("batch", True)
    return OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k", "api_url": server.base_url},
                                 show_progress=False, retry_base_delay=0.01, batch_poll_interval=0.005,
                                 batch_poll_max_interval=0.02, **kwargs)


def rows(n):
    return [{"source": f"question {i}"} for i in range(n)]


def test_batch_answers_in_row_order_are_the_live_cache_entries(tmp_path):
    with OpenAIProtocolServer() as server:
        data = rows(7) + [{"source": "question 2"}]  # a duplicate goes once
        assert engine(server, tmp_path).infer(data) == [f"echo: question {i}" for i in [0, 1, 2, 3, 4, 5, 6, 2]]
        assert server.count == 0  # no live request
        calls = server.batches.calls
        assert [call for call in calls if call[0] == "POST"] == [("POST", "/v1/files"), ("POST", "/v1/batches")]
        assert server.batches.count("GET", "/content") == 1  # the output file (no error file)
        (request_file,) = [content for file_id, content in server.batches.files.items() if file_id == "file-1"]
        lines = [json.loads(line) for line in request_file.splitlines()]
        assert len(lines) == 7 and {line["method"] for line in lines} == {"POST"}
        assert {line["url"] for line in lines} == {"/v1/chat/completions"}
        assert lines[0]["body"] == {"model": "m", "messages": [{"role": "user", "content": "question 0"}]}
        # a live engine of the same settings finds every answer in the cache: the same entries
        live = engine(server, tmp_path, batch=False)
        assert live.infer(data) == [f"echo: question {i}" for i in [0, 1, 2, 3, 4, 5, 6, 2]]
        assert server.count == 0
        # and a batch engine finds the live engine's answers: only the new row goes, as a batch of one
        assert engine(server, tmp_path).infer(rows(8))[7] == "echo: question 7"
        assert server.batches.count("POST", "/batches") == 2 and len(server.batches.batch_requests) == 8


def test_a_judge_over_200_rows_scores_the_same_in_batch_and_live_mode(tmp_path):
    predictions = [" ".join([f"w{i}"] * (1 + i % 4)) for i in range(200)]
    scores = {}
    with OpenAIProtocolServer(answer=by_content) as server:
        for mode in (False, True):
            judge = LLMJudgeDirect(inference_engine=engine(server, tmp_path / str(mode), batch=mode),
                                   criteria=direct_criteria()["conciseness"])
            result = judge.evaluate(predictions, [[]] * 200, [{"question": "q"}] * 200)  # conciseness reads it
            scores[mode] = (result.instance_scores, result.global_scores())
            if not mode:
                live_requests = server.count
        assert server.count == live_requests  # batch mode sent no live request
        assert len(server.batches.batch_requests) == live_requests == 200 * 2 * 2
        stages = server.batches.count("POST", "/batches")
        assert stages == 2  # one batch per judge stage (assessment, option selection)
        assert len(server.batches.calls) <= stages * 7  # upload, create, 4 polls, 1 download each
    assert scores[True] == scores[False]
    assert [s["conciseness"] for s in scores[True][0][:4]] == [1.0, 1.0, 0.0, 0.0]


CHILD = """
import sys
from unitxt.inference import OpenAiInferenceEngine
engine = OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k", "api_url": sys.argv[1]},
                               cache_dir=sys.argv[2], batch=True, batch_poll_interval=0.01,
                               batch_poll_max_interval=0.02, show_progress=False)
print(engine.infer([{"source": f"question {i}"} for i in range(int(sys.argv[3]))]))
"""


def test_a_process_killed_while_polling_resumes_the_same_batch(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.hold = True
        child = subprocess.Popen([sys.executable, "-c", CHILD, server.base_url, str(tmp_path / "cache"), "30"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
        try:
            deadline = time.monotonic() + 60
            while server.batches.count("GET", "/batches/") < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert child.poll() is None, child.communicate()[1][-2000:]
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
        finally:
            if child.poll() is None:
                child.kill()
        assert child.returncode == -signal.SIGKILL
        assert server.batches.count("POST", "/batches") == 1
        (journaled,) = BatchJournal(str(tmp_path / "cache")).open_batches(server.base_url)
        assert journaled["batch_id"] == "batch_1" and len(journaled["keys"]) == 30
        server.batches.release()
        resumed = engine(server, tmp_path).infer(rows(30))
        assert resumed == [f"echo: question {i}" for i in range(30)]
        assert server.batches.count("POST", "/batches") == 1 and server.count == 0  # nothing submitted again
        assert BatchJournal(str(tmp_path / "cache")).open_batches(server.base_url) == []
        assert os.path.getsize(tmp_path / "cache" / "batches.journal.jsonl") == 0  # compacted: nothing open
        polls = server.batches.count("GET", "/batches/")
        engine(server, tmp_path).infer(rows(30))  # the finished batch's answers were cached at once
        assert server.batches.count("GET", "/batches/") == polls


def flaky(bad):
    """Rows whose text is in `bad` fail (HTTP 400) the first time they are asked."""
    asked = set()

    def answer(request):
        text = request["messages"][-1]["content"]
        if text in bad and text not in asked:
            asked.add(text)
            return Reply(status=400, error_message=f"refused {text}")
        return "echo: " + text

    return answer


def test_per_request_errors_name_every_row_and_keep_the_answers(tmp_path):
    with OpenAIProtocolServer(answer=flaky({"question 3", "question 7"})) as server:
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path).infer(rows(10))
        message = str(caught.value)
        assert "2 of 10 requests failed in batch mode" in message
        assert "row 3: batch batch_1: HTTP 400: refused question 3" in message and "row 7:" in message
        assert "8 answered rows were kept" in message
        assert caught.value.failed_rows == [3, 7]
        assert caught.value.answers[:3] == ["echo: question 0", "echo: question 1", "echo: question 2"]
        assert caught.value.answers[3] is None and caught.value.answers[7] is None
        assert server.batches.count("GET", "/content") == 2  # the output and the error file
        # the rerun sends only the two failed rows (as one new batch)
        assert engine(server, tmp_path).infer(rows(10))[7] == "echo: question 7"
        assert len(server.batches.batch_requests) == 12


def test_failed_rows_go_live_with_the_live_fallback(tmp_path):
    with OpenAIProtocolServer(answer=flaky({"question 1", "question 4"})) as server:
        answers = engine(server, tmp_path, batch_fallback="live").infer(rows(6))
        assert answers == [f"echo: question {i}" for i in range(6)]
        assert sorted(request["messages"][-1]["content"] for request in server.requests) == ["question 1", "question 4"]
        with pytest.raises(Exception, match="batch_fallback is None or 'live'"):
            engine(server, tmp_path, batch_fallback="never").infer(rows(7))


def test_an_expired_batch_names_the_unanswered_rows(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.expire_batches, server.batches.partial = True, 2
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path).infer(rows(5))
        message = str(caught.value)
        assert "3 of 5 requests failed" in message and "(2 answered rows were kept)" in message
        assert "3 rows (2, 3, 4): batch batch_1: batch_expired: This request could not be executed" in message
        assert caught.value.failed_rows == [2, 3, 4]
        server.batches.expire_batches = False
        assert engine(server, tmp_path).infer(rows(5)) == [f"echo: question {i}" for i in range(5)]
        assert len(server.batches.batch_requests) == 5  # 2 expired-batch answers were cached, 3 asked again


def test_a_batch_past_its_timeout_is_cancelled_and_its_rows_named(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.hold, server.batches.partial = True, 1
        started = time.monotonic()
        with pytest.raises(BatchError) as caught:
            engine(server, tmp_path, batch_timeout=0.2).infer(rows(4))
        assert time.monotonic() - started < 10
        assert server.batches.count("POST", "/cancel") == 1
        assert server.batches.batches["batch_1"]["status"] == "cancelled"
        message = str(caught.value)
        assert "3 of 4 requests failed" in message
        assert "3 rows (1, 2, 3): batch batch_1 did not finish within batch_timeout=0.2s and was cancelled by " \
               "unitxt" in message
        assert caught.value.answers[0] == "echo: question 0"


def test_requests_are_split_at_the_request_and_byte_limits(tmp_path):
    with OpenAIProtocolServer() as server:
        server.batches.max_file_requests = 4  # the server refuses larger files
        assert engine(server, tmp_path, batch_max_requests=4).infer(rows(10)) == \
            [f"echo: question {i}" for i in range(10)]
        assert server.batches.count("POST", "/batches") == 3  # 4 + 4 + 2
        one_line = len(request_line("k" * 64, "/v1/chat/completions",
                                    {"model": "m", "messages": [{"role": "user", "content": "question 10"}]}))
        server.batches.max_file_bytes = 3 * one_line
        server.batches.max_file_requests = 50_000
        data = [{"source": f"question {i}"} for i in range(10, 19)]
        assert engine(server, tmp_path, batch_max_bytes=3 * one_line).infer(data)[-1] == "echo: question 18"
        assert server.batches.count("POST", "/batches") == 3 + 3  # 9 lines of one_line bytes: 3 files
    assert split_lines([5, 5, 5, 5, 5], max_requests=10, max_bytes=10) == [(0, 2), (2, 4), (4, 5)]
    assert split_lines([3] * 7, max_requests=3, max_bytes=100) == [(0, 3), (3, 6), (6, 7)]
    assert split_lines([], 3, 10) == []
    with pytest.raises(BatchError, match="Request 1 alone is 11 bytes"):
        split_lines([1, 11], 3, 10)


def test_the_setting_turns_batch_mode_on_for_engines_with_a_batch_api(tmp_path, monkeypatch):
    monkeypatch.setenv("UNITXT_INFERENCE_BATCH", "1")
    with OpenAIProtocolServer() as server:
        assert engine(server, tmp_path, batch=None).infer(rows(2))[1] == "echo: question 1"
        assert server.count == 0 and server.batches.count("POST", "/batches") == 1
        vllm = VLLMRemoteInferenceEngine(model_name="m", base_url=server.base_url, show_progress=False,
                                         cache_dir=str(tmp_path / "vllm"))
        assert vllm.infer(rows(2))[0] == "echo: question 0" and server.count == 2  # no batch API: live
        with pytest.raises(Exception, match="VLLMRemoteInferenceEngine has no provider batch API"):
            VLLMRemoteInferenceEngine(model_name="m", base_url=server.base_url, batch=True,
                                      cache_dir=str(tmp_path / "vllm2")).infer(rows(1))


def test_azure_batches_go_to_the_resource_root(tmp_path):
    with OpenAIProtocolServer() as server:
        root = server.base_url[:-len("/v1")]
        azure = AzureOpenAIInferenceEngine(model_name="deployment", credentials={"api_key": "k", "api_url": root},
                                           batch=True, batch_poll_interval=0.005, show_progress=False,
                                           cache_dir=str(tmp_path))
        assert azure.infer(rows(2)) == ["echo: question 0", "echo: question 1"]
        assert server.batches.calls[0] == ("POST", "/openai/files")
        line = json.loads(server.batches.files["file-1"].splitlines()[0])
        assert line["url"] == "/chat/completions" and line["body"]["model"] == "deployment"


def test_non_public_rows_are_refused_before_any_batch_is_sent(tmp_path):
    # a loopback server is the user's own and takes proprietary rows; an engine held to public rows (as a hosted
    # API is) refuses them before anything is uploaded
    with OpenAIProtocolServer() as server:
        data = rows(2) + [{"source": "secret", "data_classification_policy": ["proprietary"]}]
        with pytest.raises(Exception, match="Row 2"):
            engine(server, tmp_path, data_classification_policy=["public"]).infer(data)
        assert server.batches.calls == []


def run_batch_file(input_path, output_path, answer):
    """What `vllm run-batch` does: answer each request line of the input file into an output file."""
    with open(input_path, encoding="utf-8") as source, open(output_path, "w", encoding="utf-8") as target:
        for number, line in enumerate(source):
            request = json.loads(line)
            text = answer(request["body"])
            body = {"id": f"cmpl-{number}", "object": "chat.completion", "model": request["body"]["model"],
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                 "finish_reason": "stop"}]}
            target.write(json.dumps({"id": f"vllm-{number}", "custom_id": request["custom_id"],
                                     "response": {"status_code": 200, "request_id": f"r{number}", "body": body},
                                     "error": None}) + "\n")


def test_the_offline_batch_file_round_trip_scores_as_a_live_run(tmp_path):
    from unitxt.cli.evaluate import main

    task = "card=cards.demo.sentiment,template=templates.key_val"

    def answer(body):
        return "positive" if "good" in json.dumps(body) or "love" in json.dumps(body) else "negative"

    with OpenAIProtocolServer(answer=lambda request: answer(request)) as server:
        model_args = f"model_name=served,base_url={server.base_url},max_tokens=8"
        common = ["--tasks", task, "--model", "cross_provider", "--model_args", model_args, "-v", "WARNING"]
        assert main(common + ["--output_path", str(tmp_path / "live")]) == 0
        live_requests = server.count
        requests_file, output_file = tmp_path / "requests.jsonl", tmp_path / "out" / "answers.jsonl"
        os.environ["UNITXT_INFERENCE_CACHE_DIR"] = str(tmp_path / "offline-cache")
        try:
            assert main(common + ["--batch-file-out", str(requests_file)]) == 0
            lines = [json.loads(line) for line in requests_file.read_text().splitlines()]
            assert len(lines) == live_requests and lines[0]["custom_id"].startswith("row-0-")
            assert lines[0]["body"]["model"] == "served" and lines[0]["body"]["max_tokens"] == 8
            output_file.parent.mkdir()
            run_batch_file(requests_file, output_file, answer)
            assert main(common + ["--batch-file-in", str(output_file), "--output_path", str(tmp_path / "batch")]) == 0
            assert server.count == live_requests  # scored from the file, nothing sent
            # a file missing a row: one line naming it
            kept = output_file.read_text().splitlines()
            output_file.write_text("\n".join(kept[1:]) + "\n")
            os.environ["UNITXT_INFERENCE_CACHE_DIR"] = str(tmp_path / "other-cache")
            assert main(common + ["--batch-file-in", str(output_file), "--output_path", str(tmp_path / "x")]) == 1
        finally:
            del os.environ["UNITXT_INFERENCE_CACHE_DIR"]
    (live_file,) = (tmp_path / "live").glob("*.json")
    (batch_file,) = (tmp_path / "batch").glob("*.json")
    live, batch = json.loads(live_file.read_text()), json.loads(batch_file.read_text())
    assert live["results"] == batch["results"] and live["results"]


def test_a_journaled_batch_the_provider_no_longer_knows_is_asked_again(tmp_path):
    with OpenAIProtocolServer() as server:
        keys = engine(server, tmp_path).request_keys([engine_input(row) for row in rows(2)], rows(2))
        BatchJournal(str(tmp_path / "cache")).submitted(server.base_url, "batch_gone", "file-0", keys)
        assert engine(server, tmp_path).infer(rows(2)) == ["echo: question 0", "echo: question 1"]
        assert server.batches.count("POST", "/batches") == 1
        assert BatchJournal(str(tmp_path / "cache")).open_batches(server.base_url) == []


def test_cross_provider_engines_pass_batch_mode_to_the_provider(tmp_path):
    from unitxt.inference import CrossProviderInferenceEngine

    with OpenAIProtocolServer() as server:
        cross = CrossProviderInferenceEngine(model="gpt-4o-mini", provider="open-ai", batch=True,
                                             credentials={"api_key": "k", "api_url": server.base_url},
                                             batch_poll_interval=0.005, show_progress=False,
                                             cache_dir=str(tmp_path))
        assert cross.infer(rows(3))[2] == "echo: question 2"
        assert server.count == 0 and server.batches.count("POST", "/batches") == 1
        assert json.loads(server.batches.files["file-1"].splitlines()[0])["body"]["model"] == "gpt-4o-mini"


def test_log_probs_and_the_completions_api_go_through_batches_too(tmp_path):
    with OpenAIProtocolServer(answer=lambda request: "two words") as server:
        tokens = engine(server, tmp_path, top_logprobs=2).infer_log_probs(rows(2))
        assert [token["text"] for token in tokens[0]] == ["two", " words"]
        assert tokens[0][0]["logprob"] == pytest.approx(-0.3)
        assert [top["text"] for top in tokens[0][0]["top_tokens"]] == ["two", "alt1"]
        assert engine(server, tmp_path / "c", api="completions").infer(rows(1)) == ["two words"]
        line = json.loads(server.batches.files["file-3"].splitlines()[0])
        assert line["url"] == "/v1/completions" and line["body"]["prompt"] == "question 0"
        assert server.count == 0


def test_a_row_failing_live_too_is_named_by_its_row(tmp_path):
    def answer(request):
        text = request["messages"][-1]["content"]
        return Reply(status=400, error_message="never") if text == "question 4" else "echo: " + text

    with OpenAIProtocolServer(answer=answer) as server:
        data = [{"source": "question 0"}, {"source": "question 4"}, {"source": "question 2"}]
        ok = engine(server, tmp_path, batch=False)
        ok.infer(data[:1])  # row 0 cached: the batch call holds rows 1 and 2 only
        with pytest.raises(Exception, match=r"Row 1: HTTP 400.*never") as caught:
            engine(server, tmp_path, batch_fallback="live").infer(data)
        assert caught.value.answers == ["echo: question 0", None, "echo: question 2"]
