"""The original's string operators at `unitxt.string_operators`: RegexReplace, and the tokenizer-based TokensSplit /
TokensSlice, which build and serialise without the optional transformers package."""

import sys

import pytest

from unitxt.artifact import Artifact
from unitxt.errors import MissingRequirementError
from unitxt.string_operators import RegexReplace, TokensSlice, TokensSplit


def test_regex_replace_rewrites_texts_and_passes_other_values():
    op = RegexReplace(field="note", pattern=r"\s+", replacement=" ")
    assert op.process_value("a \t\n b") == "a b"
    assert op.process_value(12) == 12


def test_regex_replace_rejects_a_bad_pattern():
    with pytest.raises(ValueError, match="pattern"):
        RegexReplace(field="note", pattern="(", replacement="")


def test_tokenizer_operators_round_trip_without_loading_a_tokenizer():
    split = TokensSplit(field="sentence", model="some-tokenizer")
    again = Artifact.from_dict(split.to_dict())
    assert type(again) is TokensSplit and again.model == "some-tokenizer"
    sliced = TokensSlice(field="sentence", model="some-tokenizer", stop=4)
    assert sliced.to_dict()["stop"] == 4


def test_missing_transformers_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(MissingRequirementError, match="transformers"):
        TokensSplit(field="sentence", model="some-tokenizer").process_value("two words")
