"""The Hugging Face entry scripts and the installed package (the original's `unitxt.hf_utils`): whether an entry
script imports every module of the package (the Hub copies only what a loading script imports), and whether the
version of a `unitxt/data` or `unitxt/metric` entry matches the unitxt installed beside it."""

import os
import re
from pathlib import Path
from typing import List, Optional

from .deprecation import compare_versions
from ..module_aliases import moved_classes

_RELATIVE_IMPORT = re.compile(r"^(?:import|from)\s+\.(\w+)")


def get_internal_imports(file_path: str) -> List[str]:
    """The package modules a Python file imports relatively at the start of a line (`from .x import`), in order,
    outside docstrings."""
    modules: List[str] = []
    in_docstring = False
    with open(file_path, encoding="utf-8") as handle:
        for line in handle:
            if line.count('"""') == 1 or line.count("'''") == 1:
                in_docstring = not in_docstring
            match = None if in_docstring else _RELATIVE_IMPORT.match(line)
            if match and match.group(1) not in modules:
                modules.append(match.group(1))
    return modules


def get_missing_imports(file: str, exclude: Optional[List[str]] = None) -> List[str]:
    """The modules of the package (every .py file under it, by name) that `file` does not import relatively, less
    `exclude`."""
    package_dir = Path(__file__).resolve().parent.parent
    names = [Path(path).stem for root, _, files in os.walk(package_dir) for path in files if path.endswith(".py")]
    imported = get_internal_imports(file)
    excluded = exclude or []
    return [name for name in names if name not in imported and name not in excluded]


class UnitxtVersionsConflictError(ValueError):
    """The unitxt version of a Hub entry (`error_in`: "dataset" or "metric") differs from the installed one."""

    def __init__(self, error_in: str, hf_unitxt_version: str, installed_unitxt_version: str):
        if compare_versions(hf_unitxt_version, installed_unitxt_version) > 0:
            advice = (f"Located locally installed Unitxt version {installed_unitxt_version} that is older than the "
                      f"Huggingface Unitxt {error_in} version {hf_unitxt_version}. Please either (1) update the local "
                      f"Unitxt package or (2) uninstall the local unitxt package (3) remove the calls to the "
                      f"Huggingface {error_in} API and use only the direct Unitxt APIs.")
        else:
            advice = (f"Located locally installed Unitxt version {installed_unitxt_version} that is newer than the "
                      f"Huggingface Unitxt {error_in} version {hf_unitxt_version}. Please either (1) force-reload the "
                      f"{error_in} version or (2) downgrade the locally installed Unitxt version to {error_in} version "
                      f"or (3) uninstall the locally installed Unitxt, if you are not using the direct Unitxt APIs")
        super().__init__(advice + " For more details see: https://unitxt.readthedocs.io/en/latest/docs/installation.html")


def get_installed_version() -> str:
    """The version of the unitxt package installed (importable as `unitxt`)."""
    from unitxt.settings_utils import get_constants

    return get_constants().version


def _verify_versions(hf_asset_type: str, installed_version: str, hf_asset_version: str) -> None:
    if installed_version != hf_asset_version:
        raise UnitxtVersionsConflictError(hf_asset_type, hf_asset_version, installed_version)


def verify_versions_compatibility(hf_asset_type: str, hf_asset_version: str) -> None:
    """UnitxtVersionsConflictError when a Hub entry's version differs from the installed unitxt's."""
    _verify_versions(hf_asset_type, get_installed_version(), hf_asset_version)


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
