"""Offline stand-in for the Hub's `bleu` evaluate script (loaded by name by the oracle): tensorflow nmt's BLEU over
13a tokens (clipped n-gram precisions, no smoothing, brevity penalty against the shortest reference)."""

import collections
import math

import datasets
import evaluate
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a


def _ngrams(tokens, max_order):
    return collections.Counter(tuple(tokens[i:i + n]) for n in range(1, max_order + 1)
                               for i in range(len(tokens) - n + 1))


def nmt_bleu(predictions, references, max_order=4):
    """tensorflow nmt's compute_bleu over 13a tokens (no smoothing): the keys of HF evaluate's bleu."""
    tokenize = Tokenizer13a()
    matches, possible = [0] * max_order, [0] * max_order
    translation_length = reference_length = 0
    for prediction, refs in zip(predictions, references):
        hypothesis = tokenize(prediction).split()
        ref_tokens = [tokenize(ref).split() for ref in refs]
        reference_length += min(len(tokens) for tokens in ref_tokens)
        translation_length += len(hypothesis)
        merged = collections.Counter()
        for tokens in ref_tokens:
            merged |= _ngrams(tokens, max_order)
        for ngram, count in (_ngrams(hypothesis, max_order) & merged).items():
            matches[len(ngram) - 1] += count
        for n in range(1, max_order + 1):
            possible[n - 1] += max(len(hypothesis) - n + 1, 0)
    precisions = [m / p if p > 0 else 0.0 for m, p in zip(matches, possible)]
    geo_mean = math.exp(sum(math.log(p) for p in precisions) / max_order) if min(precisions) > 0 else 0.0
    ratio = translation_length / reference_length
    penalty = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return {"bleu": geo_mean * penalty, "precisions": precisions, "brevity_penalty": penalty,
            "length_ratio": ratio, "translation_length": translation_length, "reference_length": reference_length}


class Bleu(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="BLEU (test stand-in).", citation="", inputs_description="",
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Sequence(datasets.Value("string"))}))

    def _compute(self, predictions, references, max_order=4, smooth=False):
        return nmt_bleu(predictions, references, max_order)
