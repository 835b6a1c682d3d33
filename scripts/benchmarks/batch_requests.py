"""Requests sent by an LLM judge in batch mode vs live mode, and the client-side cost of batch bookkeeping.

Run from the repository root:  PYTHONPATH=core python scripts/benchmarks/batch_requests.py [--rows 1000]
Against the loopback OpenAI-protocol server (tests/support/openai_protocol_server.py, with its files and batches endpoints),
an LLMJudgeDirect (positional-bias check on: 4 model calls per row) scores --rows distinct predictions
  1. live: one HTTP request per model call;
  2. batch: uploads, batch lookups (by input file, before each create), batch creations, polls and file
     downloads (poll interval 1 ms, so the count of polls is the least the server's status steps allow);
  3. a rerun of the batch judge with every answer cached (the judge's own work: prompts, verdict parsing, scores, CIs);
and prints the HTTP requests of each mode, the wall times, and the batch bookkeeping per model call and per judged
row: the time inside batch mode (`run_batches`) minus its HTTP calls (uploads, polls, downloads, with the loopback
server's work) and minus the caching of the answers (which live mode pays alike): building the request lines,
splitting, upload encoding, journaling, parsing the output files, the engine's answer checks.
"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "core"))
sys.path.insert(0, ROOT)

from tests.support.openai_protocol_server import OpenAIProtocolServer  # noqa: E402
from tests.judges.test_criteria_judges import by_content  # noqa: E402
from unitxt.inference import InferenceEngine, OpenAiInferenceEngine  # noqa: E402
from unitxt.inference import batch as batch_module  # noqa: E402
from unitxt.llm_as_judge import LLMJudgeDirect  # noqa: E402
from unitxt.llm_as_judge_constants import direct_criteria  # noqa: E402


def judge(server: OpenAIProtocolServer, cache_dir: str, batch: bool) -> LLMJudgeDirect:
    engine = OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                   cache_dir=cache_dir, batch=batch, batch_poll_interval=0.001,
                                   batch_poll_max_interval=0.001, num_parallel_requests=16, show_progress=False)
    return LLMJudgeDirect(inference_engine=engine, criteria=direct_criteria()["conciseness"])


def timing(owner, name: str, total: list) -> None:
    """Wrap owner.name so that its time adds up in total[0]."""
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            total[0] += time.perf_counter() - started

    setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    rows = parser.parse_args().rows
    predictions = [" ".join([f"w{i}"] * (1 + i % 4)) for i in range(rows)]
    references, task_data = [[]] * rows, [{}] * rows
    results = {}
    with tempfile.TemporaryDirectory() as folder, OpenAIProtocolServer(answer=by_content) as server:
        service = server.batches
        answering = [0.0]
        finish = service.finish

        def timed_finish(batch, status):  # the server's own work inside a batch, not the client's
            started = time.perf_counter()
            finish(batch, status)
            answering[0] += time.perf_counter() - started

        service.finish = timed_finish
        in_batch_mode, http_calls, caching = [0.0], [0.0], [0.0]
        timing(batch_module, "run_batches", in_batch_mode)
        timing(batch_module.BatchRun, "call", http_calls)
        timing(InferenceEngine, "report", caching)
        for batch in (False, True):
            in_batch_mode[0] = http_calls[0] = caching[0] = 0.0  # the live run reports (caches) answers too
            started = time.perf_counter()
            scores = judge(server, os.path.join(folder, str(batch)), batch).evaluate(predictions, references,
                                                                                     task_data)
            results[batch] = (time.perf_counter() - started, scores.global_scores()["conciseness"])
        started = time.perf_counter()
        judge(server, os.path.join(folder, "True"), True).evaluate(predictions, references, task_data)
        cached = time.perf_counter() - started
        live_requests = server.count
        calls = {"uploads": service.count("POST", "/files"), "batches": service.count("POST", "/batches"),
                 "lookups": sum(1 for method, path in service.calls if method == "GET" and path.endswith("/batches")),
                 "polls": service.count("GET", "/batches/"), "downloads": service.count("GET", "/content")}
    batch_total = sum(calls.values())
    model_calls = len(service.batch_requests)
    overhead = in_batch_mode[0] - http_calls[0] - caching[0]
    print(f"LLM judge (direct, positional-bias check) over {rows} rows = {model_calls} model calls")
    print(f"  live mode : {live_requests} HTTP requests, {results[False][0]:.2f} s, score {results[False][1]:.4f}")
    print(f"  batch mode: {batch_total} HTTP requests ({calls['uploads']} file uploads, {calls['lookups']} batch "
          f"lookups, {calls['batches']} batch creations, {calls['polls']} polls, {calls['downloads']} file "
          f"downloads), {results[True][0]:.2f} s, score {results[True][1]:.4f}")
    print(f"  requests: {live_requests / batch_total:.0f}x fewer in batch mode")
    print(f"  the judge's own work (a fully cached rerun): {cached:.2f} s; the server's answering in batches: "
          f"{answering[0]:.2f} s")
    print(f"  inside batch mode {in_batch_mode[0]:.2f} s: HTTP calls {http_calls[0]:.2f} s (with the server's work), "
          f"caching the answers {caching[0]:.2f} s ({caching[0] * 1e6 / model_calls:.0f} us per answer, as live)")
    print(f"  batch bookkeeping: "
          f"{overhead * 1e6 / model_calls:.0f} us per model call, {overhead * 1e3 / rows:.2f} ms per judged row")


if __name__ == "__main__":
    main()
