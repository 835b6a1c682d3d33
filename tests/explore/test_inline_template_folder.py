"""Where the explorer helpers (`unitxt.ui.load_catalog_data`) write the inline templates of cards: at their catalog
names under a catalog folder whose own path has dots (python3.11/site-packages), never deleting the templates of
another running explorer, and in a temporary registered catalog when the catalog folder can not be written."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import unitxt.ui.load_catalog_data as catalog_data
from unitxt.artifact import fetch_artifact
from unitxt.catalog_store import unregister_local_catalog

INLINE = {"__type__": "input_output_template", "input_format": "inline {text}", "output_format": "{label}"}


def _write(root, name, data):
    path = os.path.join(root, *name.split(".")) + ".json"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        json.dump(data, file)


def _catalog(root, monkeypatch):
    """A catalog at `root` with one card holding an inline template, used by the explorer helpers."""
    _write(root, "tasks.cls", {"__type__": "task", "input_fields": ["text"]})
    _write(root, "cards.two", {"__type__": "task_card", "task": "tasks.cls", "templates": [INLINE]})
    _write(root, "formats.f1", {"__type__": "system_format"})
    _write(root, "system_prompts.p1", {"__type__": "textual_system_prompt", "text": "hi"})
    for name, value in (("CATALOG_DIR", root), ("UNITXT_DIR", root), ("PRIVATE_DIR", None)):
        monkeypatch.setattr(catalog_data, name, value)
    monkeypatch.setattr(catalog_data, "_TEMPORARY", {"root": None, "cleanup": None}, raising=False)
    return root


@pytest.fixture
def site_packages_catalog(tmp_path, monkeypatch):
    """The catalog of a `python3.11/site-packages` install."""
    return _catalog(str(tmp_path / "lib" / "python3.11" / "site-packages" / "unitxt" / "catalog"), monkeypatch)


@pytest.fixture
def plain_catalog(tmp_path, monkeypatch):
    return _catalog(str(tmp_path / "catalog"), monkeypatch)


def test_the_folder_keeps_the_dots_of_its_path(site_packages_catalog, tmp_path):
    cards_data, _, _, _ = catalog_data.load_cards_data()
    assert cards_data["tasks.cls"]["cards.two"] == {"templates.tmp.two.default_0"}
    written = os.path.join(site_packages_catalog, "templates", "tmp", "two", "default_0.json")
    assert json.load(open(written)) == INLINE
    assert not (tmp_path / "lib" / "python3").exists()  # no stray python3/11/... tree


SECOND_EXPLORER = textwrap.dedent("""
    import sys
    import unitxt.ui.load_catalog_data as catalog_data
    catalog_data.CATALOG_DIR = catalog_data.UNITXT_DIR = sys.argv[1]
    catalog_data.PRIVATE_DIR = None
    catalog_data.load_cards_data()
""")


def test_a_second_explorer_leaves_the_first_ones_templates(plain_catalog):
    catalog_data.load_cards_data()
    written = os.path.join(plain_catalog, "templates", "tmp", "two", "default_0.json")
    subprocess.run([sys.executable, "-c", SECOND_EXPLORER, plain_catalog], check=True, timeout=300)
    assert json.load(open(written)) == INLINE  # the second one loaded and exited: this one's templates remain
    folder = os.path.join(plain_catalog, "templates", "tmp")
    catalog_data._release(folder)  # this explorer ends too: the last one removes the folder
    assert not os.path.exists(folder)


def test_a_catalog_folder_that_can_not_be_written_falls_back_to_a_temporary_catalog(site_packages_catalog):
    blocked = os.path.join(site_packages_catalog, "templates", "tmp")
    os.makedirs(os.path.dirname(blocked))
    open(blocked, "w").close()  # the folder can not be created there (as in a read-only install)
    cards_data, jsons, _, _ = catalog_data.load_cards_data()
    root = catalog_data._TEMPORARY["root"]
    try:
        assert root != site_packages_catalog and os.path.isdir(root)
        assert cards_data["tasks.cls"]["cards.two"] == {"templates.tmp.two.default_0"}
        assert json.load(open(os.path.join(root, "templates", "tmp", "two", "default_0.json"))) == INLINE
        template = fetch_artifact("templates.tmp.two.default_0")[0]  # a recipe finds it in the registered catalog
        assert template.input_format == "inline {text}"
    finally:
        unregister_local_catalog(root)
