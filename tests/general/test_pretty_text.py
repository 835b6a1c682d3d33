"""`text_utils.to_pretty_string` (nested values as indented `name (type):` blocks, wrapped), the snake_case test and
`lines_defining_obj_in_card`, on data of our own."""

import pytest

from unitxt.text_utils import is_snake_case, lines_defining_obj_in_card, to_pretty_string


def test_nested_values_are_indented_with_their_types():
    text = to_pretty_string({"run": {"seed": 7, "tags": ("a",)}}, max_chars=60)
    assert text == ("run (dict):\n    seed (int):\n        7\n    tags (tuple):\n"
                    "        (0) (str):\n            a\n")


def test_long_values_wrap_at_max_chars():
    text = to_pretty_string({"note": "x" * 30}, max_chars=14)
    assert text == "note (str):\n" + "    xxxxxxxxxx\n" * 3


def test_keys_select_and_order_entries():
    assert to_pretty_string({"a": 1, "b": 2}, keys=["b"], max_chars=40) == "b (int):\n    2\n"
    with pytest.raises(ValueError, match="'c'"):
        to_pretty_string({"a": 1}, keys=["c"], max_chars=40)


def test_float_format():
    assert to_pretty_string([0.123456], float_format=".2f", max_chars=40) == "[0] (float):\n    0.12\n"


def test_snake_case_words():
    assert is_snake_case("2nd_pass") and is_snake_case("pass2")
    assert not is_snake_case("double__underscore") and not is_snake_case("_lead") and not is_snake_case("Mixed_case")


def test_lines_defining_an_object():
    source = ["import x\n", "card = Card(\n", "    loader=L(a=[1,\n", "        2]),\n", ")\n", "other = 1\n"]
    assert lines_defining_obj_in_card(source, "Card(") == (1, 4)
    assert lines_defining_obj_in_card(source, "Missing(") == (-1, -1)
