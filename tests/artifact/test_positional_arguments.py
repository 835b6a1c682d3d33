"""Artifacts take positional arguments as the original's dataclasses do: every field in declaration order except
the non-positional ones (base-class bookkeeping such as data_classification_policy, apply_to_streams, a template's
instruction/postprocessors), so catalog-building code written for the original (`Set({...})`,
`SplitRandomMix({...})`) builds the same artifact as with keywords."""

import pytest

from unitxt.artifact import Artifact, NonPositionalField
from unitxt.benchmark import Benchmark
from unitxt.errors import UnitxtError
from unitxt.operators import MapInstanceValues, Set
from unitxt.splitters import RenameSplits, SplitRandomMix


def test_first_positional_argument_is_the_first_own_field():
    assert Set({"a": 1}).to_dict() == Set(fields={"a": 1}).to_dict()
    assert SplitRandomMix({"train": "train[90%]"}).mix == {"train": "train[90%]"}
    assert RenameSplits({"validation": "test"}).to_dict() == RenameSplits(mapper={"validation": "test"}).to_dict()
    assert MapInstanceValues({"label": {"0": "no"}}).mappers == {"label": {"0": "no"}}


def test_base_bookkeeping_fields_are_never_positional():
    for name in ("data_classification_policy", "apply_to_streams", "dont_apply_to_streams"):
        assert name not in Set.positional_fields()
    assert Set.positional_fields()[0] == "fields"
    assert Benchmark.positional_fields()[0] == "subsets"
    assert "format" not in Benchmark.positional_fields() and "num_demos" not in Benchmark.positional_fields()


def test_positional_and_keyword_for_the_same_field_is_refused():
    with pytest.raises(UnitxtError, match="given twice"):
        Set({"a": 1}, fields={"b": 2})


def test_too_many_positional_arguments_name_the_positional_fields():
    class Pair(Artifact):
        first: int = 0
        second: int = 0
        hidden: int = NonPositionalField(default=0)

    assert Pair(1, 2).to_dict() == {"__type__": "pair", "first": 1, "second": 2}
    with pytest.raises(UnitxtError, match=r"at most 2 positional argument\(s\) \(first, second\)"):
        Pair(1, 2, 3)
