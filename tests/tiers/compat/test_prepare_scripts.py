"""The original's catalog-building scripts (`prepare/**/*.py` of its repository, given by UNITXT_ORIGINAL_REPO, at
commit 20b951e5 / tag 1.26.9) run unchanged with our library, as the original's own consistency check runs them
(utils/prepare_all_artifacts.py: its catalog-building switches set), and write the same entries as the original's
committed catalog JSON (`src/unitxt/catalog/`), compared as parsed JSON. Collected only when UNITXT_ORIGINAL_REPO is
set (conftest.py). The original itself runs 383 of the 386 scripts offline and writes 4,919 entries equal of 4,922."""

import glob
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ORIGINAL = Path(os.environ.get("UNITXT_ORIGINAL_REPO", "."))
RUNNER = Path(__file__).with_name("prepare_runner.py")
SCRIPT_TIMEOUT = 600
MIN_SCRIPTS_RUN = 376  # of the 383 the original runs offline
MIN_ENTRIES_EQUAL = 4821  # of the 4,919 the original writes equal


def _entries(scratch: Path) -> dict:
    """name -> 'equal' / 'different' / 'not_in_catalog' for every entry a script wrote."""
    verdicts = {}
    for path in scratch.rglob("*.json"):
        relative = path.relative_to(scratch)
        committed = ORIGINAL / "src" / "unitxt" / "catalog" / relative
        name = ".".join(relative.with_suffix("").parts)
        if not committed.exists():
            verdicts[name] = "not_in_catalog"
            continue
        same = json.loads(committed.read_text(encoding="utf-8")) == json.loads(path.read_text(encoding="utf-8"))
        verdicts[name] = "equal" if same else "different"
    return verdicts


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """Every prepare script's result: ok, error and its written entries' verdicts."""
    scripts = sorted(glob.glob(str(ORIGINAL / "prepare" / "**" / "*.py"), recursive=True))
    assert scripts, f"no prepare scripts under {ORIGINAL}/prepare: UNITXT_ORIGINAL_REPO must name the repository"
    work = tmp_path_factory.mktemp("prepare")
    jobs, places = [], {}
    for script in scripts:
        key = os.path.relpath(script, ORIGINAL / "prepare")[:-3].replace(os.sep, "__")
        places[script] = (work / "scratch" / key, work / f"{key}.json")
        jobs += [script, str(places[script][0]), str(places[script][1])]
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    for name in ("HF_HOME", "HF_DATASETS_CACHE"):  # the user's own HF cache, as the original's check sees it,
        if "unitxt-tests-hf-" in env.get(name, ""):  # not the private one tests/conftest.py makes
            env.pop(name)
    subprocess.run([sys.executable, str(RUNNER), str(SCRIPT_TIMEOUT), *jobs], env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = {}
    for script, (scratch, result_file) in places.items():
        relative = os.path.relpath(script, ORIGINAL / "prepare")
        result = json.loads(result_file.read_text()) if result_file.exists() else {"ok": False, "error": "crashed"}
        result["entries"] = _entries(scratch) if scratch.exists() else {}
        results[relative] = result
    _print_table(results)
    return results


def _print_table(results: dict) -> None:
    table = defaultdict(lambda: [0, 0, 0, 0])
    for relative, result in results.items():
        row = table[os.path.dirname(relative) or "."]
        row[0] += 1
        row[1] += bool(result["ok"])
        row[2] += len(result["entries"])
        row[3] += sum(verdict == "equal" for verdict in result["entries"].values())
    print("\nprepare/<folder>: scripts, run, entries written, entries equal")
    for folder, row in sorted(table.items()):
        print(f"  {folder:40s} {row[0]:4d} {row[1]:4d} {row[2]:6d} {row[3]:6d}")


def test_the_original_prepare_scripts_run(prepared):
    failed = {name: result["error"] for name, result in prepared.items() if not result["ok"]}
    run = len(prepared) - len(failed)
    assert run >= MIN_SCRIPTS_RUN, f"{run} of {len(prepared)} scripts run; failing:\n" + "\n".join(
        f"  {name}: {error}" for name, error in sorted(failed.items()))


def test_the_entries_they_write_equal_the_committed_catalog(prepared):
    unequal = sorted(f"{name} ({verdict}, by {script})" for script, result in prepared.items()
                     for name, verdict in result["entries"].items() if verdict != "equal")
    equal = sum(verdict == "equal" for result in prepared.values() for verdict in result["entries"].values())
    assert equal >= MIN_ENTRIES_EQUAL, f"{equal} entries equal; unequal:\n  " + "\n  ".join(unequal[:200])
