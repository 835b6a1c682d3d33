"""ListCollection and DictCollection (the original's unitxt.collections): items by position or key."""

import pytest

from unitxt.collections import DictCollection, ListCollection


def test_items_by_key_and_position_and_a_lookup_error_for_others():
    named = DictCollection({"first": "a", 2: "b"})
    assert (named["first"], named[2]) == ("a", "b")
    assert named.to_dict() == {"__type__": "dict_collection", "items": {"first": "a", 2: "b"}}
    listed = ListCollection(["x", "y"])
    assert listed[1] == "y"
    for collection, key in ((named, "missing"), (listed, 5)):
        with pytest.raises(LookupError, match="Cannot find item"):
            collection[key]
