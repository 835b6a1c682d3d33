"""Table serializers take `field_to_field`, table augmentors take `field`, as the original's operators do."""

import pytest

from unitxt.struct_data_operators import SerializeTableAsJson, SerializeTableAsMarkdown, ShuffleTableColumns

GRID = {"header": ["city", "pop"], "rows": [["Oslo", 7], ["Lima", 9]]}


def test_serializer_with_field_to_field_writes_each_target():
    out = SerializeTableAsMarkdown(field_to_field={"grid": "grid_text"}).process({"grid": GRID})
    assert out["grid"] == GRID
    assert out["grid_text"] == "|city|pop|\n|---|---|\n|Oslo|7|\n|Lima|9|"
    pairs = SerializeTableAsJson(field_to_field=[["grid", "a"], ["grid", "b"]]).process({"grid": GRID})
    assert pairs["a"] == pairs["b"] == '{"0": {"city": "Oslo", "pop": 7}, "1": {"city": "Lima", "pop": 9}}'


def test_serializer_refuses_field_and_field_to_field_together():
    with pytest.raises(ValueError, match="not both"):
        SerializeTableAsMarkdown(field="grid", field_to_field={"grid": "x"}).process({"grid": GRID})


def test_shuffle_columns_on_one_field_keeps_cells_with_their_names_and_other_fields():
    instance = {"grid": {"header": ["a", "b", "c", "d"], "rows": [[1, 2, 3, 4]]}, "other": GRID}
    out = ShuffleTableColumns(field="grid").process(instance)
    shuffled = out["grid"]
    assert sorted(shuffled["header"]) == ["a", "b", "c", "d"]
    assert [dict(zip(shuffled["header"], row)) for row in shuffled["rows"]] == [{"a": 1, "b": 2, "c": 3, "d": 4}]
    assert out["other"] == GRID
    with pytest.raises(ValueError, match="needs a table"):
        ShuffleTableColumns(field="other_text").process({"other_text": "plain"})
