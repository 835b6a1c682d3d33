"""results.signature: what decides the numbers, in one string; same signature and predictions -> same numbers."""

import json

import datasets

import unitxt
from unitxt import add_to_catalog, evaluate
from unitxt.processors import LowerCase
from unitxt.settings_utils import settings

from tests.evaluation.test_paired_comparison import HALF_RIGHT, ROWS, row


def fields(signature):
    return dict(part.split(":", 1) for part in signature.split("|"))


def test_signature_names_versions_recipe_metrics_and_bootstrap_settings():
    results = evaluate(HALF_RIGHT, ROWS)
    parts = fields(results.signature)
    assert list(parts) == ["unitxt", "datasets", "catalog", "recipe", "data", "metrics", "resamples", "confidence",
                           "seed"]
    assert parts["unitxt"] == unitxt.__version__ and parts["datasets"] == datasets.__version__
    assert parts["recipe"] == "template=t,num_demos=0"
    assert parts["metrics"].startswith("metrics.accuracy+metrics.f1_macro#")
    assert (parts["resamples"], parts["confidence"], parts["seed"]) == ("1000", "0.95", "42")
    assert results.global_scores.summary.splitlines()[-1] == f"Signature: {results.signature}"


def test_same_signature_same_numbers():
    first, second = evaluate(HALF_RIGHT, ROWS), evaluate(HALF_RIGHT, ROWS)
    assert first.signature == second.signature
    assert dict(first.global_scores) == dict(second.global_scores)


def test_every_setting_that_changes_numbers_changes_the_signature():
    base = fields(evaluate(HALF_RIGHT, ROWS).signature)
    with settings.context(seed=7):
        assert fields(evaluate(HALF_RIGHT, ROWS).signature)["seed"] == "7"
    with settings.context(default_n_resamples=200):
        assert fields(evaluate(HALF_RIGHT, ROWS).signature)["resamples"] == "200"
    overridden = [row(r["target"], metrics=("metrics.accuracy[n_resamples=50]", "metrics.f1_macro")) for r in ROWS]
    changed = fields(evaluate(HALF_RIGHT, overridden).signature)
    assert changed["metrics"].split("#")[1] != base["metrics"].split("#")[1] and changed["resamples"] == "50,1000"
    other_data = [dict(r, source=r["source"] + "!") for r in ROWS]
    assert fields(evaluate(HALF_RIGHT, other_data).signature)["data"] != base["data"]
    other_recipe = [dict(r, task_data=json.dumps({**json.loads(r["task_data"]),
                                                   "metadata": {"template": "t2", "num_demos": 3}})) for r in ROWS]
    assert fields(evaluate(HALF_RIGHT, other_recipe).signature)["recipe"] == "template=t2,num_demos=3"
    assert fields(evaluate(HALF_RIGHT, ROWS, calc_confidence_intervals=False).signature)["resamples"] == "0"


def test_catalog_content_is_part_of_the_signature(temp_catalog):
    before = fields(evaluate(HALF_RIGHT, ROWS).signature)["catalog"]
    add_to_catalog(LowerCase(), "processors.my_lower", catalog_path=str(temp_catalog))
    after = fields(evaluate(HALF_RIGHT, ROWS).signature)["catalog"]
    assert before != after
