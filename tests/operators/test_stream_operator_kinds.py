"""The original's other stream operator kinds (unitxt.operator names), subclassed the original's way: initializers
take call arguments, sequences honour max_steps, reducers give one value per stream, validators check the first
result, side-effect operators pass the streams through."""

import os
import zipfile

import pytest

from unitxt.operator import (InstanceOperatorValidator, InstanceOperatorWithMultiStreamAccess, SequentialOperator,
                             SequentialOperatorInitializer, SingleStreamReducer, SourceOperator,
                             SourceSequentialOperator, StreamInitializerOperator)
from unitxt.operators import ExtractZipFile, Set
from unitxt.stream import MultiStream


class Numbers(StreamInitializerOperator):
    def process(self, n, prefix="x"):
        return MultiStream.from_iterables({"train": [{"a": f"{prefix}{i}"} for i in range(n)], "test": [{"a": "t"}]})


class Pair(SourceOperator):
    def process(self):
        return MultiStream.from_iterables({"train": [{"a": 1}, {"a": 2}]})


def _lists(multi_stream):
    return {name: list(stream) for name, stream in multi_stream.items()}


def test_initializer_sequence_passes_call_arguments_and_stops_at_max_steps():
    sequence = SequentialOperatorInitializer(steps=[Numbers(), Set(fields={"b": 2}), Set(fields={"c": 3})],
                                             max_steps=2)
    assert _lists(sequence(2, prefix="p")) == {"train": [{"a": "p0", "b": 2}, {"a": "p1", "b": 2}],
                                               "test": [{"a": "t", "b": 2}]}
    with pytest.raises(Exception, match="must be a StreamInitializerOperator"):
        SequentialOperatorInitializer(steps=[Set(fields={"b": 2})])(1)


def test_source_sequence_and_max_steps_of_sequential_operator():
    source = SourceSequentialOperator(steps=[Pair(), Set(fields={"b": 2})])
    assert _lists(source()) == {"train": [{"a": 1, "b": 2}, {"a": 2, "b": 2}]}
    assert (source.num_steps(), source._get_max_steps()) == (2, 2)
    sequence = SequentialOperator(steps=[Set(fields={"b": 2}), Set(fields={"c": 3})])
    sequence.set_max_steps(1)
    assert _lists(sequence(Numbers()(1))) == {"train": [{"a": "x0", "b": 2}], "test": [{"a": "t", "b": 2}]}
    with pytest.raises(Exception, match="Max steps requested"):
        sequence.set_max_steps(5)


def test_reducer_validator_and_multi_stream_access():
    class Count(SingleStreamReducer):
        def process(self, stream):
            return len(list(stream))

    class Mark(InstanceOperatorValidator):
        def process(self, instance, stream_name=None):
            return {**instance, "v": 1}

        def validate(self, instance, stream_name=None):
            if "v" not in instance:
                raise ValueError("unmarked")

    class CountTest(InstanceOperatorWithMultiStreamAccess):
        def process(self, instance, multi_stream):
            return {**instance, "n_test": len(list(multi_stream["test"]))}

    assert Count()(Numbers()(4)) == {"train": 4, "test": 1}
    assert _lists(Mark()(Numbers()(1))) == {"train": [{"a": "x0", "v": 1}], "test": [{"a": "t", "v": 1}]}
    with pytest.raises(Exception, match="is empty"):
        list(Mark()(MultiStream.from_iterables({"train": []}))["train"])
    assert _lists(CountTest()(Numbers()(2)))["train"] == [{"a": "x0", "n_test": 1}, {"a": "x1", "n_test": 1}]


def test_extract_zip_file_runs_once_per_call_and_passes_streams_on(tmp_path):
    archive = tmp_path / "data.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("folder/a.txt", "hello")
    streams = Numbers()(1)
    assert ExtractZipFile(zip_file=str(archive), target_dir=str(tmp_path / "out"))(streams) is streams
    assert (tmp_path / "out" / "folder" / "a.txt").read_text() == "hello"
    assert os.listdir(tmp_path / "out") == ["folder"]


def test_split_by_nested_group_splits_by_the_leading_fusion_origins():
    from unitxt.operators import SplitByNestedGroup

    data = MultiStream.from_iterables({"test": [{"group": "a/b", "v": 1}, {"group": "a/c", "v": 2},
                                                {"group": "b", "v": 3}]})

    def values(generations):
        return {name: [row["v"] for row in stream]
                for name, stream in SplitByNestedGroup(number_of_fusion_generations=generations)(data).items()}

    assert values(1) == {"test~a": [1, 2], "test~b": [3]}
    assert values(2) == values(-1) == {"test~a/b": [1], "test~a/c": [2], "test~b": [3]}
    with pytest.raises(Exception, match="Field group is missing"):
        _lists(SplitByNestedGroup()(MultiStream.from_iterables({"test": [{"v": 1}]})))


def test_lazy_loader_reads_only_the_splits_asked_for():
    from unitxt.benchmark import BaseBenchmark
    from unitxt.loaders import LazyLoader

    read = []

    class Counting(LazyLoader):
        def get_splits(self):
            return ["train", "test"]

        def split_generator(self, split):
            read.append(split)
            for i in range(3):
                yield {"x": f"{split}{i}"}

    streams = Counting()()
    assert read == [] and list(streams) == ["train", "test"]
    assert [row["x"] for row in streams["test"]] == ["test0", "test1", "test2"] and read == ["test"]
    assert list(Counting(split="train")()) == ["train"]
    assert BaseBenchmark.get_fields()["splits"].default() == ["train", "validation", "test"]


def test_compute_expression_mixin_evaluates_in_the_sandbox():
    from unitxt.operator import InstanceOperator
    from unitxt.operators import ComputeExpressionMixin

    class Doubled(InstanceOperator, ComputeExpressionMixin):
        def process(self, instance, stream_name=None):
            return {**instance, "result": self.compute_expression(instance)}

    assert Doubled(expression="2 * a + len(b)").process_instance({"a": 3, "b": "xy"})["result"] == 8
    assert Doubled(expression="math.floor(a)", imports_list=["math"]).process_instance({"a": 2.7})["result"] == 2
    with pytest.raises(Exception, match="refused"):
        Doubled(expression="a", imports_list=["os"])
    with pytest.raises(Exception):
        Doubled(expression="__import__('os')").process_instance({})
