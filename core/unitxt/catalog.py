"""Directory catalogs of JSON artifacts: the documented catalog API (add_to_catalog, get_from_catalog,
fetch_artifact, register_local_catalog, ...).

Storage and lookup live in catalog_store.py, resolution of names into artifacts in artifact.py (`fetch_artifact`,
re-exported here as documented).
"""

import copy
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union  # noqa: F401

from .artifact import (MAX_LINK_CHAIN, Artifact, ArtifactLink, _type_modules, fetch_artifact,  # noqa: F401
                       get_raw, maybe_recover_artifact, maybe_recover_artifacts_structure, registered_artifact_types,
                       verbosed_fetch_artifact)
from .artifact_registry import get_closest_artifact_type, register_type_names  # noqa: F401 - the original's lookups
from .dict_utils import dict_diff_string  # noqa: F401
from .catalog_store import (  # noqa: F401 - the catalog API, kept importable from here
    STALE_TEMP_SECONDS,
    LocalCatalog,
    MemoryCatalog,
    ProjectArtifactRegisterer,
    UnitxtArtifactNotFoundError,
    _default_catalog_path,
    _env_catalogs,
    _registered,
    find_in_catalogs,
    get_catalog_name_and_args,
    get_catalogs,
    get_default_catalog,
    get_write_catalog,
    is_name_legal_for_catalog,
    register_all_artifacts,
    register_catalog,
    register_local_catalog,
    reset_env_catalogs,
    set_default_catalog,
    unregister_local_catalog,
    verify_legal_catalog_name,
    write_json_atomically,
)
from .errors import CatalogError
from .general.dataclass_fields import AbstractField, NonPositionalField
from .general.helpers import LRUCache
from .logging_utils import get_logger
from .module_aliases import moved_classes


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


def _reset_env_local_catalogs() -> None:
    """Read the catalogs of UNITXT_CATALOGS (or its former name UNITXT_ARTIFACTORIES) again from the environment
    (the original's `register._reset_env_local_catalogs`); CatalogError when both variables are set."""
    reset_env_catalogs()


class ArtifactFetcherMixin:
    """Gives a class `get_artifact(name)`: the artifact a catalog name (or query) resolves to, fetched once per name
    into a shared cache of 1000 entries, and handed out as a shallow copy so callers may set its fields."""

    _artifacts_cache = LRUCache(max_size=1000)

    @classmethod
    def get_artifact(cls, artifact_identifier: Any) -> Artifact:
        key = str(artifact_identifier)
        if key not in cls._artifacts_cache:
            cls._artifacts_cache[key] = fetch_artifact(artifact_identifier)[0]
        return copy.copy(cls._artifacts_cache[key])


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


class Catalog(AbstractCatalog):
    """The original's named catalog at a location: here a directory of JSON artifacts, read as LocalCatalog reads it."""

    __abstract__ = True

    name: Optional[str] = None
    location: Optional[str] = None

    def store(self) -> LocalCatalog:
        return LocalCatalog(self.location, name=self.name or "local", is_local=self.is_local)

    def __contains__(self, name: str) -> bool:
        return name in self.store()

    def __getitem__(self, name: str) -> Artifact:
        return fetch_artifact(self.store().load_data(name))[0]

    def get_with_overwrite(self, name: str, overwrite_args: Dict[str, Any]) -> Artifact:
        return fetch_artifact({**self.store().load_data(name), **overwrite_args})[0]


class EnvironmentLocalCatalog(Catalog):
    """The original's catalog of a directory named by the environment (UNITXT_CATALOGS); any directory here."""

    name: Optional[str] = "local"
    location: Optional[str] = NonPositionalField(default_factory=lambda: _default_catalog_path())
    is_local: bool = True


class GithubCatalog(Catalog):
    """The original's community catalog, read from GitHub over the network. This library never fetches a catalog at
    run time (the catalog travels inside the package), so looking a name up in it is a clear error."""

    name: Optional[str] = "community"
    location: Optional[str] = NonPositionalField(default_factory=lambda: _default_catalog_path())
    is_local: bool = False

    def store(self) -> LocalCatalog:
        raise CatalogError("GithubCatalog reads the catalog from GitHub at run time, which this library does not do: "
                           "its catalog travels inside the package; use LocalCatalog or register_local_catalog for "
                           "other catalogs.", artifact=type(self).__name__)


register_type_names(LocalCatalog, "LocalCatalog")  # the catalog store itself: built from the original's fields


class ArtifactList(list, Artifact):
    """A list of artifacts that is an artifact itself; preparing it prepares each item."""

    def __init__(self, items: Any = (), **kwargs: Any):
        list.__init__(self, items)
        Artifact.__init__(self, **kwargs)

    def prepare(self) -> None:
        super().prepare()
        for artifact in self:
            artifact.prepare()


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
