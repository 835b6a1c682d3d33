"""Programs written against the original's API (dropin_probes.py) give the same outcomes here as in the oracle:
metric and post-processor objects where catalog names go, evaluate() with fewer predictions than rows, float
limits, Task defaults, Apply with a function object, samplers' sample(), MultipleChoiceTemplate's choice orders,
dict_get/dict_set paths, the shared Settings object, ZipFieldValues/Rename, MetricsEnsemble's scores, infer()'s
parameter order and the names HELM imports."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ORACLE_PYTHON

PROBES = Path(__file__).with_name("dropin_probes.py")


def _outcomes(python: Path, folder: Path) -> dict:
    output = folder / f"{Path(python).parent.parent.name}.json"
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore")
    env.pop("PYTHONPATH", None)
    completed = subprocess.run([str(python), str(PROBES), str(output)], capture_output=True, text=True, env=env,
                               cwd=str(folder), timeout=900)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    assert ORACLE_PYTHON.exists(), f"{ORACLE_PYTHON} missing: run scripts/run_tests --compat (its setup.sh builds it)"
    folder = tmp_path_factory.mktemp("dropin_probes")
    return _outcomes(ORACLE_PYTHON, folder), _outcomes(Path(sys.executable), folder)


def _names():
    sys.path.insert(0, str(PROBES.parent))
    try:
        import dropin_probes
    finally:
        sys.path.pop(0)
    return sorted(dropin_probes.PROBES)


@pytest.mark.parametrize("name", _names())
def test_same_outcome_as_the_original(outcomes, name):
    original, ours = outcomes
    assert not str(original[name]).startswith("ERR "), original[name]  # each probe runs on the original
    assert ours[name] == original[name]
