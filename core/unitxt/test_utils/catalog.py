"""temp_catalog: a throwaway catalog for tests that add artifacts, so the library's own catalog stays untouched."""

import contextlib
import tempfile
from typing import Iterator

from .. import catalog_store
from ..catalog_store import LocalCatalog, register_local_catalog, set_write_catalog, unregister_local_catalog
from ..module_aliases import moved_classes


@contextlib.contextmanager
def temp_catalog() -> Iterator[str]:
    """A temporary catalog directory, registered first and receiving `add_to_catalog` writes without a path inside
    the block; unregistered and deleted after it. Yields its path."""
    previous = catalog_store._write_catalog
    with tempfile.TemporaryDirectory() as path:
        register_local_catalog(path)
        set_write_catalog(LocalCatalog(path))
        try:
            yield path
        finally:
            set_write_catalog(previous)
            unregister_local_catalog(path)


def register_local_catalog_for_tests(path: str = "") -> LocalCatalog:
    """Register a catalog directory for a test session (the original's helper of the same name)."""
    return register_local_catalog(path or tempfile.mkdtemp(prefix="unitxt-test-catalog-"))


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
