"""metrics.bleu (HF evaluate's corpus BLEU) on the inputs the main table leaves out, through the oracle and ours:
instances with 1 to 3 references of different lengths, and empty predictions and references (no score alone,
counted in the corpus). Global scores, instance scores and CI bounds equal within 1e-9."""

import random

import pytest

from unitxt.catalog import fetch_artifact

from .test_same_numbers import WORDS, same

N = 120


def _text(rng):
    return " ".join(rng.choice(WORDS[:14]) for _ in range(rng.randint(1, 8)))


def _corpus(seed, with_empty):
    rng = random.Random(seed)
    references = [[_text(rng) for _ in range(rng.randint(1, 3))] for _ in range(N)]
    predictions = [refs[-1] if rng.random() < 0.25 else _text(rng) for refs in references]
    if with_empty:
        for index in rng.sample(range(N), 12):
            if rng.random() < 0.5:
                predictions[index] = rng.choice(["", "  "])
            else:
                references[index][rng.randrange(len(references[index]))] = ""
    return predictions, references


CASES = {"reference_counts_differ": (11, False), "empty_texts": (12, True)}


@pytest.fixture(scope="module")
def oracle_bleu(oracle):
    jobs = []
    for seed, with_empty in CASES.values():
        predictions, references = _corpus(seed, with_empty)
        jobs.append({"kind": "metric", "name": "metrics.bleu", "predictions": predictions,
                     "references": references, "task_data": None})
    return dict(zip(CASES, oracle(jobs)))


@pytest.mark.parametrize("case", list(CASES))
def test_bleu_gives_the_original_numbers(case, oracle_bleu):
    theirs = oracle_bleu[case]
    assert "error" not in theirs, theirs.get("error")
    predictions, references = _corpus(*CASES[case])
    metric = fetch_artifact("metrics.bleu")[0]
    scores = metric.evaluate(predictions, references)
    global_scores = scores.global_scores(with_ci=True)
    keys = [key for key in theirs["global"] if key != "num_of_instances"]
    assert {"bleu_ci_low", "bleu_ci_high", "precisions"} <= set(keys) <= set(global_scores)
    for key in keys:
        same(global_scores[key], theirs["global"][key], f"{case} global {key}")
    instances = metric.instance_results(scores)
    unscored = [index for index, original in enumerate(theirs["instances"]) if original["bleu"] is None]
    assert bool(unscored) == CASES[case][1]
    for index, (ours, original) in enumerate(zip(instances, theirs["instances"])):
        for key in original:
            same(ours.get(key), original[key], f"{case} instance {index} {key}")
