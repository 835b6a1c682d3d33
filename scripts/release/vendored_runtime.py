"""Runtime of the vendored unitxt module: copied verbatim into `unitxt_vendored.py` by scripts/build_release.

It serves the embedded core sources as the package `unitxt` (unless a unitxt package is installed: the same
version is used as is, a different version is an error), and installs the embedded catalog as the default catalog.
"""

import base64
import importlib
import importlib.abc
import importlib.util
import json
import sys
import zlib

PACKAGE = "unitxt"
# the library's wheel ships inside each release of the unitxt/data Hub repo (PyPI's "unitxt" is the original 1.x line)
WHEEL_URL = "https://huggingface.co/datasets/unitxt/data/resolve/{version}/unitxt-{version}-py3-none-any.whl"


def install_command(version):
    """The pip command that installs this edition's library at `version` (the wheel of that Hub release)."""
    return f"pip install {WHEEL_URL.format(version=version)}"


class UnitxtVersionMismatchError(ImportError):
    """The Hub release and the installed unitxt package have different versions."""


def _version_key(version):
    return tuple(int(part) if part.isdigit() else part for part in str(version).replace("-", ".").split("."))


def mismatch_message(installed, release):
    """Explain which side is older and what to do."""
    try:
        installed_is_older = _version_key(installed) < _version_key(release)
    except TypeError:
        installed_is_older = str(installed) < str(release)
    if installed_is_older:
        advice = (
            f"The installed unitxt {installed} is older than this Hub release {release}: upgrade it with "
            f"'{install_command(release)}', or load the Hub release matching your library with "
            f"revision='{installed}'."
        )
    else:
        advice = (
            f"This Hub release {release} is older than the installed unitxt {installed}: load the matching release "
            f"with revision='{installed}' (e.g. load_dataset('unitxt/data', recipe, revision='{installed}')), or use "
            "the installed library directly: unitxt.load_dataset(recipe) / unitxt.evaluate(predictions, data)."
        )
    return f"unitxt version mismatch: installed library {installed}, Hub code {release}. {advice}"


class VendoredFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports `unitxt` and `unitxt.<dotted module>` (subpackages too) from the embedded sources."""

    def __init__(self, version, sources, packages=()):
        self.version = version
        self.sources = sources
        self.packages = set(packages)

    def find_spec(self, fullname, path=None, target=None):
        if fullname == PACKAGE:
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        prefix = PACKAGE + "."
        short = fullname[len(prefix):]
        if fullname.startswith(prefix) and short in self.sources:
            return importlib.util.spec_from_loader(fullname, self, is_package=short in self.packages)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        short = "__init__" if module.__name__ == PACKAGE else module.__name__[len(PACKAGE) + 1:]
        is_package = module.__name__ == PACKAGE or short in self.packages
        module.__file__ = f"<unitxt {self.version} vendored>/{short.replace('.', '/')}" + (
            "/__init__.py" if is_package and short != "__init__" else ".py")
        if is_package:
            module.__path__ = []
        module.__unitxt_vendored__ = True
        exec(compile(self.sources[short], module.__file__, "exec"), module.__dict__)


def _installed_unitxt():
    """(module, vendored?) for an importable unitxt, or (None, False)."""
    module = sys.modules.get(PACKAGE)
    if module is not None:
        return module, bool(getattr(module, "__unitxt_vendored__", False))
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return None, False
    return importlib.import_module(PACKAGE), False


def install(version, sources, catalog_blob, packages=()):
    """Make `unitxt` importable (installed library of the same version, else the embedded one); return it."""
    module, vendored = _installed_unitxt()
    if module is not None:
        installed = getattr(module, "__version__", None)
        if installed != version:
            raise UnitxtVersionMismatchError(mismatch_message(installed, version))
        return module
    sys.meta_path.insert(0, VendoredFinder(version, sources, packages))
    package = importlib.import_module(PACKAGE)
    catalog = importlib.import_module(PACKAGE + ".catalog")
    entries = json.loads(zlib.decompress(base64.b64decode("".join(catalog_blob))).decode("utf-8"))
    catalog.set_default_catalog(catalog.MemoryCatalog(entries, location=f"<unitxt {version} release catalog>"))
    return package
