"""The original's demo pool operators (unitxt.standard): CreateDemosPool takes distinct instances of one stream as the
pool (and removes them from the data when asked), AddDemosPool sets a given pool; SequentialRecipe runs its steps."""

import sys

import pytest

from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Set
from unitxt.recipe import SequentialRecipe
from unitxt.standard import AddDemosPool, CreateDemosPool
from unitxt.stream import MultiStream


def _streams():
    return MultiStream.from_iterables({"train": [{"input_fields": {"a": i % 3}, "n": i} for i in range(6)],
                                       "test": [{"input_fields": {"a": 9}, "n": 100}]})


def _numbers(multi_stream):
    return {name: [(row["n"], [demo["n"] for demo in row["_demos_pool_"]]) for row in stream]
            for name, stream in multi_stream.items()}


def test_create_demos_pool_keeps_or_removes_the_pool_instances():
    kept = _numbers(CreateDemosPool(from_stream="train", demos_pool_size=2, demos_removed_from_data=False)(_streams()))
    assert kept == {"train": [(n, [0, 1]) for n in range(6)], "test": [(100, [0, 1])]}
    removed = _numbers(CreateDemosPool(from_stream="train", demos_pool_size=3, demos_removed_from_data=True)(_streams()))
    assert removed == {"train": [(3, [0, 1, 2]), (4, [0, 1, 2]), (5, [0, 1, 2])], "test": [(100, [0, 1, 2])]}
    whole = CreateDemosPool(from_stream="train", demos_pool_size=sys.maxsize, demos_removed_from_data=True)
    assert _numbers(whole(_streams())) == {"test": [(100, [0, 1, 2])]}  # distinct input fields only
    with pytest.raises(Exception, match="missing a stream named 'dev'"):
        CreateDemosPool(from_stream="dev", demos_pool_size=2)(_streams())


def test_add_demos_pool_and_sequential_recipe():
    assert _numbers(AddDemosPool(demos_pool=[{"n": 7}])(_streams()))["test"] == [(100, [7])]
    recipe = SequentialRecipe(steps=[LoadFromDictionary(data={"test": [{"x": 1}]}, data_classification_policy=["public"]),
                                     Set(fields={"y": 2})])
    assert list(recipe()["test"]) == [{"x": 1, "y": 2, "data_classification_policy": ["public"]}]
