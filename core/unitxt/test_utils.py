"""Testing helpers, importable under the documented paths `unitxt.test_utils.operators` (check_operator),
`unitxt.test_utils.card` (test_card) and `unitxt.test_utils.metrics` (test_metric).

The library is a flat set of modules (so it can be vendored as one file); the documented sub-module paths are
registered here as light alias modules whose attributes are loaded on first use.
"""

import importlib
import sys
import types
from typing import Dict

_ALIASES: Dict[str, Dict[str, str]] = {
    "operators": {"check_operator": "operator"},
    "card": {"test_card": "card_testing", "test_adding_to_catalog": "card_testing"},
    "metrics": {"test_metric": "metric_testing", "apply_metric": "metric_testing"},
}


def _make_alias(short_name: str, attributes: Dict[str, str]) -> types.ModuleType:
    module = types.ModuleType(f"{__name__}.{short_name}", f"Alias module exposing {', '.join(attributes)}.")
    package = __name__.rsplit(".", 1)[0]

    def __getattr__(name: str):
        source = attributes.get(name)
        if source is None:
            raise AttributeError(f"module '{module.__name__}' has no attribute '{name}'")
        return getattr(importlib.import_module(f"{package}.{source}"), name)

    module.__getattr__ = __getattr__
    module.__all__ = list(attributes)
    return module


for _short_name, _attributes in _ALIASES.items():
    _module = _make_alias(_short_name, _attributes)
    sys.modules[_module.__name__] = _module
    globals()[_short_name] = _module

__path__ = []  # lets the import system treat this module as a package of the alias modules above
