"""Packaging: metadata lives in setup.cfg; building copies the catalog into the package (unitxt/catalog_snapshot).

A regular install (wheel) then carries the catalog as package data, where the runtime looks first; editable installs
read the repository's catalog_snapshot/ directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOG = Path(__file__).resolve().parent / "catalog_snapshot"


class BuildWithCatalog(build_py):
    """build_py that also copies catalog_snapshot/ into the built package (not in editable mode)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or not CATALOG.is_dir():
            return
        target = Path(self.build_lib) / "unitxt" / "catalog_snapshot"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(CATALOG, target)


setup(cmdclass={"build_py": BuildWithCatalog})
