"""User mistakes raise a UnitxtError that the `except` clause written for the original also catches: where the
original raises ValueError, TypeError, KeyError or AssertionError for the mistake (checked against unitxt 1.26.10),
our error inherits that builtin type too."""

import tempfile

import pytest

from unitxt.catalog import add_to_catalog, fetch_artifact
from unitxt.dict_utils import dict_get
from unitxt.errors import UnitxtError
from unitxt.operators import Cast, Copy, MapInstanceValues, Rename, Set
from unitxt.task import Task
from unitxt.type_utils import parse_type_string

# mistake -> (the builtin type the original raises for it, the call)
MISTAKES = {
    "malformed override query": (ValueError, lambda: fetch_artifact("metrics.accuracy[n_resamples=")),
    "unknown field of an operator": (TypeError, lambda: Set(fieldz={"a": 1})),
    "operator given no field to work on": (
        AssertionError, lambda: Rename(field_to_field=None).process_instance({"a": 1})),
    "value missing from a strict mapping": (
        ValueError, lambda: MapInstanceValues(mappers={"a": {"1": "x"}}, strict=True).process_instance({"a": "2"})),
    "renaming a field the instance lacks": (
        ValueError, lambda: Rename(field_to_field={"x": "y"}).process_instance({"a": 1})),
    "copying a field the instance lacks": (ValueError, lambda: Copy(field="x", to_field="y").process_instance({"a": 1})),
    "dict_get of a missing key": (ValueError, lambda: dict_get({"a": 1}, "b")),
    "malformed type string": (AssertionError, lambda: parse_type_string("List[")),
    "unknown type in a task": (
        ValueError, lambda: Task(input_fields={"a": "Lisst[str]"}, reference_fields={"b": str}, prediction_type=str,
                                 metrics=["metrics.accuracy"])),
    "casting a value that is no number": (ValueError, lambda: Cast(field="a", to="int").process_instance({"a": "x"})),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_the_original_except_clause_catches_our_error(mistake):
    builtin, call = MISTAKES[mistake]
    with pytest.raises(builtin) as caught:
        call()
    assert isinstance(caught.value, UnitxtError)  # and it is still ours, with its context


def test_overwriting_a_catalog_entry_without_overwrite_is_an_assertion_as_in_the_original():
    folder = tempfile.mkdtemp()
    add_to_catalog(Set(fields={"a": 1}), "x.y", catalog_path=folder, verbose=False)
    with pytest.raises(AssertionError, match="already exists"):
        add_to_catalog(Set(fields={"a": 1}), "x.y", catalog_path=folder, verbose=False)


def test_an_illegal_catalog_name_is_an_assertion_as_in_the_original():
    with pytest.raises(AssertionError, match="Invalid catalog name"):
        add_to_catalog(Set(fields={"a": 1}), "x/../y", catalog_path=tempfile.mkdtemp(), verbose=False)


def test_a_missing_instance_field_is_still_a_key_error():
    """Ours was a KeyError before; code catching KeyError keeps working."""
    with pytest.raises(KeyError):
        dict_get({"a": 1}, "b")
