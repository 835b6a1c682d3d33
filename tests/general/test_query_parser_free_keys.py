"""The original's parsing_utils behaviour served by query_parser: free-form keys in key=value strings, and its
'malformed assignment' wording for a bracket term without '='."""

import pytest

from unitxt.parsing_utils import parse_key_equals_value_string_to_dict, separate_inside_and_outside_square_brackets


def test_keys_may_hold_spaces_and_dashes():
    parsed = parse_key_equals_value_string_to_dict("max tokens=12, --mode=fast,x-y=[1,two]")
    assert parsed == {"max tokens": 12, "--mode": "fast", "x-y": [1, "two"]}


def test_a_bracket_term_without_equals():
    with pytest.raises(ValueError) as caught:
        separate_inside_and_outside_square_brackets("card[loose]rest")
    assert str(caught.value) == "malformed assignment in: loose]rest"


def test_well_formed_overrides_unchanged():
    assert separate_inside_and_outside_square_brackets("metrics.f1[average=macro]") == (
        "metrics.f1", {"average": "macro"})
