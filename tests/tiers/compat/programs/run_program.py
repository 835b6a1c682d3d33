"""Runs a program file of this folder unchanged under the original's interpreter and under ours, from a folder of
Hub-layout mirrors, offline; returns the JSON each printed last."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
ORACLE_PYTHON = ROOT / ".venv-compat-oracle" / "bin" / "python"
STAND_INS = Path(__file__).resolve().parents[1] / "evaluate_stand_ins"


def run_program(python: Path, program: Path, cwd: Path, stdin: str = "", args=(), expect_json: bool = True) -> dict:
    """The last stdout line of `python program` as JSON (the run must succeed); {} when not `expect_json` (a program
    that writes its results to a file)."""
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore",
               UNITXT_HF_OFFLINE_METRICS_PATH=str(STAND_INS), PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    completed = subprocess.run([str(python), str(program), *map(str, args)], input=stdin, capture_output=True,
                               text=True, env=env, cwd=str(cwd), timeout=1800)
    assert completed.returncode == 0, completed.stderr[-3000:]
    if not expect_json:
        return {}
    return json.loads(completed.stdout.strip().splitlines()[-1])


def both(program: Path, cwd: Path, stdin: str = "", args=()):
    """(original's output, ours) of the same program."""
    assert ORACLE_PYTHON.exists(), f"{ORACLE_PYTHON} missing: run scripts/run_tests --compat (its setup.sh builds it)"
    return (run_program(ORACLE_PYTHON, program, cwd, stdin, args),
            run_program(Path(sys.executable), program, cwd, stdin, args))
