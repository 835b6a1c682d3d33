"""Streamed evaluation: throughput and peak memory of evaluate() over a generator of rows and of predictions.

Run from the repository root:  PYTHONPATH=core python scripts/benchmarks/streamed_evaluation.py [--sizes 100000 1000000]
Rows are the evaluate_throughput benchmark's (5 classes, take_first_word + lower_case, f1_micro / accuracy /
f1_macro with 1,000-resample CIs), made one at a time by a generator: nothing but the evaluation holds them. Each size
runs in a fresh subprocess so its peak RSS is its own; flat peaks over growing sizes mean bounded memory.
`--compare N` also evaluates N rows in memory and prints both point estimates and CIs.
"""

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from typing import Any, Dict, Iterator, Tuple

CLASSES = ["World", "Sports", "Business", "Science", "Health"]
METRICS = ["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"]
MEMORY_TARGET_MB = 500  # issue "Scale", item 3


def rows_and_predictions(n: int, seed: int = 0) -> Tuple[Iterator[Dict[str, Any]], Iterator[str]]:
    """Two generators over the same n instances (rows, predictions), made on demand."""

    def instances():
        rng = random.Random(seed)
        for index in range(n):
            label = rng.choice(CLASSES)
            guess = label if rng.random() < 0.7 else rng.choice(CLASSES)
            prediction = f"{guess}. I think the topic is {guess.lower()}" if rng.random() < 0.5 else guess
            yield prediction, {
                "source": f"Classify the topic of: text number {index}\nTopic:", "target": label,
                "references": [label], "metrics": METRICS,
                "postprocessors": ["processors.take_first_word", "processors.lower_case"],
                "task_data": json.dumps({"text": f"text number {index}", "label": label, "classes": CLASSES,
                                         "metadata": {"template": "templates.classification.default"}}),
                "groups": [], "subset": [], "media": {"images": [], "audios": []},
                "data_classification_policy": ["public"],
            }

    return (row for _, row in instances()), (prediction for prediction, _ in instances())


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM). Not ru_maxrss: Linux carries the parent's peak at fork into a child's
    ru_maxrss, so a child started by a large parent would report the parent's size."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(n: int, chunk_size: int) -> Dict[str, Any]:
    from unitxt import evaluate

    rows, predictions = rows_and_predictions(n)
    start = time.perf_counter()
    results = evaluate(predictions, rows, chunk_size=chunk_size)
    seconds = time.perf_counter() - start
    scores = results.global_scores
    return {"n": n, "seconds": seconds, "rows_per_second": n / seconds,
            "peak_rss_mb": peak_rss_mb(),
            "scores": {name: scores[name] for name in sorted(scores) if isinstance(scores[name], float)}}


def compare(n: int, chunk_size: int) -> None:
    from unitxt import evaluate

    rows, predictions = rows_and_predictions(n)
    in_memory = evaluate(list(predictions), list(rows)).global_scores
    rows, predictions = rows_and_predictions(n)
    streamed = evaluate(predictions, rows, chunk_size=chunk_size).global_scores
    print(f"{n:,} rows, in memory vs streamed (chunks of {chunk_size:,}):")
    for name in ("f1_micro", "accuracy", "f1_macro"):
        print(f"  {name:9s} {in_memory[name]:.12f} vs {streamed[name]:.12f} (|diff| "
              f"{abs(in_memory[name] - streamed[name]):.1e});  CI [{in_memory[name + '_ci_low']:.4f}, "
              f"{in_memory[name + '_ci_high']:.4f}] vs [{streamed[name + '_ci_low']:.4f}, "
              f"{streamed[name + '_ci_high']:.4f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 3_000_000])
    parser.add_argument("--chunk-size", type=int, default=10_000)
    parser.add_argument("--compare", type=int, default=100_000, help="rows for the in-memory comparison (0: skip)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run(args.one, args.chunk_size)))
        return
    if args.compare:
        compare(args.compare, args.chunk_size)
    print(f"streamed evaluate(), chunks of {args.chunk_size:,} rows (target: peak RSS <= {MEMORY_TARGET_MB} MB at "
          "any size):")
    for n in args.sizes:
        output = subprocess.run([sys.executable, __file__, "--one", str(n), "--chunk-size", str(args.chunk_size)],
                                check=True, capture_output=True, text=True).stdout
        figures = json.loads(output.strip().splitlines()[-1])
        print(f"  {n:>10,} rows: {figures['seconds']:7.1f} s, {figures['rows_per_second']:9,.0f} rows/s, peak RSS "
              f"{figures['peak_rss_mb']:6.0f} MB, f1_micro {figures['scores']['f1_micro']:.4f}")


if __name__ == "__main__":
    main()
