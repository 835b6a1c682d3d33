"""Stream operators of the original catalog format (operators_streams)."""

import json

import pytest

from unitxt.artifact import from_serializable
from unitxt.errors import UnitxtError
from unitxt.operators.splits_and_streams import (
    AddIncrementalId,
    Apply,
    DeleteSplits,
    DeterministicBalancer,
    DuplicateByList,
    DuplicateBySubLists,
    DuplicateSplit,
    ExtractFieldValues,
    ExtractMostCommonFieldValues,
    FilterByConditionBasedOnFields,
    JoinStreams,
    LengthBalancer,
    MinimumOneExamplePerLabelRefiner,
)
from unitxt.stream import ListStream, MultiStream


def streams(**splits):
    return MultiStream({name: ListStream(rows) for name, rows in splits.items()})


def test_join_streams_inner_left_and_suffixes():
    questions = [{"id": 1, "q": "a", "x": "L1"}, {"id": 2, "q": "b", "x": "L2"}, {"id": 3, "q": "c", "x": "L3"}]
    answers = [{"id": 2, "ans": "B", "x": "R2"}, {"id": 1, "ans": "A", "x": "R1"}, {"id": 1, "ans": "A2", "x": "R1b"}]
    joined = JoinStreams(left_stream="questions", right_stream="answers", how="inner", on="id",
                         new_stream_name="test")(streams(questions=questions, answers=answers))
    assert list(joined["test"]) == [
        {"id": 1, "q": "a", "x_x": "L1", "ans": "A", "x_y": "R1"},
        {"id": 1, "q": "a", "x_x": "L1", "ans": "A2", "x_y": "R1b"},
        {"id": 2, "q": "b", "x_x": "L2", "ans": "B", "x_y": "R2"},
    ]
    assert sorted(joined) == ["answers", "questions", "test"]
    left = JoinStreams(left_stream="questions", right_stream="answers", how="left", on=["id"],
                       new_stream_name="test")(streams(questions=questions, answers=answers))
    assert list(left["test"])[-1] == {"id": 3, "q": "c", "x_x": "L3", "ans": None, "x_y": None}


def test_join_streams_keeps_one_policy_and_refuses_empty_results():
    left = [{"k": 1, "a": 1, "data_classification_policy": ["public"]}]
    right = [{"k": 1, "b": 2, "data_classification_policy": ["public"]}]
    joined = JoinStreams(left_stream="l", right_stream="r", how="inner", on=["k"], new_stream_name="j")(
        streams(l=left, r=right))
    assert list(joined["j"]) == [{"k": 1, "a": 1, "data_classification_policy": ["public"], "b": 2}]
    with pytest.raises(UnitxtError, match="JoinStreams resulted in an empty stream"):  # at the call, as the original
        JoinStreams(left_stream="l", right_stream="r", how="inner", on=["k"], new_stream_name="j")(
            streams(l=left, r=[{"k": 2, "b": 0}]))


def test_split_operators():
    multi = streams(train=[{"a": 1}], test=[{"a": 2}], extra=[{"a": 3}])
    assert sorted(DeleteSplits(splits=["extra", "train"])(multi)) == ["test"]
    duplicated = DuplicateSplit(split="test", to_split="game_2")(multi)
    copy = list(duplicated["game_2"])
    copy[0]["a"] = 99
    assert list(duplicated["test"]) == [{"a": 2}] and list(duplicated["game_2"]) == [{"a": 2}]


def test_incremental_id_and_duplications():
    assert [r["n"] for r in AddIncrementalId(to_field="n").process_instances([{}, {}, {}])] == [0, 1, 2]
    by_list = DuplicateByList(field="options", to_field="text").process_instances([{"options": ["x", "y"]}])
    assert [row["text"] for row in by_list] == ["x", "y"]
    prefixes = DuplicateBySubLists(field="dialog", to_field="sub").process_instances([{"dialog": [1, 2, 3]}])
    assert [row["sub"] for row in prefixes] == [[1], [1, 2], [1, 2, 3]]
    trimmed = DuplicateBySubLists(field="dialog", end=-1, step=2).process_instances([{"dialog": [1, 2, 3, 4]}])
    assert [row["dialog"] for row in trimmed] == [[1], [1, 2, 3]]


def test_balancers():
    rows = [{"label": label, "i": i} for i, label in enumerate("aaabbc")]
    balanced = DeterministicBalancer(fields=["label"]).process_instances(rows)
    assert [row["i"] for row in balanced] == [0, 3, 5]
    capped = DeterministicBalancer(fields=["label"], max_instances=2).process_instances(rows)
    assert capped == []  # 2 // 3 labels = 0 per label
    lengths = [{"labels": []}, {"labels": ["x"]}, {"labels": ["x", "y"]}, {"labels": []}, {"labels": []}]
    by_length = LengthBalancer(fields=["labels"], segments_boundaries=[1]).process_instances(lengths)
    assert [len(row["labels"]) for row in by_length] == [0, 1, 2, 0]


def test_minimum_one_example_per_label():
    rows = [{"label": "a", "i": i} for i in range(5)] + [{"label": "b", "i": 5}]
    refined = MinimumOneExamplePerLabelRefiner(fields=["label"], max_instances=3).process_instances(rows)
    assert sorted(row["i"] for row in refined) == [0, 1, 5]
    with pytest.raises(UnitxtError, match="smaller than the number of distinct labels"):
        MinimumOneExamplePerLabelRefiner(fields=["label"], max_instances=1).process_instances(rows)


def test_filter_by_condition_based_on_fields():
    rows = [{"a": "x", "b": "x"}, {"a": "x", "b": "y"}]
    kept = FilterByConditionBasedOnFields(values={"a": "b"}, condition="eq").process_instances(rows)
    assert kept == [{"a": "x", "b": "x"}]


def test_extract_field_values_sets_the_values_of_a_split_on_every_split():
    multi = streams(train=[{"label": "b"}, {"label": "a"}, {"label": "b"}], test=[{"label": "z"}])
    result = ExtractFieldValues(field="label", stream_name="train", to_field="classes")(multi)
    assert [row["classes"] for row in result["test"]] == [["b", "a"]]
    common = ExtractMostCommonFieldValues(field="labels", stream_name="train", to_field="top",
                                          process_every_value=True, min_frequency_percent=30)(
        streams(train=[{"labels": ["a", "b"]}, {"labels": ["a"]}, {"labels": ["c", "a"]}]))
    assert list(common["train"])[0]["top"] == ["a"]


def test_apply_whitelisted_functions_from_catalog_json():
    operator = from_serializable({"__type__": "apply", "function": "str.lower", "to_field": "model_id",
                                  "_argv": ["model_1"]})
    assert operator.process_instance({"model_1": "GPT"})["model_id"] == "gpt"
    assert operator.to_dict()["_argv"] == ("model_1",)  # a tuple, as the original; JSON writes it as a list
    assert json.loads(operator.to_json())["_argv"] == ["model_1"]
    loads = Apply("text", function="json.loads", to_field="data")
    assert loads.process_instance({"text": '{"a": 1}'})["data"] == {"a": 1}
    with pytest.raises(UnitxtError, match="not one of the allowed functions"):
        Apply("text", function="os.system", to_field="x")
