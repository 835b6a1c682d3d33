"""Throughput of the OpenAI-protocol engine against the loopback test server (tests/support/openai_protocol_server.py).

Run from the repository root:  PYTHONPATH=core python scripts/benchmarks/inference_throughput.py
Prints three figures (targets from issue 13):
  1. 2,000 prompts at 50 ms server latency: num_parallel_requests=32 vs sequential (target >= 25x faster);
     the sequential time is measured on the first 200 prompts and scaled (it would take ~100 s in full).
  2. client overhead per request with server latency 0 (target <= 1 ms): wall time / requests, sequential and 32-way.
  3. a fully cached rerun of 10,000 prompts (target <= 1 s), and that it sends zero requests.
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
from unitxt.inference import OpenAiInferenceEngine  # noqa: E402


def engine(server: OpenAIProtocolServer, cache_dir: str, parallel: int, use_cache: bool = True
           ) -> OpenAiInferenceEngine:
    return OpenAiInferenceEngine(model_name="bench", credentials={"api_key": "k", "api_url": server.base_url},
                                 num_parallel_requests=parallel, cache_dir=cache_dir, use_cache=use_cache,
                                 show_progress=False, max_tokens=16)


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=2000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--cached", type=int, default=10_000)
    arguments = parser.parse_args()
    rows = [{"source": f"prompt number {i}: say something"} for i in range(arguments.prompts)]

    with tempfile.TemporaryDirectory() as cache_dir, OpenAIProtocolServer(latency=arguments.latency) as server:
        sample = rows[:200]
        sequential = timed(lambda: engine(server, cache_dir, 1, use_cache=False)(sample)) * len(rows) / len(sample)
        parallel = timed(lambda: engine(server, cache_dir, 32, use_cache=False)(rows))
        print(f"1. {len(rows)} prompts, {arguments.latency * 1000:.0f} ms latency: sequential {sequential:.1f} s "
              f"(scaled from {len(sample)}), 32 parallel {parallel:.2f} s -> {sequential / parallel:.1f}x faster "
              f"(target >= 25x); max in flight {server.max_in_flight}")

    with tempfile.TemporaryDirectory() as cache_dir, OpenAIProtocolServer(latency=0.0) as server:
        engine(server, cache_dir, 1, use_cache=False)(rows[:50])  # warm up connections and imports
        one = timed(lambda: engine(server, cache_dir, 1, use_cache=False)(rows)) / len(rows)
        many = timed(lambda: engine(server, cache_dir, 32, use_cache=False)(rows)) / len(rows)
        with_cache = timed(lambda: engine(server, cache_dir, 32)(rows)) / len(rows)
        print(f"2. overhead per request at 0 latency (client + loopback server): sequential {one * 1000:.2f} ms, "
              f"32 parallel {many * 1000:.2f} ms, 32 parallel with cache writes {with_cache * 1000:.2f} ms "
              f"(target <= 1 ms)")

    with tempfile.TemporaryDirectory() as cache_dir, OpenAIProtocolServer(latency=0.0) as server:
        big = [{"source": f"cached prompt {i}"} for i in range(arguments.cached)]
        engine(server, cache_dir, 32)(big)
        sent = server.count
        rerun = timed(lambda: engine(server, cache_dir, 32)(big))
        print(f"3. fully cached rerun of {len(big)} prompts: {rerun:.3f} s (target <= 1 s), "
              f"requests sent {server.count - sent}")


if __name__ == "__main__":
    main()
