"""A regular (non-editable) install works: the wheel carries the catalog and every subpackage, and a recipe from the
catalog loads and scores with no source tree on the path (issue "Structure and packaging", defect 1)."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.wheel import build_wheel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel built from a copy of the project (in <folder>/source: setuptools builds in-tree)."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_sdist_carries_the_catalog(wheel):
    import tarfile

    source = wheel.parent / "source"
    completed = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(wheel.parent / "sdist")],
                               capture_output=True, text=True, cwd=str(source))
    assert completed.returncode == 0, completed.stderr[-3000:]
    (archive,) = (wheel.parent / "sdist").glob("unitxt-*.tar.gz")
    names = tarfile.open(archive).getnames()
    assert any(name.endswith("/catalog_snapshot/cards/demo/sentiment.json") for name in names)
    assert any(name.endswith("/LICENSE") for name in names) and any(name.endswith("/setup.py") for name in names)


def test_wheel_holds_the_catalog_and_the_subpackages(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    catalog = sorted(name for name in names if name.startswith("unitxt/catalog_snapshot/") and name.endswith(".json"))
    assert "unitxt/catalog_snapshot/cards/demo/sentiment.json" in catalog
    assert len(catalog) == len(list((ROOT / "catalog_snapshot").rglob("*.json")))
    assert "unitxt/explore/__init__.py" in names and "unitxt/explore/app.py" in names
    assert not [name for name in names if "__pycache__" in name]


def test_installed_wheel_runs_a_catalog_recipe_without_the_source_tree(wheel, tmp_path):
    site = tmp_path / "site"
    completed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
                                str(wheel)], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr[-3000:]
    code = """
import json, unitxt
from unitxt import evaluate, load_dataset
from unitxt.catalog import get_default_catalog
dataset = load_dataset("card=cards.demo.sentiment,template=templates.key_val,max_test_instances=8", split="test")
results = evaluate([json.loads(row["task_data"])["label"] for row in dataset], dataset)
print(json.dumps({"file": unitxt.__file__, "catalog": get_default_catalog().location,
                  "rows": len(dataset), "accuracy": results.global_scores["accuracy"]}))
"""
    env = dict(os.environ, PYTHONPATH=str(site), HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_HOME=str(tmp_path / "hf"))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["file"].startswith(str(site)) and result["catalog"].startswith(str(site))
    assert result["rows"] == 8 and result["accuracy"] == 1.0


def test_the_release_wheel_holds_what_pip_wheel_builds(wheel, tmp_path):
    """scripts/build_release ships its own deterministic build of the wheel: same files, requirements and console
    scripts as the setuptools build."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("release_wheel", ROOT / "scripts" / "release" / "wheel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from unitxt.version import version

    released = module.build_wheel(ROOT, version, tmp_path)
    assert released.name == wheel.name
    ours, theirs = zipfile.ZipFile(released), zipfile.ZipFile(wheel)

    def package(archive):
        return sorted(name for name in archive.namelist() if not name.startswith("unitxt-"))

    assert set(package(ours)) ^ set(package(theirs)) == set()
    for name in package(ours):
        assert ours.read(name) == theirs.read(name), name
    info = f"unitxt-{version}.dist-info"

    def entry_points(archive):
        import configparser

        parser = configparser.ConfigParser()
        parser.read_string(archive.read(f"{info}/entry_points.txt").decode())
        return {section: dict(parser[section]) for section in parser.sections()}

    assert entry_points(ours) == entry_points(theirs)
    assert entry_points(ours)["console_scripts"]["unitxt-evaluate"] == "unitxt.cli.evaluate:console_main"

    def requirements(archive):
        lines = archive.read(f"{info}/METADATA").decode().split("\n\n")[0].splitlines()
        import re  # names compare normalised (PEP 503: huggingface_hub == huggingface-hub)

        return sorted(re.sub(r"[-_.]+", "-", line.replace(" ", "").replace("'", '"')).lower() for line in lines
                      if line.startswith(("Requires-Dist", "Provides-Extra")))

    assert requirements(ours) == requirements(theirs)
