"""Post-processors give the original's shapes: (span, label) tuples, no field added that was not there, task data
read from the instance when used with `field`, and the original's true/false words."""

from unitxt.artifact import fetch_artifact
from unitxt.processors import ConvertToBoolean, MatchClosestOption


def test_pairs_are_tuples():
    pairs, _ = fetch_artifact("processors.dict_of_lists_to_value_key_pairs")
    out = pairs.process_instance({"prediction": {"ORG": ["Acme"], "LOC": ["Oslo"]}, "references": [{}]})
    assert out["prediction"] == [("Acme", "ORG"), ("Oslo", "LOC")] and out["references"] == [[]]
    spans, _ = fetch_artifact("processors.to_span_label_pairs")
    assert spans.process_instance({"prediction": "Acme: ORG"})["prediction"] == [("Acme", "ORG")]


def test_a_missing_references_field_stays_missing_and_unprocessed_fields_stay_as_they_are():
    lowered, _ = fetch_artifact("processors.lower_case")
    assert lowered.process_instance({"prediction": "ABC"}) == {"prediction": "abc"}
    loader, _ = fetch_artifact("processors.load_json_from_predictions")
    out = loader.process_instance({"prediction": '{"k": 1}', "references": '{"k": 1}'})
    assert out == {"prediction": {"k": 1}, "references": '{"k": 1}'}


def test_match_closest_option_as_a_field_step_uses_the_instance_task_data():
    out = MatchClosestOption(field="prediction").process_instance(
        {"prediction": "bluee", "task_data": {"options": ["red", "blue"]}})
    assert out["prediction"] == "blue"


def test_convert_to_boolean_words():
    convert = ConvertToBoolean()
    assert [convert.process_value(text) for text in ("quite right", "correct", "wrong", "incorrect", "maybe")] == [
        "TRUE", "TRUE", "FALSE", "TRUE", "OTHER"]
