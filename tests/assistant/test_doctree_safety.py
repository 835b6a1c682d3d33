"""Reading `.doctree` pickles for the assistant's index: a file can name only docutils / Sphinx node classes of a
fixed list; a module it names (sphinx.__main__, or any module with import side effects) is never imported."""

import pickle
import sys

import pytest

from unitxt.assistant.index import build_index, process_doctree_file
from unitxt.errors import UnitxtError

import docutils  # the test extra (setup.cfg)
import docutils.core
import docutils.nodes


def _global_only(module: str, name: str) -> bytes:
    """A pickle whose only content is the class `module.name` (the GLOBAL opcode, then STOP)."""
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n."


@pytest.fixture
def side_effect_module(tmp_path, monkeypatch):
    """A module `docutils.unitxt_marker` whose import writes a marker file (found through docutils' package path)."""
    folder = tmp_path / "extra"
    folder.mkdir()
    marker = tmp_path / "imported.marker"
    (folder / "unitxt_marker.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\nclass Node:\n    pass\n")
    monkeypatch.setattr(docutils, "__path__", [*docutils.__path__, str(folder)])
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, "docutils.unitxt_marker", raising=False)
    return marker


@pytest.mark.parametrize("module,name", [("docutils.unitxt_marker", "Node"), ("unitxt_marker", "Node"),
                                         ("sphinx.__main__", "main"), ("docutils.nodes", "__builtins__"),
                                         ("docutils.nodes", "Node.__init__"), ("builtins", "eval")])
def test_a_doctree_naming_a_module_imports_nothing(tmp_path, side_effect_module, module, name):
    doctree = tmp_path / "docs" / "page.doctree"
    doctree.parent.mkdir()
    doctree.write_bytes(_global_only(module, name))
    sys.modules.pop("sphinx.__main__", None)
    with pytest.raises(UnitxtError, match=rf"page.doctree names {module}\.{name}; a doctree may hold docutils"):
        process_doctree_file(str(doctree))
    assert not side_effect_module.exists()
    assert "docutils.unitxt_marker" not in sys.modules and "sphinx.__main__" not in sys.modules
    with pytest.raises(UnitxtError, match="node classes only"):
        build_index(str(doctree.parent), str(tmp_path / "index"), embed=lambda texts: [[1.0]] * len(texts))
    assert not side_effect_module.exists()


def test_a_real_doctree_and_a_broken_one(tmp_path):
    document = docutils.core.publish_doctree("Title\n=====\n\nLoaders read *data* from disk.\n")
    document.reporter = document.transformer = None  # Sphinx drops these before pickling too
    document.settings.warning_stream = None
    good = tmp_path / "good.doctree"
    good.write_bytes(pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL))
    assert process_doctree_file(str(good)) == "TitleLoaders read data from disk."
    broken = tmp_path / "broken.doctree"
    broken.write_bytes(good.read_bytes()[:40])
    with pytest.raises(UnitxtError, match=r"broken.doctree can not be read \("):
        process_doctree_file(str(broken))
