"""Operators subclassed the original's way (overriding one of its public methods with the original's signature) run
here with the override in effect, and the methods programs call give the original's results on real inputs."""

import pytest

from unitxt.dialog_operators import SerializeDialog, SerializeOpenAiFormatDialog
from unitxt.errors import UnitxtError
from unitxt.formats import SystemFormat
from unitxt.operator import OperatorError
from unitxt.operators import (FeatureGroupedShuffle, FixJsonSchemaOfParameterTypes, InstanceFieldOperator,
                              MapInstanceValues, MergeStreams, MinimumOneExamplePerLabelRefiner, Rename)
from unitxt.stream import MultiStream
from unitxt.stream_operators import JoinStreams
from unitxt.struct_data_operators import MapHTMLTableToJSON, MapTableListsToStdTableJSON, TruncateTableCells
from unitxt.test_utils.operators import apply_operator


def test_feature_grouped_shuffle_calls_shuffle_by_grouping_features():
    class KeepBlocksInOrder(FeatureGroupedShuffle):
        def shuffle_by_grouping_features(self, page):
            return sorted(page, key=lambda item: (item["g"], -item["i"]))

    rows = [{"g": g, "i": i} for i, g in enumerate("babab")]
    out = apply_operator(KeepBlocksInOrder(grouping_features=["g"], page_size=10), rows)
    assert [(row["g"], row["i"]) for row in out] == [("a", 3), ("a", 1), ("b", 4), ("b", 2), ("b", 0)]


def test_feature_grouped_shuffle_keeps_blocks_together():
    rows = [{"g": g, "i": i} for i, g in enumerate("abcabcabc")]
    out = apply_operator(FeatureGroupedShuffle(grouping_features=["g"], page_size=100), rows)
    groups = [row["g"] for row in out]
    assert sorted(row["i"] for row in out) == list(range(9))
    assert all(groups[k] == groups[k + 1] for k in (0, 1, 3, 4, 6, 7))  # three blocks of three


def test_fix_json_schema_type_hooks():
    operator = FixJsonSchemaOfParameterTypes(main_field="tools")
    assert operator.type_str_to_jsonschema_dict("List[int]") == {"type": "array", "items": {"type": "integer"}}
    assert operator.type_str_to_jsonschema_dict("str, optional") == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert operator.type_str_to_jsonschema_dict("int, default=3") == {"type": "integer", "default": "3"}
    assert operator.type_str_to_jsonschema_dict("Union[int, str]") == {"anyOf": [{"type": "integer"},
                                                                                 {"type": "string"}]}

    class Annotated(FixJsonSchemaOfParameterTypes):
        def dict_type_of(self, type_str):
            return {"type": type_str, "x-origin": "fixed"}

    tools = {"a": {"type": "List[int]"}, "b": [{"type": "bool"}]}
    out = Annotated(main_field="tools").process({"tools": tools})["tools"]
    assert out == {"a": {"type": "array", "x-origin": "fixed", "items": {"type": "integer", "x-origin": "fixed"}},
                   "b": [{"type": "boolean", "x-origin": "fixed"}]}


def test_recursive_trace_for_type_fields_rewrites_in_place():
    tree = {"params": {"properties": {"n": {"type": "float"}, "names": {"type": "List[str]"}}}}
    FixJsonSchemaOfParameterTypes(main_field="x").recursive_trace_for_type_fields(tree)
    assert tree == {"params": {"properties": {"n": {"type": "number"},
                                              "names": {"type": "array", "items": {"type": "string"}}}}}


def test_verify_field_definition_sets_what_the_operator_works_on():
    class BothWays(Rename):
        def verify_field_definition(self):
            super().verify_field_definition()
            self._pairs.append(["b", "c"])  # one more move than declared

    out = apply_operator(BothWays(field="a", to_field="b"), [{"a": 1}])
    assert out == [{"c": 1}]
    assert issubclass(Rename, InstanceFieldOperator)


def test_map_instance_values_get_mapped_value():
    class Lenient(MapInstanceValues):
        def get_mapped_value(self, instance, key, mapper, val):
            return mapper.get(str(val), f"{key}:{val}:{instance['id']}")

    out = apply_operator(Lenient(mappers={"label": {"1": "yes"}}), [{"id": 7, "label": 1}, {"id": 8, "label": 5}])
    assert [row["label"] for row in out] == ["yes", "label:5:8"]


def test_merge_streams_merge():
    class OnlyEven(MergeStreams):
        def merge(self, multi_stream):
            return (row for row in super().merge(multi_stream) if row["n"] % 2 == 0)

    streams = MultiStream.from_iterables({"a": [{"n": 1}, {"n": 2}], "b": [{"n": 4}, {"n": 5}]})
    merged = list(OnlyEven()(streams)["all"])
    assert merged == [{"n": 2, "origin": "a"}, {"n": 4, "origin": "b"}]


def test_join_streams_merge():
    class TaggedJoin(JoinStreams):
        def merge(self, multi_stream):
            return [dict(row, joined=True) for row in super().merge(multi_stream)]

    streams = MultiStream.from_iterables({"q": [{"id": 1, "q": "x"}, {"id": 2, "q": "y"}],
                                          "a": [{"id": 2, "a": "Y"}]})
    out = list(TaggedJoin(left_stream="q", right_stream="a", how="inner", on=["id"],
                          new_stream_name="qa")(streams)["qa"])
    assert out == [{"id": 2, "q": "y", "a": "Y", "joined": True}]


def test_minimum_one_example_per_label_refiner_signature():
    class ByParity(MinimumOneExamplePerLabelRefiner):
        def signature(self, instance):
            return str(instance["n"] % 2)

    rows = [{"n": n, "label": "same"} for n in (2, 4, 6, 8, 9)]
    out = apply_operator(ByParity(fields=["label"], max_instances=2), rows)
    assert sorted(row["n"] for row in out) == [2, 9]  # the only odd row is kept, as the signature says


def test_serialize_dialog_hooks():
    dialog = [{"user": "hi", "system": "hello"}, {"user": "how?", "system": "fine"}]
    layout = SystemFormat(demo_format="U: {source}\nA: {target_prefix}{target}\n")
    operator = SerializeDialog(field="d", to_field="text", format=layout)
    assert operator.standardize_format("Q {source} T {target_prefix}{target}") == "Q {user} T {system}"
    assert operator.slice_first_turn("<s>{user}|{system}</s>") == "{user}|{system}</s>"
    assert operator.slice_last_turn("<s>{user}|{system}</s>") == "<s>{user}|{system}"
    assert operator.slice_last_response("<s>{user}|{system}</s>") == "<s>{user}"
    assert operator.get_turn_format("<s>{user}|{system}</s>", 0, 2) == "{user}|{system}</s>"
    # the first turn starts at its user text, the last ends after its answer
    assert operator.process({"d": dialog})["text"] == "hi\nA: hello\nU: how?\nA: fine"

    class Bracketed(SerializeDialog):
        def get_turn_format(self, turn_format, step, length):
            return f"[{step + 1}/{length}] {{user}} -> {{system}} "

    out = Bracketed(field="d", to_field="text", format=layout).process({"d": dialog})
    assert out["text"] == "[1/2] hi -> hello [2/2] how? -> fine "


def test_serialize_openai_dialog_validation_and_merging():
    merged = SerializeOpenAiFormatDialog.merge_dialog_entries([
        {"role": "user", "content": "a"}, {"role": "user", "content": "b"}, {"role": "assistant", "content": "c"}])
    assert merged == [{"role": "user", "content": "a b"}, {"role": "assistant", "content": "c"}]
    with pytest.raises(UnitxtError, match="start with a user turn"):
        SerializeOpenAiFormatDialog.validate_openai_dialog_format([{"role": "assistant", "content": "x"}])
    with pytest.raises(ValueError, match="Turn 1"):
        SerializeOpenAiFormatDialog.validate_openai_dialog_format([{"role": "user", "content": "x"},
                                                                  {"role": "robot", "content": "y"}])

    class NoMerging(SerializeOpenAiFormatDialog):
        @staticmethod
        def merge_dialog_entries(dialog):
            return [turn for turn in dialog if turn["content"] != "drop"]

    layout = SystemFormat(demo_format="{source}={target}\n")
    out = NoMerging(field="d", to_field="t", format=layout).process({"d": [
        {"role": "user", "content": "q"}, {"role": "user", "content": "drop"}, {"role": "assistant", "content": "r"}]})
    assert out["t"] == "q=r"


def test_table_hooks():
    class Lowered(MapHTMLTableToJSON):
        def convert_to_json(self, table_content):
            table = super().convert_to_json(table_content)
            return {"header": [name.lower() for name in table["header"]], "rows": table["rows"]}

    html = "<table><thead><tr><th>City</th><th>N</th></tr></thead><tbody><tr><td>Rome</td><td>3</td></tr></tbody></table>"
    assert MapHTMLTableToJSON(field="t").convert_to_json(html) == {"header": ["City", "N"], "rows": [["Rome", "3"]]}
    assert Lowered(field="t").process({"t": html})["t"] == {"header": ["city", "n"], "rows": [["Rome", "3"]]}
    assert MapTableListsToStdTableJSON(field="t").map_tablelists_to_stdtablejson_util([["a"], [1], [2]]) == {
        "header": ["a"], "rows": [[1], [2]]}

    table, answers = {"header": ["h"], "rows": [["abcdefgh"], ["xy"]]}, ["abcdefgh", "other"]
    TruncateTableCells(max_length=3, table="t").truncate_table(table, answers)
    assert table["rows"] == [["abc"], ["xy"]] and answers == ["abc", "other"]

    class Marked(TruncateTableCells):
        def truncate_table(self, table_content, answers):
            table_content["rows"] = [[f"<{cell}>" for cell in row] for row in table_content["rows"]]

    out = Marked(table="t").process({"t": {"header": ["h"], "rows": [["v"]]}})
    assert out["t"]["rows"] == [["<v>"]]


def test_operator_error_constructors():
    rename = Rename(field="a", to_field="b")
    error = OperatorError.from_exception(KeyError("a"), rename)
    assert error.exception.args == ("a",) and error.operators == [rename]
    chained = OperatorError.from_operator_error(error, "outer")
    assert chained.exception is error.exception and chained.operators == [rename, "outer"]
    assert "Rename(field='a', to_field='b')" in str(chained) and "outer" in str(chained)


def test_to_rgb_process_image():
    from PIL import Image

    from unitxt.image_operators import ToRGB

    gray = Image.new("L", (2, 2), color=128)
    assert ToRGB(field="i").process_image(gray).getpixel((0, 0)) == (128, 128, 128)

    class Inverted(ToRGB):
        def process_image(self, image):
            return super().process_image(image).point(lambda value: 255 - value)

    out = Inverted(field="i").process({"i": {"image": gray, "format": "png"}})["i"]
    assert out["image"].mode == "RGB" and out["image"].getpixel((1, 1)) == (127, 127, 127)
