"""The original's dataclass and catalog-registry methods: Field.get_default, DataclassMeta.update_init_signature
(what inspect.signature shows), Dataclass.get_repr_dict (what repr shows), Catalogs.register / unregister / reset
(what catalog lookups see)."""

import inspect

import pytest

from unitxt.artifact import Artifact, Catalogs, fetch_artifact
from unitxt.catalog import add_to_catalog
from unitxt.dataclass import Dataclass, DataclassMeta, Field
from unitxt.errors import UnitxtError
from unitxt.operators import Set
from unitxt.catalog_store import LocalCatalog, _registered
from unitxt.register import register_local_catalog


class Point(Dataclass):
    x: int
    y: int = 0
    tags: list = Field(default_factory=lambda: ["p"])


def test_field_get_default():
    assert Field(default=3).get_default() == 3
    made = Field(default_factory=list)
    assert made.get_default() == [] and made.get_default() is not made.get_default()

    class Doubled(Field):
        def get_default(self):
            return 2 * super().get_default()

    class Scaled(Dataclass):
        size: int = Doubled(default=21)

    assert Scaled().size == 42


def test_init_signature():
    signature = inspect.signature(Point)
    assert list(signature.parameters) == ["x", "y", "tags"]
    assert signature.parameters["x"].default is inspect.Parameter.empty
    assert (signature.parameters["y"].default, signature.parameters["tags"].default) == (0, ["p"])
    assert isinstance(Point, DataclassMeta)

    class Keyword(DataclassMeta):
        def update_init_signature(cls):
            super().update_init_signature()
            sig = cls.__dict__["_init_signature"]
            type.__setattr__(cls, "_init_signature", sig.replace(parameters=[
                parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in sig.parameters.values()]))

    class Named(Dataclass, metaclass=Keyword):
        a: int = 1

    assert str(inspect.signature(Named)) == "(*, a: int = 1)"


def test_get_repr_dict_is_what_repr_shows():
    point = Point(x=1, tags=["q"])
    assert point.get_repr_dict() == {"x": 1, "tags": ["q"]}
    assert repr(point) == "Point(x=1, tags=['q'])"

    class Short(Point):
        def get_repr_dict(self):
            return {"x": self.x}

    assert repr(Short(x=5, y=6)) == "Short(x=5)"


def locations():
    return [catalog.location for catalog in Catalogs()]


def test_catalogs_register_unregister_reset(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    for folder, x in ((first, 1), (second, 2)):
        folder.mkdir()
        add_to_catalog(Set(fields={"x": x}), "points.p", catalog_path=str(folder), overwrite=True)
    catalogs, saved = Catalogs(), list(_registered)
    try:
        register_local_catalog(str(first))  # goes through Catalogs.register
        assert fetch_artifact("points.p")[0].fields["x"] == 1
        top = LocalCatalog(str(second))
        catalogs.register(top)
        assert fetch_artifact("points.p")[0].fields["x"] == 2 and locations()[0] == str(second)
        catalogs.unregister(top)
        assert fetch_artifact("points.p")[0].fields["x"] == 1 and str(second) not in locations()
        with pytest.raises(UnitxtError, match="not registered"):
            catalogs.unregister(top)
        with pytest.raises(UnitxtError, match="needs a catalog"):
            catalogs.register("a path")
        catalogs.reset()
        assert str(first) not in locations()
        with pytest.raises(UnitxtError):
            fetch_artifact("points.p")
    finally:
        _registered[:] = saved
