"""The project's wheel, built the way users build it, for tests that install it into a fresh venv."""

import shutil
import subprocess
import sys
import sysconfig
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


def venv_with_the_wheel(folder: Path) -> Path:
    """A venv in `folder`/venv holding only the project's wheel (built in `folder`); its dependencies come from this
    interpreter's site-packages through a .pth file (offline), whose editable unitxt is never touched."""
    wheel = build_wheel(folder)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies: the test interpreter's site-packages (its editable unitxt is a .pth there, not processed)
    outer = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (site / "zz_test_dependencies.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    # pip comes from there too; --ignore-installed: never touch the test interpreter's own (editable) unitxt
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                                "--ignore-installed", str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return venv
