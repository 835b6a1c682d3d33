"""metrics.sacrebleu, metrics.normalized_sacrebleu and metrics.bleu give the original system's numbers: sacreBLEU
on its 0..100 scale with its parts, the rounded effective-order variant, and the BLEU of HF evaluate's `bleu` metric
(tensorflow nmt formula, written out in the compat tier's stand-in for HF's `bleu`) — each checked on random corpora."""

import random
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from unitxt.catalog import fetch_artifact

VOCAB = "the cat sat on a mat dog ran fast blue red sky is . , !".split()


def corpus(seed, n=40):
    rng = random.Random(seed)
    predictions = [" ".join(rng.choices(VOCAB, k=rng.randint(2, 14))) for _ in range(n)]
    references = [[" ".join(rng.choices(VOCAB, k=rng.randint(2, 14))) for _ in range(rng.randint(1, 3))]
                  for _ in range(n)]
    return predictions, references


def sacrebleu_refs(references):
    width = max(len(refs) for refs in references)
    return [list(column) for column in zip(*[list(refs) + [None] * (width - len(refs)) for refs in references])]


def _load_nmt_bleu():
    """The written-out nmt formula: the same function the compat tier's offline stand-in for HF's `bleu` uses."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "tiers" / "compat" / "evaluate_stand_ins" / "bleu" / "bleu.py"
    spec = importlib.util.spec_from_file_location("nmt_bleu_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.nmt_bleu


nmt_bleu = _load_nmt_bleu()


def evaluate(name, predictions, references):
    metric = fetch_artifact(name)[0]
    scores = metric.evaluate(predictions, references)
    return metric.instance_results(scores), scores.global_scores(with_ci=True)


@pytest.mark.parametrize("seed", range(20))
def test_sacrebleu_is_on_the_0_100_scale_with_its_parts(seed):
    predictions, references = corpus(seed)
    instances, scores = evaluate("metrics.sacrebleu", predictions, references)
    expected = BLEU().corpus_score(predictions, sacrebleu_refs(references))
    assert scores["sacrebleu"] == pytest.approx(expected.score, abs=1e-9) and scores["score"] == scores["sacrebleu"]
    assert scores["counts"] == expected.counts and scores["totals"] == expected.totals
    assert scores["precisions"] == pytest.approx(expected.precisions) and scores["bp"] == pytest.approx(expected.bp)
    assert (scores["sys_len"], scores["ref_len"]) == (expected.sys_len, expected.ref_len)
    assert scores["sacrebleu_ci_low"] <= scores["sacrebleu"] <= scores["sacrebleu_ci_high"]
    for index in (0, 7):  # an instance is a one-sentence corpus
        alone = BLEU().corpus_score([predictions[index]], [[ref] for ref in references[index]])
        assert instances[index]["sacrebleu"] == pytest.approx(alone.score, abs=1e-9)
        assert instances[index]["counts"] == alone.counts


@pytest.mark.parametrize("seed", range(20))
def test_normalized_sacrebleu_is_rounded_effective_order_bleu(seed):
    predictions, references = corpus(seed)
    instances, scores = evaluate("metrics.normalized_sacrebleu", predictions, references)
    expected = BLEU(effective_order=True).corpus_score(predictions, sacrebleu_refs(references))
    assert scores["sacrebleu"] == round(expected.score / 100, 2)
    assert scores["precisions"] == [round(p / 100, 2) for p in expected.precisions]
    sentence = BLEU(effective_order=True).sentence_score(predictions[3], references[3])
    assert instances[3]["sacrebleu"] == round(sentence.score / 100, 2)


@pytest.mark.parametrize("seed", range(20))
def test_bleu_is_the_nmt_formula(seed):
    predictions, references = corpus(seed, n=60)
    rng = random.Random(seed)
    predictions = [ref[0] if rng.random() < 0.4 else p for p, ref in zip(predictions, references)]  # nonzero 4-grams
    instances, scores = evaluate("metrics.bleu", predictions, references)
    expected = nmt_bleu(predictions, references)
    assert scores["bleu"] == pytest.approx(expected["bleu"], abs=1e-12)
    assert scores["precisions"] == pytest.approx(expected["precisions"])
    assert scores["brevity_penalty"] == pytest.approx(expected["brevity_penalty"])
    assert scores["length_ratio"] == pytest.approx(expected["length_ratio"])
    assert (scores["translation_length"], scores["reference_length"]) == (expected["translation_length"],
                                                                            expected["reference_length"])
    assert instances[5]["bleu"] == pytest.approx(nmt_bleu([predictions[5]], [references[5]])["bleu"], abs=1e-12)


def _equal_length_references(rng, count, length):
    return [" ".join(rng.choices(VOCAB, k=length)) for _ in range(count)]


@pytest.mark.parametrize("seed", range(10))
def test_bleu_equals_unsmoothed_sacrebleu_when_shortest_is_closest(seed):
    """Independent of the written-out formula: with the references of an instance of one token length (so sacrebleu's
    closest reference length is nmt's shortest), metrics.bleu is sacrebleu's unsmoothed corpus BLEU / 100 — on text
    pairs and on instances with 1 to 3 references."""
    rng = random.Random(seed)
    for max_refs in (1, 3):
        references = [_equal_length_references(rng, rng.randint(1, max_refs), rng.randint(3, 12)) for _ in range(50)]
        predictions = [refs[0] if rng.random() < 0.4 else " ".join(rng.choices(VOCAB, k=rng.randint(2, 14)))
                       for refs in references]
        _, scores = evaluate("metrics.bleu", predictions, references)
        expected = BLEU(smooth_method="none", tokenize="13a").corpus_score(predictions, sacrebleu_refs(references))
        assert scores["bleu"] == pytest.approx(expected.score / 100, abs=1e-12)
        assert scores["precisions"] == pytest.approx([p / 100 for p in expected.precisions], abs=1e-12)
        assert scores["brevity_penalty"] == pytest.approx(expected.bp, abs=1e-12)
        assert (scores["translation_length"], scores["reference_length"]) == (expected.sys_len, expected.ref_len)


def test_bleu_of_an_instance_without_tokens_is_none():
    """As the original (its formula divides by a zero length): an empty prediction or reference scores None alone;
    the corpus score counts the instance's n-grams as usual."""
    rng = random.Random(3)
    predictions, references = corpus(3, n=30)
    predictions = [refs[0] if rng.random() < 0.5 else p for p, refs in zip(predictions, references)]
    predictions[2], predictions[4], references[6], references[8] = "", "  ", [""], ["", "the cat"]
    instances, scores = evaluate("metrics.bleu", predictions, references)
    assert [instances[i]["bleu"] for i in (2, 4, 6, 8)] == [None, None, None, None]
    assert instances[0]["bleu"] == pytest.approx(nmt_bleu([predictions[0]], [references[0]])["bleu"], abs=1e-12)
    assert scores["bleu"] == pytest.approx(nmt_bleu(predictions, references)["bleu"], abs=1e-12)
    assert scores["bleu_ci_low"] < scores["bleu"] < scores["bleu_ci_high"]
