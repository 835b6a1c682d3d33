"""FixedFusion / WeightedFusion / IterableSource (the original's `unitxt.fusion`): subset tags, caps, splits, the
seeded weighted draw, and check_operator on a source (inputs=None)."""

import random

import pytest

from unitxt.errors import UnitxtError
from unitxt.fusion import FixedFusion, WeightedFusion
from unitxt.operators import IterableSource
from unitxt.test_utils.operators import check_operator


def rows(prefix, count, key="v"):
    return [{key: f"{prefix}{i}"} for i in range(count)]


def test_iterable_source_serves_fresh_copies_each_pass():
    source = IterableSource({"train": rows("a", 2)})
    first = list(source()["train"])
    first[0]["v"] = "changed"
    assert [row["v"] for row in source()["train"]] == ["a0", "a1"]


def test_fixed_fusion_concatenates_caps_and_tags_nested_subsets():
    inner = FixedFusion(subsets={"left": IterableSource({"test": rows("l", 3)}),
                                 "right": IterableSource({"test": rows("r", 3)})}, max_instances_per_subset=2)
    outer = FixedFusion(subsets={"both": inner, "extra": IterableSource({"test": rows("e", 1)})})
    assert list(outer()["test"]) == [
        {"v": "l0", "subset": ["both", "left"]}, {"v": "l1", "subset": ["both", "left"]},
        {"v": "r0", "subset": ["both", "right"]}, {"v": "r1", "subset": ["both", "right"]},
        {"v": "e0", "subset": ["extra"]},
    ]


def test_fixed_fusion_splits_are_those_of_the_subsets_and_per_split_caps():
    fusion = FixedFusion(subsets={"p": IterableSource({"train": rows("p", 4)}),
                                  "q": IterableSource({"test": rows("q", 4)})},
                         max_instances_per_split={"train": 1})
    result = fusion()
    assert sorted(result) == ["test", "train"]
    assert [row["v"] for row in result["train"]] == ["p0"]
    assert [row["v"] for row in result["test"]] == ["q0", "q1", "q2", "q3"]


def test_list_subsets_add_no_subset_tag():
    fusion = FixedFusion(subsets=[IterableSource({"test": rows("x", 1)})])
    assert list(fusion()["test"]) == [{"v": "x0"}]


def test_weighted_fusion_draws_with_the_seeded_generator_and_stops_at_the_total():
    fusion = WeightedFusion(subsets={"p": IterableSource({"test": rows("p", 5)}),
                                     "q": IterableSource({"test": rows("q", 5)})},
                            weights={"p": 3, "q": 1}, max_total_samples=4)
    drawn = [row["subset"][0] for row in fusion()["test"]]
    generator = random.Random("42/weighted_fusion_test")  # the original's seeding: "<seed>/weighted_fusion_<split>"
    expected = [generator.choices(population=["p", "q"], weights=[3.0, 1.0])[0] for _ in range(4)]
    assert drawn == expected
    assert len(list(fusion()["test"])) == 4


def test_weighted_fusion_uses_every_row_without_a_total():
    fusion = WeightedFusion(subsets={"p": IterableSource({"test": rows("p", 3)}),
                                     "q": IterableSource({"test": rows("q", 2)})}, weights={"p": 1, "q": 1})
    assert sorted(row["v"] for row in fusion()["test"]) == ["p0", "p1", "p2", "q0", "q1"]


def test_weighted_fusion_needs_matching_weights():
    with pytest.raises(UnitxtError, match="weights"):
        WeightedFusion(subsets={"p": IterableSource({"test": []})}, weights={"other": 1})


def test_check_operator_runs_a_source_when_inputs_is_none():
    source = FixedFusion(subsets={"only": IterableSource({"test": rows("o", 2)})})
    assert check_operator(source, inputs=None, targets=[{"v": "o0", "subset": ["only"]},
                                                          {"v": "o1", "subset": ["only"]}])
