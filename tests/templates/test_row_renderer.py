"""The columnar renderer's per-row template call (`_row_renderer`) returns what `render` returns, and raises its
errors: the plain InputOutputTemplate's one-call version, and `render` itself for templates it does not cover."""

import pytest

from unitxt.errors import UnitxtError
from unitxt.serializers import NumberSerializer
from unitxt.templates import InputOutputTemplate


class _Text(str):
    pass


def _template(**overrides):
    fields = dict(
        instruction="Classify the {type} among {classes}.",
        input_format="{type}: {text} ({score:.2f}) {meta}",
        target_prefix="The {type} is ",
        output_format="{label}",
    )
    fields.update(overrides)
    return InputOutputTemplate(**fields)


INPUTS = [
    {"type": "premise", "text": "a cat", "score": 0.5, "classes": ["yes", "no"], "meta": {"k": [1, 2]}},
    {"type": _Text("claim"), "text": "é ü", "score": 3, "classes": [], "meta": 7},
    {"type": "premise", "text": "x", "score": True, "classes": ["a", 1.5], "meta": None},
    {"type": "premise", "text": "x", "score": "high", "classes": ["a"], "meta": ""},
]
REFERENCES = [{"label": "yes"}, {"label": ["a", "b"]}, {"label": 3}, {"label": _Text("no")}]


def test_plain_template_rows_equal_render_for_every_value_kind():
    template = _template()
    fast = template._row_renderer()
    assert fast != template.render  # the one-call version
    compared = 0
    for inputs in INPUTS:
        for references in REFERENCES:
            for with_references in (True, False):
                try:
                    expected = template.render(inputs, references, {}, with_references)
                except UnitxtError as error:
                    with pytest.raises(type(error)) as info:
                        fast(inputs, references, {}, with_references)
                    assert str(info.value) == str(error)
                else:
                    assert fast(inputs, references, {}, with_references) == expected
                compared += 1
    assert compared == 32
    row = fast(INPUTS[0], REFERENCES[0], {})
    assert row == {"source": "premise: a cat (0.50) {\"k\": [1, 2]}", "target": "yes", "references": ["yes"],
                   "instruction": "Classify the premise among yes, no.", "target_prefix": "The premise is "}
    assert list(row) == ["source", "target", "references", "instruction", "target_prefix"]


def test_missing_fields_raise_renders_errors():
    template = _template()
    fast = template._row_renderer()
    for inputs, references in (({"type": "t"}, {"label": "x"}), (INPUTS[0], {"other": "x"})):
        with pytest.raises(UnitxtError) as expected:
            template.render(inputs, references, {})
        with pytest.raises(type(expected.value)) as got:
            fast(inputs, references, {})
        assert str(got.value) == str(expected.value)


def test_templates_with_hooks_serializers_or_titles_use_render():
    class Hooked(InputOutputTemplate):
        def preprocess_input_fields(self, input_fields):
            return {**input_fields, "text": input_fields["text"].upper()}

    hooked = Hooked(input_format="{text}", output_format="{label}")
    assert hooked._row_renderer() == hooked.render
    assert hooked._row_renderer()({"text": "ab"}, {"label": "y"}, {})["source"] == "AB"
    for template in (_template(serializer=NumberSerializer()), _template(title_fields=["text"]),
                     _template(output_format="")):
        assert template._row_renderer() == template.render
