"""Speed and agreement of unitxt's ROUGE / BLEU / chrF against rouge_score and sacrebleu on synthetic text.

Run from the repository root:  PYTHONPATH=core python scripts/benchmarks/text_metrics_speed.py [--n 10000]
Dev-only script: it imports the reference libraries (rouge_score, sacrebleu) as oracles.
"""

import argparse
import random
import time
from typing import Callable, List, Tuple

from unitxt.metrics.kernels.bleu import (
    bleu_from_statistics,
    bleu_statistics,
    clear_tokenizer_cache,
)
from unitxt.metrics.kernels.chrf import chrf_from_statistics, chrf_statistics
from unitxt.metrics.kernels.rouge import rouge_instance_scores

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def make_corpus(n: int, seed: int = 0) -> Tuple[List[str], List[List[str]]]:
    """n (prediction, [reference]) pairs of 20-60 words in several newline-separated sentences.

    References are noisy copies of the prediction (word drops, swaps and substitutions) so the scores are in a
    realistic range rather than near zero.
    """
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocab = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    vocab += ["don't", "co-op", "U.S.", "3.5", "1,000", "42", "naïve", "café", "e.g.", "(see", "below)", "—"]
    weights = [1.0 / (rank + 1) for rank in range(len(vocab))]

    def sentence(words: List[str]) -> str:
        words = list(words)
        words[0] = words[0].capitalize()
        for k in range(1, len(words)):
            if rng.random() < 0.08:
                words[k] += ","
        return " ".join(words) + rng.choice([".", ".", ".", "!", "?"])

    def render(words: List[str]) -> str:
        sentences, start = [], 0
        while start < len(words):
            size = rng.randint(6, 18)
            sentences.append(sentence(words[start: start + size]))
            start += size
        return "\n".join(sentences)

    predictions, references = [], []
    for _ in range(n):
        words = rng.choices(vocab, weights, k=rng.randint(20, 60))
        noisy = []
        for word in words:
            roll = rng.random()
            if roll < 0.1:
                continue
            if roll < 0.25:
                noisy.append(rng.choices(vocab, weights)[0])
            else:
                noisy.append(word)
            if rng.random() < 0.05:
                noisy.append(rng.choice(vocab))
        for _ in range(len(noisy) // 15):
            k = rng.randrange(len(noisy) - 1)
            noisy[k], noisy[k + 1] = noisy[k + 1], noisy[k]
        predictions.append(render(words))
        references.append([render(noisy or words)])
    return predictions, references


def timed(function: Callable[[], object], repeat: int) -> Tuple[float, object]:
    """Best wall time over `repeat` runs, and the result of the last run."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def report(name: str, ours: float, theirs: float, max_diff: float) -> None:
    """One line: timings, speed-up and agreement."""
    verdict = "MATCH" if max_diff <= 1e-9 else "MISMATCH"
    print(
        f"{name:<28} ours {ours:8.3f} s   reference {theirs:8.3f} s   speed-up x{theirs / ours:5.2f}   "
        f"max |diff| {max_diff:.2e}  {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000, help="number of prediction/reference pairs")
    parser.add_argument("--repeat", type=int, default=3, help="timing repetitions (best is reported)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import sacrebleu
    from rouge_score import rouge_scorer

    predictions, references = make_corpus(args.n, args.seed)
    streams = [[refs[0] for refs in references]]
    words = sum(len(p.split()) for p in predictions) / len(predictions)
    print(f"{args.n} pairs, {words:.1f} words per prediction on average, best of {args.repeat} runs\n")

    # ROUGE: all four types together, per-instance fmeasure.
    t_ours, ours = timed(lambda: rouge_instance_scores(predictions, references, ROUGE_TYPES), args.repeat)

    def rouge_reference():
        scorer = rouge_scorer.RougeScorer(ROUGE_TYPES)
        return [scorer.score_multi(refs, pred) for pred, refs in zip(predictions, references)]

    t_ref, theirs = timed(rouge_reference, args.repeat)
    diff = max(
        abs(ours[rouge_type][i] - theirs[i][rouge_type].fmeasure)
        for rouge_type in ROUGE_TYPES
        for i in range(len(predictions))
    )
    report("rouge (1, 2, L, Lsum)", t_ours, t_ref, diff)

    # Corpus BLEU (sacrebleu defaults).  Our 13a word-chunk memo is emptied before every run, so each timing
    # is a cold start like sacrebleu's (whose tokenizer cache lives on a fresh object per call).
    def our_corpus_bleu():
        clear_tokenizer_cache()
        return bleu_from_statistics(bleu_statistics(predictions, references).sum(0))

    t_ours, ours = timed(our_corpus_bleu, args.repeat)
    t_ref, theirs = timed(lambda: sacrebleu.corpus_bleu(predictions, streams).score, args.repeat)
    report("corpus BLEU", t_ours, t_ref, abs(ours - theirs))

    # Sentence BLEU for every instance.
    def our_sentence_bleu():
        clear_tokenizer_cache()
        return bleu_from_statistics(bleu_statistics(predictions, references), effective_order=True)

    t_ours, ours = timed(our_sentence_bleu, args.repeat)
    t_ref, theirs = timed(
        lambda: [sacrebleu.sentence_bleu(p, refs).score for p, refs in zip(predictions, references)], 1
    )
    report("sentence BLEU (all)", t_ours, t_ref, max(abs(a - b) for a, b in zip(ours, theirs)))

    # Corpus chrF (sacrebleu defaults).
    t_ours, ours = timed(lambda: chrf_from_statistics(chrf_statistics(predictions, references).sum(0)), args.repeat)
    t_ref, theirs = timed(lambda: sacrebleu.corpus_chrf(predictions, streams).score, args.repeat)
    report("corpus chrF", t_ours, t_ref, abs(ours - theirs))


if __name__ == "__main__":
    main()
