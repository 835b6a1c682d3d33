"""Catalog post-processors compute what the same names compute in the original system (issue "Same name, same
number"): each expected value below is written out from the original system's behaviour on the same input."""

import math

import pytest

from unitxt.catalog import get_from_catalog
from unitxt.evaluation import post_process_rows


def processed(name, prediction, reference=None):
    """(processed prediction, processed references) through the catalog processor, as evaluate() applies it."""
    references = [] if reference is None else [reference]
    predictions, references, _ = post_process_rows([prediction], [{"references": references, "postprocessors": [name]}])
    return predictions[0], references[0]


@pytest.mark.parametrize("text, expected", [
    ("yes", "1"), ("no", "0"), ("Yes", "Yes"), (" yes ", " yes "), ("maybe", "maybe"), ("yes.", "yes."),
])
def test_yes_no_to_int_maps_exact_words_to_strings(text, expected):
    assert processed("processors.yes_no_to_int", text, text) == (expected, [expected])


@pytest.mark.parametrize("name, text, expected", [
    ("processors.cast_to_float_return_zero_if_failed", "3.5", 3.5),
    ("processors.cast_to_float_return_zero_if_failed", " 2 ", 2.0),
    ("processors.cast_to_float_return_zero_if_failed", "1e3", 1000.0),
    ("processors.cast_to_float_return_zero_if_failed", "abc 4", 0.0),
    ("processors.cast_to_float_return_zero_if_failed", "", 0.0),
    ("processors.cast_to_float_return_0_5_if_failed", "x", 0.5),
    ("processors.cast_to_float_return_nan_if_failed", "7", 7.0),
    ("processors.extract_first_number", "abc 4", 4.0),
])
def test_cast_to_float_is_strict(name, text, expected):
    assert processed(name, text)[0] == expected


def test_cast_to_float_reads_nan_text_and_fails_to_nan():
    assert math.isnan(processed("processors.cast_to_float_return_zero_if_failed", "nan")[0])
    assert math.isnan(processed("processors.cast_to_float_return_nan_if_failed", "score: 4")[0])


def test_literal_eval_parses_predictions_only_and_refuses_non_literals():
    assert processed("processors.literal_eval", "[1, 2]", "[1, 2]") == ([1, 2], ["[1, 2]"])
    with pytest.raises(Exception) as caught:
        processed("processors.literal_eval", "hello")
    assert "'hello'" in str(caught.value) and "literal" in str(caught.value)
    assert processed("processors.literal_eval_or_text", "hello", "{'a': 1}") == ("hello", [{"a": 1}])


@pytest.mark.parametrize("text, expected", [
    ("[1, 2, 3]", "1"), (" B) blue", "B"), ("(a)", "a"), ("_x", "_"), ("!", ""), ("  .5", "5"), ("", ""),
])
def test_first_character_is_first_word_character(text, expected):
    assert processed("processors.first_character", text)[0] == expected


@pytest.mark.parametrize("text, expected", [
    ("7.5 is it", "7.5"), ("Hello, world", "Hello"), ("  well-known x", "well"), ("don't go", "don"),
    ("-5.5x", "-5.5"), ("-abc d", "abc"), ("3.5.6 x", "3.5.6"), (".5 x", "5"), ("x7.5 y", "x7"), ("3,000 x", "3"),
    ("!!! hi", "hi"), ("été là", "été"), ("-", ""), ("7a b", "7"),
])
def test_take_first_word(text, expected):
    assert processed("processors.take_first_word", text)[0] == expected


@pytest.mark.parametrize("text, expected", [
    ("B) blue", "b) blue"), ("Hello World. Bye", "hello world"), ("a, b", "a"), ("A; B", "a"), ("A: B", "a: b"),
    ("A- B", "a- b"), ("A...B", "a"), ("A B ", "a b "), ("A\nB. c", "a\nb"),
])
def test_lower_case_till_punc_cuts_at_sentence_punctuation_only(text, expected):
    assert processed("processors.lower_case_till_punc", text)[0] == expected


@pytest.mark.parametrize("name, text, expected", [
    ("processors.to_list_by_comma", "a, b,,c ", ["a", "b", "", "c"]),
    ("processors.to_list_by_comma", "", [""]),
    ("processors.to_list_by_comma", "a,,", ["a", "", ""]),
    ("processors.to_list_by_comma_space", "a, b,,c ", ["a", "b,,c"]),
    ("processors.to_list_by_hyphen_space", "- a\n- b", ["a", "b"]),
    ("processors.to_list_by_hyphen_space", "x", ["x"]),
])
def test_to_list_keeps_empty_items(name, text, expected):
    assert processed(name, text)[0] == expected


def test_load_json_failure_is_empty_list():
    assert processed("processors.load_json", "nope")[0] == []
    assert processed("processors.load_json", '{"a": 1}')[0] == {"a": 1}


def test_extract_from_double_brackets_prediction_only_and_empty_when_absent():
    assert processed("processors.extract_from_double_brackets", "rating [[7]]", "[[7]]") == ("7", ["[[7]]"])
    assert processed("processors.extract_from_double_brackets", "none")[0] == ""
    assert processed("processors.double_brackets_or_text", "none", "[[A]]") == ("none", ["A"])


def test_scale_0_10_to_0_1_non_numbers_become_zero_and_references_untouched():
    assert processed("processors.scale_0_10_to_0_1", "7", "7") == (0.7, ["7"])
    assert processed("processors.scale_0_10_to_0_1", "x")[0] == 0
    assert processed("processors.scale_0_10_to_0_1", 5)[0] == 0.5


@pytest.mark.parametrize("text, expected", [
    ("0", "OTHER"), ("1", "OTHER"), ("yes", "TRUE"), ("No", "FALSE"), ("not true", "FALSE"), ("know", "FALSE"),
    ("yesterday", "TRUE"), ("affirmative", "OTHER"), ("yes False", "FALSE"),
])
def test_convert_to_boolean_substring_rules(text, expected):
    assert processed("processors.convert_to_boolean", text)[0] == expected


@pytest.mark.parametrize("text, expected", [
    ("answer: forty: two", [("forty", "two")]),
    ("John: PER, Rome: LOC", [("John", "PER"), ("Rome", "LOC")]),
    ("None", []),
    ("a:b,c", [("a", "b")]),
])
def test_to_span_label_pairs(text, expected):
    assert processed("processors.to_span_label_pairs", text)[0] == expected


def test_multiple_choice_template_default_postprocessors_strip_only():
    from unitxt.templates import MultipleChoiceTemplate

    template = MultipleChoiceTemplate(input_format="{question} {choices}")
    assert template.postprocessors == ["processors.to_string_stripped"]
    assert get_from_catalog("processors.first_character") is not None
