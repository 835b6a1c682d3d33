"""Catalog format compatibility: every JSON artifact of the original package's catalog (read from the oracle venv at
test time, never copied into the project), registered as a local catalog, is instantiated through our library. The
test prints the count and the remaining failures grouped by cause (unknown type / unknown field / other) and fails
when the share that loads drops below LOAD_THRESHOLD."""

import collections
import json
import re
import subprocess
from pathlib import Path

from unitxt.artifact import from_serializable
from unitxt.catalog import LocalCatalog, register_local_catalog, unregister_local_catalog

from .conftest import ORACLE_PYTHON

# the share of the original catalog (1.26.10: 4,922 artifacts) that loads; raise it as types land (issue target 97%
# once the engine and judge types exist)
LOAD_THRESHOLD = 0.997  # 4,911 of 4,922 load (session 4); the issue asks for >= 0.97


def oracle_catalog_folder() -> Path:
    assert ORACLE_PYTHON.exists(), f"{ORACLE_PYTHON} missing: run scripts/run_tests --compat (its setup.sh builds it)"
    located = subprocess.run(
        [str(ORACLE_PYTHON), "-I", "-c", "import importlib.util, os; print(os.path.dirname("
                                   "importlib.util.find_spec('unitxt').origin))"],
        capture_output=True, text=True, check=True)
    folder = Path(located.stdout.strip()) / "catalog"
    assert folder.is_dir(), f"no catalog folder in the oracle package at {folder}"
    return folder


def failure_cause(error: Exception) -> str:
    """The failure grouped: 'type <name>', 'field <Class>.<field>' or 'other <ErrorClass>: <message start>'."""
    message = str(error)
    match = re.search(r"Unknown artifact __type__ '([^']+)'", message)
    if match:
        return f"type {match.group(1)}"
    match = re.search(r"Unknown field\(s\) '([^']+)'.* for (\w+)", message)
    if match:
        return f"field {match.group(2)}.{match.group(1)}"
    return f"other {type(error).__name__}: {re.sub(r'[0-9]+', 'N', message)[:140]}"


def test_the_original_catalog_loads():
    folder = oracle_catalog_folder()
    catalog = LocalCatalog(folder)
    names = list(catalog.names())
    assert len(names) > 4000, f"only {len(names)} artifacts found in {folder}"
    failures = collections.defaultdict(list)
    register_local_catalog(str(folder))
    try:
        for name in names:
            try:
                from_serializable(catalog.load_data(name))
            except Exception as error:  # noqa: BLE001 - every failure is counted and reported by cause
                failures[failure_cause(error)].append(name)
    finally:
        unregister_local_catalog(str(folder))
    failed = sum(len(items) for items in failures.values())
    loaded = len(names) - failed
    share = loaded / len(names)
    print(f"\ncatalog compatibility: {loaded} of {len(names)} artifacts load ({share:.1%})")
    kinds = collections.Counter()
    for cause, items in failures.items():
        kinds[cause.split(" ", 1)[0]] += len(items)
    print("failures by kind: " + json.dumps(dict(kinds)))
    for cause, items in sorted(failures.items(), key=lambda item: -len(item[1])):
        print(f"{len(items):5d}  {cause}  (e.g. {items[0]})")
    assert share >= LOAD_THRESHOLD, f"{share:.1%} of the original catalog loads, below {LOAD_THRESHOLD:.0%}"
