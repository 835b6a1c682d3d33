import pytest

from unitxt.errors import UnitxtError
from unitxt.splitters import RenameSplits, SplitRandomMix, parse_split_spec
from unitxt.stream import ListStream, MultiStream


def _multi(**sizes):
    return MultiStream({name: ListStream([{"split": name, "i": i} for i in range(size)]) for name, size in sizes.items()})


def test_rename_splits():
    result = RenameSplits(mapper={"validation": "test"})(_multi(train=2, validation=3))
    assert sorted(result) == ["test", "train"]
    assert len(list(result["test"])) == 3
    with pytest.raises(UnitxtError, match="missing split"):
        RenameSplits(mapper={"dev": "test"})(_multi(train=1))


def test_a_renamed_split_replaces_an_unmapped_split_of_its_new_name():
    """As the original (the lmms-eval DocVQA cards): validation renamed to test replaces the unlabeled test split;
    splits may also swap names."""
    result = RenameSplits(mapper={"validation": "test"})(_multi(train=2, validation=3, test=5))
    assert sorted(result) == ["test", "train"]
    assert [row["split"] for row in result["test"]] == ["validation"] * 3
    swapped = RenameSplits(mapper={"validation": "test", "test": "validation"})(_multi(validation=3, test=5))
    assert [len(list(swapped[name])) for name in ("test", "validation")] == [3, 5]


def test_split_random_mix_is_disjoint_complete_and_deterministic():
    mix = SplitRandomMix(mix={"train": "train[90%]", "validation": "train[10%]", "test": "validation"})
    result = mix(_multi(train=200, validation=7))
    train = [row["i"] for row in result["train"]]
    validation = [row["i"] for row in result["validation"]]
    assert len(train) == 180 and len(validation) == 20
    assert set(train).isdisjoint(validation) and sorted(train + validation) == list(range(200))
    assert [row["split"] for row in result["test"]] == ["validation"] * 7
    again = SplitRandomMix(mix={"train": "train[90%]", "validation": "train[10%]", "test": "validation"})(
        _multi(train=200, validation=7)
    )
    assert [row["i"] for row in again["validation"]] == validation
    other_seed = SplitRandomMix(mix={"train": "train[90%]", "validation": "train[10%]"}, seed=7)(_multi(train=200))
    assert [row["i"] for row in other_seed["validation"]] != validation


def test_split_random_mix_counts_and_concatenation():
    result = SplitRandomMix(mix={"test": "train[5]+validation", "train": "train[10]"})(_multi(train=30, validation=2))
    test = list(result["test"])
    assert len(test) == 7 and sum(row["split"] == "validation" for row in test) == 2
    assert len(list(result["train"])) == 10


def test_split_random_mix_errors():
    with pytest.raises(UnitxtError, match="asks for 40"):
        list(SplitRandomMix(mix={"a": "train[20]", "b": "train[20]"})(_multi(train=30))["a"])
    with pytest.raises(UnitxtError, match="missing split"):
        SplitRandomMix(mix={"a": "dev[10%]"})(_multi(train=3))
    with pytest.raises(UnitxtError, match="Invalid split specification"):
        parse_split_spec("train[ten%]")


def test_a_decimal_amount_is_a_fraction_as_the_original_reads_it():
    assert parse_split_spec("test[0.6]") == [("test", 60.0, True)]
    assert parse_split_spec("test[6]") == [("test", 6.0, False)]  # a whole number stays a count of instances
    result = SplitRandomMix(mix={"train": "test[0.6]", "validation": "test[0.2]", "test": "test[0.2]"})(_multi(test=50))
    sizes = {name: len(list(stream)) for name, stream in result.items()}
    assert sizes == {"train": 30, "validation": 10, "test": 10}
