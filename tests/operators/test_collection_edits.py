"""Collection edits the original keeps in `unitxt.collections_operators` (Chunk, Flatten, DictToTuplesList, Zip,
ZipLongest, ExplodeSubLists) and the `AddPrefix` processor, applied to small instances of our own."""

import pytest

from unitxt.collections_operators import (
    Chunk,
    DictToTuplesList,
    ExplodeSubLists,
    Flatten,
    Zip,
    ZipLongest,
    flatten,
)
from unitxt.processors import AddPrefix



def test_chunk_cuts_lists_and_texts():
    chunk = Chunk(field="steps", size=3)
    assert chunk.process_value(["a", "b", "c", "d"]) == [["a", "b", "c"], ["d"]]
    assert chunk.process_value("abcdefg") == ["abc", "def", "g"]
    with pytest.raises(ValueError, match="size"):
        Chunk(field="steps", size=0)


def test_flatten_keeps_the_outer_container_type():
    assert flatten(["x", ("y", ["z"]), []]) == ["x", "y", "z"]
    assert flatten(((1,), 2)) == (1, 2)
    assert Flatten(field="f").process_value([[1], [[2]]]) == [1, 2]


def test_dict_to_tuples_list():
    assert DictToTuplesList(field="d").process_value({"k": 1, "j": 2}) == [("k", 1), ("j", 2)]


def test_zip_and_zip_longest_write_tuples():
    row = {"names": ["ann", "bo", "cy"], "ages": [31, 42]}
    assert Zip(fields=["names", "ages"], to_field="pairs").process_instance(dict(row))["pairs"] == [
        ("ann", 31), ("bo", 42)]
    longest = ZipLongest(fields=["names", "ages"], to_field="pairs", fill_value=-1)
    assert longest.process_instance(dict(row))["pairs"][-1] == ("cy", -1)


def test_explode_sub_lists_is_duplicate_by_sub_lists():
    op = ExplodeSubLists(field="turns", to_field="prefix")
    out = list(op.process([{"turns": ["q1", "q2"]}]))
    assert [row["prefix"] for row in out] == [["q1"], ["q1", "q2"]]


def test_add_prefix_once():
    op = AddPrefix(field="t", prefix="Answer: ")
    assert op.process_value("  42 ") == "Answer: 42"
    assert op.process_value("Answer: 42") == "Answer: 42"


def test_wrap_rejects_an_unknown_container_as_a_value_error():
    from unitxt.collections_operators import Wrap

    assert Wrap(field="v", inside="tuple").process_value(5) == (5,)
    with pytest.raises(ValueError, match="set"):
        Wrap(field="v", inside="set")
