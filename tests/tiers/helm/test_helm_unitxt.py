"""HELM's unitxt integration (crfm-helm 0.5.x) runs end to end on this library, offline.

`helm-run --run-entries "unitxt:card=cards.sst2,template=..." --models-to-run simple/model1 --max-eval-instances 10`
is run as a user would, in a subprocess whose working directory holds a local mirror of the card's Hub dataset
(stanfordnlp/sst2, the copy cards.sst2 reads as the original's does, in its real schema; 30 validation rows, which
the card serves as its test split). HELM's scenario loads the recipe with `unitxt.load_dataset(**kwargs)`, its model answers 10 sampled test instances, and its
metric hands `unitxt.evaluate()` the 10 predictions with the whole 30-row test split: as with the original, the
leading 10 rows are scored, with one warning naming both counts. HELM's `simple/model1` answers every prompt with
its last word ("is" here), which is never a sentiment label, so every classification score is 0.
"""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from tests.support.hub_mirror import make_hub_dataset  # noqa: E402

CARD, TEMPLATE = "cards.sst2", "templates.classification.multi_class.default"
RUN_ENTRY = f"unitxt:card={CARD},template={TEMPLATE}"
RECIPE_METRICS = ("f1_micro", "accuracy", "f1_macro")  # tasks.classification.multi_class.sentiment's metrics
WORDS = "the river city bright stone quiet market teacher garden winter music paper".split()


def _rows(rng: random.Random, count: int, unlabeled: bool = False):
    return [{"sentence": " ".join(rng.choice(WORDS) for _ in range(6)) + ".",
             "label": -1 if unlabeled else index % 2, "idx": index} for index in range(count)]


@pytest.fixture(scope="module")
def helm_run(tmp_path_factory):
    """Runs helm-run once; returns (completed process, run folder)."""
    root = tmp_path_factory.mktemp("helm")
    mirror = root / "mirror"
    rng = random.Random(0)
    make_hub_dataset(mirror, "stanfordnlp/sst2", {"default": {"train": _rows(rng, 40), "validation": _rows(rng, 30),
                                                        "test": _rows(rng, 10, unlabeled=True)}})
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(root / "hf_home"),
               TOKENIZERS_PARALLELISM="false")
    env.pop("PYTHONPATH", None)  # unitxt comes from the venv (this repository, installed editable)
    helm = Path(sys.executable).parent / "helm-run"
    completed = subprocess.run(
        [str(helm), "--run-entries", RUN_ENTRY, "--models-to-run", "simple/model1", "--max-eval-instances", "10",
         "--suite", "unitxt_tier", "-o", str(root / "out")],
        cwd=mirror, env=env, capture_output=True, text=True, timeout=900)
    runs = sorted((root / "out" / "runs" / "unitxt_tier").glob("unitxt:*"))
    return completed, runs


def test_helm_run_completes_with_one_run_folder(helm_run):
    completed, runs = helm_run
    assert completed.returncode == 0, (completed.stdout + completed.stderr)[-4000:]
    assert [run.name for run in runs] == [f"{RUN_ENTRY},model=simple_model1"]


def test_the_recipe_metrics_are_in_helm_stats(helm_run):
    _, (run,) = helm_run
    stats = {(stat["name"]["name"], stat["name"].get("split")): stat for stat in
             json.loads((run / "stats.json").read_text())}
    for metric in RECIPE_METRICS:
        global_stat = stats[(metric, None)]  # unitxt's global score, one value
        assert global_stat["count"] == 1 and global_stat["mean"] == 0.0, global_stat
    assert stats[("num_of_instances", None)]["mean"] == 10.0
    assert stats[("num_instances", "test")]["mean"] == 10.0


def test_each_evaluated_instance_has_the_recipe_metrics(helm_run):
    _, (run,) = helm_run
    per_instance = json.loads((run / "per_instance_stats.json").read_text())
    unitxt_stats = [entry for entry in per_instance if {"accuracy", "f1_micro"} <= {s["name"]["name"] for s in
                                                                                 entry["stats"]}]
    assert len(unitxt_stats) == 10
    assert all(entry["instance_id"].startswith("test") for entry in unitxt_stats)
    for entry in unitxt_stats:
        scores = {stat["name"]["name"]: stat for stat in entry["stats"]}
        assert {name: (scores[name]["count"], scores[name]["sum"]) for name in RECIPE_METRICS} == {
            name: (1, 0.0) for name in RECIPE_METRICS}


def test_fewer_predictions_than_rows_warn_once_with_both_counts(helm_run):
    completed, _ = helm_run
    output = completed.stdout + completed.stderr
    warnings = [line for line in output.splitlines() if "predictions for" in line and "instances" in line]
    assert len(warnings) == 1, warnings
    assert "got 10 predictions for 30 instances" in warnings[0]


def test_helm_imports_resolve():
    """The names HELM's unitxt scenario and metrics import (across 0.5.x releases)."""
    import unitxt
    from unitxt.api import load_recipe
    from unitxt.artifact import fetch_artifact
    from unitxt.base_metric import Metric
    from unitxt.metrics.base import Metric as HomeMetric

    assert Metric is HomeMetric and callable(unitxt.load_dataset) and callable(unitxt.evaluate)
    recipe = load_recipe(f"card={CARD},template={TEMPLATE}")
    assert type(recipe).__name__ == "DatasetRecipe"
    assert type(fetch_artifact("metrics.accuracy")[0]).__name__ == "Accuracy"
