"""CopyFields (the original's deprecated name of Copy) and Apply with the builtin constructors dict/tuple/set."""

import warnings

import pytest

from unitxt.operators import Apply, CopyFields


def test_copy_fields_copies_and_warns_that_it_is_deprecated():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        operator = CopyFields(field_to_field={"src": "box/dst"})
    assert any("CopyFields is deprecated" in str(item.message) for item in caught)
    assert operator.process_instance({"src": 4}) == {"src": 4, "box": {"dst": 4}}
    assert operator.to_dict()["__type__"] == "copy_fields"


@pytest.mark.parametrize("function, expected", [(dict, {}), (tuple, ()), (set, set())])
def test_apply_takes_builtin_constructors(function, expected):
    assert Apply(function=function, to_field="made").process_instance({"x": 1})["made"] == expected
