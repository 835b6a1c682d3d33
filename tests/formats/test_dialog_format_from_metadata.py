"""SerializeDialog without its own `format` lays the turns out with the recipe's format found in the instance's
`recipe_metadata` (as the original does); with neither it is a clear error naming `format`."""

import pytest

from unitxt.dialog_operators import SerializeDialog
from unitxt.errors import UnitxtError


class _Layout:
    demo_format = "Q: {source}\nA: {target_prefix}{target}\n"


def _instance():
    return {"chat": [{"user": "hi", "system": "hello"}, {"user": "name?", "system": "Ada"}],
            "recipe_metadata": {"format": _Layout}}


def test_turn_layout_taken_from_recipe_metadata():
    op = SerializeDialog(field="chat", to_field="text", context_field=None)
    out = op.process_instance(_instance())
    assert out["text"] == "hi\nA: hello\nQ: name?\nA: Ada"


def test_last_answer_moved_out():
    op = SerializeDialog(field="chat", to_field="text", context_field=None, last_response_to_field="answer")
    out = op.process_instance(_instance())
    assert out["text"] == "hi\nA: hello\nQ: name?" and out["answer"] == "Ada"


def test_no_format_anywhere_is_a_clear_error():
    op = SerializeDialog(field="chat", to_field="text", context_field=None)
    row = _instance()
    del row["recipe_metadata"]
    with pytest.raises(UnitxtError, match="format"):
        op.process_instance(row)
