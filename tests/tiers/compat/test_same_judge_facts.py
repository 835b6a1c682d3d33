"""Judge facts are the original's, generated from the original's own catalog and objects (never a hand-made list).

Every entry of the original's metrics/llm_as_judge catalog (read from the oracle venv's package at test time): the
same entry here has the same facts - its JSON with the prose left out (`description`, `__description__`, `__tags__`):
criteria names, options and their order, option maps, prediction and context fields, judge classes, evaluator names,
engine providers, model ids, generation settings, Azure deployment URLs. Then judge_facts_probe.py runs under both
pythons: the enums (members, values), EVALUATOR_TO_MODEL_ID, EVALUATORS_METADATA, get_evaluator_metadata,
rank_indexes, get_parsed_context, EmptyPrediction at the original's paths, DIRECT_CRITERIA / PAIRWISE_CRITERIA and the
criteria enums in order, and every criteria and criteria judge of the catalog as loaded by fetch_artifact.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .conftest import ORACLE_PYTHON
from .test_catalog_loads import oracle_catalog_folder

HERE = Path(__file__).resolve().parent
OURS = HERE.parents[2] / "catalog_snapshot" / "metrics" / "llm_as_judge"
THEIRS = oracle_catalog_folder() / "metrics" / "llm_as_judge"
ENTRIES = sorted(str(path.relative_to(THEIRS)) for path in THEIRS.rglob("*.json"))
PROSE = {"description", "__description__", "__tags__"}


def facts(value):
    """A catalog JSON value without its prose; numbers compared as numbers (1024 == 1024.0)."""
    if isinstance(value, dict):
        return {key: facts(item) for key, item in value.items() if key not in PROSE}
    if isinstance(value, list):
        return [facts(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def test_the_original_judge_catalog_is_read():
    assert len(ENTRIES) >= 227 and any(entry.startswith("direct/criteria/") for entry in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES)
def test_entry_has_the_original_facts(entry):
    theirs = json.loads((THEIRS / entry).read_text(encoding="utf-8"))
    ours_path = OURS / entry
    assert ours_path.exists(), f"metrics.llm_as_judge.{entry[:-5].replace('/', '.')} is missing"
    ours = json.loads(ours_path.read_text(encoding="utf-8"))
    assert facts(ours) == facts(theirs)


def run_probe(python, names_file, output):
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore",
               UNITXT_MOCK_INFERENCE_MODE="True")  # the original builds its judges' engines only in mock mode here
    env.pop("PYTHONPATH", None)
    completed = subprocess.run([str(python), str(HERE / "judge_facts_probe.py"), str(output), str(names_file)],
                               capture_output=True, text=True, env=env, cwd=str(output.parent), timeout=900)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def both():
    names = [f"metrics.llm_as_judge.{entry[:-5].replace('/', '.')}" for entry in ENTRIES
             if entry.split("/")[0] in ("direct", "pairwise")]
    with tempfile.TemporaryDirectory() as folder:
        names_file = Path(folder) / "names.json"
        names_file.write_text(json.dumps(names), encoding="utf-8")
        return (run_probe(ORACLE_PYTHON, names_file, Path(folder) / "theirs.json"),
                run_probe(sys.executable, names_file, Path(folder) / "ours.json"))


KEYS = ("enums", "enum_is_str", "model_ids", "metadata", "metadata_lookup", "rank_indexes", "parsed_context",
        "empty_prediction", "direct_criteria", "pairwise_criteria", "criteria_enums")


@pytest.mark.parametrize("key", KEYS)
def test_same_judge_objects(both, key):
    theirs, ours = both
    assert ours[key] == theirs[key]


def test_every_catalog_criteria_and_judge_loads_with_the_original_facts(both):
    theirs, ours = both
    assert len(theirs["catalog"]) >= 190
    different = {name: (facts, ours["catalog"].get(name)) for name, facts in theirs["catalog"].items()
                 if ours["catalog"].get(name) != facts}
    assert not different, json.dumps(different, indent=1)[:3000]
