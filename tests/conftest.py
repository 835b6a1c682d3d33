"""Test isolation: offline HF, private HF caches, and no writes to the library's catalog."""

import os
import tempfile

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
_cache_root = tempfile.mkdtemp(prefix="unitxt-tests-hf-")
os.environ.setdefault("HF_HOME", _cache_root)
os.environ.setdefault("HF_DATASETS_CACHE", os.path.join(_cache_root, "datasets"))
os.environ.setdefault("UNITXT_INFERENCE_CACHE_DIR", os.path.join(_cache_root, "inference"))  # never ~/.cache
os.environ.pop("UNITXT_CATALOGS", None)
os.environ.pop("UNITXT_DATA_CLASSIFICATION_POLICY", None)

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def isolated_catalogs():
    """Each test starts with only the library catalog registered and leaves no registrations behind."""
    from unitxt import catalog

    saved = list(catalog._registered)
    catalog._registered.clear()
    yield
    catalog._registered[:] = saved


@pytest.fixture
def temp_catalog(tmp_path):
    """A fresh registered local catalog directory."""
    from unitxt.catalog import register_local_catalog

    path = tmp_path / "catalog"
    path.mkdir()
    register_local_catalog(str(path))
    return path


@pytest.fixture
def default_catalog_in_tmp(tmp_path, monkeypatch):
    """Redirect the library's default catalog to an empty temp directory (for add_to_catalog without a path)."""
    from unitxt import catalog_store

    path = tmp_path / "default_catalog"
    path.mkdir()
    monkeypatch.setattr(catalog_store, "_default_catalog", catalog_store.LocalCatalog(str(path)))
    return path
