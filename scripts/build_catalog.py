"""Regenerate catalog_snapshot/ from the Python definitions in scripts/catalog_sources/ (deterministic).

Usage:
    python scripts/build_catalog.py          # rewrite catalog_snapshot/
    python scripts/build_catalog.py --check  # exit 1 when catalog_snapshot/ is stale
It first regenerates (or, with --check, checks) the `__type__` -> module index core/unitxt/_type_index.py.
Each module in catalog_sources/ defines `register(add)`; `add(name, artifact)` records one catalog entry.
The build fails when an entry references a name that is no entry, or overrides a field its target lacks
(catalog_references.py).
"""

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scripts" / "catalog_sources"
SNAPSHOT = ROOT / "catalog_snapshot"
sys.path.insert(0, str(ROOT / "core"))
sys.path.insert(0, str(SOURCES))  # the sources share helpers in catalog_sources/_shared.py
sys.path.insert(0, str(ROOT / "scripts"))
import catalog_references  # noqa: E402 - needs core/ on the path


def collect() -> Dict[str, str]:
    """Map of relative JSON path -> file content, from every source module."""
    from unitxt.artifact import Artifact
    from unitxt.query_parser import validate_catalog_name

    files: Dict[str, str] = {}
    owners: Dict[str, str] = {}
    entries: Dict[str, dict] = {}
    for source in sorted(path for path in SOURCES.glob("*.py") if not path.name.startswith("_")):
        spec = importlib.util.spec_from_file_location(f"catalog_source_{source.stem}", source)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)

        def add(name: str, artifact: Artifact, _source=source.name) -> None:
            validate_catalog_name(name)
            if name in owners:
                raise SystemExit(f"Catalog name {name} defined twice ({owners[name]} and {_source}).")
            if not isinstance(artifact, Artifact):
                raise SystemExit(f"{name} in {_source} is not an artifact.")
            owners[name] = _source
            relative = "/".join(name.split(".")) + ".json"
            entries[name] = artifact.to_dict()
            files[relative] = json.dumps(entries[name], indent=4, ensure_ascii=False) + "\n"

        module.register(add)
    dangling = catalog_references.problems(entries)
    if dangling:
        raise SystemExit(f"{len(dangling)} catalog reference(s) that resolve to nothing or override an unknown field:\n  "
                         + "\n  ".join(dangling))
    return files


def current() -> Dict[str, str]:
    if not SNAPSHOT.is_dir():
        return {}
    return {
        path.relative_to(SNAPSHOT).as_posix(): path.read_text(encoding="utf-8")
        for path in SNAPSHOT.rglob("*.json")
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the snapshot is up to date")
    arguments = parser.parse_args()
    import subprocess

    type_index = [sys.executable, str(ROOT / "scripts" / "build_type_index.py")] + (["--check"] if arguments.check else [])
    if subprocess.run(type_index).returncode:
        return 1
    wanted = collect()
    existing = current()
    stale = sorted(set(existing) - set(wanted))
    changed = sorted(path for path, content in wanted.items() if existing.get(path) != content)
    if arguments.check:
        if stale or changed:
            print(f"catalog_snapshot is stale: {len(changed)} to write, {len(stale)} to delete "
                  f"(e.g. {(changed + stale)[:5]}). Run: python scripts/build_catalog.py")
            return 1
        print(f"catalog_snapshot is up to date ({len(wanted)} artifacts).")
        return 0
    for path in stale:
        (SNAPSHOT / path).unlink()
    for path in changed:
        target = SNAPSHOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(wanted[path], encoding="utf-8")
    for directory in sorted(SNAPSHOT.rglob("*"), reverse=True):
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
    print(f"catalog_snapshot: {len(wanted)} artifacts ({len(changed)} written, {len(stale)} deleted).")
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "build_catalog_index.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
