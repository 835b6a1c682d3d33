"""Every figure of the "Scale" issue in one command, each with the N it used.

Runs, one after the other (each in its own process, so peak memory is its own):
  evaluate_throughput.py  evaluate() at 10K and 1M rows (cold/warm, rows and Arrow input; targets 0.2 s / 10 s, 1.5 GB)
  recipe_throughput.py    20K + 5 demos end to end, pipeline, columnar render, the original system when available
  streaming_memory.py     load_dataset(streaming=True) over a large local source: rows/s and peak RSS (<= 500 MB)
  streamed_evaluation.py  evaluate() of a stream chunk by chunk: points vs in memory, rows/s and peak RSS per size
Sharded runs (item 4) are checked by tests/evaluation/test_sharding.py and the Hub metric's distributed-mode tests.

Run from the repository root:  PYTHONPATH=core python scripts/benchmarks/scale.py [--stream-rows 10000000] [--quick]
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(arguments) -> int:
    print(f"\n$ {' '.join(arguments)}", flush=True)
    start = time.perf_counter()
    code = subprocess.call([sys.executable, *arguments], env=os.environ.copy())
    print(f"({time.perf_counter() - start:.0f} s)", flush=True)
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream-rows", type=int, default=10_000_000)
    parser.add_argument("--quick", action="store_true", help="smaller N (100K evaluate, 1M streamed rows, no original)")
    args = parser.parse_args()
    sizes = ["10000", "100000"] if args.quick else ["10000", "1000000"]
    stream_rows = 1_000_000 if args.quick else args.stream_rows
    codes = [
        run([str(HERE / "evaluate_throughput.py"), "--sizes", *sizes, "--text-n", "0"]),
        run([str(HERE / "recipe_throughput.py")] + (["--no-original"] if args.quick else [])),
        run([str(HERE / "streaming_memory.py"), "--rows", str(stream_rows)]),
        run([str(HERE / "streamed_evaluation.py"), "--compare", "100000" if args.quick else "1000000", "--sizes",
             *(["100000", "1000000"] if args.quick else ["1000000", str(stream_rows)])]),
    ]
    return max(codes)


if __name__ == "__main__":
    sys.exit(main())
