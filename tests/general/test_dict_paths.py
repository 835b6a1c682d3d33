"""Field paths of dict_get / dict_set / dict_delete follow the original's rules (checked against unitxt 1.26.10)."""

import pytest

from unitxt.dict_utils import dict_delete, dict_get, dict_set


def test_a_key_holding_a_slash_is_found_literally():
    record = {"pair/left": 10, "other": 1}
    assert dict_get(record, "pair/left") == 10
    dict_set(record, "pair/left", 11)
    assert record == {"pair/left": 11, "other": 1}
    dict_delete(record, "pair/left")
    assert record == {"other": 1}


def test_empty_path_is_the_whole_record_and_a_leading_slash_is_ignored():
    record = {"k": {"m": 2}}
    assert dict_get(record, "") is record
    assert dict_get(record, "/k/m") == 2
    dict_set(record, "/k/n", 3)
    assert record == {"k": {"m": 2, "n": 3}}
    dict_set(record, "", {"fresh": True})
    assert record == {"fresh": True}
    rows = [7, 8]
    dict_set(rows, "", [9])
    assert rows == [9]
    with pytest.raises(ValueError):
        dict_get(record, "/")
    with pytest.raises(ValueError):
        dict_delete(record, "")


def test_missing_paths_raise_value_error_unless_not_exist_ok():
    record = {"nums": [5, 6], "empty": []}
    assert dict_get(record, "nums/7", not_exist_ok=True) is None
    assert dict_get(record, "nums/7", not_exist_ok=True, default=-1) == -1
    for path in ("absent", "nums/2", "empty/0", "empty/*/*", "nums/0/x"):
        with pytest.raises(ValueError):
            dict_get(record, path)
    with pytest.raises(ValueError):
        dict_get(record, "nums/#1", not_exist_ok=True)  # a malformed path is an error even then


def test_wildcards_collect_only_elements_that_have_the_rest_of_the_path():
    record = {"spans": [{"start": 1}, {"end": 4}, {"start": 9}], "grid": [[]]}
    assert dict_get(record, "spans/*/start") == [1, 9]
    assert dict_get(record, "grid/*/*") == [[]]
    assert dict_get(record, "spans/") == record["spans"]
    assert dict_get({"w": "word"}, "w/1") == "o"


def test_set_grows_lists_with_none_and_creates_containers():
    record = {"box": {"items": []}}
    dict_set(record, "box/items/3/tag", "x")
    assert record == {"box": {"items": [None, None, None, {"tag": "x"}]}}
    record = {"flat": 4}
    dict_set(record, "flat/0/deep/*/leaf", 1)
    assert record == {"flat": [{"deep": [{"leaf": 1}]}]}


def test_set_without_not_exist_ok_changes_nothing_when_the_path_is_missing():
    record = {"box": {"items": []}}
    with pytest.raises(ValueError):
        dict_set(record, "box/items/1/tag", "x", not_exist_ok=False)
    with pytest.raises(ValueError):
        dict_set(None, "any", 1, not_exist_ok=False)
    assert record == {"box": {"items": []}}


def test_set_multiple_spreads_values_and_extends_lists():
    record = {"rows": [{"v": 0}, {"v": 0}]}
    dict_set(record, "rows/*/w", [1, 2, 3], set_multiple=True)
    assert record == {"rows": [{"v": 0, "w": 1}, {"v": 0, "w": 2}, {"w": 3}]}
    keyed = {"z": 0, "x": 0, "y": 0}
    dict_set(keyed, "*", [1, 2, 3], set_multiple=True)
    assert keyed == {"x": 1, "y": 2, "z": 3}  # dict keys take the values in sorted order
    with pytest.raises(ValueError):
        dict_set(keyed, "*", [1, 2], set_multiple=True, not_exist_ok=False)


def test_delete_can_remove_emptied_ancestors():
    record = {"list": [{"a": 1}, {"a": 2, "b": 3}], "keep": 0}
    dict_delete(record, "list/*/a", remove_empty_ancestors=True)
    assert record == {"list": [{"b": 3}], "keep": 0}
    dict_delete(record, "list/*/b", remove_empty_ancestors=True)
    assert record == {"keep": 0}
    dict_delete(record, "list/5", not_exist_ok=True)
    with pytest.raises(ValueError):
        dict_delete(record, "list/5")
