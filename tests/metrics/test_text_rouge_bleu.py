"""ROUGE, BLEU / sacreBLEU and chrF metric classes against rouge_score and sacrebleu, via the catalog entries.

Each metric runs through `evaluate(...)` then `.global_scores(...)` and `instance_results(...)` on 200+ random
corpora; global and instance scores must equal the reference library (BLEU/chrF divided by 100) within 1e-9.
"""

import random

import numpy as np
import pytest
import sacrebleu
from rouge_score import rouge_scorer

from unitxt import evaluate
from unitxt.metrics.kernels.bootstrap import percentile_interval, resample_indices
from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError, UnitxtError
from unitxt.metrics.text import Bleu, Chrf, Rouge
from unitxt.settings_utils import settings

from tests.support.metric_cases import assert_close, make_row, random_text_corpus, reference_streams

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SCORER = rouge_scorer.RougeScorer(ROUGE_TYPES, use_stemmer=False)


def metric(name):
    return fetch_artifact(name)[0]


def run(metric_, predictions, references, task_data=None):
    scores = metric_.evaluate(predictions, references, task_data)
    return metric_.instance_results(scores), scores.global_scores(with_ci=False), scores


# ---------------------------------------------------------------- ROUGE
def rouge_reference(predictions, references):
    per_instance = [SCORER.score_multi(refs, prediction) for prediction, refs in zip(predictions, references)]
    return [{t: scores[t].fmeasure for t in ROUGE_TYPES} for scores in per_instance]


def test_rouge_matches_rouge_score_on_250_random_corpora():
    rouge = metric("metrics.rouge")
    checked = 0
    for seed in range(250):
        predictions, references = random_text_corpus(seed)
        instances, global_scores, _ = run(rouge, predictions, references)
        expected = rouge_reference(predictions, references)
        for index, (ours, theirs) in enumerate(zip(instances, expected)):
            for rouge_type in ROUGE_TYPES:
                assert_close(ours[rouge_type], theirs[rouge_type], what=f"seed {seed} instance {index} {rouge_type}")
            assert ours["score"] == ours["rougeL"] and ours["score_name"] == "rougeL"
            checked += 1
        for rouge_type in ROUGE_TYPES:
            mean = float(np.mean([row[rouge_type] for row in expected]))
            assert_close(global_scores[rouge_type], mean, what=f"seed {seed} global {rouge_type}")
        assert global_scores["score"] == global_scores["rougeL"] and global_scores["score_name"] == "rougeL"
    assert checked > 800


def test_rouge_compute_equals_compute_all_and_ci_on_all_four_scores():
    rouge = Rouge()
    predictions, references = random_text_corpus(7, max_instances=12)
    rows = rouge.compute_all(predictions, references, [{}] * len(predictions))
    for prediction, refs, row in zip(predictions, references, rows):
        assert rouge.compute(refs, prediction, {}) == row
    scores = rouge.evaluate(predictions, references)
    first, second = scores.global_scores(), scores.global_scores()
    assert first == second  # seeded bootstrap: deterministic
    for rouge_type in ROUGE_TYPES:
        assert first[f"{rouge_type}_ci_low"] <= first[rouge_type] <= first[f"{rouge_type}_ci_high"]
    assert (first["score_ci_low"], first["score_ci_high"]) == (first["rougeL_ci_low"], first["rougeL_ci_high"])
    alias = metric("metrics.rouge_with_confidence_intervals").evaluate(predictions, references).global_scores()
    assert alias == first


def test_rouge_configuration_errors():
    with pytest.raises(MetricError, match="stemmer"):
        Rouge(use_stemmer=True)
    with pytest.raises(MetricError, match="main_score"):
        Rouge(rouge_types=["rouge1"])
    only_1 = Rouge(rouge_types=["rouge1", "rouge2"], main_score="rouge2")
    instances, global_scores, _ = run(only_1, ["a b c"], [["a b d"]])
    assert set(instances[0]) == {"rouge1", "rouge2", "score", "score_name"}
    assert global_scores["score"] == pytest.approx(0.5)
    with pytest.raises(MetricError, match="expects str"):
        Rouge().evaluate([3], [["3"]])


# ---------------------------------------------------------------- BLEU family
BLEU_VARIANTS = [  # sacreBLEU on a 0..1 scale (metrics.sacrebleu itself is 0..100: tests/metrics/test_bleu_family.py)
    ("metrics.sacrebleu_unit_scale", "sacrebleu", {}),
    ("metrics.sacrebleu_unit_scale[tokenize=none]", "sacrebleu", {"tokenize": "none"}),
    ("metrics.sacrebleu_unit_scale[lowercase=True]", "sacrebleu", {"lowercase": True}),
    ("metrics.sacrebleu_unit_scale[smooth_method=floor]", "sacrebleu", {"smooth_method": "floor"}),
]


def test_bleu_variants_match_sacrebleu_on_240_random_corpora():
    metrics = [(metric(name), main, options) for name, main, options in BLEU_VARIANTS]
    for seed in range(240):
        bleu, main, options = metrics[seed % len(metrics)]
        predictions, references = random_text_corpus(1000 + seed)
        instances, global_scores, _ = run(bleu, predictions, references)
        corpus = sacrebleu.corpus_bleu(predictions, reference_streams(references), **options)
        assert_close(global_scores[main], corpus.score / 100, what=f"seed {seed} corpus")
        assert global_scores["score_name"] == main and global_scores["score"] == global_scores[main]
        for index, (prediction, refs) in enumerate(zip(predictions, references)):
            sentence = sacrebleu.sentence_bleu(prediction, refs, **options)
            assert_close(instances[index][main], sentence.score / 100, what=f"seed {seed} sentence {index}")
            assert instances[index]["score"] == instances[index][main]


def test_chrf_and_chrf_plus_plus_match_sacrebleu_on_240_random_corpora():
    variants = [(metric("metrics.chrf"), "chrf", 0), (metric("metrics.chrf_plus_plus"), "chrf_plus_plus", 2)]
    for seed in range(240):
        chrf, main, word_order = variants[seed % 2]
        predictions, references = random_text_corpus(5000 + seed)
        instances, global_scores, _ = run(chrf, predictions, references)
        corpus = sacrebleu.corpus_chrf(predictions, reference_streams(references), word_order=word_order)
        assert_close(global_scores[main], corpus.score / 100, what=f"seed {seed} corpus")
        for index, (prediction, refs) in enumerate(zip(predictions, references)):
            sentence = sacrebleu.sentence_chrf(prediction, refs, word_order=word_order)
            assert_close(instances[index][main], sentence.score / 100, what=f"seed {seed} sentence {index}")


@pytest.mark.parametrize("which", ["bleu", "chrf"])
def test_corpus_cis_equal_resampled_sacrebleu(which):
    """The vectorised resampled statistic gives the same CI as recomputing sacrebleu on every resample."""
    rng = random.Random(3)
    predictions, references = [], []
    for seed in range(15):
        p, r = random_text_corpus(rng.randint(0, 10**6), max_instances=3)
        predictions += p
        references += r
    n_resamples = 150
    if which == "bleu":
        metric_ = Bleu(n_resamples=n_resamples, ci_method="percentile")  # BCa: test_original_ci_procedure.py

        def reference(p, r):
            return sacrebleu.corpus_bleu(p, reference_streams(r)).score / 100
    else:
        metric_ = Chrf(n_resamples=n_resamples, ci_method="percentile")

        def reference(p, r):
            return sacrebleu.corpus_chrf(p, reference_streams(r)).score / 100

    scores = metric_.evaluate(predictions, references).global_scores()
    values = []
    for idx in resample_indices(len(predictions), n_resamples, seed=settings.seed):
        for row in idx:
            values.append(reference([predictions[i] for i in row], [references[i] for i in row]))
    low, high = percentile_interval(values, 0.95)
    assert_close(scores[f"{which}_ci_low"], low, what="ci_low")
    assert_close(scores[f"{which}_ci_high"], high, what="ci_high")
    assert scores == metric_.evaluate(predictions, references).global_scores()  # deterministic


def test_corpus_metric_compute_and_subsets():
    bleu = Bleu()
    predictions, references = random_text_corpus(11, max_instances=10)
    scores = bleu.evaluate(predictions, references)
    assert_close(bleu.compute(references, predictions, [{}] * len(predictions))["bleu"],
                 scores.global_scores(with_ci=False)["bleu"])
    subset = [0, 2, 3]
    expected = sacrebleu.corpus_bleu([predictions[i] for i in subset],
                                     reference_streams([references[i] for i in subset])).score / 100
    assert_close(scores.global_scores(subset, with_ci=False)["bleu"], expected)
    with pytest.raises(MetricError, match="tokenize"):
        Bleu(tokenize="intl")
    with pytest.raises(MetricError, match="smooth_method"):
        Bleu(smooth_method="linear")


# ---------------------------------------------------------------- through unitxt.evaluate
def test_rouge_and_bleu_through_evaluate():
    rng = random.Random(5)
    predictions, rows, references = [], [], []
    for seed in range(40):
        p, r = random_text_corpus(rng.randint(0, 10**6), max_instances=2)
        for prediction, refs in zip(p, r):
            predictions.append("  " + prediction + " ")
            rows.append(make_row(refs[0], refs, ["metrics.rouge", "metrics.sacrebleu"],
                                 ["processors.to_string_stripped"]))
            references.append([ref.strip() for ref in refs])
    stripped = [prediction.strip() for prediction in predictions]
    results = evaluate(predictions, rows)
    expected = rouge_reference(stripped, references)
    for index, result in enumerate(results):
        instance = result["score"]["instance"]
        for rouge_type in ROUGE_TYPES:
            assert_close(instance[rouge_type], expected[index][rouge_type])
        assert instance["score_name"] == "rougeL"  # the first metric's main score
        one = sacrebleu.corpus_bleu([stripped[index]], [[ref] for ref in references[index]])
        assert_close(instance["sacrebleu"], one.score)  # 0..100, an instance scored as a one-sentence corpus
    global_scores = results.global_scores
    for rouge_type in ROUGE_TYPES:
        assert_close(global_scores[rouge_type], float(np.mean([row[rouge_type] for row in expected])))
        assert f"{rouge_type}_ci_low" in global_scores
    assert_close(global_scores["sacrebleu"], sacrebleu.corpus_bleu(stripped, reference_streams(references)).score)
    assert "sacrebleu_ci_low" in global_scores and global_scores["score_name"] == "rougeL"
    assert global_scores["num_of_instances"] == len(rows)


def test_text_metric_rejects_non_string_predictions_in_evaluate():
    rows = [make_row("5", ["5"], ["metrics.rouge"], ["processors.to_number"])]
    # the post-processor turned the reference into a number too; references are checked first (as in the original)
    with pytest.raises(UnitxtError, match="Each reference is expected to be of type 'str' in metrics.rouge metric"):
        evaluate(["5"], rows)
