"""ROUGE on long texts: ROUGE-1/2 must grow linearly with length; ROUGE-L (quadratic by nature) is compared with
rouge_score (same values, never slower). Prints seconds per text pair at each length.

Run from the repository root:  PYTHONPATH=core python scripts/benchmarks/rouge_long_texts.py [--oracle-max 10000]
Dev-only script: imports rouge_score as the oracle (skipped above --oracle-max tokens, where its Python LCS table
takes minutes).
"""

import argparse
import random
import time

from unitxt.metrics.kernels.rouge import rouge_instance_scores


def text_pair(tokens: int, seed: int = 0):
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    prediction = " ".join(rng.choice(vocab) for _ in range(tokens))
    reference = " ".join(rng.choice(vocab) for _ in range(tokens))
    return prediction, reference


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle-max", type=int, default=10_000, help="largest length scored by rouge_score too")
    arguments = parser.parse_args()
    print("ROUGE-1/2 (linear expected): seconds per pair")
    previous = None
    for tokens in (131_072, 262_144, 524_288, 1_048_576):
        prediction, reference = text_pair(tokens)
        _, seconds = timed(lambda: rouge_instance_scores([prediction], [[reference]], ("rouge1", "rouge2")))
        ratio = f"  x{seconds / previous:.2f} for 2x tokens" if previous else ""
        print(f"  {tokens:>9} tokens: {seconds:7.3f} s{ratio}")
        previous = seconds
    print("ROUGE-L: ours vs rouge_score, seconds per pair")
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for tokens in (1_000, 10_000, 100_000):
        prediction, reference = text_pair(tokens, seed=1)
        ours, ours_seconds = timed(lambda: rouge_instance_scores([prediction], [[reference]], ("rougeL",)))
        line = f"  {tokens:>9} tokens: ours {ours_seconds:8.3f} s"
        if tokens <= arguments.oracle_max:
            theirs, their_seconds = timed(lambda: scorer.score(reference, prediction)["rougeL"].fmeasure)
            same = abs(float(ours["rougeL"][0]) - theirs) <= 1e-12
            line += f" | rouge_score {their_seconds:8.3f} s | equal: {same} | {their_seconds / ours_seconds:.0f}x faster"
        else:
            line += " | rouge_score not run (quadratic Python table: minutes)"
        print(line)


if __name__ == "__main__":
    main()
