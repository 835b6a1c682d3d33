"""The original's helpers around catalog names and artifact lookup (its `unitxt.artifact` module functions, which
`unitxt.artifact` serves from here): legal catalog names, the difference of two artifact dicts as text, the closest
registered type name, the raw form of artifacts, the catalog holding a name, and fetching identifiers found in data."""

import difflib
import re
from typing import Any, Dict, List, Optional, Tuple

from .errors import CatalogError

_LEGAL_NAME = re.compile(r"^[\w.]+$")


class UnitxtArtifactNotFoundError(CatalogError):
    """No catalog holds an artifact of that name."""

    def __init__(self, name: str, catalogs: List[Any]):
        from .settings_utils import settings

        self.name, self.catalogs = name, catalogs
        message = f"Artifact {name} does not exist, in Unitxt catalogs: {catalogs}."
        if getattr(settings, "use_only_local_catalogs", False):
            message += ("\nNotice that unitxt.settings.use_only_local_catalogs is set to True, if you want to use "
                        "remote catalogs set this settings or the environment variable UNITXT_USE_ONLY_LOCAL_CATALOGS.")
        super().__init__(message)


def is_name_legal_for_catalog(name: str) -> Optional["re.Match"]:
    """A match when the name is made of word characters and "." (the catalog's nesting separator)."""
    return _LEGAL_NAME.match(name)


def verify_legal_catalog_name(name: str) -> None:
    """AssertionError for a name that is not legal for the catalog."""
    if not is_name_legal_for_catalog(name):
        raise AssertionError(f'Artifict name ("{name}") should be alphanumeric. Use "." for nesting (e.g. '
                             "myfolder.my_artifact)")


def dict_diff_string(dict1: Dict[str, Any], dict2: Dict[str, Any], max_diff: int = 200) -> str:
    """The keys added, removed and changed from dict1 to dict2, one " - key (kind): value" line each (values longer
    than `max_diff` characters are left out)."""
    def line(key: Any, value: Any, label: str) -> str:
        text = str(value)
        return f" - {key} ({label}): {text}" if len(text) <= max_diff else f" - {key} ({label})"

    both = dict1.keys() & dict2.keys()
    lines = [line(key, dict2[key], "added") for key in dict2.keys() - dict1.keys()]
    lines += [line(key, dict1[key], "removed") for key in dict1.keys() - dict2.keys()]
    for key in both:
        if str(dict1[key]) != str(dict2[key]):
            text = f"{dict1[key]!s} -> {dict2[key]!s}"
            lines.append(f" - {key} (changed): {text}" if len(text) <= max_diff else f" - {key} (changed)")
    return "\n".join(lines)


def get_closest_artifact_type(type: str) -> Optional[str]:  # noqa: A002 - the original's parameter name
    """The registered `__type__` closest to a misspelt one (None when nothing is close)."""
    from .artifact import _type_modules, registered_artifact_types

    matches = difflib.get_close_matches(type, sorted(set(registered_artifact_types()) | set(_type_modules())))
    return matches[0] if matches else None


def get_raw(obj: Any) -> Any:
    """Artifacts by their catalog name when fetched by one, else as their dict; containers recursively."""
    from .artifact import Artifact

    if isinstance(obj, Artifact):
        return obj.__id__ if getattr(obj, "__id__", None) is not None else obj.to_dict()
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[get_raw(value) for value in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)([get_raw(value) for value in obj])
    if isinstance(obj, dict):
        return type(obj)({get_raw(key): get_raw(value) for key, value in obj.items()})
    return obj


def get_catalog_name_and_args(name: str, catalogs: Optional[List[Any]] = None) -> Tuple[Any, str, Dict[str, Any]]:
    """(the catalog holding it, the name, its overrides) for "name[key=value,...]"; UnitxtArtifactNotFoundError
    when no catalog holds it."""
    from .catalog_store import get_catalogs
    from .query_parser import parse_artifact_query

    bare, overrides = parse_artifact_query(name)
    searched = list(get_catalogs()) if catalogs is None else list(catalogs)
    for catalog in searched:
        if bare in catalog:
            return catalog, bare, overrides
    raise UnitxtArtifactNotFoundError(bare, searched)


def verbosed_fetch_artifact(identifier: Any) -> Any:
    """fetch_artifact's artifact, logging which catalog it came from."""
    from .artifact import fetch_artifact
    from .logging_utils import get_logger

    artifact, catalog = fetch_artifact(identifier)
    get_logger().debug(f"Artifact {identifier} is fetched from {catalog}")
    return artifact


def _is_identifier(obj: Any) -> bool:
    return isinstance(obj, str) or (isinstance(obj, dict) and "__type__" in obj)


def maybe_recover_artifact(obj: Any) -> Any:
    """An artifact for a catalog name or an artifact dict; anything else as it is."""
    return verbosed_fetch_artifact(obj) if _is_identifier(obj) else obj


def maybe_recover_artifacts_structure(obj: Any) -> Any:
    """maybe_recover_artifact on the value itself, or on each value of a dict or list (in place)."""
    if _is_identifier(obj):
        return verbosed_fetch_artifact(obj)
    if isinstance(obj, dict):
        for key, value in obj.items():
            obj[key] = maybe_recover_artifact(value)
    elif isinstance(obj, list):
        obj[:] = [maybe_recover_artifact(value) for value in obj]
    return obj


__all__ = ["UnitxtArtifactNotFoundError", "is_name_legal_for_catalog", "verify_legal_catalog_name",
           "dict_diff_string", "get_closest_artifact_type", "get_raw", "get_catalog_name_and_args",
           "verbosed_fetch_artifact", "maybe_recover_artifact", "maybe_recover_artifacts_structure"]
