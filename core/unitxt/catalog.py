"""Directory catalogs of JSON artifacts: the documented catalog API (add_to_catalog, get_from_catalog,
fetch_artifact, register_local_catalog, ...).

Storage and lookup live in catalog_store.py, resolution of names into artifacts in artifact.py (`fetch_artifact`,
re-exported here as documented).
"""

import os
from pathlib import Path
from typing import Optional, Union

from .artifact import MAX_LINK_CHAIN, Artifact, fetch_artifact  # noqa: F401 - part of the documented API
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
    set_default_catalog,
    unregister_local_catalog,
    write_json_atomically,
)
from .errors import CatalogError
from .logging_utils import get_logger


def get_from_catalog(name: str) -> Artifact:
    """The artifact stored under a catalog name (queries with overrides are accepted)."""
    return fetch_artifact(name)[0]


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
