"""unitxt.metrics.kernels.bleu against the sacrebleu oracle: 13a tokenizer, corpus/sentence BLEU, chrF, bootstrap statistics."""

import random

import numpy as np
import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from unitxt.metrics.kernels.bleu import (
    BLEU_TOKENIZERS,
    bleu_details_from_statistics,
    bleu_from_statistics,
    bleu_statistics,
    clear_tokenizer_cache,
    corpus_bleu,
    sentence_bleu_scores,
    tokenize_13a,
    tokenize_none,
)
from unitxt.metrics.kernels.chrf import chrf_from_statistics, chrf_statistics, corpus_chrf, sentence_chrf_scores
from unitxt.errors import MetricError

WORDS = [
    "the", "The", "THE", "cat", "cats", "dog", "sat", "on", "mat", "a", "is", "was", "run", "Run", "x1", "42",
    "3.5", "1,000", "5-6", "2024-01-01", "co-op", "well-known", "don't", "it's", "naïve", "café", "İstanbul",
    "ß", "Σίσυφος", "日本語", "emoji🙂", "e.g.", "U.S.", "(see", "below)", "[1]", "#tag", "@user", "&amp;",
    "&quot;hi&quot;", "&lt;b&gt;", "<skipped>", "--", "-", "...", "a.", ".5", "x,y", "$10", "100%",
]
PUNCT = ["", "", "", "", ",", ".", "!", "?", ";", ":", "'", '"', "-"]
SEPARATORS = [" ", " ", " ", " ", "  ", "\n", "-\n", "\t", "\xa0"]


def random_text(rng: random.Random, max_words: int = 20) -> str:
    """A messy segment: small vocabulary, punctuation, numbers, case, hyphens, apostrophes, unicode, newlines."""
    roll = rng.random()
    if roll < 0.05:
        return ""
    if roll < 0.08:
        return rng.choice([" ", "\n", ".", "- ", "&amp;"])
    parts = []
    for _ in range(rng.randint(1, max_words)):
        parts.append(rng.choice(WORDS) + rng.choice(PUNCT))
        parts.append(rng.choice(SEPARATORS))
    return "".join(parts[:-1]) + rng.choice(["", "", " ", "\n"])


def noisy_copy(rng: random.Random, text: str) -> str:
    """Drop/shuffle some words of `text` so references overlap with predictions."""
    words = [word for word in text.split(" ") if rng.random() > 0.2]
    if rng.random() < 0.3:
        rng.shuffle(words)
    return " ".join(words)


def random_corpus(seed: int):
    """Predictions and instance-major references (1-3 per instance, some None) of a small random corpus."""
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    n_refs = rng.randint(1, 3)
    predictions = [random_text(rng) for _ in range(n)]
    references = []
    for prediction in predictions:
        refs = []
        for k in range(n_refs):
            if k > 0 and rng.random() < 0.2:
                refs.append(None)  # sacrebleu's way of giving fewer references to an instance
            elif rng.random() < 0.5:
                refs.append(noisy_copy(rng, prediction))
            else:
                refs.append(random_text(rng))
        references.append(refs)
    return predictions, references


def streams_of(references):
    """Instance-major references -> sacrebleu's reference streams."""
    return [list(stream) for stream in zip(*references)]


def present(refs):
    return [ref for ref in refs if ref is not None]


# ----------------------------------------------------------------------------------------------------------
# Tokenizers
# ----------------------------------------------------------------------------------------------------------


def test_13a_matches_sacrebleu_on_adversarial_strings():
    oracle = Tokenizer13a()
    rng = random.Random(0)
    alphabet = list("ab1290.,-.,-&;<>()'\"/ ") + [
        "\x1c", "\xa0", "\u2003", "\r", "\t", "\n", "-\n", "&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "é",
    ]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert tokenize_13a(text) == oracle(text), repr(text)
    for _ in range(500):
        text = random_text(rng, 30)
        assert tokenize_13a(text) == oracle(text), repr(text)


def test_13a_symbol_set_is_the_mteval_character_class():
    import re

    mteval_class = re.compile(r"[\{-\~\[-\` -\&\(-\+\:-\@\/]")
    for code in range(128):
        char = chr(code)
        if char in ".," or char.isspace():  # period/comma have their own rules; whitespace separates anyway
            continue
        separated = tokenize_13a(f"a{char}b") == f"a {char} b"
        assert separated == bool(mteval_class.fullmatch(char)), repr(char)


def test_13a_cache_does_not_change_results():
    text = "Hello, world. 3.5-4 (x) U.S. don't"
    first = tokenize_13a(text)
    clear_tokenizer_cache()
    assert tokenize_13a(text) == first == "Hello , world . 3.5 - 4 ( x ) U . S . don't" == Tokenizer13a()(text)


def test_none_tokenizer_is_identity():
    assert tokenize_none(" a  b. ") == " a  b. "
    assert set(BLEU_TOKENIZERS) == {"13a", "none"}


# ----------------------------------------------------------------------------------------------------------
# BLEU
# ----------------------------------------------------------------------------------------------------------


def assert_bleu_equal(ours, theirs):
    assert ours["score"] == pytest.approx(theirs.score, abs=1e-9, rel=0)
    assert ours["precisions"] == pytest.approx(theirs.precisions, abs=1e-9, rel=0)
    assert ours["bp"] == pytest.approx(theirs.bp, abs=1e-12, rel=0)
    assert (ours["sys_len"], ours["ref_len"]) == (theirs.sys_len, theirs.ref_len)


@pytest.mark.parametrize("seed", range(250))
def test_corpus_bleu_matches_sacrebleu(seed):
    predictions, references = random_corpus(seed)
    tokenize = "13a" if seed % 4 else "none"
    lowercase = seed % 3 == 0
    smooth_method = ["exp", "exp", "floor", "add-k", "none"][seed % 5]
    theirs = sacrebleu.corpus_bleu(
        predictions, streams_of(references), tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method
    )
    ours = corpus_bleu(predictions, references, tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method)
    assert_bleu_equal(ours, theirs)
    # Statistics are exact integers: summing per-instance rows gives sacrebleu's counts and totals.
    stats = bleu_statistics(predictions, references, tokenize=tokenize, lowercase=lowercase)
    assert stats.dtype == np.int64 and stats.shape == (len(predictions), 10)
    if smooth_method != "add-k":  # sacrebleu adds k to its reported counts/totals
        assert stats.sum(0)[:8].tolist() == list(theirs.counts) + list(theirs.totals)
    # Effective-order corpus BLEU as well.
    theirs_eff = sacrebleu.corpus_bleu(
        predictions, streams_of(references), tokenize=tokenize, lowercase=lowercase, use_effective_order=True
    )
    eff = bleu_from_statistics(stats.sum(0), effective_order=True)
    assert eff == pytest.approx(theirs_eff.score, abs=1e-9, rel=0)


@pytest.mark.parametrize("seed", range(250))
def test_sentence_bleu_matches_sacrebleu(seed):
    predictions, references = random_corpus(50_000 + seed)
    smooth_method = ["exp", "exp", "exp", "floor", "add-k", "none"][seed % 6]
    ours = sentence_bleu_scores(predictions, references, smooth_method=smooth_method)
    stats = bleu_statistics(predictions, references)
    for index, (prediction, refs) in enumerate(zip(predictions, references)):
        theirs = sacrebleu.sentence_bleu(prediction, present(refs), smooth_method=smooth_method)
        assert ours[index] == pytest.approx(theirs.score, abs=1e-9, rel=0)
        # the exact scalar path on a single row agrees as well
        details = bleu_details_from_statistics(stats[index], smooth_method, effective_order=True)
        assert_bleu_equal(details, theirs)


def test_bleu_hand_checked_example():
    result = corpus_bleu(["The cat is on the mat."], [["The cat sat on the mat."]])
    # 7 tokens with the period: 1-grams 6/7, 2-grams 4/6, 3-grams 2/5, 4-grams 1/4; no brevity penalty.
    assert result["precisions"] == pytest.approx([600 / 7, 400 / 6, 40.0, 25.0])
    assert result["score"] == pytest.approx(100 * (6 / 7 * 4 / 6 * 2 / 5 * 1 / 4) ** 0.25)
    assert result["bp"] == 1.0 and result["sys_len"] == result["ref_len"] == 7
    # exp smoothing: no 4-gram match among 3 -> precision 100 / (2 * 3)
    smoothed = corpus_bleu(["the cat is on the mat"], [["the cat sat on the mat"]])
    assert smoothed["precisions"][3] == pytest.approx(100 / 6)
    assert smoothed["score"] == pytest.approx(100 * (5 / 6 * 3 / 5 * 1 / 4 * 1 / 6) ** 0.25)


def test_brevity_penalty_uses_closest_reference_length():
    # hypothesis of 4 tokens, references of 3 and 5 tokens: equally close, the shorter (3) wins -> no penalty
    stats = bleu_statistics(["a b c d"], [["a b c", "a b c d e"]])
    assert stats[0].tolist() == [4, 3, 2, 1, 4, 3, 2, 1, 4, 3]
    # a 2-token hypothesis against a 4-token reference: bp = exp(1 - 4/2)
    details = corpus_bleu(["a b"], [["a b c d"]])
    assert details["bp"] == pytest.approx(np.exp(-1.0))


def test_identical_and_disjoint_texts():
    assert corpus_bleu(["a b c d e"], [["a b c d e"]])["score"] == pytest.approx(100.0)
    assert corpus_bleu(["a b c d e"], [["v w x y z"]])["score"] == 0.0
    assert corpus_bleu([""], [["a"]])["score"] == 0.0
    np.testing.assert_allclose(sentence_bleu_scores(["a b", ""], [["a b"], [""]]), [100.0, 0.0])


# ----------------------------------------------------------------------------------------------------------
# chrF
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(250))
def test_chrf_matches_sacrebleu(seed):
    predictions, references = random_corpus(90_000 + seed)
    word_order = 2 if seed % 5 == 0 else 0
    eps_smoothing = seed % 7 == 0
    theirs = sacrebleu.corpus_chrf(
        predictions, streams_of(references), word_order=word_order, eps_smoothing=eps_smoothing
    )
    ours = corpus_chrf(predictions, references, word_order=word_order, eps_smoothing=eps_smoothing)
    assert ours == pytest.approx(theirs.score, abs=1e-9, rel=0)
    sentence = sentence_chrf_scores(predictions, references, word_order=word_order, eps_smoothing=eps_smoothing)
    for index, (prediction, refs) in enumerate(zip(predictions, references)):
        expected = sacrebleu.sentence_chrf(
            prediction, present(refs), word_order=word_order, eps_smoothing=eps_smoothing
        ).score
        assert sentence[index] == pytest.approx(expected, abs=1e-9, rel=0)


def test_chrf_hand_checked_example():
    assert corpus_chrf(["abc"], [["abc"]]) == 100.0
    assert corpus_chrf(["abc"], [["xyz"]]) == 0.0
    # "ab" vs "abc": orders 1-2 only have hypothesis n-grams (3 and 4-6 are empty in the hypothesis);
    # order 1: P=1, R=2/3; order 2: P=1, R=1/2; order 3: the hypothesis has none -> not counted.
    precision, recall = 1.0, (2 / 3 + 1 / 2) / 2
    expected = 100 * 5 * precision * recall / (4 * precision + recall)
    assert corpus_chrf(["ab"], [["a b c"]]) == pytest.approx(expected)
    stats = chrf_statistics(["ab"], [["a b c"]])
    assert stats.shape == (1, 18)
    assert stats[0, :9].tolist() == [2, 3, 2, 1, 2, 1, 0, 1, 0]


def test_chrf_multi_reference_keeps_best_reference_row():
    stats = chrf_statistics(["abcdef"], [["zzz", "abcdxx", None]])
    single = chrf_statistics(["abcdef"], [["abcdxx"]])
    np.testing.assert_array_equal(stats, single)


# ----------------------------------------------------------------------------------------------------------
# Vectorised statistics (bootstrap)
# ----------------------------------------------------------------------------------------------------------


def resampled_rows(stats, rng, n_resamples):
    """Resampling-count matrix @ stats, and the index lists it came from."""
    n = len(stats)
    indices = [rng.integers(0, n, size=n) for _ in range(n_resamples)]
    counts = np.stack([np.bincount(idx, minlength=n) for idx in indices])
    return counts @ stats, indices


@pytest.mark.parametrize("seed", range(10))
def test_bleu_of_resampled_rows_equals_recomputation(seed):
    rng = np.random.default_rng(seed)
    predictions, references = [], []
    for k in range(4):
        p, r = random_corpus(1000 * seed + k)
        predictions += p
        references += r
    # pad to a common number of references so sacrebleu's streams can be built
    width = max(len(refs) for refs in references)
    references = [list(refs) + [None] * (width - len(refs)) for refs in references]
    stats = bleu_statistics(predictions, references)
    rows, indices = resampled_rows(stats, rng, 25)
    for smooth_method in ("exp", "floor", "none", "add-k"):
        vectorised = bleu_from_statistics(rows, smooth_method=smooth_method)
        assert vectorised.shape == (25,)
        for k, idx in enumerate(indices):
            preds = [predictions[i] for i in idx]
            refs = [references[i] for i in idx]
            direct = corpus_bleu(preds, refs, smooth_method=smooth_method)["score"]
            assert vectorised[k] == pytest.approx(direct, abs=1e-9, rel=1e-12)
            if k < 3:
                oracle = sacrebleu.corpus_bleu(preds, streams_of(refs), smooth_method=smooth_method).score
                assert vectorised[k] == pytest.approx(oracle, abs=1e-9, rel=1e-12)
    details = bleu_details_from_statistics(rows)
    for k in range(len(rows)):
        scalar = bleu_details_from_statistics(rows[k])
        assert details["precisions"][k] == pytest.approx(scalar["precisions"], abs=1e-9)
        assert details["bp"][k] == pytest.approx(scalar["bp"], abs=1e-12)
    # sentence scores are the row-wise effective-order BLEU
    np.testing.assert_allclose(
        bleu_from_statistics(stats, effective_order=True),
        [sacrebleu.sentence_bleu(p, present(r)).score for p, r in zip(predictions, references)],
        rtol=0, atol=1e-9,
    )


@pytest.mark.parametrize("seed", range(10))
def test_chrf_of_resampled_rows_equals_recomputation(seed):
    rng = np.random.default_rng(seed)
    predictions, references = [], []
    for k in range(4):
        p, r = random_corpus(7000 * seed + k)
        predictions += p
        references += r
    width = max(len(refs) for refs in references)
    references = [list(refs) + [None] * (width - len(refs)) for refs in references]
    stats = chrf_statistics(predictions, references)
    rows, indices = resampled_rows(stats, rng, 25)
    vectorised = chrf_from_statistics(rows)
    assert vectorised.shape == (25,)
    for k, idx in enumerate(indices):
        preds = [predictions[i] for i in idx]
        refs = [references[i] for i in idx]
        # chrF uses only + * / so the vectorised path is bit-identical to the scalar one
        assert vectorised[k] == corpus_chrf(preds, refs) == chrf_from_statistics(rows[k])
        if k < 3:
            assert vectorised[k] == pytest.approx(
                sacrebleu.corpus_chrf(preds, streams_of(refs)).score, abs=1e-9, rel=0
            )


def test_statistics_accept_lists_and_empty_inputs():
    assert bleu_statistics([], []).shape == (0, 10)
    assert chrf_statistics([], []).shape == (0, 18)
    assert bleu_from_statistics([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) == pytest.approx(100.0)
    assert isinstance(bleu_from_statistics(np.ones(10, dtype=np.int64)), float)
    assert isinstance(chrf_from_statistics(np.ones(18)), float)
    assert sentence_bleu_scores([], []).shape == (0,)


@pytest.mark.parametrize(
    "call",
    [
        lambda: bleu_statistics(["a"], [[None]]),
        lambda: bleu_statistics(["a"], [[]]),
        lambda: bleu_statistics(["a", "b"], [["a"]]),
        lambda: bleu_statistics(["a"], ["a"]),
        lambda: bleu_statistics([1], [["a"]]),
        lambda: bleu_statistics(["a"], [["a"]], tokenize="intl"),
        lambda: bleu_from_statistics([1, 2, 3]),
        lambda: bleu_from_statistics(np.ones(10), smooth_method="bogus"),
        lambda: chrf_statistics(["a"], [[None, None]]),
        lambda: chrf_statistics(["a"], [["a"]], char_order=0),
        lambda: chrf_from_statistics([1, 2]),
    ],
)
def test_bad_input_raises_metric_error(call):
    with pytest.raises(MetricError):
        call()
