"""The oracle (original unitxt in .venv-compat-oracle, made by setup.sh) run as a subprocess, offline."""

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ORACLE_PYTHON = ROOT / ".venv-compat-oracle" / "bin" / "python"
RUNNER = Path(__file__).with_name("oracle_runner.py")
# HF evaluate metric scripts the oracle would download: evaluate.load(name) finds ./<name>/<name>.py in its cwd first
STAND_INS = Path(__file__).with_name("evaluate_stand_ins")
# the original's catalog-building scripts are read from its repository checkout, named by UNITXT_ORIGINAL_REPO
# (and the documented examples programs/test_documented_judge_examples.py runs)
collect_ignore = [] if os.environ.get("UNITXT_ORIGINAL_REPO") else ["test_prepare_scripts.py",
                                                                   "programs/test_documented_judge_examples.py"]


@pytest.fixture(scope="session")
def oracle():
    """run(jobs) -> the original system's results of each job."""
    assert ORACLE_PYTHON.exists(), f"{ORACLE_PYTHON} missing: run scripts/run_tests --compat (its setup.sh builds it)"

    def run(jobs):
        env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore",
                   UNITXT_HF_OFFLINE_METRICS_PATH=str(STAND_INS),
                   UNITXT_MOCK_INFERENCE_MODE="True")
        env.pop("PYTHONPATH", None)
        with tempfile.TemporaryDirectory() as folder:
            output = Path(folder) / "results.json"
            completed = subprocess.run([str(ORACLE_PYTHON), str(RUNNER), str(output)], input=json.dumps(jobs),
                                       capture_output=True, text=True, env=env, cwd=str(STAND_INS), timeout=1800)
            assert completed.returncode == 0, completed.stderr[-3000:]
            return json.loads(output.read_text(encoding="utf-8"))

    return run


@pytest.fixture(scope="session")
def original_surface():
    """The original's public surface, namespaces and registered artifact classes (oracle_surface.py, run once)."""
    assert ORACLE_PYTHON.exists(), f"{ORACLE_PYTHON} missing: run scripts/run_tests --compat (its setup.sh builds it)"
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore")
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "surface.json"
        completed = subprocess.run([str(ORACLE_PYTHON), str(Path(__file__).with_name("oracle_surface.py")),
                                    str(output)], capture_output=True, text=True, env=env, cwd=folder, timeout=1200)
        assert completed.returncode == 0, completed.stderr[-3000:]
        return json.loads(output.read_text(encoding="utf-8"))
