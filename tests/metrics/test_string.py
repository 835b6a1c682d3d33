"""String metric classes (exact_match, token_overlap, squad, char_edit_distance, anls, wer) against plain
reference implementations written here (SQuAD v1.1 script logic, DP Levenshtein, DocVQA ANLS, corpus WER)."""

import random
import re
import string
from collections import Counter

import numpy as np
import pytest

from unitxt.metrics.kernels.bootstrap import percentile_interval, resample_indices
from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.string_match import Wer
from unitxt.settings_utils import settings

from tests.support.metric_cases import assert_close, random_text_corpus


def metric(name):
    return fetch_artifact(name)[0]


def run(metric_, predictions, references):
    scores = metric_.evaluate(predictions, references)
    return metric_.instance_results(scores), scores.global_scores(with_ci=False)


# ---------------------------------------------------------------- reference implementations
def normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def overlap(prediction_tokens, reference_tokens):
    common = Counter(prediction_tokens) & Counter(reference_tokens)
    same = sum(common.values())
    if same == 0:
        return 0.0, 0.0, 0.0
    precision, recall = same / len(prediction_tokens), same / len(reference_tokens)
    return precision, recall, 2 * precision * recall / (precision + recall)


def ref_token_overlap(prediction, references, normalized=True):
    prep = normalize if normalized else (lambda text: text)
    triples = [overlap(prep(prediction).split(), prep(reference).split()) for reference in references]
    return {name: max(t[i] for t in triples) for i, name in enumerate(["precision", "recall", "f1"])}


def ref_squad(prediction, references):
    exact = max(float(normalize(prediction) == normalize(reference)) for reference in references)
    f1 = max(overlap(normalize(prediction).split(), normalize(reference).split())[2] for reference in references)
    return {"exact_match": exact, "f1": f1}


def levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def ref_char_edit_distance(prediction, references):
    """(edit count, normalised distance) to the closest reference, whitespace removed (the original system's rule)."""
    prediction = "".join(prediction.split())
    references = ["".join(r.split()) for r in references]
    count = min(levenshtein(prediction, r) for r in references)
    normalised = min(levenshtein(prediction, r) / max(len(prediction), len(r)) if max(len(prediction), len(r))
                     else 0.0 for r in references)
    return count, normalised


def ref_anls(prediction, references, threshold=0.5):
    # the original: distance of the normalised texts over the longer RAW text's length (uppercased, padding
    # included); 1 - the nearest reference's distance, 0 below the threshold
    answer = " ".join(prediction.strip().lower().split())
    distances = []
    for reference in references:
        gold = " ".join(reference.strip().lower().split())
        longest = max(len(prediction.upper()), len(reference.upper()))
        distances.append(levenshtein(answer, gold) / longest if longest else 0.0)
    similarity = 1.0 - min(distances)
    return 0.0 if similarity < threshold else similarity


def ratio(edits, words):
    return edits / max(words, 1)  # an empty reference: the inserted words (the original system's WER)


def ref_wer(predictions, references):
    edits = [levenshtein(r.split(), p.split()) for p, r in zip(predictions, references)]
    words = [len(r.split()) for r in references]
    return ratio(sum(edits), sum(words)), [ratio(e, w) for e, w in zip(edits, words)]


# ---------------------------------------------------------------- tests
def test_exact_match_on_200_random_corpora():
    exact = metric("metrics.exact_match")
    for seed in range(200):
        predictions, references = random_text_corpus(seed, exact_copy=0.4)
        instances, global_scores = run(exact, predictions, references)
        expected = [float(any(p == r for r in refs)) for p, refs in zip(predictions, references)]
        assert [row["exact_match"] for row in instances] == expected
        assert_close(global_scores["exact_match"], float(np.mean(expected)))


@pytest.mark.parametrize("normalized", [True, False])
def test_token_overlap_on_200_random_corpora(normalized):
    token_overlap = metric("metrics.token_overlap" if normalized else "metrics.token_overlap[normalize=False]")
    for seed in range(200):
        predictions, references = random_text_corpus(100 + seed)
        instances, global_scores = run(token_overlap, predictions, references)
        expected = [ref_token_overlap(p, refs, normalized) for p, refs in zip(predictions, references)]
        for name in ("precision", "recall", "f1"):
            for index, row in enumerate(instances):
                assert_close(row[name], expected[index][name], what=f"seed {seed} {index} {name}")
            assert_close(global_scores[name], float(np.mean([e[name] for e in expected])), what=f"seed {seed} {name}")
        assert global_scores["score_name"] == "f1"


def test_squad_on_200_random_corpora():
    squad = metric("metrics.squad")
    for seed in range(200):
        predictions, references = random_text_corpus(300 + seed, exact_copy=0.3)
        instances, global_scores = run(squad, predictions, references)
        expected = [ref_squad(p, refs) for p, refs in zip(predictions, references)]
        for name in ("exact_match", "f1"):
            for index, row in enumerate(instances):
                assert_close(row[name], expected[index][name], what=f"seed {seed} {index} {name}")
            assert_close(global_scores[name], float(np.mean([e[name] for e in expected])))
        assert global_scores["score_name"] == "f1"


def test_char_edit_distance_and_accuracy_on_200_random_corpora():
    distance, accuracy = metric("metrics.char_edit_distance"), metric("metrics.char_edit_dist_accuracy")
    for seed in range(200):
        predictions, references = random_text_corpus(500 + seed)
        predictions = [p[:60] for p in predictions]
        references = [[refs[0][:60]] for refs in references]  # one reference each, as the original requires
        d_instances, d_global = run(distance, predictions, references)
        a_instances, a_global = run(accuracy, predictions, references)
        expected = [ref_char_edit_distance(p, refs) for p, refs in zip(predictions, references)]
        # the original scores two texts that are empty once whitespace is removed 0, not 1
        accuracies = [0.0 if not "".join(p.split()) and not "".join(refs[0].split()) else 1 - normalised
                      for p, refs, (_, normalised) in zip(predictions, references, expected)]
        for index, (count, normalised) in enumerate(expected):
            assert_close(d_instances[index]["char_edit_distance"], count, what=f"seed {seed} {index}")
            assert_close(a_instances[index]["char_edit_dist_accuracy"], accuracies[index])
        assert_close(d_global["char_edit_distance"], float(np.mean([count for count, _ in expected])))
        assert_close(a_global["char_edit_dist_accuracy"], float(np.mean(accuracies)))


def test_edit_distance_anls_and_length_values_of_the_original_system():
    distance, d_global = run(metric("metrics.char_edit_distance"), ["abcd", " kitten ", "x", "mat"],
                             [["abce"], ["sitting"], ["yy"], ["7.5 true sky"]])
    assert [row["char_edit_distance"] for row in distance] == [1, 3, 2, 9] and d_global["char_edit_distance"] == 3.75
    accuracy, a_global = run(metric("metrics.char_edit_dist_accuracy"), ["abcd", " kitten ", "x"],
                             [["abce"], ["sitting "], ["yy"]])
    assert [row["char_edit_dist_accuracy"] for row in accuracy] == pytest.approx([0.75, 0.5714285714285714, 0.0])
    assert a_global["char_edit_dist_accuracy"] == pytest.approx(0.44047619047619047)
    anls, n_global = run(metric("metrics.anls"), ["abcd", "ab", "abcdef"], [["abce"], ["abcd"], ["abc"]])
    assert [row["anls"] for row in anls] == [0.75, 0.5, 0.5]  # a normalised distance of exactly 0.5 keeps 0.5
    assert n_global["anls"] == pytest.approx(0.5833333333333334)
    lengths, l_global = run(metric("metrics.prediction_length"), ["a" * 60, "bb"], [["x"], ["y"]])
    assert [row["prediction_length"] for row in lengths] == [[60], [2]] and lengths[0]["score"] == [60]
    assert l_global["prediction_length"] == 31.0


def test_anls_on_200_random_corpora():
    anls = metric("metrics.anls")
    strict = metric("metrics.anls[threshold=0.3]")
    for seed in range(200):
        predictions, references = random_text_corpus(700 + seed, exact_copy=0.3)
        predictions = [p[:50] for p in predictions]
        references = [[r[:50] for r in refs] for refs in references]
        for metric_, threshold in ((anls, 0.5), (strict, 0.3)):
            instances, global_scores = run(metric_, predictions, references)
            expected = [ref_anls(p, refs, threshold) for p, refs in zip(predictions, references)]
            for index, value in enumerate(expected):
                assert_close(instances[index]["anls"], value, what=f"seed {seed} {index} threshold {threshold}")
            assert_close(global_scores["anls"], float(np.mean(expected)))


def test_wer_on_200_random_corpora():
    wer = metric("metrics.wer")
    empty_references = 0
    for seed in range(200):
        predictions, references = random_text_corpus(900 + seed)
        references = [refs[:1] for refs in references]
        instances, global_scores = run(wer, predictions, references)
        corpus, per_instance = ref_wer(predictions, [refs[0] for refs in references])
        assert_close(global_scores["wer"], corpus, what=f"seed {seed}")
        for index, value in enumerate(per_instance):
            assert_close(instances[index]["wer"], value, what=f"seed {seed} {index}")
            empty_references += not references[index][0].split() and bool(predictions[index].split())
    assert empty_references > 0  # empty references with a non-empty prediction were exercised


def test_wer_ci_equals_recomputed_resamples_and_needs_one_reference():
    predictions, references = [], []
    for seed in range(10):
        p, r = random_text_corpus(seed)
        predictions += p
        references += [refs[:1] for refs in r]
    wer = Wer(n_resamples=200, ci_method="percentile")  # BCa: tests/metrics/test_ci_procedure.py
    scores = wer.evaluate(predictions, references).global_scores()
    values = []
    for idx in resample_indices(len(predictions), 200, seed=settings.seed):
        for row in idx:
            values.append(ref_wer([predictions[i] for i in row], [references[i][0] for i in row])[0])
    low, high = percentile_interval(values)
    assert_close(scores["wer_ci_low"], low)
    assert_close(scores["wer_ci_high"], high)
    assert (scores["score_ci_low"], scores["score_ci_high"]) == (scores["wer_ci_low"], scores["wer_ci_high"])
    assert scores == wer.evaluate(predictions, references).global_scores()
    with pytest.raises(MetricError, match="Expecting a list with a single reference per prediction"):
        wer.evaluate(["a b"], [["a", "b"]])


@pytest.mark.parametrize("name,main,extra", [
    ("metrics.token_overlap", "f1", ["precision", "recall"]),
    ("metrics.squad", "f1", []),  # the original reports the CI of f1 only
    ("metrics.char_edit_distance", "char_edit_distance", []),
    ("metrics.exact_match", "exact_match", []),
])
def test_instance_metric_cis_present_and_deterministic(name, main, extra):
    rng = random.Random(1)
    predictions, references = [], []
    for _ in range(10):
        p, r = random_text_corpus(rng.randint(0, 10**6), exact_copy=0.4)
        predictions += p
        references += r
    metric_ = metric(name)
    if metric_.single_reference_per_prediction:  # char_edit_distance takes one reference, as in the original
        references = [refs[:1] for refs in references]
    first = metric_.evaluate(predictions, references).global_scores()
    assert first == metric_.evaluate(predictions, references).global_scores()
    for score in [main] + extra:
        assert first[f"{score}_ci_low"] <= first[score] <= first[f"{score}_ci_high"]
    assert first["score_ci_low"] == first[f"{main}_ci_low"]
