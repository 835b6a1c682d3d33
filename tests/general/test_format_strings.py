r"""format_utils: safe precompiled format strings, clear errors, and the conditional newline marker \N."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unitxt.errors import MissingFieldError, UnitxtError
from unitxt.format_utils import (
    NEWLINE_MARKER,
    CompiledFormat,
    FormatStringError,
    FormatValueError,
    MissingPlaceholderError,
    Placeholder,
    check_placeholders,
    compile_format,
    format_text,
)


# ---------------------------------------------------------------- what is allowed
def test_plain_placeholders_and_literals():
    compiled = compile_format("Translate {text} to {language}.")
    assert compiled.fields == ("text", "language")
    assert compiled.render({"text": "cat", "language": "German"}) == "Translate cat to German."


def test_extra_values_are_ignored_and_repeated_fields_listed_once():
    compiled = compile_format("{a} and {a} and {b}")
    assert compiled.fields == ("a", "b")
    assert compiled.render({"a": 1, "b": "x", "unused": object()}) == "1 and 1 and x"


def test_escaped_braces():
    compiled = compile_format('JSON: {{"key": "{value}"}}')
    assert compiled.fields == ("value",)
    assert compiled.render({"value": "v"}) == 'JSON: {"key": "v"}'


def test_constant_string_renders_without_values():
    compiled = compile_format("no placeholders {{here}}")
    assert compiled.is_constant
    assert compiled.render({}) == "no placeholders {here}"


def test_simple_format_specs_and_allowed_conversions():
    compiled = compile_format("[{x:>5}] [{y:.2f}] [{z!r}] [{w!s:<3}]")
    assert compiled.spec_fields == ("x", "y", "w")
    assert compiled.render({"x": "ab", "y": 0.5, "z": "q", "w": "k"}) == "[   ab] [0.50] ['q'] [k  ]"


def test_unicode_hyphen_and_inner_space_field_names():
    compiled = compile_format("{вопрос} {sentence-1} {text a}")
    assert compiled.render({"вопрос": "q", "sentence-1": "s", "text a": "t"}) == "q s t"


def test_parts_are_precompiled():
    compiled = compile_format("a {x} b")
    assert isinstance(compiled, CompiledFormat)
    assert compiled.parts[0] == "a " and compiled.parts[2] == " b"
    assert isinstance(compiled.parts[1], Placeholder) and compiled.parts[1].name == "x"


def test_compilation_is_cached():
    assert compile_format("cached {x}") is compile_format("cached {x}")
    assert compile_format("cached {x}", allow_newline_marker=True) is not compile_format("cached {x}")


# ---------------------------------------------------------------- what is refused
@pytest.mark.parametrize(
    "text, words",
    [
        ("{a.b}", ["{a.b}", "attribute or index access"]),
        ("{a[0]}", ["{a[0]}", "attribute or index access"]),
        ("{x.__class__.__mro__}", ["attribute or index access"]),
        ("{x!a}", ["{x!a}", "only !s and !r"]),
        ("{x:>{width}}", ["{x:>{width}}", "nests a field"]),
        ("{}", ["{}", "positional"]),
        ("{0}", ["{0}", "positional"]),
        ("{ x }", ["{ x }", "not a valid field name", "{{"]),
        ('{"key": 1}', ["not a valid field name", "{{"]),
        ("a } b", ["malformed braces", "{{"]),
        ("a { b", ["malformed braces"]),
        ("{x:zz}", ["invalid format spec"]),
    ],
)
def test_refused_constructs_name_the_artifact_and_placeholder(text, words):
    with pytest.raises(FormatStringError) as info:
        compile_format(text, artifact="templates.my_template", where="input_format")
    message = str(info.value)
    assert "templates.my_template" in message
    assert "input_format" in message
    for word in words:
        assert word in message
    assert isinstance(info.value, UnitxtError) and isinstance(info.value, ValueError)


def test_refused_string_is_not_cached_as_valid():
    for _ in range(2):
        with pytest.raises(FormatStringError):
            compile_format("{a.b}", artifact="x")


def test_non_string_format_is_refused():
    with pytest.raises(FormatStringError, match="must be a string"):
        compile_format(["{x}"], artifact="t", where="input_format")


# ---------------------------------------------------------------- render errors
def test_missing_value_names_field_and_lists_available():
    compiled = compile_format("Translate {text} to {language}.")
    with pytest.raises(MissingPlaceholderError) as info:
        compiled.render({"text": "cat", "lang": "de"}, where="input_format")
    error = info.value
    assert isinstance(error, MissingFieldError) and isinstance(error, KeyError)
    assert error.field == "language"
    message = str(error)
    assert "{language}" in message and "input_format" in message
    assert "Available fields: lang, text" in message


def test_format_text_adds_the_artifact_to_errors():
    with pytest.raises(MissingPlaceholderError) as info:
        format_text("{a}", {}, artifact="formats.mine", where="demo_format")
    assert "formats.mine" in str(info.value)
    assert format_text("{a}", {"a": 1}) == "1"


def test_bad_value_for_spec_names_the_placeholder():
    with pytest.raises(FormatValueError) as info:
        compile_format("score {x:.2f}").render({"x": "high"}, where="output_format")
    assert info.value.field == "x"
    assert "{x:.2f}" in str(info.value) and "output_format" in str(info.value)


def test_check_placeholders():
    compiled = compile_format("{source} {answer}")
    check_placeholders(compiled, ["source", "answer", "more"])
    with pytest.raises(FormatStringError) as info:
        check_placeholders(compiled, ["source", "target"], artifact="formats.x", where="demo_format")
    assert "{answer}" in str(info.value) and "formats.x" in str(info.value) and "{target}" in str(info.value)


# ---------------------------------------------------------------- \N: conditional newline
def marked(text: str) -> CompiledFormat:
    return compile_format(text, allow_newline_marker=True)


def test_marker_constant_is_backslash_capital_n():
    assert NEWLINE_MARKER == "\\N" and len(NEWLINE_MARKER) == 2


def test_marker_adds_newline_after_non_empty_text():
    assert marked("{a}\\N{b}").render({"a": "A", "b": "B"}) == "A\nB"


def test_marker_adds_nothing_at_the_start_or_after_empty_values():
    fmt = marked("{system}\\N{instruction}\\N{source}")
    assert fmt.render({"system": "", "instruction": "", "source": "Q"}) == "Q"
    assert fmt.render({"system": "", "instruction": "I", "source": "Q"}) == "I\nQ"
    assert fmt.render({"system": "S", "instruction": "", "source": "Q"}) == "S\nQ"
    assert marked("\\Nx").render({}) == "x"


def test_marker_does_not_double_an_existing_newline():
    fmt = marked("{a}\\N{b}")
    assert fmt.render({"a": "A\n", "b": "B"}) == "A\nB"
    # newlines the text already ends with merge into the marker's one newline (the original's notation)
    assert fmt.render({"a": "A\n\n", "b": "B"}) == "A\nB"
    assert fmt.render({"a": "\n\n", "b": "B"}) == "B"  # only newlines before the marker: nothing


def test_consecutive_markers_yield_at_most_one_newline():
    assert marked("{a}\\N\\N\\N{b}").render({"a": "A", "b": "B"}) == "A\nB"


def test_marker_at_end_and_text_produced_so_far_includes_literals():
    assert marked("Q: {q}\\N").render({"q": "x"}) == "Q: x\n"
    assert marked("Q: {q}\\N").render({"q": ""}) == "Q: \n"  # the literal "Q: " is text produced so far
    assert marked("{q}\\N").render({"q": ""}) == ""


def test_marker_is_literal_when_markers_are_not_enabled():
    assert compile_format("a\\Nb").render({}) == "a\\Nb"


def test_marker_next_to_escaped_braces():
    assert marked("{{\\N{x}}}").render({"x": "v"}) == "{\nv}"


@given(st.lists(st.sampled_from(["", "a", "b\n", "\n", "cd"]), min_size=1, max_size=6))
def test_marker_semantics_property(values):
    """At every marker the text produced so far loses its trailing newlines and, when anything is left, gets exactly
    one (the original's capital-newline notation)."""
    names = [f"v{index}" for index in range(len(values))]
    fmt = marked("\\N".join("{" + name + "}" for name in names))
    expected = ""
    for index, value in enumerate(values):
        if index:
            expected = expected.rstrip("\n")
            expected += "\n" if expected else ""
        expected += value
    assert fmt.render(dict(zip(names, values))) == expected
