"""unitxt: declarative data preparation and evaluation for generative language models.

Public names are imported lazily on first use so that `import unitxt` stays fast (datasets, scipy and friends are
only imported when a function that needs them runs).
"""

import importlib
import importlib.util
from typing import Any

from .module_aliases import install as _install_module_aliases
from .version import version as __version__

_install_module_aliases(__name__)  # old and original module paths (unitxt.standard, unitxt.blocks...) -> their homes
from . import ray as _ray_integration  # noqa: E402,F401 - registers the Ray Dataset scorer (imports no Ray)

_LAZY_ATTRIBUTES = {
    "load_dataset": "api",
    "create_dataset": "api",
    "evaluate": "evaluation.in_memory",
    "post_process": "evaluation.in_memory",
    "compare": "evaluation.paired_comparison",
    "produce": "api",
    "infer": "api",
    "add_to_catalog": "catalog",
    "get_from_catalog": "catalog",
    "fetch_artifact": "catalog",
    "register_local_catalog": "catalog",
    "register_catalog": "catalog",
    "settings": "settings_utils",
    "get_settings": "settings_utils",
    "get_logger": "logging_utils",
    "Artifact": "artifact",
    "ArtifactLink": "artifact",
    "UnitxtError": "errors",
    "register_type": "types.checking",
    "get_constants": "settings_utils",
    "register_all_artifacts": "catalog",
}
# the original's top-level constants: attributes of the installation's constants (settings_utils.get_constants())
_CONSTANTS = ("dataset_file", "metric_file", "local_catalog_path", "dataset_url", "metric_url")


def __getattr__(name: str) -> Any:
    if name in _CONSTANTS or name in ("constants", "logger"):
        from .logging_utils import get_logger
        from .settings_utils import get_constants

        return get_logger() if name == "logger" else get_constants() if name == "constants" else getattr(
            get_constants(), name)
    module_name = _LAZY_ATTRIBUTES.get(name)
    if module_name is None:
        if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f".{name}", __name__)  # submodules and aliased old paths
        raise AttributeError(f"module 'unitxt' has no attribute '{name}'")
    value = getattr(importlib.import_module(f".{module_name}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_LAZY_ATTRIBUTES) + list(_CONSTANTS) + ["constants", "logger"])
