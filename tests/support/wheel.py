"""The project's wheel, built the way users build it, for tests that install it into a fresh venv."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build_wheel(folder: Path) -> Path:
    """The wheel, built from a copy of the project in `folder`/source (setuptools builds in-tree: the checkout stays
    clean)."""
    source = folder / "source"
    source.mkdir()
    for part in ("setup.py", "setup.cfg", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy(ROOT / part, source / part)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "core", source / "core", ignore=ignore)
    shutil.copytree(ROOT / "catalog_snapshot", source / "catalog_snapshot")
    completed = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                                "-q", "-w", str(folder)], capture_output=True, text=True, cwd=str(folder))
    assert completed.returncode == 0, completed.stderr[-3000:]
    (wheel,) = folder.glob("unitxt-*.whl")
    return wheel
