"""The original's artifact and catalog API names behave as there: links (either key, positional, given directly),
add_link_to_catalog, from_dict with overwrite_args and a missing __type__, the error names, Catalogs(),
reset_artifacts_json_cache(), the per-artifact classification policy from the environment, verify_instance."""

import json
import os
import warnings

import pytest

from unitxt.artifact import (Artifact, ArtifactLink, Catalogs, MissingArtifactTypeError,
                             UnrecognizedArtifactTypeError, fetch_artifact, get_artifacts_data_classification,
                             reset_artifacts_json_cache)
from unitxt.catalog import add_link_to_catalog, add_to_catalog, get_from_catalog
from unitxt.catalog_store import LocalCatalog
from unitxt.errors import UnitxtError
from unitxt.metrics import Accuracy
from unitxt.operators import Set
from unitxt.templates import YesNoTemplate
from unitxt.test_utils.catalog import temp_catalog


def test_link_given_positionally_resolves_when_passed_to_fetch_artifact():
    with temp_catalog() as path:
        add_to_catalog(Set(fields={"colour": "teal"}), "palette.teal", catalog_path=path)
        artifact, _ = fetch_artifact(ArtifactLink("palette.teal"))
        assert artifact.fields == {"colour": "teal"}


def test_link_stored_with_the_original_key_is_followed():
    with temp_catalog() as path:
        add_to_catalog(Set(fields={"size": 3}), "shapes.three", catalog_path=path)
        with open(os.path.join(path, "shapes", "alias.json"), "w") as handle:
            json.dump({"__type__": "artifact_link", "artifact_linked_to": "shapes.three"}, handle)
        assert get_from_catalog("shapes.alias").fields == {"size": 3}
        # overrides given on the link apply to the linked artifact
        assert fetch_artifact("shapes.alias[fields={size=4}]")[0].fields == {"size": 4}


def test_add_link_to_catalog_with_deprecation_warns_on_fetch():
    with temp_catalog() as path:
        add_to_catalog(Set(fields={"k": 1}), "keys.current", catalog_path=path)
        add_link_to_catalog("keys.current", "keys.legacy", deprecate=True, catalog_path=path)
        with pytest.warns(DeprecationWarning, match="keys.current"):
            artifact = get_from_catalog("keys.legacy")
        assert artifact.fields == {"k": 1}


def test_get_from_catalog_searches_a_given_catalog_path(tmp_path):
    add_to_catalog(Set(fields={"z": 0}), "only.here", catalog_path=str(tmp_path))
    assert get_from_catalog("only.here", catalog_path=str(tmp_path)).fields == {"z": 0}
    with pytest.raises(UnitxtError, match="Artifact only.here does not exist, in Unitxt catalogs"):
        get_from_catalog("only.here")  # the path was searched for that call only


def test_from_dict_overwrite_args_and_missing_type():
    data = {"__type__": "set", "fields": {"a": 1}}
    assert Artifact.from_dict(data, overwrite_args={"fields": {"a": 2}}).fields == {"a": 2}
    with pytest.raises(MissingArtifactTypeError):
        Artifact.from_dict({"fields": {"a": 1}})
    with pytest.raises(ValueError):  # the original's UnrecognizedArtifactTypeError is a ValueError
        Artifact.from_dict({"__type__": "no_such_kind_of_thing"})
    assert issubclass(UnrecognizedArtifactTypeError, ValueError)


def test_recipe_with_a_card_index_the_card_lacks_is_refused_at_construction():
    with pytest.raises(ValueError, match="not defined in card"):
        Artifact.from_dict({"__type__": "dataset_recipe", "card": "cards.sst2", "template_card_index": 987})


def test_field_expecting_an_artifact_accepts_its_serialised_dict():
    class Holder(Artifact):
        inner: Set

    holder = Holder(inner={"__type__": "set", "fields": {"q": "r"}})
    assert isinstance(holder.inner, Set) and holder.inner.fields == {"q": "r"}


def test_catalogs_iterates_highest_precedence_first_and_cache_reset(tmp_path):
    from unitxt.catalog import register_local_catalog, unregister_local_catalog

    register_local_catalog(str(tmp_path))
    try:
        first = next(iter(Catalogs()))
        assert isinstance(first, LocalCatalog) and first.location == str(tmp_path)
    finally:
        unregister_local_catalog(str(tmp_path))
    reset_artifacts_json_cache()
    assert fetch_artifact("metrics.accuracy")[0].__id__ == "metrics.accuracy"


def test_policy_from_environment(monkeypatch):
    monkeypatch.setenv("UNITXT_DATA_CLASSIFICATION_POLICY", json.dumps({"metrics.accuracy": ["internal"]}))
    assert get_artifacts_data_classification("metrics.accuracy") == ["internal"]
    assert get_artifacts_data_classification("metrics.other") is None
    monkeypatch.setenv("UNITXT_DATA_CLASSIFICATION_POLICY", "internal")
    with pytest.raises(RuntimeError, match="should be a valid json dictionary. Got 'internal' instead."):
        get_artifacts_data_classification("metrics.accuracy")


def test_policy_field_of_wrong_type_is_a_value_error_in_the_original_words():
    with pytest.raises(ValueError) as caught:
        Accuracy(data_classification_policy="internal")
    assert str(caught.value).startswith("The 'data_classification_policy' of Accuracy must be either None")


def test_verify_instance_returns_allowed_data_and_refuses_other():
    template = YesNoTemplate(data_classification_policy=["internal"])  # fields unset: allowed until rendering
    row = {"text": "t", "data_classification_policy": ["internal"]}
    assert template.verify_instance(row) is row
    with pytest.raises(UnitxtError):
        template.verify_instance({"text": "t", "data_classification_policy": ["secret"]})
    with pytest.raises(UnitxtError, match="needs input_format"):
        template.process_instance({"input_fields": {"text": "t"}, "reference_fields": {"label": ["x"]}})


def test_deprecated_link_object_warns_on_creation():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ArtifactLink(artifact_linked_to="a.b", __deprecated_msg__="use a.b")
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


def test_artifact_field_given_a_json_file_path_reads_it_at_construction(tmp_path):
    class Outer(Artifact):
        part: Set

    path = tmp_path / "part.json"
    Set(fields={"w": 7}).save(str(path))
    outer = Outer(part=str(path))
    path.unlink()  # read at construction: the file is no longer needed
    assert outer.part.fields == {"w": 7}


def test_an_artifact_loaded_from_data_and_changed_is_not_saved(tmp_path):
    loaded = Artifact.from_dict({"__type__": "set", "fields": {"n": 1}})
    loaded.save(str(tmp_path / "same.json"))  # unchanged: saved
    loaded.fields = {"n": 2}
    with pytest.raises(UnitxtError) as caught:
        loaded.save(str(tmp_path / "changed.json"))
    assert str(caught.value).endswith("following fields:\n - fields (changed): {'n': 1} -> {'n': 2}")
    assert not (tmp_path / "changed.json").exists()


def test_former_catalogs_variable_is_honoured_and_both_together_are_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("UNITXT_CATALOGS", raising=False)
    monkeypatch.setenv("UNITXT_ARTIFACTORIES", str(tmp_path))
    assert next(iter(Catalogs())).location == str(tmp_path)
    monkeypatch.setenv("UNITXT_CATALOGS", str(tmp_path))
    with pytest.raises(UnitxtError, match="Both UNITXT_CATALOGS and UNITXT_ARTIFACTORIES are set"):
        list(Catalogs())
