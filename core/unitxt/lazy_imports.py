"""Deferred imports, so `import unitxt` stays fast: numpy on first use, and the public names of the family packages
(metrics, operators, templates) from their defining module on first use."""

import importlib
import sys
from typing import Any, Callable, Dict, List, Tuple

from .module_aliases import NOT_IMPORTED, original_import


def numpy_module() -> Any:
    """The numpy module, imported on first use (metric modules call this instead of importing numpy at load)."""
    import numpy

    return numpy


def lazy_exports(package: str, exports: Dict[str, str], family: str) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """`__getattr__` and `__dir__` for a family package (metrics, operators, templates) that imports its public names
    on first use: `exports` maps a name to a module (relative to the package, e.g. ".fields" or "..operator"); any other
    class name is looked up in the generated type index among the modules under `family` (e.g. "operators.")."""
    namespace = sys.modules[package].__dict__

    def module_of(name: str) -> str:
        if name in exports:
            return exports[name]
        if not name[:1].isupper():
            return ""
        from ._type_index import TYPE_MODULES
        from .artifact import camel_to_snake

        module = TYPE_MODULES.get(camel_to_snake(name), "")
        return "." + module[len(family):] if module.startswith(family) else ""

    def __getattr__(name: str) -> Any:
        module = module_of(name)
        if not module:
            imported = original_import(package, name)  # a name the original's module had imported
            if imported is NOT_IMPORTED:
                raise AttributeError(f"module '{package}' has no attribute '{name}'")
            namespace[name] = imported
            return imported
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
