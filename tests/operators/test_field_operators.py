"""Field operators of the original catalog format (operators_fields), the FieldOperator fields such catalogs set
(get_default, not_exist_do_nothing, set_every_value with `*` paths) and ExecuteExpression.imports_list."""

import math

import pytest

from unitxt.artifact import from_serializable
from unitxt.errors import SandboxError, UnitxtError
from unitxt.operators import Copy, ExecuteExpression, FilterByCondition
from unitxt.operators.field_edits import (
    AddConstant,
    Dictify,
    Fillna,
    Filter,
    FormatText,
    Get,
    GetLength,
    GroupDictWithRegex,
    Join,
    Lower,
    MapReplace,
    MapValues,
    Move,
    Pop,
    RecursiveReplace,
    RegexSplit,
    RemoveValues,
    Replace,
    Slice,
    SplitStrip,
    ToListByComma,
    ToListByCommaSpace,
    Upper,
)


def run(operator, instance):
    return operator.process_instance(instance)


def test_add_constant_adds_numbers_and_prepends_lists():
    assert run(AddConstant(field="answer", add=-1), {"answer": 3}) == {"answer": 2}
    assert run(AddConstant(field="xs", add=[0]), {"xs": [1, 2]}) == {"xs": [0, 1, 2]}
    with pytest.raises(UnitxtError, match="can be added"):
        run(AddConstant(field="answer", add=1), {"answer": "x"})


def test_add_constant_loads_from_catalog_json():
    operator = from_serializable({"__type__": "add_constant", "field": "answer", "add": -1})
    assert isinstance(operator, AddConstant) and run(operator, {"answer": 1}) == {"answer": 0}


def test_case_and_text_edits():
    assert run(Lower(field="t", to_field="u"), {"t": "AbC"}) == {"t": "AbC", "u": "abc"}
    assert run(Upper(field="t"), {"t": 12}) == {"t": "12"}
    assert run(Replace(field="t", old="'", new=" "), {"t": "a'b'c"}) == {"t": "a b c"}
    mapping = {"<image 1>": "<img src=\"media/images/0\">", "x": "y"}
    assert run(MapReplace(field="t", mapping=mapping), {"t": "see <image 1> x"}) == \
        {"t": 'see <img src="media/images/0"> y'}


def test_map_values_maps_by_text_form_and_refuses_unknown_values():
    operator = MapValues(field="answer", mapping={"A": 0, "B": 1, "?": None})
    assert run(operator, {"answer": "B"}) == {"answer": 1}
    assert run(operator, {"answer": "?"}) == {"answer": None}
    assert run(MapValues(field="n", mapping={"1": "one"}), {"n": 1}) == {"n": "one"}
    with pytest.raises(UnitxtError, match="not a key of the mapping"):
        run(operator, {"answer": "C"})


def test_splitting_and_joining():
    assert run(RegexSplit(field="t", by=r"\s+"), {"t": "a  b\tc"}) == {"t": ["a", "b", "c"]}
    assert run(RegexSplit(field="t", by="(?:^|\n)- "), {"t": "- a\n- b"}) == {"t": ["", "a", "b"]}
    assert run(Join(field="t", by=": "), {"t": ["a", "b"]}) == {"t": "a: b"}
    assert run(SplitStrip(field="t", delimiter=" "), {"t": "a  b"}) == {"t": ["a", "", "b"]}
    assert run(ToListByComma(field="t"), {"t": "a, b,c "}) == {"t": ["a", "b", "c"]}
    assert run(ToListByCommaSpace(field="t"), {"t": "a, b,c"}) == {"t": ["a", "b,c"]}


def test_group_dict_with_regex_uses_flags_and_returns_empty_dict_without_match():
    operator = GroupDictWithRegex(field="t", pattern=r"Q:\s+(?P<question>.*?)\s+A:\s+(?P<answer>.*)", flags=16)
    assert run(operator, {"t": "Q: two\nlines A: yes"}) == {"t": {"question": "two\nlines", "answer": "yes"}}
    assert run(operator, {"t": "nothing"}) == {"t": {}}


def test_collections():
    assert run(Dictify(field="turn", with_keys=["role", "content"]), {"turn": ["user", "hi"]}) == \
        {"turn": {"role": "user", "content": "hi"}}
    assert run(Dictify(field="d", with_keys=["a", "b"], process_every_value=True), {"d": [[1, 2], [3, 4]]}) == \
        {"d": [{"a": 1, "b": 2}, {"a": 3, "b": 4}]}
    assert run(Filter(field="xs", values=[None]), {"xs": [1, None, 2]}) == {"xs": [1, 2]}
    assert run(Filter(field="d", values=["b"]), {"d": {"a": 1, "b": 2}}) == {"d": {"a": 1}}
    assert run(RemoveValues(field="xs", unallowed_values=["", " "]), {"xs": ["a", "", " ", "b"]}) == {"xs": ["a", "b"]}
    assert run(Slice(field="xs", start=1, stop=-1), {"xs": [0, 1, 2, 3]}) == {"xs": [1, 2]}
    assert run(Get(field="xs", item=-1, to_field="last"), {"xs": [1, 2, 3]})["last"] == 3
    popped = run(Pop(field="dialog", item=-1, to_field="last"), {"dialog": ["a", "b", "c"]})
    assert popped == {"dialog": ["a", "b"], "last": "c"}
    assert run(GetLength(field="xs", to_field="n"), {"xs": [1, 2]})["n"] == 2


def test_fillna_replaces_only_nan():
    operator = Fillna(field="x", value=0)
    assert run(operator, {"x": math.nan}) == {"x": 0}
    assert run(operator, {"x": 1.5}) == {"x": 1.5}
    assert run(operator, {"x": "text"}) == {"x": "text"}


def test_format_text_and_move():
    assert run(FormatText(text="{capability}-{task}", to_field="id"), {"capability": "a", "task": "b"})["id"] == "a-b"
    moved = run(Move(field="tools/*/parameters", to_field="properties"),
                {"tools": [{"name": "f", "parameters": {"x": 1}}, {"name": "g", "parameters": {"y": 2}}]})
    assert moved == {"tools": [{"name": "f"}, {"name": "g"}], "properties": [{"x": 1}, {"y": 2}]}


def test_recursive_replace_maps_and_removes_values_of_a_key():
    operator = RecursiveReplace(key="type", map_values={"dict": "object", "float": "number"}, remove_values=["any"])
    instance = {"tools": [{"type": "dict", "properties": {"a": {"type": "float"}, "b": {"type": "any"}}},
                          {"type": ["float", "any", "str"]}]}
    assert run(operator, instance) == {"tools": [
        {"type": "object", "properties": {"a": {"type": "number"}, "b": {}}}, {"type": ["number", "str"]}]}


def test_copy_get_default_not_exist_do_nothing_and_set_every_value():
    copy_spans = Copy(field_to_field={"spans/*/start": "starts", "spans/*/label": "labels"}, get_default=[],
                      not_exist_ok=True)
    assert run(copy_spans, {"spans": [{"start": 1, "label": "A"}, {"start": 5, "label": "B"}]})["starts"] == [1, 5]
    assert run(Copy(field="missing", to_field="x", get_default=[], not_exist_ok=True), {"a": 1}) == {"a": 1, "x": []}
    assert run(Copy(field="missing", to_field="x", not_exist_do_nothing=True), {"a": 1}) == {"a": 1}
    spread = Copy(field="required", to_field="tools/*/required", set_every_value=True)
    result = run(spread, {"required": [["a"], []], "tools": [{"name": "f"}, {"name": "g"}]})
    assert result["tools"] == [{"name": "f", "required": ["a"]}, {"name": "g", "required": []}]


def test_execute_expression_imports_list_allows_only_sandbox_modules():
    operator = ExecuteExpression(
        expression="[dict(zip(v.keys(), vals)) for v in grid for vals in itertools.product(*v.values())]",
        to_field="calls", imports_list=["itertools"])
    assert run(operator, {"grid": [{"a": [1, 2], "b": ["x"]}]})["calls"] == [{"a": 1, "b": "x"}, {"a": 2, "b": "x"}]
    with pytest.raises(UnitxtError, match="refused: \\['os'\\]"):
        ExecuteExpression(expression="1", to_field="x", imports_list=["os"])
    with pytest.raises(SandboxError):
        ExecuteExpression(expression="itertools.tee(x)", to_field="y", imports_list=["itertools"])


def test_sandbox_reads_re_flags_as_constants():
    operator = ExecuteExpression(expression='re.findall(r"a.b", t, flags=re.DOTALL)', to_field="m")
    assert run(operator, {"t": "a\nb"})["m"] == ["a\nb"]


def test_filter_by_condition_exists():
    instances = [{"a": {"b": 1}}, {"a": {}}, {"c": 2}]
    kept = FilterByCondition(values={"a/b": True}, condition="exists").process_instances(instances)
    assert kept == [{"a": {"b": 1}}]
    kept = FilterByCondition(values={"a": False}, condition="exists").process_instances(instances)
    assert kept == [{"c": 2}]


def test_map_instance_values_reads_keys_written_as_python_lists():
    """The original looks values up by str(value): a list [''] is found under the key "['']"."""
    from unitxt.operators import MapInstanceValues

    mapper = MapInstanceValues(mappers={"answers": {"['']": ["Unanswerable."]}}, strict=False)
    assert mapper.process_instance({"answers": [""]})["answers"] == ["Unanswerable."]
    assert mapper.process_instance({"answers": ["yes"]})["answers"] == ["yes"]
