import json
import logging
from typing import Any, Dict, List, Optional

import pytest

from unitxt.artifact import Artifact, ArtifactLink, Field, from_serializable, get_artifact_class
from unitxt.catalog import add_to_catalog, fetch_artifact, get_from_catalog
from unitxt.errors import ArtifactDefinitionError, UnitxtError, UnknownArtifactTypeError


class Seasoning(Artifact):
    name: str
    grams: float = 1.0
    tags_list: List[str] = []


class Dish(Artifact):
    title: str
    main: Seasoning
    extras: List[Seasoning] = Field(default_factory=list)
    options: Dict[str, Any] = {}
    note: Optional[str] = None


def test_fields_defaults_and_required():
    salt = Seasoning(name="salt")
    assert salt.grams == 1.0 and salt.tags_list == []
    other = Seasoning(name="pepper")
    other.tags_list.append("hot")
    assert salt.tags_list == []  # mutable defaults are per instance
    with pytest.raises(ArtifactDefinitionError, match="Missing required field 'name'"):
        Seasoning()


def test_wrong_field_type_names_field_and_expectation():
    with pytest.raises(ArtifactDefinitionError) as info:
        Seasoning(name="salt", grams="heavy")
    message = str(info.value)
    assert "grams" in message and "float" in message and "'heavy'" in message
    with pytest.raises(ArtifactDefinitionError, match=r"List\[str\]"):
        Seasoning(name="salt", tags_list=["a", 3])


def test_unknown_field_suggests_close_name():
    with pytest.raises(ArtifactDefinitionError, match="did you mean 'grams'"):
        Seasoning(name="salt", gram=2.0)


def test_to_dict_and_back_equal_with_nested_artifacts():
    dish = Dish(title="soup", main=Seasoning(name="salt", grams=2.5), extras=[Seasoning(name="pepper")])
    data = dish.to_dict()
    assert data == {
        "__type__": "dish",
        "title": "soup",
        "main": {"__type__": "seasoning", "name": "salt", "grams": 2.5},
        "extras": [{"__type__": "seasoning", "name": "pepper"}],
    }
    again = Artifact.from_dict(json.loads(json.dumps(data)))
    assert again == dish
    assert isinstance(again.main, Seasoning) and again.main.grams == 2.5


def test_unknown_type_is_an_error_never_an_import():
    with pytest.raises(UnknownArtifactTypeError, match="Unknown artifact __type__ 'os_system'"):
        from_serializable({"__type__": "os_system", "command": "echo hi"})
    with pytest.raises(UnknownArtifactTypeError, match="did you mean 'seasoning'"):
        get_artifact_class("seasonin")


def test_description_tags_and_deprecation_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="unitxt"):
        salt = Seasoning(name="salt", __description__="fine salt", __tags__={"taste": "salty"},
                         __deprecated_msg__="use sea salt")
    assert "use sea salt" in caplog.text
    data = salt.to_dict()
    assert data["__description__"] == "fine salt" and data["__tags__"] == {"taste": "salty"}
    assert Artifact.from_dict(data) == salt


def test_artifact_field_accepts_catalog_name_resolved_on_use(temp_catalog):
    add_to_catalog(Seasoning(name="salt", grams=3.0), "seasonings.salt", catalog_path=str(temp_catalog))
    dish = Dish(title="soup", main="seasonings.salt", extras=["seasonings.salt[grams=7]"])
    assert dish.to_dict()["main"] == "seasonings.salt"  # kept as a reference when serialised
    assert dish.main.grams == 3.0
    assert dish.extras[0].grams == 7.0 and isinstance(dish.extras[0].grams, float)


def test_catalog_name_of_wrong_artifact_type(temp_catalog):
    add_to_catalog(Dish(title="x", main=Seasoning(name="a")), "dishes.x", catalog_path=str(temp_catalog))
    dish = Dish(title="soup", main="dishes.x")
    with pytest.raises(UnitxtError, match="expects Seasoning"):
        _ = dish.main


def test_overrides_scalars_lists_dicts_and_nesting(temp_catalog):
    add_to_catalog(Seasoning(name="salt"), "seasonings.salt", catalog_path=str(temp_catalog))
    add_to_catalog(Dish(title="soup", main="seasonings.salt"), "dishes.soup", catalog_path=str(temp_catalog))
    dish = get_from_catalog(
        "dishes.soup[title=broth, extras=[seasonings.salt[grams=2], seasonings.salt[tags_list=[a, b]]], "
        "options={spicy=true,level=3,name='x, y'}, note=None]"
    )
    assert dish.title == "broth"
    assert [extra.grams for extra in dish.extras] == [2.0, 1.0]
    assert dish.extras[1].tags_list == ["a", "b"]
    assert dish.options == {"spicy": True, "level": 3, "name": "x, y"}
    assert dish.note is None


def test_override_with_unknown_key_or_bad_type(temp_catalog):
    add_to_catalog(Seasoning(name="salt"), "seasonings.salt", catalog_path=str(temp_catalog))
    with pytest.raises(ArtifactDefinitionError, match="did you mean 'grams'"):
        get_from_catalog("seasonings.salt[gram=2]")
    with pytest.raises(ArtifactDefinitionError, match="grams"):
        get_from_catalog("seasonings.salt[grams=lots]")


def test_artifact_link_followed_and_may_be_deprecated(temp_catalog, caplog):
    add_to_catalog(Seasoning(name="salt"), "asset2", catalog_path=str(temp_catalog))
    add_to_catalog(
        ArtifactLink(to="asset2", __deprecated_msg__="'asset1' is going away, use 'asset2'"),
        "asset1",
        catalog_path=str(temp_catalog),
        overwrite=True,
    )
    with caplog.at_level(logging.WARNING, logger="unitxt"):
        artifact, catalog = fetch_artifact("asset1")
    assert isinstance(artifact, Seasoning) and artifact.name == "salt"
    assert "going away" in caplog.text
    assert get_from_catalog("asset1[grams=4]").grams == 4.0


def test_link_cycle_is_detected(temp_catalog):
    add_to_catalog(ArtifactLink(to="b"), "a", catalog_path=str(temp_catalog))
    add_to_catalog(ArtifactLink(to="a"), "b", catalog_path=str(temp_catalog))
    with pytest.raises(UnitxtError, match="cycle"):
        get_from_catalog("a")


def test_copy_with_overrides():
    salt = Seasoning(name="salt", grams=2.0)
    heavier = salt.copy(grams=5.0)
    assert heavier.grams == 5.0 and salt.grams == 2.0 and heavier.name == "salt"
