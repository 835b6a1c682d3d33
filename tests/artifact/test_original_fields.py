"""Fields the original's artifact classes declare are taken here: with their meaning (requirements checked, the CI
switch, skip_rendered_instance, generation parameters sent), or - where they select machinery this library does not
have - as InertFields: accepted, listed in the class docstring, warning when set to anything but the default."""

import warnings

import pytest

from unitxt.augmentors import AugmentWhitespace
from unitxt.errors import MissingRequirementsError
from unitxt.formats.system_prompts import TextualSystemPrompt
from unitxt.inference import HFAutoModelInferenceEngine, OpenAiInferenceEngine
from unitxt.metrics import Accuracy
from unitxt.operators import Copy
from unitxt.serializers import ListSerializer
from unitxt.templates import InputOutputTemplate


def test_requirements_of_an_operator_are_checked_when_it_is_built():
    assert Copy(field="a", to_field="b", requirements=["numpy"]).requirements == ["numpy"]
    with pytest.raises(MissingRequirementsError, match="no_such_package_zz"):
        Copy(field="a", to_field="b", requirements=["no_such_package_zz"])


def test_inert_fields_are_taken_documented_and_warn_only_off_their_default():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        augmentor = AugmentWhitespace(use_query=None, not_exist_ok=False)  # the defaults: silent
    assert augmentor.not_exist_ok is False
    with pytest.warns(UserWarning, match=r"AugmentWhitespace\.not_exist_ok has no effect"):
        AugmentWhitespace(not_exist_ok=True)
    assert any("`not_exist_ok`: a missing field is handled" in (klass.__doc__ or "")
               for klass in type(augmentor).__mro__)
    with pytest.warns(UserWarning, match=r"ListSerializer\.get_default has no effect"):
        ListSerializer(get_default="x")


def test_a_redeclared_field_is_no_longer_inert():
    """A class that declares a field of its own (the serializer's `field`) makes it real, not inert."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ListSerializer(field="a", to_field="b").field == "a"


def test_the_original_ci_switch_name_turns_intervals_off():
    predictions = ["a", "b", "a", "a", "b", "a"]
    references = [["a"], ["a"], ["a"], ["b"], ["b"], ["a"]]
    with_ci = Accuracy(n_resamples=100).evaluate(predictions, references).global_scores()
    without = Accuracy(n_resamples=100, confidence_interval_calculation=False).evaluate(
        predictions, references).global_scores()
    assert "accuracy_ci_low" in with_ci and "accuracy_ci_low" not in without
    assert without["accuracy"] == with_ci["accuracy"] == pytest.approx(4 / 6)


def test_a_template_passes_an_already_rendered_instance_through():
    template = InputOutputTemplate(input_format="{text}", output_format="{label}")
    rendered = {"source": "s", "target": "t", "references": ["t"], "input_fields": {}, "reference_fields": {}}
    assert template.process(dict(rendered)) == rendered
    again = InputOutputTemplate(input_format="{text}", output_format="{label}", skip_rendered_instance=False)
    instance = {**rendered, "input_fields": {"text": "hello"}, "reference_fields": {"label": "x"}}
    assert again.process(instance)["source"] == "hello"


def test_a_system_prompt_keeps_one_the_instance_has():
    prompt = TextualSystemPrompt("be brief")
    assert prompt.process({"system_prompt": "given"})["system_prompt"] == "given"
    assert TextualSystemPrompt("be brief", skip_rendered_instance=False).process(
        {"system_prompt": "given"})["system_prompt"] == "be brief"


def test_openai_fields_are_sent_and_generate_kwargs_passed():
    engine = OpenAiInferenceEngine(model_name="m", logit_bias={"50256": -100}, service_tier="auto",
                                   parallel_tool_calls=False)
    params = engine.generation_params()
    assert params["logit_bias"] == {"50256": -100} and params["service_tier"] == "auto"
    assert params["parallel_tool_calls"] is False
    hf = HFAutoModelInferenceEngine(model_name="m", num_beams=3, repetition_penalty=1.2, do_sample=True)
    kwargs = hf.hf_generate_kwargs()
    assert (kwargs["num_beams"], kwargs["repetition_penalty"], kwargs["do_sample"]) == (3, 1.2, True)


def test_inert_engine_settings_stay_out_of_the_cache_key():
    plain = OpenAiInferenceEngine(model_name="m").cache_settings()
    with pytest.warns(UserWarning, match="cache_batch_size has no effect"):
        batched = OpenAiInferenceEngine(model_name="m", cache_batch_size=7).cache_settings()
    assert plain == batched
