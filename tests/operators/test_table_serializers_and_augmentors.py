"""Table serializers, table operators and table augmentors (struct_data_operators, table_augmentors), dict/SQL
serializers and serializers used as steps."""

import importlib.util
import json
import sqlite3

import pytest

from unitxt.artifact import from_serializable
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.random_utils import InstanceRandom
from unitxt.serializers import MultiTypeSerializer
from unitxt.operators.struct_data import (
    ConstructTableFromRowsCols,
    DictAsJsonSerializer,
    GetNumOfTableCells,
    JsonStrToDict,
    ListToKeyValPairs,
    MapHTMLTableToJSON,
    MapTableListsToStdTableJSON,
    ParseCSV,
    SerializeKeyValPairs,
    SerializeTableAsConcatenation,
    SerializeTableAsDFLoader,
    SerializeTableAsHTML,
    SerializeTableAsImage,
    SerializeTableAsIndexedRowMajor,
    SerializeTableAsJson,
    SerializeTableAsMarkdown,
    SerializeTableRowAsText,
    SerializeTriples,
    SQLDatabaseAsSchemaSerializer,
    TruncateTableRows,
)
from unitxt.table_augmentors import (
    DuplicateTableColumns,
    DuplicateTableRows,
    InsertEmptyTableRows,
    MaskColumnsNames,
    ShuffleColumnsNames,
    ShuffleTableColumns,
    ShuffleTableRows,
    TransposeTable,
)

TABLE = {"header": ["name", "age"], "rows": [["Ann", 30], ["Bob", 4]]}


def test_table_serializers():
    assert SerializeTableAsIndexedRowMajor().serialize(TABLE, {}) == "col : name | age row 1 : Ann | 30 row 2 : Bob | 4"
    assert SerializeTableAsMarkdown().serialize(TABLE, {}) == "|name|age|\n|---|---|\n|Ann|30|\n|Bob|4|"
    assert json.loads(SerializeTableAsJson().serialize(TABLE, {})) == {"0": {"name": "Ann", "age": 30},
                                                                       "1": {"name": "Bob", "age": 4}}
    assert SerializeTableAsHTML().serialize(TABLE, {}) == (
        "<table>\n  <thead>\n    <tr><th>name</th><th>age</th></tr>\n  </thead>\n  <tbody>\n"
        "    <tr><td>Ann</td><td>30</td></tr>\n    <tr><td>Bob</td><td>4</td></tr>\n  </tbody>\n</table>")
    assert SerializeTableAsConcatenation().serialize(TABLE, {}) == "name age Ann 30 Bob 4"
    shuffled = SerializeTableAsConcatenation(shuffle_rows=True, seed=3).serialize(
        {"header": ["h"], "rows": [[i] for i in range(10)]}, {})
    assert sorted(shuffled.split()[1:], key=int) == [str(i) for i in range(10)] and shuffled != "h 0 1 2 3 4 5 6 7 8 9"
    with pytest.raises(UnitxtError, match="needs a table"):
        SerializeTableAsMarkdown().serialize({"header": [], "rows": []}, {})


def test_dataframe_literal_matches_pandas():
    import pandas as pd

    table = {"header": ["a", "a", "b"], "rows": [[1, 2, "x"], [3, 4, "y"]]}
    text = SerializeTableAsDFLoader().serialize(table, {})
    assert text == 'pd.DataFrame({\n"a": [1, 3], "a_1": [2, 4], "b": ["x", "y"]},\nindex=[0, 1])'
    frame = eval(text, {"pd": pd})  # noqa: S307 - the test checks the literal is what pandas reads
    assert frame.to_dict(orient="list") == {"a": [1, 3], "a_1": [2, 4], "b": ["x", "y"]}


def test_table_image_needs_optional_packages():
    serializer = from_serializable({"__type__": "serialize_table_as_image"})
    if importlib.util.find_spec("matplotlib") is None:
        with pytest.raises(MissingRequirementError, match="pip install matplotlib"):
            serializer.serialize(TABLE, {})
    else:
        instance = {}
        assert serializer.serialize(TABLE, instance) == '<img src="media/images/0">'
    assert isinstance(serializer, SerializeTableAsImage)


def test_table_operators():
    assert ParseCSV(field="t", separator="#", strip_cells=True).process_value('a#b\n"1\nx"# 2 \n') == \
        {"header": ["a", "b"], "rows": [["1 x", "2"]]}
    assert ParseCSV(field="t", has_header=False).process_value("1,2\n3,4") == \
        {"header": ["col_0", "col_1"], "rows": [["1", "2"], ["3", "4"]]}
    pairs = ListToKeyValPairs(fields=["keys", "values"], to_field="kv").process_instance(
        {"keys": ["name", "age"], "values": ["Ann", 3]})
    assert pairs["kv"] == {"name": "Ann", "age": 3}
    assert SerializeKeyValPairs(field="kv").process_value({"name": "Ann", "age": 3}) == "name is Ann, age is 3"
    assert SerializeTriples(field="t").process_value([["Ann", "LIVES_IN", "Rome"], ["Rome", "Is", "city"]]) == \
        "Ann : lives_in : Rome | Rome : is : city"
    built = ConstructTableFromRowsCols(fields=["cols", "rows", "cap"], to_field="table").process_instance(
        {"cols": "['a', 'b']", "rows": "[[1, 2]]", "cap": "c"})
    assert built["table"] == {"header": ["a", "b"], "rows": [[1, 2]], "caption": "c"}
    html = "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><b>2</b></td></tr></tbody>" \
           "</table>"
    assert MapHTMLTableToJSON(field="t").process_value(html) == {"header": ["a", "b"], "rows": [["1", "2"]]}
    assert MapTableListsToStdTableJSON(field="t").process_value([["a"], [1], [2]]) == {"header": ["a"], "rows": [[1], [2]]}
    assert GetNumOfTableCells(field="t").process_value(TABLE) == 4
    truncated = TruncateTableRows(field="t", rows_to_keep=2).process_value({"header": ["h"], "rows": [[i] for i in range(5)]})
    assert len(truncated["rows"]) == 2 and all(row in [[i] for i in range(5)] for row in truncated["rows"])
    text = SerializeTableRowAsText(fields=["Age", "Sex"], to_field="text", max_cell_length=3).process_instance(
        {"Age": 40, "Sex": "Female"})["text"]
    assert text == "Age is 40, Sex is Fem, "
    assert JsonStrToDict(field="t").process_value('{"a": 1, "b": null}') == {"a": "1"}
    assert JsonStrToDict(field="t").process_value("[1]") == {}


def test_dict_and_sql_serializers(tmp_path):
    assert DictAsJsonSerializer().serialize({"a": [1]}, {}) == '{"a": [1]}'
    in_memory = {"db_type": "in_memory", "data": {"people": {"columns": ["name", "age"], "rows": [["a", 1]]}}}
    assert SQLDatabaseAsSchemaSerializer().serialize(in_memory, {}) == "CREATE TABLE `people` (`name` TEXT, `age` TEXT);"
    path = tmp_path / "db.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (x INTEGER, y TEXT)")
    connection.commit()
    connection.close()
    assert SQLDatabaseAsSchemaSerializer().serialize({"db_type": "local", "db_id": str(path)}, {}) == \
        "CREATE TABLE t (x INTEGER, y TEXT);"
    with pytest.raises(UnitxtError, match="db_type='remote'"):
        SQLDatabaseAsSchemaSerializer().serialize({"db_type": "remote", "db_id": "x"}, {})


def test_serializer_as_a_step_with_field_and_process_every_value():
    step = from_serializable({"__type__": "multi_type_serializer", "field": "references", "process_every_value": True})
    assert isinstance(step, MultiTypeSerializer)
    # values none of its serializers takes are written with str(), as the original
    assert step.process_instance({"references": [[1, 2], "a"]})["references"] == ["[1, 2]", "a"]
    single = MultiTypeSerializer(field="prediction", to_field="text")
    assert single.process_instance({"prediction": {"a": 1}})["text"] == "{'a': 1}"


def test_table_augmentors_change_tables_among_inputs():
    rng = InstanceRandom("seed")
    instance = {"input_fields": {"table": TABLE, "question": "q"}}
    assert MaskColumnsNames().augment_instance(instance, None, rng)["input_fields"] == \
        {"table": {"header": ["Col1", "Col2"], "rows": [["Ann", 30], ["Bob", 4]]}, "question": "q"}
    assert TransposeTable().augment_table(TABLE, rng) == {"header": [" ", "0", "1"],
                                                         "rows": [["name", "Ann", "Bob"], ["age", 30, 4]]}
    assert DuplicateTableRows(row_indices=[1], times=2).augment_table(TABLE, rng)["rows"] == \
        [["Ann", 30], ["Bob", 4], ["Bob", 4]]
    assert DuplicateTableColumns(column_indices=[0], times=2).augment_table(TABLE, rng) == \
        {"header": ["name", "name", "age"], "rows": [["Ann", "Ann", 30], ["Bob", "Bob", 4]]}
    empty = InsertEmptyTableRows(times=2).augment_table(TABLE, InstanceRandom("x"))
    assert len(empty["rows"]) == 4 and empty["rows"].count(["", ""]) == 2
    big = {"header": [f"c{i}" for i in range(8)], "rows": [list(range(8)) for _ in range(8)]}
    rows_shuffled = ShuffleTableRows().augment_table({"header": ["h"], "rows": [[i] for i in range(8)]}, InstanceRandom("a"))
    assert sorted(rows_shuffled["rows"]) == [[i] for i in range(8)] and rows_shuffled["rows"] != [[i] for i in range(8)]
    columns = ShuffleTableColumns().augment_table(big, InstanceRandom("b"))
    assert all(row == [int(name[1:]) for name in columns["header"]] for row in columns["rows"])
    names = ShuffleColumnsNames().augment_table(big, InstanceRandom("c"))
    assert sorted(names["header"]) == sorted(big["header"]) and names["rows"] == big["rows"]
    assert instance == {"input_fields": {"table": TABLE, "question": "q"}}  # the given instance is not changed
    assert TABLE == {"header": ["name", "age"], "rows": [["Ann", 30], ["Bob", 4]]}
