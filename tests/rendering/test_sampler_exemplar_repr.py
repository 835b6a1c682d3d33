"""DiverseLabelsSampler's label of an exemplar (exemplar_repr) and defaults, as in the original unitxt."""

import pytest

from unitxt.samplers import DiverseLabelsSampler


def _exemplar(options, gold):
    return {"input_fields": {"choices": options, "text": "t"}, "reference_fields": {"labels": gold}}


def test_defaults_are_choices_and_labels():
    sampler = DiverseLabelsSampler()
    assert (sampler.choices, sampler.labels, sampler.include_empty_label) == ("choices", "labels", True)
    assert DiverseLabelsSampler("options").choices == "options"


def test_exemplar_repr_keeps_the_choices_present_in_the_gold_list_in_choice_order():
    sampler = DiverseLabelsSampler()
    assert sampler.exemplar_repr(_exemplar(["north", "south", "east"], ["east", "north"])) == "['north', 'east']"
    assert sampler.exemplar_repr(_exemplar("north", ["north"])) == "['north']"
    assert sampler.exemplar_repr(_exemplar(["north"], ["west"])) == "[]"


@pytest.mark.parametrize("exemplar, message", [
    ({"reference_fields": {"labels": ["a"]}}, "'input_fields' field is missing from"),
    ({"input_fields": {"choices": ["a"]}}, "'reference_fields' field is missing from"),
    (_exemplar({"a": 1}, ["a"]), "Unexpected input choices value '{'a': 1}'. Expected a list or a string."),
    (_exemplar(["a"], "a"), "Unexpected exemplar_outputs value 'a'. Expected a list."),
    ({"input_fields": {}, "reference_fields": {"labels": ["a"]}}, "'choices' field is missing from '{}'."),
])
def test_exemplar_repr_refuses_malformed_exemplars(exemplar, message):
    with pytest.raises(ValueError) as caught:
        DiverseLabelsSampler().exemplar_repr(exemplar)
    assert str(caught.value).startswith(message)


def test_a_non_string_positional_argument_is_accepted_like_the_original():
    sampler = DiverseLabelsSampler(3)
    pool = [_exemplar(["a"], ["a"]) | {"input_fields": {"choices": ["a"], "text": str(i)}} for i in range(3)]
    assert len(sampler.filter_source_by_instance(pool, pool[0])) == 2
    with pytest.raises(ValueError, match="'input_fields' field is missing"):
        sampler.filter_source_by_instance(pool, {"reference_fields": {}})
