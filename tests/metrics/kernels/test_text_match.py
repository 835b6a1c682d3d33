"""Text-matching kernels against plain reference implementations, sklearn and hand-computed values."""

import re
import string
from collections import Counter

import numpy as np
import pytest
from sklearn.metrics import jaccard_score

from unitxt.metrics.kernels import bootstrap as bs
from unitxt.metrics.kernels import text_match as tm
from unitxt.errors import MetricError

TOL = 1e-9

# ---------------------------------------------------------------------------------------------
# Straightforward reference implementations


def ref_normalize_answer(s):
    """The official SQuAD v1.1 evaluate-v1.1.py normalisation, written out plainly."""

    def remove_articles(text):
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    return white_space_fix(remove_articles(remove_punc(s.lower())))


def ref_squad_f1(prediction, ground_truth):
    prediction_tokens = ref_normalize_answer(prediction).split()
    ground_truth_tokens = ref_normalize_answer(ground_truth).split()
    common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def ref_levenshtein(a, b):
    """Textbook O(len(a) * len(b)) dynamic programme."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        table[i][0] = i
    for j in range(len(b) + 1):
        table[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 1),
            )
    return table[len(a)][len(b)]


def ref_anls(references, prediction, threshold=0.5):
    # the original: distance of the normalised texts over the longer RAW text's length (uppercased, padding
    # included); 1 - the nearest reference's distance, 0 below the threshold
    answer = " ".join(prediction.strip().lower().split())
    distances = []
    for reference in references:
        gold = " ".join(reference.strip().lower().split())
        longest = max(len(prediction.upper()), len(reference.upper()))
        distances.append(ref_levenshtein(answer, gold) / longest if longest else 0.0)
    similarity = 1.0 - min(distances)
    return 0.0 if similarity < threshold else similarity


VOCAB = ["The", "the", "a", "An", "cat", "cats", "sat", "on", "mat", "dog", "Paris", "1990", "theory", "and"]
PUNCT = ["", "", "", ",", ".", "!", "'s", "-", " "]


def _random_text(rng, max_words=8):
    words = [VOCAB[i] + PUNCT[rng.randint(len(PUNCT))] for i in rng.randint(0, len(VOCAB), rng.randint(0, max_words))]
    return (" " * rng.randint(1, 3)).join(words)


# ---------------------------------------------------------------------------------------------


def test_squad_scores_equal_reference_script_on_300_random_cases():
    rng = np.random.RandomState(0)
    for _ in range(300):
        prediction = _random_text(rng)
        references = [_random_text(rng) for _ in range(rng.randint(1, 4))]
        if rng.rand() < 0.2:
            references.append(prediction.upper() + ".")
        assert tm.normalize_squad_answer(prediction) == ref_normalize_answer(prediction)
        expected_f1 = 100.0 * max(ref_squad_f1(prediction, r) for r in references)
        expected_em = 100.0 * max(float(ref_normalize_answer(prediction) == ref_normalize_answer(r)) for r in references)
        assert tm.squad_f1(references, prediction) == pytest.approx(expected_f1, abs=TOL)
        assert tm.squad_exact_match(references, prediction) == expected_em


def test_squad_hand_computed():
    assert tm.normalize_squad_answer("  The Cat's  hat, an apple! ") == "cats hat apple"
    assert tm.squad_exact_match(["The cat."], "cat") == 100.0
    assert tm.squad_exact_match(["dog"], "cat") == 0.0
    # pred tokens [cat, sat, on, mat], gold [cat, sat]: P = 1/2, R = 1 -> F1 = 2/3
    assert tm.squad_f1(["the cat sat"], "a cat sat on the mat") == pytest.approx(200 / 3)
    assert tm.squad_f1(["dog", "cat sat"], "cat sat") == 100.0
    assert tm.squad_f1([""], "") == 0.0  # v1.1: no common token -> 0


def test_levenshtein_equals_plain_dp_on_500_random_pairs():
    rng = np.random.RandomState(1)
    alphabets = ["ab", "abcdef", string.ascii_letters + " ", "αβγ日本"]
    for case in range(500):
        alphabet = alphabets[case % 4]
        lengths = rng.randint(0, 200 if case % 5 == 0 else 12, size=2)
        a = "".join(rng.choice(list(alphabet), lengths[0]))
        b = "".join(rng.choice(list(alphabet), lengths[1]))
        assert tm.levenshtein_distance(a, b) == ref_levenshtein(a, b), (a, b)
    words_a, words_b = "the cat sat on the mat".split(), "a cat sat on mat today".split()
    assert tm.levenshtein_distance(words_a, words_b) == ref_levenshtein(words_a, words_b) == 3


def test_levenshtein_hand_computed_and_long_strings():
    assert tm.levenshtein_distance("kitten", "sitting") == 3
    assert tm.levenshtein_distance("", "abc") == 3
    assert tm.levenshtein_distance("abc", "") == 3
    assert tm.levenshtein_distance("", "") == 0
    assert tm.levenshtein_distance("flaw", "lawn") == 2
    assert tm.levenshtein_distance("a" * 5000, "a" * 4990 + "b" * 10) == 10


def test_char_edit_distance_and_anls_equal_reference_on_300_random_cases():
    rng = np.random.RandomState(2)
    for _ in range(300):
        prediction = _random_text(rng, 5)
        references = [_random_text(rng, 5) for _ in range(rng.randint(1, 4))]
        if rng.rand() < 0.3:
            references.append(prediction[:-2] + "xy")
        expected = min(
            ref_levenshtein(prediction, r) / max(len(prediction), len(r)) if max(len(prediction), len(r)) else 0.0
            for r in references
        )
        assert tm.char_edit_distance(references, prediction) == pytest.approx(expected, abs=TOL)
        assert tm.char_edit_distance(references, prediction, normalized=False) == min(
            ref_levenshtein(prediction, r) for r in references
        )
        assert tm.anls(references, prediction) == pytest.approx(ref_anls(references, prediction), abs=TOL)


def test_anls_and_char_edit_distance_hand_computed():
    assert tm.anls(["hello"], "helo") == pytest.approx(0.8)
    assert tm.anls(["Hello  World "], "hello world") == 1.0
    assert tm.anls(["abc"], "xyz") == 0.0
    assert tm.anls(["abcd"], "abxy") == 0.5  # NL = 0.5 at the threshold keeps 1 - NL (the original system)
    assert tm.anls(["abcd", "abcx"], "abcd") == 1.0
    # the original divides by the longer RAW length (padding counted): 1 edit over 9 characters, not over 6
    assert tm.anls(["  Paris  "], "Pariss") == pytest.approx(1 - 1 / 9)
    assert tm.anls(["abc"], "abc", threshold=0.9) == 1.0 and tm.anls(["abcd"], "abcx", threshold=0.8) == 0.0
    assert tm.char_edit_distance(["kitten"], "sitting") == pytest.approx(3 / 7)
    assert tm.char_edit_distance([""], "") == 0.0


def test_wer_equals_reference_on_200_random_cases():
    rng = np.random.RandomState(3)
    references, predictions = [], []
    for _ in range(200):
        reference = _random_text(rng) or "cat"
        prediction = _random_text(rng)
        ref_words, pred_words = reference.split(), prediction.split()
        expected = ref_levenshtein(ref_words, pred_words) / len(ref_words)
        assert tm.instance_wer(reference, prediction) == pytest.approx(expected, abs=TOL)
        references.append(reference)
        predictions.append(prediction)
    total_edits = sum(ref_levenshtein(r.split(), p.split()) for r, p in zip(references, predictions))
    total_words = sum(len(r.split()) for r in references)
    assert tm.corpus_wer(references, predictions) == pytest.approx(total_edits / total_words, abs=TOL)


def test_wer_hand_computed():
    # one substitution (sat->sit) and one deletion (the) over 6 reference words
    assert tm.instance_wer("the cat sat on the mat", "the cat sit on mat") == pytest.approx(2 / 6)
    # corpus WER pools edits: (1 + 2) / (1 + 4), not the mean of per-instance WERs (1 + 0.5) / 2
    assert tm.corpus_wer(["hello", "a b c d"], ["bye", "a b"]) == pytest.approx(3 / 5)
    assert tm.instance_wer("", "") == 0.0
    assert tm.instance_wer("", "word") == 1.0  # an empty reference: the inserted words (the original system)
    edits, lengths = tm.word_edit_counts(["hello", "a b c d"], ["bye", "a b"])
    assert edits.tolist() == [1, 2] and lengths.tolist() == [1, 4]


def test_resampled_corpus_wer_equals_plain():
    rng = np.random.RandomState(4)
    references = [_random_text(rng) or "x" for _ in range(40)]
    predictions = [_random_text(rng) for _ in range(40)]
    edits, lengths = tm.word_edit_counts(references, predictions)
    idx = next(bs.resample_indices(40, 6))
    values = tm.resampled_corpus_wer(edits, lengths, idx)
    for j, row in enumerate(idx):
        plain = tm.corpus_wer([references[i] for i in row], [predictions[i] for i in row])
        assert values[j] == pytest.approx(plain, abs=TOL)


def ref_token_overlap(reference, prediction):
    common = sum((Counter(prediction.split()) & Counter(reference.split())).values())
    if common == 0:
        return 0.0, 0.0, 0.0
    p, r = common / len(prediction.split()), common / len(reference.split())
    return p, r, 2 * p * r / (p + r)


def test_token_overlap_equals_reference_on_200_random_cases():
    rng = np.random.RandomState(5)
    for _ in range(200):
        prediction = _random_text(rng)
        references = [_random_text(rng) for _ in range(rng.randint(1, 4))]
        candidates = [ref_token_overlap(r, prediction) for r in references]
        best = max(candidates, key=lambda c: c[2])
        scores = tm.token_overlap(references, prediction)
        assert (scores["precision"], scores["recall"], scores["f1"]) == pytest.approx(best, abs=TOL)


def test_token_overlap_hand_computed():
    scores = tm.token_overlap(["a b c d"], "a b x")  # 2 shared tokens: P = 2/3, R = 1/2
    assert scores == pytest.approx({"precision": 2 / 3, "recall": 0.5, "f1": 4 / 7})
    # the triple comes from the best-f1 reference
    assert tm.token_overlap(["zzz", "a b x y"], "a b x") == pytest.approx({"precision": 1.0, "recall": 0.75, "f1": 6 / 7})
    assert tm.token_overlap([""], "") == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_jaccard_equals_sklearn_on_200_random_cases():
    rng = np.random.RandomState(6)
    universe = list("abcdefgh")
    for _ in range(200):
        prediction = set(rng.choice(universe, rng.randint(0, 6)))
        reference = set(rng.choice(universe, rng.randint(1, 6)))
        y_true = [int(x in reference) for x in universe]
        y_pred = [int(x in prediction) for x in universe]
        assert tm.jaccard_index([reference], prediction) == pytest.approx(jaccard_score(y_true, y_pred), abs=TOL)


def test_containment_exact_and_unsorted_match_equal_reference_on_200_random_cases():
    rng = np.random.RandomState(7)
    for _ in range(200):
        prediction = "".join(rng.choice(list("abc "), rng.randint(0, 10)))
        references = ["".join(rng.choice(list("abc"), rng.randint(0, 4))) for _ in range(rng.randint(1, 4))]
        if rng.rand() < 0.2:
            references.append(prediction)
        expected_containment = float(any(re.search(re.escape(r), prediction) is not None for r in references))
        assert tm.string_containment(references, prediction) == expected_containment
        assert tm.exact_match(references, prediction) == float(prediction in references)
        items = list(rng.randint(0, 4, rng.randint(0, 6)))
        other = list(rng.permutation(items)) if rng.rand() < 0.5 else list(rng.randint(0, 4, len(items)))
        assert tm.unsorted_list_exact_match(items, other) == float(sorted(items) == sorted(other))


def test_simple_matches_hand_computed():
    assert tm.jaccard_index([["a", "b", "c"], ["a", "d"]], ["a", "b"]) == pytest.approx(2 / 3)
    assert tm.jaccard_index([[]], []) == 1.0
    assert tm.string_containment(["cat", "dog"], "the dog barked") == 1.0
    assert tm.string_containment(["Cat"], "the cat") == 0.0
    assert tm.exact_match(["yes", "Yes"], "Yes") == 1.0
    assert tm.exact_match(["yes"], "yes ") == 0.0
    assert tm.unsorted_list_exact_match(["b", "a", "a"], ["a", "b", "a"]) == 1.0
    assert tm.unsorted_list_exact_match(["b", "a"], ["a", "b", "b"]) == 0.0
    assert tm.unsorted_list_exact_match([[1], [2]], [[2], [1]]) == 1.0


def test_bad_input_raises_metric_error():
    with pytest.raises(MetricError):
        tm.squad_f1("the answer", "answer")  # references must be a list
    with pytest.raises(MetricError):
        tm.anls([], "x")
    with pytest.raises(MetricError):
        tm.corpus_wer(["a"], ["a", "b"])
