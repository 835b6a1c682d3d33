"""Metric subclasses written against the original's hooks score the same here as in the original (issue 50).

metric_hooks_probe.py runs under both pythons: subclasses overriding get_str_id (F1), map (F1Fast,
MeanSquaredError), NER's element hooks, CustomF1's element hooks and scoring steps, a MapReduceMetric with CIs,
KPA, NormalizedSacrebleu's map / reduce, and the CI helpers of MetricWithConfidenceInterval called directly. Every
instance score, global score and CI is equal to 1e-6.
"""

import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .conftest import ORACLE_PYTHON

HERE = Path(__file__).resolve().parent
KEYS = ("f1_get_str_id", "f1_fast_map", "mse_map", "ner_representation", "ner_ignore", "custom_f1",
        "custom_f1_recall", "custom_f1_macro", "kpa", "map_reduce", "sacrebleu_reduce", "score_based_ci",
        "average_item_scores", "max_item_scores", "resample_from_non_nan", "global_ci")


def run_probe(python, output):
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore")
    env.pop("PYTHONPATH", None)
    completed = subprocess.run([str(python), str(HERE / "metric_hooks_probe.py"), str(output)], capture_output=True,
                               text=True, env=env, cwd=str(output.parent), timeout=900)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def both():
    with tempfile.TemporaryDirectory() as folder:
        return run_probe(ORACLE_PYTHON, Path(folder) / "theirs.json"), run_probe(sys.executable,
                                                                                  Path(folder) / "ours.json")


def differences(theirs, ours, path=""):
    """Where two JSON values differ (numbers to 1e-6, NaN equal to NaN)."""
    if isinstance(theirs, dict) and isinstance(ours, dict):
        found = [f"{path}: keys {sorted(set(theirs) ^ set(ours))}"] if set(theirs) != set(ours) else []
        for key in set(theirs) & set(ours):
            found += differences(theirs[key], ours[key], f"{path}.{key}")
        return found
    if isinstance(theirs, list) and isinstance(ours, list) and len(theirs) == len(ours):
        return [found for index, (a, b) in enumerate(zip(theirs, ours)) for found in differences(a, b, f"{path}[{index}]")]
    numbers = (int, float)
    if isinstance(theirs, numbers) and isinstance(ours, numbers) and not isinstance(theirs, bool):
        same = math.isclose(theirs, ours, abs_tol=1e-6) or (math.isnan(theirs) and math.isnan(ours))
        return [] if same else [f"{path}: {theirs} (original) != {ours}"]
    return [] if theirs == ours else [f"{path}: {theirs!r} (original) != {ours!r}"]


@pytest.mark.parametrize("key", KEYS)
def test_same_scores_through_the_original_hooks(both, key):
    theirs, ours = both
    assert key in theirs, f"the original's run of {key} is missing"
    assert not differences(theirs[key], ours.get(key), key)
