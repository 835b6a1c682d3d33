"""Directory catalogs of JSON artifacts: the documented catalog API (add_to_catalog, get_from_catalog,
fetch_artifact, register_local_catalog, ...).

Storage and lookup live in catalog_store.py, resolution of names into artifacts in artifact.py (`fetch_artifact`,
re-exported here as documented).
"""

import difflib
import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from .artifact import (MAX_LINK_CHAIN, Artifact, ArtifactLink, _type_modules, fetch_artifact,  # noqa: F401
                       registered_artifact_types)
from .catalog_store import (  # noqa: F401 - the catalog API, kept importable from here
    STALE_TEMP_SECONDS,
    LocalCatalog,
    MemoryCatalog,
    _default_catalog_path,
    _env_catalogs,
    _registered,
    find_in_catalogs,
    get_catalogs,
    get_default_catalog,
    get_write_catalog,
    register_catalog,
    register_local_catalog,
    reset_env_catalogs,
    set_default_catalog,
    unregister_local_catalog,
    write_json_atomically,
)
from .errors import CatalogError
from .general.dataclass_fields import AbstractField
from .query_parser import parse_artifact_query
from .logging_utils import get_logger


def get_from_catalog(name: str, catalog: Optional[LocalCatalog] = None,
                     catalog_path: Optional[Union[str, Path]] = None) -> Artifact:
    """The artifact stored under a catalog name (queries with overrides are accepted); with `catalog` or
    `catalog_path`, that catalog is searched first."""
    if catalog is None and catalog_path is None:
        return fetch_artifact(name)[0]
    location = os.path.abspath(catalog.location if catalog is not None else catalog_path)
    if any(os.path.abspath(known.location) == location for known in _registered):
        return fetch_artifact(name)[0]
    register_local_catalog(location)
    try:
        return fetch_artifact(name)[0]
    finally:
        unregister_local_catalog(location)


def add_to_catalog(
    artifact: Artifact,
    name: str,
    catalog_path: Optional[Union[str, Path]] = None,
    overwrite: bool = False,
    verbose: bool = True,
) -> Path:
    """Save an artifact under a catalog name (default: the library's catalog); refuses to overwrite unless asked."""
    if not isinstance(artifact, Artifact):
        raise CatalogError(f"Only artifacts can be added to a catalog, got {type(artifact).__name__}.", artifact=name)
    catalog = LocalCatalog(catalog_path) if catalog_path is not None else get_write_catalog()
    path = catalog.save(artifact, name, overwrite=overwrite)
    for known in get_catalogs():
        if os.path.abspath(known.location) == os.path.abspath(catalog.location):
            known._cache.pop(name, None)
    if verbose:
        get_logger().info(f"Added '{name}' to catalog {catalog.location}")
    return path


def add_link_to_catalog(
    artifact_linked_to: str,
    name: str,
    deprecate: bool = False,
    catalog: Optional[LocalCatalog] = None,
    overwrite: bool = False,
    catalog_path: Optional[Union[str, Path]] = None,
    verbose: bool = True,
) -> Path:
    """Store under `name` a link to the catalog name `artifact_linked_to` (fetching `name` gives that artifact);
    with `deprecate`, fetching it also warns that `name` is deprecated in favour of the linked name."""
    message = None
    if deprecate:
        message = (f"Artifact '{name}' is deprecated. Artifact '{artifact_linked_to}' will be instantiated instead. "
                   f"In future uses, please reference artifact '{artifact_linked_to}' directly.")
    link = ArtifactLink(to=artifact_linked_to, __deprecated_msg__=message)  # written even when None, as the original
    if catalog is not None and catalog_path is None:
        catalog_path = catalog.location
    return add_to_catalog(link, name, catalog_path=catalog_path, overwrite=overwrite, verbose=verbose)


def is_local_catalog_registered(catalog_path: Union[str, Path]) -> bool:
    """Whether a catalog directory is registered (the original's `register.is_local_catalog_registered`)."""
    return any(os.path.abspath(catalog.location) == os.path.abspath(catalog_path) for catalog in get_catalogs())


def register_all_artifacts(path: Optional[Union[str, Path]] = None) -> None:
    """Make every built-in artifact class resolvable by its `__type__` (the original's registration step; here the
    type index already finds them, so this only imports them). A `path` is registered as a local catalog."""
    from .artifact import load_builtin_artifact_modules

    load_builtin_artifact_modules()
    if path is not None:
        register_local_catalog(path)


def _reset_env_local_catalogs() -> None:
    """Read the catalogs of UNITXT_CATALOGS (or its former name UNITXT_ARTIFACTORIES) again from the environment
    (the original's `register._reset_env_local_catalogs`); CatalogError when both variables are set."""
    reset_env_catalogs()


# ---------------------------------------------------------------- the original's lookup helpers (unitxt.artifact)
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


_LEGAL_NAME = re.compile(r"^[\w.]+$")


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
    matches = difflib.get_close_matches(type, sorted(set(registered_artifact_types()) | set(_type_modules())))
    return matches[0] if matches else None


def get_raw(obj: Any) -> Any:
    """Artifacts by their catalog name when fetched by one, else as their dict; containers recursively."""
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
    bare, overrides = parse_artifact_query(name)
    searched = list(get_catalogs()) if catalogs is None else list(catalogs)
    for catalog in searched:
        if bare in catalog:
            return catalog, bare, overrides
    raise UnitxtArtifactNotFoundError(bare, searched)


def verbosed_fetch_artifact(identifier: Any) -> Any:
    """fetch_artifact's artifact, logging which catalog it came from."""
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


class AbstractCatalog(Artifact):
    """The original's base of catalogs as artifacts: `name in catalog`, `catalog[name]` and
    `get_with_overwrite(name, overwrite_args)`; `is_local` says whether it lives on this machine."""

    __abstract__ = True

    is_local: bool = AbstractField()

    def __contains__(self, name: str) -> bool:
        raise NotImplementedError(f"{type(self).__name__}.__contains__(name) is not implemented")

    def __getitem__(self, name: str) -> Artifact:
        raise NotImplementedError(f"{type(self).__name__}.__getitem__(name) is not implemented")

    def get_with_overwrite(self, name: str, overwrite_args: Dict[str, Any]) -> Artifact:
        raise NotImplementedError(f"{type(self).__name__}.get_with_overwrite(name, overwrite_args) is not implemented")


class ArtifactList(list, Artifact):
    """A list of artifacts that is an artifact itself; preparing it prepares each item."""

    def __init__(self, items: Any = (), **kwargs: Any):
        list.__init__(self, items)
        Artifact.__init__(self, **kwargs)

    def prepare(self) -> None:
        super().prepare()
        for artifact in self:
            artifact.prepare()
