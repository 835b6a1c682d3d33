"""The registry of artifact classes by `__type__`: lookups that only ever return registered classes.

Built-in classes register when their module is imported; the generated index (`_type_index.py`, written by
scripts/build_type_index.py) names the one module to import for a built-in `__type__`, so data never names a module.
"""

import difflib
import importlib
from typing import Dict, List, Optional

from .errors import UnknownArtifactTypeError

_ARTIFACT_TYPES: Dict[str, type] = {}


def _type_modules() -> Dict[str, str]:
    """The generated `__type__` -> module index (core/unitxt/_type_index.py, written by scripts/build_type_index.py)."""
    from ._type_index import TYPE_MODULES

    return TYPE_MODULES


def _import_module_of(type_name: str) -> None:
    """Import the one library module that defines `type_name` (a fixed name from the generated index, never data)."""
    module = _type_modules().get(type_name)
    if module is not None:
        importlib.import_module(f"{__package__}.{module}")


def load_builtin_artifact_modules() -> None:
    """Import every library module that registers artifact classes (for listings of all types; idempotent)."""
    for module in sorted(set(_type_modules().values())):
        importlib.import_module(f"{__package__}.{module}")


def get_artifact_class(type_name: str) -> type:
    """Look up a registered artifact class; unknown names are an error (never an import of a named module)."""
    if not isinstance(type_name, str):
        raise UnknownArtifactTypeError(f"__type__ must be a string naming a registered artifact class, got "
                                       f"{type(type_name).__name__} {str(type_name)[:80]}.")
    if type_name not in _ARTIFACT_TYPES:
        _import_module_of(type_name)
    try:
        return _ARTIFACT_TYPES[type_name]
    except (KeyError, TypeError):
        load_builtin_artifact_modules()  # for the suggestions below
        close = difflib.get_close_matches(str(type_name), list(_ARTIFACT_TYPES), n=3)
        raise UnknownArtifactTypeError(
            f"Unknown artifact __type__ {type_name!r}"
            + (f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else "")
            + ". Only registered artifact classes can be instantiated from data.",
        ) from None


def register_type_names(cls: type, *class_names: str) -> None:
    """Let data name `cls` by other class names too (the original's names of a class that has another name here,
    e.g. StandardRecipe for DatasetRecipe): each `__type__` is the snake_case of the name."""
    import re

    for class_name in class_names:
        snake = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", class_name)).lower()
        _ARTIFACT_TYPES[snake] = cls


def registered_artifact_types() -> Dict[str, type]:
    load_builtin_artifact_modules()
    return dict(_ARTIFACT_TYPES)


def concrete_types_of(base: type) -> List[str]:
    """The registered, non-abstract artifact type names that are subclasses of `base` (sorted)."""
    load_builtin_artifact_modules()
    return sorted(name for name, cls in _ARTIFACT_TYPES.items()
                  if issubclass(cls, base) and not cls.__dict__.get("__abstract__"))


def get_closest_artifact_type(type: str) -> Optional[str]:  # noqa: A002 - the original's parameter name
    """The registered `__type__` closest to a misspelt one (None when nothing is close); built-in types count
    before their modules are imported."""
    matches = difflib.get_close_matches(type, sorted(set(_ARTIFACT_TYPES) | set(_type_modules())))
    return matches[0] if matches else None
