"""The original's AbstractCatalog and ArtifactList (unitxt.artifact names): a catalog base with an abstract
`is_local`, and a list of artifacts that prepares its items."""

import pytest

from unitxt.artifact import AbstractCatalog, Artifact, ArtifactList
from unitxt.operators import Set


def test_artifact_list_is_a_list_and_an_artifact():
    items = ArtifactList([Set(fields={"a": 1}), Set(fields={"b": 2})])
    assert isinstance(items, list) and isinstance(items, Artifact) and len(items) == 2
    assert [item.fields for item in items] == [{"a": 1}, {"b": 2}]
    assert ArtifactList() == []


def test_abstract_catalog_needs_is_local_from_a_subclass():
    class InMemory(AbstractCatalog):
        is_local = True
        names = ["x"]

        def __contains__(self, name):
            return name in self.names

        def __getitem__(self, name):
            return Set(fields={"name": name})

    catalog = InMemory()
    assert "x" in catalog and "y" not in catalog and catalog["x"].fields == {"name": "x"} and catalog.is_local
    with pytest.raises(Exception, match="is_local"):
        AbstractCatalog()
