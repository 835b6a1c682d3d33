"""The Ray path measured on a two-node loopback cluster (tests/tiers/ray/local_cluster.py) against one process.

Run from the repository root, as root, in the tier's venv and network namespace:
    tests/tiers/ray/enter.sh .venv-ray/bin/python scripts/benchmarks/ray_cluster.py [--rows 1000000] [--prompts 10000]
Prints two figures (targets from issue 38):
  1. scoring with CIs of `--rows` multi-class rows (streamed_evaluation.py's rows: 5 classes, take_first_word +
     lower_case, f1_micro / accuracy / f1_macro, 1,000 resamples): in this process (in memory, and streamed in 10,000-
     row chunks: the same CIs as the cluster) vs on the cluster (rows already in its object store); overhead as the
     ratio cluster / in-process streamed (target within 2x), and that the cluster's scores equal the streamed ones.
  2. `--prompts` prompts through the loopback server at 50 ms latency: 2 actors x 32 requests vs one process x 64,
     each against the ideal prompts x 0.05 / 64 s (target within 1.5x).
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


def scoring(n: int) -> dict:
    import pyarrow as pa

    import unitxt.ray as uray
    from unitxt import evaluate

    rows, predictions = rows_and_predictions(n)
    rows, predictions = list(rows), list(predictions)
    figures = {"rows": n}
    started = time.perf_counter()
    streamed = evaluate(predictions, rows, chunk_size=10_000)
    figures["in_process_streamed_s"] = time.perf_counter() - started
    started = time.perf_counter()
    in_memory = evaluate(predictions, rows)
    figures["in_process_in_memory_s"] = time.perf_counter() - started
    started = time.perf_counter()
    table = pa.Table.from_pylist(rows).append_column("prediction", pa.array(predictions))
    del rows
    dataset = uray.from_table(table).materialize()
    figures["to_object_store_s"] = time.perf_counter() - started
    started = time.perf_counter()
    on_ray = evaluate(predictions="prediction", data=dataset)
    figures["cluster_s"] = time.perf_counter() - started
    figures["overhead_vs_streamed"] = figures["cluster_s"] / figures["in_process_streamed_s"]
    figures["overhead_vs_in_memory"] = figures["cluster_s"] / figures["in_process_in_memory_s"]
    same = json.dumps(on_ray.global_scores, default=str) == json.dumps(streamed.global_scores, default=str)
    figures["scores_equal_streamed"] = same
    figures["score"] = on_ray.global_scores["score"]
    figures["score_in_memory"] = in_memory.global_scores["score"]
    figures["ci_cluster"] = [on_ray.global_scores["score_ci_low"], on_ray.global_scores["score_ci_high"]]
    figures["ci_in_memory"] = [in_memory.global_scores["score_ci_low"], in_memory.global_scores["score_ci_high"]]
    return figures


def inference(prompts: int, latency: float = 0.05) -> dict:
    import unitxt.ray as uray
    from tests.openai_protocol_server import OpenAIProtocolServer
    from unitxt.inference import OpenAiInferenceEngine

    rows = [{"source": f"prompt {index}", "data_classification_policy": ["public"]} for index in range(prompts)]
    ideal = prompts * latency / 64
    figures = {"prompts": prompts, "ideal_s": ideal}
    moments = []

    def answer(request):
        moments.append(time.perf_counter())
        return "echo: " + request["messages"][-1]["content"]

    with OpenAIProtocolServer(answer=answer, latency=latency) as server, tempfile.TemporaryDirectory() as cache:
        def engine(parallel, folder):
            return OpenAiInferenceEngine(model_name="bench", credentials={"api_key": "k", "api_url": server.base_url},
                                         num_parallel_requests=parallel, cache_dir=os.path.join(cache, folder),
                                         show_progress=False, max_tokens=16)

        started = time.perf_counter()
        local = engine(64, "local").infer(rows)
        figures["one_process_x64_s"] = time.perf_counter() - started
        dataset = uray.from_rows(rows, rows_per_block=320).materialize()  # a block is one actor task
        server.reset()
        moments.clear()
        started = time.perf_counter()
        answered = uray.infer(dataset, engine(32, "ray"), concurrency=2, batch_size=320).materialize()
        figures["two_actors_x32_s"] = time.perf_counter() - started
        # the actors' start (a Python process each, importing unitxt) is part of the wall time above; from the
        # first request to the last answer is the actors' serving time
        figures["two_actors_x32_serving_s"] = moments[-1] + latency - moments[0]
        figures["actor_start_s"] = moments[0] - started
        figures["max_in_flight_cluster"] = server.max_in_flight
        assert [row["prediction"] for row in answered.take_all()] == local
    figures["one_process_vs_ideal"] = figures["one_process_x64_s"] / ideal
    figures["two_actors_vs_ideal"] = figures["two_actors_x32_s"] / ideal
    figures["two_actors_serving_vs_ideal"] = figures["two_actors_x32_serving_s"] / ideal
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--prompts", type=int, default=10_000)
    parser.add_argument("--object-store-mb", type=int, default=1000)
    arguments = parser.parse_args()
    start_cluster(object_store_bytes=arguments.object_store_mb * 1_000_000)
    try:
        if arguments.prompts:
            print(json.dumps({"inference": inference(arguments.prompts)}, indent=1), flush=True)
        if arguments.rows:
            print(json.dumps({"scoring": scoring(arguments.rows)}, indent=1), flush=True)
    finally:
        stop_cluster()


if __name__ == "__main__":
    main()
