"""Helper of the catalog sources (skipped by build_catalog.py): `make(type_name, **settings)` builds an artifact from
its registered `__type__` name, so a family written as a table of (type, settings) facts reads compactly."""

from typing import Any

from unitxt.artifact import get_artifact_class


def make(type_name: str, description: str = None, tags: dict = None, **settings: Any) -> Any:
    """An instance of the artifact class registered as `type_name`, with optional catalog description and tags."""
    extra = {}
    if description is not None:
        extra["__description__"] = description
    if tags is not None:
        extra["__tags__"] = tags
    return get_artifact_class(type_name)(**settings, **extra)
