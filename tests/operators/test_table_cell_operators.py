"""Table operators the original keeps in `unitxt.struct_data_operators`: SerializeTableRowAsList,
TruncateTableCells (answers cut like their cells) and ConvertTableColNamesToSequential, on tables of our own."""

import pytest

from unitxt.struct_data_operators import (
    ConvertTableColNamesToSequential,
    SerializeTableRowAsList,
    TruncateTableCells,
)


def test_row_as_list():
    op = SerializeTableRowAsList(fields=["city", "pop"], to_field="row", max_cell_length=4)
    assert op.process({"city": "Lisbon", "pop": 545})["row"] == "city: Lisb, pop: 545, "


def test_truncate_cells_and_matching_answers():
    row = {"tbl": {"header": ["k", "v"], "rows": [["abcdefgh", 123456789], ["ab", "  "]]}, "gold": ["abcdefgh", "x"]}
    out = TruncateTableCells(max_length=3, table="tbl", text_output="gold").process(row)
    assert out["tbl"]["rows"] == [["abc", 123456789], ["ab", "  "]]
    assert out["gold"] == ["abc", "x"]


def test_truncate_cells_needs_the_table_field():
    with pytest.raises(ValueError, match="table"):
        TruncateTableCells(max_length=3).process({"tbl": {}})


def test_sequential_column_names():
    op = ConvertTableColNamesToSequential(field="t")
    assert op.process_value({"header": ["a", "b", "c"], "rows": [[1, 2, 3]]}) == {
        "header": ["col_0", "col_1", "col_2"], "rows": [[1, 2, 3]]}
    with pytest.raises(TypeError, match="header"):
        op.process_value({"rows": []})
