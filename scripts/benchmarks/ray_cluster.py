"""The Ray path measured on a two-node loopback cluster (tests/tiers/ray/local_cluster.py) against one process.

Run from the repository root, as root, in the tier's venv and network namespace:
    tests/tiers/ray/enter.sh .venv-ray/bin/python scripts/benchmarks/ray_cluster.py [--rows 1000000] [--prompts 10000]
Runs each comparison `--repeats` times, both sides back to back (a shared machine's load shifts), and prints every
run (with the 1-minute load average) and the medians of two figures (targets from issue 38):
  1. scoring with CIs of `--rows` multi-class rows (streamed_evaluation.py's rows: 5 classes, take_first_word +
     lower_case, f1_micro / accuracy / f1_macro, 1,000 resamples): in this process (in memory, and streamed in 10,000-
     row chunks: the same CIs as the cluster) vs on the cluster (rows already in its object store); overhead as the
     ratio cluster / in-process streamed (target within 2x), and that the cluster's scores equal the streamed ones.
  2. `--prompts` prompts through the loopback server at 50 ms latency: 2 actors x 32 requests (`--batch-size` rows
     per actor call) vs one process x 64, each against the ideal prompts x 0.05 / 64 s (target within 1.5x); the
     actors' wall time includes their start, reported apart too.
"""

import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "core"), ROOT, os.path.join(ROOT, "tests", "tiers", "ray"),
                os.path.join(ROOT, "scripts", "benchmarks")]

from local_cluster import start_cluster, stop_cluster  # noqa: E402
from streamed_evaluation import rows_and_predictions  # noqa: E402


def scoring(n: int, repeats: int) -> dict:
    """Scoring with CIs in this process (streamed and in memory) and on the cluster, back to back `repeats` times."""
    import pyarrow as pa

    import unitxt.ray as uray
    from unitxt import evaluate

    rows, predictions = rows_and_predictions(n)
    rows, predictions = list(rows), list(predictions)
    table = pa.Table.from_pylist(rows).append_column("prediction", pa.array(predictions))
    started = time.perf_counter()
    dataset = uray.from_table(table).materialize()
    figures = {"rows": n, "to_object_store_s": time.perf_counter() - started, "runs": []}
    for _ in range(repeats):
        run = {"load": os.getloadavg()[0]}
        started = time.perf_counter()
        streamed = evaluate(predictions, rows, chunk_size=10_000)
        run["in_process_streamed_s"] = time.perf_counter() - started
        started = time.perf_counter()
        in_memory = evaluate(predictions, rows)
        run["in_process_in_memory_s"] = time.perf_counter() - started
        started = time.perf_counter()
        on_ray = evaluate(predictions="prediction", data=dataset)
        run["cluster_s"] = time.perf_counter() - started
        run["cluster_vs_streamed"] = run["cluster_s"] / run["in_process_streamed_s"]
        run["cluster_vs_in_memory"] = run["cluster_s"] / run["in_process_in_memory_s"]
        run["scores_equal_streamed"] = flat(on_ray.global_scores) == flat(streamed.global_scores)
        run["points_equal_in_memory"] = all(
            abs(on_ray.global_scores[name] - value) < 1e-9 for name, value in in_memory.global_scores.items()
            if isinstance(value, float) and "ci_" not in name)
        figures["runs"].append(run)
        print(json.dumps(run), flush=True)
    return summarize(figures, ["cluster_vs_streamed", "cluster_vs_in_memory", "cluster_s", "in_process_streamed_s",
                               "in_process_in_memory_s", "load"])


def inference(prompts: int, repeats: int, batch_size: int, latency: float = 0.05) -> dict:
    """`prompts` prompts at `latency`: one process x 64 requests, then 2 actors x 32 (actor start included in the
    wall time, and the serving time alone), back to back `repeats` times; each against the ideal prompts*latency/64."""
    import unitxt.ray as uray
    from tests.support.openai_protocol_server import OpenAIProtocolServer
    from unitxt.inference import OpenAiInferenceEngine

    ideal = prompts * latency / 64
    figures = {"prompts": prompts, "ideal_s": ideal, "batch_size": batch_size, "runs": []}
    moments = []

    def answer(request):
        moments.append(time.perf_counter())
        return "echo: " + request["messages"][-1]["content"]

    with OpenAIProtocolServer(answer=answer, latency=latency) as server, tempfile.TemporaryDirectory() as cache:
        def engine(parallel, folder):
            return OpenAiInferenceEngine(model_name="bench", credentials={"api_key": "k", "api_url": server.base_url},
                                         num_parallel_requests=parallel, cache_dir=os.path.join(cache, folder),
                                         show_progress=False, max_tokens=16)

        for repeat in range(repeats):
            rows = [{"source": f"prompt {repeat} {index}", "data_classification_policy": ["public"]}
                    for index in range(prompts)]  # new prompts each run: nothing is cached
            run = {"load": os.getloadavg()[0]}
            started = time.perf_counter()
            local = engine(64, "local").infer(rows)
            run["one_process_x64_s"] = time.perf_counter() - started
            dataset = uray.from_rows(rows, rows_per_block=batch_size).materialize()
            server.reset()
            moments.clear()
            started = time.perf_counter()
            answered = uray.infer(dataset, engine(32, "ray"), concurrency=2, batch_size=batch_size).materialize()
            run["two_actors_x32_s"] = time.perf_counter() - started
            # the actors' start (a Python process each, importing the engine) is part of the wall time above; from
            # the first request to the last answer is the actors' serving time
            run["two_actors_x32_serving_s"] = moments[-1] + latency - moments[0]
            run["actor_start_s"] = moments[0] - started
            run["max_in_flight_cluster"] = server.max_in_flight
            assert [row["prediction"] for row in answered.take_all()] == local
            run["one_process_vs_ideal"] = run["one_process_x64_s"] / ideal
            run["two_actors_vs_ideal"] = run["two_actors_x32_s"] / ideal
            run["two_actors_serving_vs_ideal"] = run["two_actors_x32_serving_s"] / ideal
            figures["runs"].append(run)
            print(json.dumps(run), flush=True)
    return summarize(figures, ["one_process_vs_ideal", "two_actors_vs_ideal", "two_actors_serving_vs_ideal",
                               "actor_start_s", "load"])


def flat(scores: dict) -> str:
    return json.dumps(scores, default=str, sort_keys=True)


def summarize(figures: dict, names: list) -> dict:
    """The figures with the median of each named measure over the runs."""
    import statistics

    figures["medians"] = {name: statistics.median(run[name] for run in figures["runs"]) for name in names}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--prompts", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=1250, help="rows per actor batch (and per block)")
    parser.add_argument("--object-store-mb", type=int, default=1000)
    arguments = parser.parse_args()
    start_cluster(object_store_bytes=arguments.object_store_mb * 1_000_000)
    try:
        if arguments.prompts:
            print(json.dumps({"inference": inference(arguments.prompts, arguments.repeats, arguments.batch_size)},
                             indent=1), flush=True)
        if arguments.rows:
            print(json.dumps({"scoring": scoring(arguments.rows, arguments.repeats)}, indent=1), flush=True)
    finally:
        stop_cluster()


if __name__ == "__main__":
    main()
