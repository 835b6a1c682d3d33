"""unitxt.metrics.kernels.rouge against the rouge_score oracle: randomized texts, hand-checked examples, LCS internals, errors."""

import random

import numpy as np
import pytest
from rouge_score import rouge_scorer
from rouge_score.rouge_scorer import _lcs_table, lcs_ind
from rouge_score.tokenize import tokenize as oracle_tokenize

from unitxt.errors import MetricError
from unitxt.metrics.kernels.rouge import (
    DEFAULT_ROUGE_TYPES,
    lcs_length,
    lcs_reference_positions,
    rouge_instance_scores,
    rouge_sentences,
    rouge_tokenize,
    rouge_for_instance,
)

ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]

WORDS = [
    "the", "The", "THE", "cat", "cats", "dog", "sat", "on", "mat", "a", "an", "is", "was", "run", "Run", "running",
    "x1", "42", "3.5", "1,000", "2024-01-01", "co-op", "well-known", "don't", "it's", "O'Neil", "naïve", "café",
    "über", "İstanbul", "ß", "Σίσυφος", "日本語", "emoji🙂", "tab\there", "e.g.", "U.S.", "(see", "below)",
    "[1]", "#tag", "@user", "&amp;", "--", "-", "_", "...",
]
PUNCT = ["", "", "", "", ",", ".", "!", "?", ";", ":", "'", '"']
SEPARATORS = [" ", " ", " ", " ", "  ", "\n", "\n", " \n", "\n\n", "\t"]


def random_text(rng: random.Random, max_words: int = 25) -> str:
    """A messy text: words from a small vocabulary, punctuation, case, unicode and newline-separated sentences."""
    roll = rng.random()
    if roll < 0.05:
        return ""
    if roll < 0.08:
        return rng.choice([" ", "\n", "\n\n", "...", " - ", "!!"])
    parts = []
    for _ in range(rng.randint(1, max_words)):
        parts.append(rng.choice(WORDS) + rng.choice(PUNCT))
        parts.append(rng.choice(SEPARATORS))
    return "".join(parts[:-1])


def random_corpus(seed: int):
    """A few instances with 1-3 references each."""
    rng = random.Random(seed)
    n = rng.randint(1, 5)
    predictions = [random_text(rng) for _ in range(n)]
    references = []
    for prediction in predictions:
        refs = []
        for _ in range(rng.randint(1, 3)):
            if prediction and rng.random() < 0.3:  # a noisy copy, to get high-overlap cases too
                words = prediction.split(" ")
                if rng.random() < 0.3:
                    rng.shuffle(words)
                refs.append(" ".join(w for w in words if rng.random() > 0.2))
            else:
                refs.append(random_text(rng))
        references.append(refs)
    return predictions, references


def assert_matches_oracle(predictions, references, rouge_types):
    """Compare precision, recall and fmeasure of every instance with RougeScorer.score_multi."""
    ours = rouge_instance_scores(predictions, references, rouge_types, with_precision_recall=True)
    scorer = rouge_scorer.RougeScorer(rouge_types)
    for index, (prediction, refs) in enumerate(zip(predictions, references)):
        expected = scorer.score_multi(refs, prediction)
        for rouge_type in rouge_types:
            got = (
                ours[f"{rouge_type}_precision"][index],
                ours[f"{rouge_type}_recall"][index],
                ours[rouge_type][index],
            )
            want = expected[rouge_type]
            assert got == pytest.approx((want.precision, want.recall, want.fmeasure), abs=1e-9, rel=0), (
                rouge_type, prediction, refs,
            )


@pytest.mark.parametrize("seed", range(250))
def test_random_corpus_matches_rouge_score(seed):
    predictions, references = random_corpus(seed)
    assert_matches_oracle(predictions, references, ALL_TYPES)


@pytest.mark.parametrize("seed", range(40))
def test_single_type_requests_match_rouge_score(seed):
    # rouge_score tokenizes differently when only rougeLsum is requested; single types must still agree.
    predictions, references = random_corpus(10_000 + seed)
    rouge_type = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rouge4"][seed % 5]
    assert_matches_oracle(predictions, references, [rouge_type])


def test_long_multi_sentence_texts_match_rouge_score():
    rng = random.Random(7)
    predictions = [random_text(rng, 120) for _ in range(30)]
    references = [[random_text(rng, 120) for _ in range(rng.randint(1, 2))] for _ in range(30)]
    assert_matches_oracle(predictions, references, ALL_TYPES)


@pytest.mark.parametrize("seed", range(20))
def test_tokenizer_matches_rouge_score(seed):
    rng = random.Random(seed)
    for _ in range(20):
        text = random_text(rng, 40)
        assert rouge_tokenize(text) == oracle_tokenize(text, None)
        lines = [oracle_tokenize(line, None) for line in text.split("\n") if line]
        assert rouge_sentences(text) == [tokens for tokens in lines if tokens]


def test_lcs_length_and_positions_match_table_backtrack():
    rng = random.Random(3)
    for _ in range(3000):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 14))]
        b = [rng.choice("abcde") for _ in range(rng.randint(0, 14))]
        expected_length = _lcs_table(a, b)[-1][-1] if a and b else 0
        assert lcs_length(a, b) == expected_length
        positions = lcs_reference_positions(a, b)
        assert len(positions) == expected_length
        assert sorted(positions) == (lcs_ind(a, b) if a and b else [])


def test_hand_checked_example():
    scores = rouge_for_instance("The cat sat on the mat.", ["the cat is on the mat"], ["rouge1", "rouge2", "rougeL"])
    # unigrams: 5 of 6 match; bigrams: "the cat", "on the", "the mat" = 3 of 5; LCS "the cat on the mat" = 5.
    assert scores["rouge1"] == pytest.approx((5 / 6, 5 / 6, 5 / 6))
    assert scores["rouge2"] == pytest.approx((3 / 5, 3 / 5, 3 / 5))
    assert scores["rougeL"] == pytest.approx((5 / 6, 5 / 6, 5 / 6))


def test_hand_checked_union_lcs_example():
    # ROUGE paper, section 3.2: reference w1..w5, candidate sentences "w1 w2 w6 w7 w8" and "w1 w3 w8 w9 w5";
    # union LCS = w1 w2 w3 w5, so 4 hits: recall 4/5, precision 4/10.
    reference = "w1 w2 w3 w4 w5"
    prediction = "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5"
    precision, recall, fmeasure = rouge_for_instance(prediction, [reference], ["rougeLsum"])["rougeLsum"]
    assert (precision, recall) == pytest.approx((0.4, 0.8))
    assert fmeasure == pytest.approx(2 * 0.4 * 0.8 / 1.2)
    # Plain rougeL sees one sequence: LCS of "w1 w2 w3 w4 w5" and the 10 tokens is "w1 w2 w3 w5" too.
    assert rouge_for_instance(prediction, [reference], ["rougeL"])["rougeL"][:2] == pytest.approx((0.4, 0.8))


def test_hits_are_clipped_by_token_counts_in_rougelsum():
    # Each reference sentence matches the single "a" of the prediction; it may only be counted once.
    precision, recall, _ = rouge_for_instance("a", ["a\na\na"], ["rougeLsum"])["rougeLsum"]
    assert (precision, recall) == (1.0, 1 / 3)


def test_best_reference_is_chosen_per_type():
    prediction = "a b c d"
    references = ["a b c x", "d c b a"]  # the first is best for rouge2/rougeL, the second for rouge1
    scores = rouge_instance_scores([prediction], [references], ["rouge1", "rouge2", "rougeL"])
    assert scores["rouge1"][0] == 1.0
    assert scores["rouge2"][0] == pytest.approx(2 / 3)
    assert scores["rougeL"][0] == pytest.approx(0.75)


def test_empty_texts_score_zero_and_identical_texts_score_one():
    out = rouge_instance_scores(["", "!!", "Same text.\nTwo lines"], [[""], ["word"], ["same TEXT\ntwo lines!"]])
    for rouge_type in DEFAULT_ROUGE_TYPES:
        np.testing.assert_array_equal(out[rouge_type], [0.0, 0.0, 1.0])
        assert out[rouge_type].dtype == np.float64


def test_output_layout():
    out = rouge_instance_scores(["a b", "c"], [["a"], ["c", "d"]], with_precision_recall=True)
    assert set(out) == {f"{t}{suffix}" for t in DEFAULT_ROUGE_TYPES for suffix in ("", "_precision", "_recall")}
    assert all(value.shape == (2,) for value in out.values())
    assert rouge_instance_scores([], [])["rouge1"].shape == (0,)


@pytest.mark.parametrize(
    "call",
    [
        lambda: rouge_instance_scores(["a"], [["a"]], use_stemmer=True),
        lambda: rouge_tokenize("a", use_stemmer=True),
        lambda: rouge_instance_scores(["a"], [["a"]], ["rouge0"]),
        lambda: rouge_instance_scores(["a"], [["a"]], ["rougeX"]),
        lambda: rouge_instance_scores(["a"], [["a"]], "rouge1"),
        lambda: rouge_instance_scores(["a", "b"], [["a"]]),
        lambda: rouge_instance_scores(["a"], ["a"]),
        lambda: rouge_instance_scores(["a"], [[]]),
        lambda: rouge_instance_scores([None], [["a"]]),
        lambda: rouge_instance_scores(["a"], [[3]]),
        lambda: rouge_instance_scores("a", [["a"]]),
    ],
)
def test_bad_input_raises_metric_error(call):
    with pytest.raises(MetricError):
        call()
