"""Catalog storage: directories (or in-memory maps) of JSON artifacts, their registration and lookup by name.

`cards.wmt.en_de` <-> `<catalog>/cards/wmt/en_de.json`. Lookup order: the last registered catalog wins, then catalogs
from `UNITXT_CATALOGS` (later entries win), then the library's own catalog snapshot. This module handles raw JSON
only (it never imports `artifact`), so `artifact.fetch_artifact` can build on it without an import circle.
"""

import difflib
import glob
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from .errors import CatalogEntryExistsError, CatalogError
from .general.processes import process_alive
from .artifact_registry import load_builtin_artifact_modules
from .query_parser import separate_inside_and_outside_square_brackets, validate_catalog_name
from .settings_utils import default_catalog_path, settings


def _default_catalog_path() -> str:
    """The catalog shipped with the library: next to the package (release) or at the repository root."""
    return default_catalog_path()


def write_json_atomically(path: Union[str, Path], data: Any) -> None:
    """Write JSON to a temp file in the target directory, then rename it into place.

    The file keeps the mode of the file it replaces (a new file gets the umask's default, not the temp file's 0600).
    Temp files of this writer left by a killed process (".<name>.<pid>-<random>.tmp") are removed when that process is
    gone, and any of them older than an hour."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temp_files(path)
    mode = _mode_for(path)
    handle, temp_name = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.{os.getpid()}-",
                                            suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=4, ensure_ascii=False)
            stream.write("\n")
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        if os.path.exists(temp_name):
            os.unlink(temp_name)
        raise


STALE_TEMP_SECONDS = 3600


def _mode_for(path: Path) -> int:
    """The existing file's permission bits, else 0666 minus the process umask."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _remove_stale_temp_files(path: Path) -> None:
    """Delete this writer's temporary files in `path`'s directory whose process is gone (any artifact: each kill -9
    during a write leaves one), and those of `path` older than STALE_TEMP_SECONDS."""
    import time

    limit = time.time() - STALE_TEMP_SECONDS
    own = f".{path.name}."
    for temp in path.parent.glob(".*.tmp"):
        match = re.search(r"\.(\d+)-[^.]*\.tmp$", temp.name)
        try:
            if match and not process_alive(int(match.group(1))):
                temp.unlink()
            elif temp.name.startswith(own) and temp.stat().st_mtime < limit:
                temp.unlink()
        except OSError:
            pass


class LocalCatalog:
    """A directory of JSON artifacts. Names resolve inside the directory only: a symlink that leads outside it is
    refused for reads and writes."""

    def __init__(self, location: Union[str, Path, None] = None, name: str = "local", is_local: bool = True,
                 data_classification_policy: Optional[List[str]] = None):
        self.location = str(location if location is not None else _default_catalog_path())
        # the original's other catalog fields: kept, the store reads the directory alike
        self.name, self.is_local, self.data_classification_policy = name, is_local, data_classification_policy
        self._cache: Dict[str, Tuple[int, Any]] = {}

    def __repr__(self) -> str:
        return f"LocalCatalog({self.location!r})"

    def _resolved_root(self) -> str:
        """The catalog directory with symlinks resolved (kept while `location` is unchanged: resolving it per name
        was most of the cost of listing a large catalog)."""
        cached = getattr(self, "_resolved", None)
        if cached is None or cached[0] != self.location:
            cached = self._resolved = (self.location, os.path.realpath(self.location))
        return cached[1]

    def path_for(self, name: str) -> Path:
        validate_catalog_name(name)
        root = self._resolved_root()
        path = os.path.realpath(os.path.join(root, *name.split(".")) + ".json")  # a link out of it is an escape
        if not path.startswith(root if root.endswith(os.sep) else root + os.sep):
            raise CatalogError(f"Catalog name '{name}' escapes the catalog directory {root} (through a symlink "
                               "or '..').", artifact=name)
        return Path(path)

    def __contains__(self, name: str) -> bool:
        return self.path_for(name).is_file()

    def load_data(self, name: str) -> Any:
        """The JSON content stored under `name` (cached by file modification time): a private copy to change."""
        return json.loads(json.dumps(self.peek_data(name)))

    def peek_data(self, name: str) -> Any:
        """The cached JSON content of `name` itself, for readers that never change it (the explorer's listing)."""
        path = self.path_for(name)
        stat = path.stat()
        cached = self._cache.get(name)
        if cached is None or cached[0] != stat.st_mtime_ns:
            with open(path, encoding="utf-8") as handle:
                try:
                    text = handle.read()
                    cached = (stat.st_mtime_ns, json.loads(text))
                except UnicodeDecodeError as error:
                    raise CatalogError(f"Catalog entry '{name}' at {path} is not UTF-8 text: {error}") from None
                except (ValueError, RecursionError) as error:  # bad JSON, over-long integers, too deep nesting
                    raise CatalogError(f"Catalog entry '{name}' at {path} is not valid JSON: "
                                       f"{str(error)[:200]}") from None
            self._cache[name] = cached
        return cached[1]

    def save(self, artifact: Any, name: str, overwrite: bool = False) -> Path:
        path = self.path_for(name)
        if path.exists() and not overwrite:
            raise CatalogEntryExistsError(
                f"Catalog entry '{name}' already exists at {path}; pass overwrite=True to replace it.",
                artifact=name,
            )
        write_json_atomically(path, artifact.to_dict())
        self._cache.pop(name, None)
        return path

    def names(self) -> Iterator[str]:
        """The entries' names in path order; listed with os.walk and plain strings, since an unknown-name error lists
        every catalog's names for its suggestions (pathlib's globbing and sorting took most of a second)."""
        if not os.path.isdir(self.location):
            return
        paths = []
        for folder, _, files in os.walk(self.location):
            relative = os.path.relpath(folder, self.location)
            parts = () if relative == "." else tuple(relative.split(os.sep))
            paths.extend(parts + (file,) for file in files if file.endswith(".json"))
        for parts in sorted(paths):
            yield ".".join(parts)[: -len(".json")]


class MemoryCatalog(LocalCatalog):
    """A read-only catalog held in memory ({name: JSON data}); the Hub release embeds the library catalog this way."""

    def __init__(self, entries: Dict[str, Any], location: str = "<embedded catalog>"):
        super().__init__(location)
        self.entries = entries

    def __contains__(self, name: str) -> bool:
        validate_catalog_name(name)
        return name in self.entries

    def peek_data(self, name: str) -> Any:
        if name not in self.entries:
            raise CatalogError(f"'{name}' is not in {self.location}.", artifact=name)
        return self.entries[name]

    def save(self, artifact: Any, name: str, overwrite: bool = False) -> Path:
        raise CatalogError(f"{self.location} is read-only; pass catalog_path= to add_to_catalog.", artifact=name)

    def names(self) -> Iterator[str]:
        yield from sorted(self.entries)


_registered: List[LocalCatalog] = []
_default_catalog: Optional[LocalCatalog] = None
_env_catalogs: Dict[str, LocalCatalog] = {}


def set_default_catalog(catalog: LocalCatalog) -> None:
    """Replace the library's default catalog (the Hub release installs its embedded catalog this way)."""
    global _default_catalog
    _default_catalog = catalog


def get_default_catalog() -> LocalCatalog:
    global _default_catalog
    if _default_catalog is None:
        _default_catalog = LocalCatalog(_default_catalog_path())
    return _default_catalog


_write_catalog: Optional[LocalCatalog] = None  # where add_to_catalog writes without a path (None: the default one)


def set_write_catalog(catalog: Optional[LocalCatalog]) -> None:
    """Send writes without an explicit path to `catalog` (None: back to the default catalog); used by temp_catalog."""
    global _write_catalog
    _write_catalog = catalog


def get_write_catalog() -> LocalCatalog:
    return _write_catalog if _write_catalog is not None else get_default_catalog()


def register_local_catalog(catalog_path: Union[str, Path]) -> LocalCatalog:
    """Register a catalog directory; it takes precedence over every catalog registered before it."""
    path = catalog_path
    if not os.path.isdir(path):
        raise CatalogError(f"Can not register catalog: '{path}' is not a directory.")
    location = os.path.abspath(path)
    for catalog in list(_registered):
        if catalog.location == location:
            _registered.remove(catalog)
    catalog = LocalCatalog(location)
    Catalogs().register(catalog)
    return catalog


register_catalog = register_local_catalog


def unregister_local_catalog(catalog_path: Union[str, Path]) -> None:
    location = os.path.abspath(catalog_path)
    for catalog in [catalog for catalog in _registered if catalog.location == location]:
        Catalogs().unregister(catalog)


_env_pushed: set = set()  # locations of UNITXT_CATALOGS put on top of the registered ones by reset_env_catalogs


def _env_locations() -> List[str]:
    """The catalog directories named by UNITXT_CATALOGS (or its former name UNITXT_ARTIFACTORIES), in order."""
    env_value, old_value = settings.catalogs, os.environ.get("UNITXT_ARTIFACTORIES")  # the variable's former name
    if env_value and old_value:
        raise CatalogError("Both UNITXT_CATALOGS and UNITXT_ARTIFACTORIES are set. Use only UNITXT_CATALOGS "
                           "(UNITXT_ARTIFACTORIES is its former name).")
    return [os.path.abspath(location) for location in str(env_value or old_value or "").split(":") if location]


def reset_env_catalogs() -> None:
    """Read UNITXT_CATALOGS again and put its catalogs above every catalog registered so far (as the original's
    `_reset_env_local_catalogs`); later registrations go above them again."""
    locations = _env_locations()
    _registered[:] = [catalog for catalog in _registered
                      if catalog.location not in _env_pushed and catalog.location not in locations]
    _env_pushed.clear()
    _env_catalogs.clear()
    for location in locations:
        _registered.append(_env_catalogs.setdefault(location, LocalCatalog(location)))
        _env_pushed.add(location)


def get_catalogs() -> List[LocalCatalog]:
    """All catalogs, highest precedence first: the registered ones (latest first), the UNITXT_CATALOGS ones not
    registered, the default catalog."""
    locations = _env_locations()
    registered = [catalog for catalog in _registered
                  if catalog.location not in _env_pushed or catalog.location in locations]
    taken = {catalog.location for catalog in registered}
    env_catalogs = [_env_catalogs.setdefault(location, LocalCatalog(location)) for location in locations
                    if location not in taken]
    return [*reversed(registered), *reversed(env_catalogs), get_default_catalog()]


class Catalogs:
    """The catalogs in lookup order, highest precedence first (the original's iterable `Catalogs()`)."""

    def __iter__(self) -> Iterator[LocalCatalog]:
        return iter(get_catalogs())

    def __len__(self) -> int:
        return len(get_catalogs())

    def register(self, catalog: Any) -> None:
        """Put a catalog (a LocalCatalog, or a catalog artifact with a `location`) above all the others."""
        store = catalog.store() if callable(getattr(catalog, "store", None)) else catalog
        if not isinstance(store, LocalCatalog):
            raise CatalogError(f"Catalogs.register needs a catalog (a LocalCatalog or a catalog with a location), got "
                               f"{type(catalog).__name__}.", artifact=type(catalog).__name__)
        _registered[:] = [known for known in _registered if known.location != store.location] + [store]

    def unregister(self, catalog: Any) -> None:
        """Take a registered catalog (or the one registered at its location) out of the lookup."""
        location = getattr(catalog, "location", None)
        if catalog not in _registered and not any(known.location == location for known in _registered):
            raise CatalogError(f"Catalogs.unregister: catalog at {location!r} is not registered.",
                               artifact=type(catalog).__name__)
        _registered[:] = [known for known in _registered if known is not catalog and known.location != location]

    def reset(self) -> None:
        """Forget every registered catalog (the library's own catalog stays the last one looked in)."""
        _registered.clear()
        _env_pushed.clear()


def reset_artifacts_json_cache() -> None:
    """Forget the catalog entries read so far, so the next lookups read the files again."""
    for catalog in get_catalogs():
        catalog._cache.clear()


def _all_names() -> List[str]:
    names = set()
    for catalog in get_catalogs():
        names.update(catalog.names())
    return sorted(names)


def _unknown_name_error(name: str) -> CatalogError:
    close = difflib.get_close_matches(name, _all_names(), n=5, cutoff=0.6)
    hint = f" Closest names: {', '.join(close)}." if close else ""
    searched = ", ".join(catalog.location for catalog in get_catalogs())
    return CatalogError(f"Artifact {name} does not exist, in Unitxt catalogs ('{name}' is not in any catalog).{hint} "
                        f"Searched: {searched}.", artifact=name)


def peek_in_catalogs(name: str) -> Any:
    """The cached data of `name` from the first catalog holding it, for readers that never change it; None when no
    catalog does (one path check per catalog: no close-match search, as an unknown-name error makes)."""
    validate_catalog_name(name)
    for catalog in get_catalogs():
        try:
            return catalog.peek_data(name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except CatalogError:  # an embedded catalog says so for a name it lacks; other errors stand
            if name in catalog:
                raise
    return None


def find_in_catalogs(name: str, private_copy: bool = True) -> Tuple[Any, LocalCatalog]:
    """The raw JSON data of a catalog entry and the catalog holding it. With `private_copy=False` the data is the
    catalog's cached object, for readers that never change it (a copy of a large entry costs milliseconds)."""
    validate_catalog_name(name)
    for catalog in get_catalogs():
        if name in catalog:
            return (catalog.load_data(name) if private_copy else catalog.peek_data(name)), catalog
    raise _unknown_name_error(name)




# ---------------------------------------------------------------- the original's lookup helpers (unitxt.artifact)
class UnitxtArtifactNotFoundError(CatalogError):
    """No catalog holds an artifact of that name."""

    def __init__(self, name: str, catalogs: List[Any]):
        self.name, self.catalogs = name, catalogs
        message = f"Artifact {name} does not exist, in Unitxt catalogs: {catalogs}."
        if settings.use_only_local_catalogs:
            message += ("\nNotice that unitxt.settings.use_only_local_catalogs is set to True, if you want to use "
                        f"remote catalogs set this settings or the environment variable "
                        f"{settings.use_only_local_catalogs_key}.")
        super().__init__(message)


def is_name_legal_for_catalog(name: str) -> Optional["re.Match"]:
    """A match when the name is made of word characters and "." (the catalog's nesting separator)."""
    return re.match(r"^[\w.]+$", name)


def verify_legal_catalog_name(name: str) -> None:
    """AssertionError for a name that is not legal for the catalog (the original's message)."""
    if not is_name_legal_for_catalog(name):
        raise AssertionError(f'Artifict name ("{name}") should be alphanumeric. Use "." for nesting (e.g. '
                             "myfolder.my_artifact)")


def get_catalog_name_and_args(name: str, catalogs: Optional[List[Any]] = None) -> Tuple[Any, str, Any]:
    """(the catalog holding it, the bare name, its overrides as typed values or None) for "name[key=value,...]";
    UnitxtArtifactNotFoundError when none of `catalogs` (default: the registered ones) holds it."""
    bare, overrides = separate_inside_and_outside_square_brackets(name)
    searched = list(get_catalogs()) if catalogs is None else list(catalogs)
    for catalog in searched:
        if bare in catalog:
            return catalog, bare, overrides
    raise UnitxtArtifactNotFoundError(bare, searched)


def register_all_artifacts(path: Optional[Union[str, Path]] = None) -> None:
    """Make every built-in artifact class resolvable by its `__type__` (the original's registration step; here the
    type index already finds them, so this only imports them). A `path` is registered as a local catalog."""
    load_builtin_artifact_modules()
    if path is not None:
        register_local_catalog(path)


class ProjectArtifactRegisterer:
    """The original's one-time registration of the library's catalogs and artifact classes: constructing it (once
    per process; it is a singleton) runs `register_all_artifacts`."""

    _instance: Optional["ProjectArtifactRegisterer"] = None

    def __new__(cls) -> "ProjectArtifactRegisterer":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance._registered = False
        return cls._instance

    def __init__(self) -> None:
        if not self._registered:
            register_all_artifacts()
            self._registered = True
