"""Built-in operators and every code example of adding_operator.rst."""

from typing import Any, Dict, Generator, List, Optional

import pytest

from unitxt.errors import MissingFieldError, SandboxError, UnitxtError
from unitxt.operator import FieldOperator, InstanceOperator, MultiStreamOperator, SequentialOperator, StreamOperator
from unitxt.operators import (
    AddID,
    Cast,
    CollateInstances,
    Copy,
    Deduplicate,
    DuplicateInstances,
    ExecuteExpression,
    Explode,
    FilterByCondition,
    FilterByExpression,
    ListFieldValues,
    LiteralEval,
    MapInstanceValues,
    MergeStreams,
    Rename,
    Set,
    Shuffle,
    StreamRefiner,
    Wrap,
)
from unitxt.stream import GeneratorStream, ListStream, MultiStream, Stream
from unitxt.test_utils.operators import check_operator


# ---------------------------------------------------------------- adding_operator.rst examples
class AddNumber(FieldOperator):
    number: float

    def process(self, value):
        return value + self.number


def test_doc_field_operator_example():
    operator = AddNumber(number=5, field="price", to_field="new_price")
    assert operator.process_instance({"price": 0.5}) == {"price": 0.5, "new_price": 5.5}


class Join(InstanceOperator):
    __type_name__ = "doc_example_join"  # keeps the built-in `join` type (operators_fields.Join) registered

    fields: List[str]
    separator: str = ""
    to_field: str

    def process(self, instance: Dict[str, Any], stream_name: str = None) -> Dict[str, Any]:
        instance[self.to_field] = self.separator.join([instance[field] for field in self.fields])
        return instance


def test_doc_instance_operator_example():
    operator = Join(fields=["title", "text"], separator="\n", to_field="context")
    assert operator.process_instance({"title": "Hello!", "text": "World!"}) == {
        "title": "Hello!",
        "text": "World!",
        "context": "Hello!\nWorld!",
    }


class LimitSize(StreamOperator):
    size: int

    def process(self, stream: Stream, stream_name: Optional[str] = None) -> Generator:
        for i, instance in enumerate(stream):
            if i > self.size:
                break
            yield instance


def test_doc_stream_operator_example():
    multi_stream = MultiStream({"test": ListStream([{"x": i} for i in range(10)])})
    limited = LimitSize(size=3)(multi_stream)
    assert [instance["x"] for instance in limited["test"]] == [0, 1, 2, 3]


class MergeAllStreams(MultiStreamOperator):
    def merge(self, streams) -> Generator:
        for stream in streams:
            for instance in stream:
                yield instance

    def process(self, multi_stream: MultiStream) -> MultiStream:
        return MultiStream({"merged": GeneratorStream(self.merge, gen_kwargs={"streams": multi_stream.values()})})


def test_doc_multistream_operator_example():
    multi_stream = MultiStream({"train": ListStream([{"x": 1}]), "test": ListStream([{"x": 2}, {"x": 3}])})
    merged = MergeAllStreams()(multi_stream)
    assert list(merged) == ["merged"]
    assert [instance["x"] for instance in merged["merged"]] == [1, 2, 3]


def test_doc_check_operator_example():
    operator = AddNumber(number=2, field="price", to_field="new_price")
    inputs = [{"price": 100}, {"price": 150}]
    targets = [{"price": 100, "new_price": 102}, {"price": 150, "new_price": 152}]
    assert check_operator(operator, inputs, targets) == targets  # the outputs, as the original returns
    with pytest.raises(AssertionError, match="differs"):
        check_operator(operator, inputs, [{"price": 100, "new_price": 0}, targets[1]])


def test_doc_expression_operators():
    assert ExecuteExpression('question + "?"', to_field="question").process_instance({"question": "why"}) == {
        "question": "why?"
    }
    kept = FilterByExpression("len(question) == 0", error_on_filtered_all=False).process_instances(
        [{"question": ""}, {"question": "a"}]
    )
    assert kept == [{"question": ""}]


# ---------------------------------------------------------------- built-ins
def test_copy_paths_and_deep_copy():
    instance = {"translation": {"en": "hi", "de": "hallo"}, "tags": [1, 2]}
    out = Copy(field_to_field={"translation/en": "text", "translation/de": "target", "tags": "tags2"}).process_instance(
        instance
    )
    assert out["text"] == "hi" and out["target"] == "hallo"
    out["tags2"].append(3)
    assert out["tags"] == [1, 2]
    assert Copy(field="answer/0", to_field="first").process_instance({"answer": ["a", "b"]})["first"] == "a"


def test_set_rename_and_nested_set():
    out = Set(fields={"source_language": "english", "meta/split": "x"}).process_instance({"a": 1})
    assert out == {"a": 1, "source_language": "english", "meta": {"split": "x"}}
    assert Rename(field_to_field={"a": "b"}).process_instance({"a": 1, "c": 2}) == {"c": 2, "b": 1}
    assert Rename(field="x/y", to_field="z").process_instance({"x": {"y": 1, "w": 2}}) == {"x": {"w": 2}, "z": 1}


def test_streamed_rename_equals_per_instance_rename_and_errors_name_the_missing_field():
    """Streaming runs Rename's top-level fast path; an instance lacking a source takes the general path, so the
    rows and the errors are those of process_instance."""
    def streamed(operator, rows):
        return list(operator(MultiStream({"test": [dict(row) for row in rows]}))["test"])

    rows = [{"a": 1, "b": 2, "c": 3}, {"a": [1], "b": None, "z": 0}]
    plain = Rename(field_to_field={"a": "x", "b": "y"})
    assert streamed(plain, rows) == [plain.process_instance(dict(row)) for row in rows] == [
        {"c": 3, "x": 1, "y": 2}, {"z": 0, "x": [1], "y": None}]
    lenient = Rename(field_to_field={"a": "x", "q": "r"}, not_exist_ok=True)
    assert streamed(lenient, [{"a": 1}]) == [lenient.process_instance({"a": 1})]
    with pytest.raises(UnitxtError) as info:
        streamed(Rename(field_to_field={"a": "x", "missing": "y"}), [{"a": 1, "b": 2}])
    assert "missing" in str(info.value) and "instance 0" in str(info.value)


def test_streamed_set_equals_per_instance_set_with_key_order_and_fresh_copies():
    """Streaming runs Set's plain-key path (one update, then copies of mutable values): the rows, their key order
    and the copies (never the operator's own list or dict, nor shared between rows) are process_instance's."""
    fields = {"b": [1, {"x": 2}], "a": "text", "c": {"k": ["v"]}, "n": None, "l": ["p", "q"]}
    operator = Set(fields=fields)
    rows = [{"a": 0, "z": 1}, {"z": 2}, {}]
    streamed = list(operator(MultiStream({"test": [dict(row) for row in rows]}))["test"])
    expected = [operator.process_instance(dict(row)) for row in rows]
    assert streamed == expected and [list(row) for row in streamed] == [list(row) for row in expected]
    assert list(streamed[0]) == ["a", "z", "b", "c", "n", "l"] and list(streamed[1]) == ["z", "b", "a", "c", "n", "l"]
    streamed[0]["b"][1]["x"] = 99
    streamed[0]["l"].append("r")
    streamed[0]["c"]["k"].append("w")
    assert fields == {"b": [1, {"x": 2}], "a": "text", "c": {"k": ["v"]}, "n": None, "l": ["p", "q"]}
    assert streamed[1]["b"] == [1, {"x": 2}] and streamed[1]["l"] == ["p", "q"] and streamed[1]["c"] == {"k": ["v"]}


def test_map_instance_values_strict_and_lists():
    mapper = MapInstanceValues(mappers={"label": {"0": "negative", "1": "positive"}})
    assert mapper.process_instance({"label": 1}) == {"label": "positive"}
    with pytest.raises(UnitxtError, match="is not found in mapper"):
        mapper.process_instance({"label": 7})
    lenient = MapInstanceValues(mappers={"label": {"0": "negative"}}, strict=False)
    assert lenient.process_instance({"label": 7}) == {"label": 7}
    listed = MapInstanceValues(mappers={"labels": {"0": "a", "1": "b"}}, process_every_value=True)
    assert listed.process_instance({"labels": [1, 0]}) == {"labels": ["b", "a"]}


@pytest.mark.parametrize(
    "condition,values,expected",
    [
        ("eq", {"x": 2}, [2]),
        ("ne", {"x": 2}, [1, 3]),
        ("gt", {"x": 1}, [2, 3]),
        ("ge", {"x": 2}, [2, 3]),
        ("lt", {"x": 2}, [1]),
        ("le", {"x": 2}, [1, 2]),
        ("in", {"x": [1, 3]}, [1, 3]),
        ("not in", {"x": [1, 3]}, [2]),
    ],
)
def test_filter_by_condition(condition, values, expected):
    kept = FilterByCondition(values=values, condition=condition).process_instances([{"x": 1}, {"x": 2}, {"x": 3}])
    assert [instance["x"] for instance in kept] == expected


def test_filter_by_condition_errors():
    with pytest.raises(UnitxtError, match="Unknown condition"):
        FilterByCondition(values={"x": 1}, condition="approx")
    with pytest.raises(UnitxtError, match="filtered out every instance"):
        FilterByCondition(values={"x": 9}, condition="eq").process_instances([{"x": 1}])


def test_list_literal_wrap_cast():
    assert ListFieldValues(fields=["a", "b"], to_field="ab").process_instance({"a": 1, "b": 2})["ab"] == [1, 2]
    assert LiteralEval(field="x").process_instance({"x": "[1, {'a': 2}]"}) == {"x": [1, {"a": 2}]}
    with pytest.raises(UnitxtError, match="as a Python literal"):
        LiteralEval(field="x").process_instance({"x": "__import__('os')"})
    assert Wrap(field="x", inside="list").process_instance({"x": 1}) == {"x": [1]}
    assert Cast(field="x", to="int").process_instance({"x": "3"}) == {"x": 3}
    assert Cast(field="x", to="float", failure_default=-1.0).process_instance({"x": "n/a"}) == {"x": -1.0}
    with pytest.raises(UnitxtError, match="Can not cast"):
        Cast(field="x", to="int").process_instance({"x": "three"})


def test_explode_collate_duplicate():
    exploded = Explode(field="items", to_field="item").process_instances([{"items": [1, 2], "k": "a"}])
    assert [(i["item"], i["k"]) for i in exploded] == [(1, "a"), (2, "a")]
    collated = CollateInstances(batch_size=2).process_instances([{"a": 1}, {"a": 2}, {"a": 3}])
    assert collated == [{"a": [1, 2]}, {"a": [3]}]
    duplicated = DuplicateInstances(num_duplications=2, duplication_index_field="copy").process_instances([{"a": 1}])
    assert duplicated == [{"a": 1, "copy": 0}, {"a": 1, "copy": 1}]


def test_deduplicate_shuffle_refiner_addid():
    data = [{"a": i % 3, "b": "x"} for i in range(9)]
    assert [i["a"] for i in Deduplicate(by=["a", "b"]).process_instances(data)] == [0, 1, 2]
    items = [{"i": i} for i in range(50)]
    first = [i["i"] for i in Shuffle(page_size=100).process_instances(items)]
    second = [i["i"] for i in Shuffle(page_size=100).process_instances(items)]
    assert first == second and sorted(first) == list(range(50)) and first != list(range(50))
    assert len(StreamRefiner(max_instances=5).process_instances(items)) == 5
    assert [i["id"] for i in AddID().process_instances([{}, {}], stream_name="train")] == ["train-0", "train-1"]


def test_apply_to_streams_and_sequential():
    multi_stream = MultiStream({"train": ListStream([{"x": 1}]), "test": ListStream([{"x": 1}])})
    pipeline = SequentialOperator(
        steps=[Set(fields={"y": 2}, apply_to_streams=["train"]), Copy(field="x", to_field="z", dont_apply_to_streams=["train"])]
    )
    result = pipeline(multi_stream)
    assert list(result["train"]) == [{"x": 1, "y": 2}]
    assert list(result["test"]) == [{"x": 1, "z": 1}]
    assert list(result["train"]) == [{"x": 1, "y": 2}]  # re-iterable, sources are not mutated


def test_merge_streams_operator():
    multi_stream = MultiStream({"a": ListStream([{"x": 1}]), "b": ListStream([{"x": 2}])})
    merged = MergeStreams()(multi_stream)
    assert list(merged["all"]) == [{"x": 1, "origin": "a"}, {"x": 2, "origin": "b"}]


def test_missing_field_error_names_operator_stage_and_field():
    with pytest.raises(MissingFieldError) as info:
        Copy(field="missing", to_field="x").process_instance({"present": 1}, stream_name="train")
    message = str(info.value)
    assert "missing" in message and "Copy" in message and "train" in message and "present" in message


def test_user_operator_errors_are_wrapped_with_context():
    class Explodes(InstanceOperator):
        def process(self, instance, stream_name=None):
            raise ValueError("boom")

    with pytest.raises(UnitxtError, match="boom") as info:
        Explodes().process_instance({"a": 1})
    assert "Explodes" in str(info.value) and isinstance(info.value.__cause__, ValueError)


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os').system('echo hacked')",
        "().__class__.__bases__[0].__subclasses__()",
        "open('/etc/passwd').read()",
        "(lambda: 1)()",
        "[c for c in ().__class__.__mro__]",
        "question.__class__",
        "getattr(question, '__class__')",
        "eval('1+1')",
    ],
)
def test_expression_sandbox_escapes_are_refused(expression, tmp_path):
    with pytest.raises(SandboxError):
        ExecuteExpression(expression, to_field="x").process_instance({"question": "q"})


def test_error_naming_its_artifact_keeps_its_text_and_the_artifact_field():
    class Strict(MultiStreamOperator):
        def process(self, multi_stream):
            raise UnitxtError("Strict refuses every instance.")

    class Quiet(MultiStreamOperator):
        def process(self, multi_stream):
            raise UnitxtError("nothing accepted.")

    with pytest.raises(UnitxtError) as named:
        Strict()(MultiStream({"test": [{"a": 1}]}))
    assert str(named.value) == "Strict refuses every instance." and named.value.artifact == "Strict"
    with pytest.raises(UnitxtError) as unnamed:
        Quiet()(MultiStream({"test": [{"a": 1}]}))
    assert str(unnamed.value).startswith("[artifact 'Quiet'") and unnamed.value.artifact == "Quiet"
