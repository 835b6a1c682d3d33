"""Bounded memory when streaming: `load_dataset(..., streaming=True)` over a large local JSONL source renders rows
with constant memory. Prints rows/s and the peak RSS (target: <= 500 MB at 10M rows).

With --evaluate, the rendered stream is also scored as it goes (evaluate() chunk by chunk, a fixed guess per row as
the model's output): render + evaluation in one pass, with the same memory bound.

Run: PYTHONPATH=core python scripts/benchmarks/streaming_memory.py [--rows 10000000] [--evaluate]
"""

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recipe_throughput import make_recipe, write_rows  # noqa: E402

from unitxt import load_dataset  # noqa: E402


def rss_mib() -> float:
    """Current resident set size (Linux /proc), in MiB."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--evaluate", action="store_true", help="score the stream too (streamed evaluate())")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="unitxt-stream-"))
    start = time.perf_counter()
    write_rows(folder / "train.jsonl", 2000, seed=1)
    write_rows(folder / "test.jsonl", args.rows, seed=2)
    print(f"wrote {args.rows:,} test rows in {time.perf_counter() - start:.1f} s "
          f"({(folder / 'test.jsonl').stat().st_size / 2**20:,.0f} MiB JSONL)")
    baseline = rss_mib()
    dataset = load_dataset(make_recipe(folder), split="test", streaming=True)
    if args.evaluate:
        evaluate_stream(dataset, args.rows, baseline)
        return
    start = time.perf_counter()
    peak, count = baseline, 0
    for count, row in enumerate(dataset, start=1):
        if count % 100_000 == 0:
            peak = max(peak, rss_mib())
            if count % (args.rows // 5 or 1) == 0:
                print(f"  {count:>11,} rows: RSS {rss_mib():,.0f} MiB", flush=True)
    elapsed = time.perf_counter() - start
    peak = max(peak, rss_mib(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(f"streamed {count:,} rows (5 demos each) in {elapsed:.1f} s = {count / elapsed:,.0f} rows/s; "
          f"RSS before {baseline:,.0f} MiB, peak {peak:,.0f} MiB (target <= 500 MB)")


def evaluate_stream(dataset, rows: int, baseline: float) -> None:
    """Render and score the stream in one pass; the model answers a fixed rotation of guesses."""
    import itertools

    from unitxt import evaluate

    guesses = itertools.islice(itertools.cycle(["entailment", "not entailment", "entailment", "unsure"]), rows)
    start = time.perf_counter()
    results = evaluate(guesses, dataset)
    elapsed = time.perf_counter() - start
    peak = max(rss_mib(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    scores = results.global_scores
    print(f"rendered and scored {len(results):,} rows (5 demos each) in {elapsed:.1f} s = {len(results) / elapsed:,.0f} "
          f"rows/s; RSS before {baseline:,.0f} MiB, peak {peak:,.0f} MiB (target <= 500 MB); {scores['score_name']} "
          f"{scores['score']:.4f} [{scores.get('score_ci_low', float('nan')):.4f}, "
          f"{scores.get('score_ci_high', float('nan')):.4f}]")


if __name__ == "__main__":
    main()
