"""Shared catalog names hold what the original's hold: task fields and defaults, what templates.empty renders, and
catalog processors applied directly to an evaluation instance (the prediction and every reference, or the
prediction only where the original says so) - compared with the oracle on the same inputs."""

import json
import logging

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.errors import UnitxtError

from .test_catalog_loads import oracle_catalog_folder

# names of issue 26 item 4 (added or changed here) and the processors that used to refuse direct use
TASKS = ["tasks.qa.open", "tasks.qa.with_context", "tasks.classification.multi_class",
         "tasks.classification.binary.zero_or_one",
         # added for issue 28 (scripts/catalog_sources/tasks_more.py)
         "tasks.tool_calling.supervised", "tasks.tool_calling.multi_turn", "tasks.text2sql", "tasks.text2sql_logic",
         "tasks.schema_linking", "tasks.completion.abstractive", "tasks.completion.extractive",
         "tasks.completion.multiple_choice", "tasks.key_value_extraction",
         "tasks.classification.multi_class.with_classes_descriptions", "tasks.evaluation.preference",
         "tasks.rewriting.by_attribute", "tasks.selection.by_attribute",
         "tasks.qa.multiple_choice.with_context.with_topic", "tasks.qa.with_context.with_domain",
         "tasks.qa.with_context.with_type", "tasks.rag.corpora"]
# (templates.rag_eval.answer_correctness.judge_loose_match_no_context is left out: our rag_eval judge templates keep
# our judge-task schema, a `score` field, not the original's is_correct / number_val - see exceptions.md)
NEW_NAMES = ["tasks.qa.with_context", "tasks.classification.binary.zero_or_one", "templates.qa.with_context.simple",
             "templates.rag.response_generation.please_respond"]
PROCESSORS = ["stance_to_pro_con", "to_yes_or_none", "str_to_float_format", "predictions_yes_1_else_0",
              "load_json_from_predictions", "extract_verbal_judgement", "to_span_label_pairs_surface_only",
              "lower_case", "upper_case", "take_first_word", "yes_no_to_int", "to_string_stripped",
              "cast_to_float_return_zero_if_failed", "first_character", "get_string_after_colon", "to_list_by_comma",
              "remove_punctuations", "remove_articles", "fix_whitespace", "take_first_non_empty_line",
              "lower_case_till_punc", "convert_to_boolean", "to_span_label_pairs", "load_json",
              "take_last_non_empty_line", "to_list_by_comma_space", "to_string", "substring"]
VALUES = ["Yes", "no", "  Maybe so.  ", "7", "3.50", "[1, 2]", '{"a": 1}', "None", "a, b, c", "Bad", "Good",
          "The cat, sat", "Positive stance", "Line one\nLine two", "", "agree", "disagree", "x: y"]


@pytest.fixture(scope="module")
def original_catalog():
    return oracle_catalog_folder()


def original_entry(folder, name):
    return json.loads((folder / ("/".join(name.split(".")) + ".json")).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", TASKS)
def test_task_has_the_original_fields_and_defaults(name, original_catalog):
    theirs = original_entry(original_catalog, name)
    ours = fetch_artifact(name)[0].to_dict()
    for key in ("input_fields", "reference_fields", "prediction_type"):
        assert ours.get(key) == theirs.get(key), (name, key)
    if name in TASKS[4:]:  # the tasks added for issue 28 also have the original's metrics and default template
        for key in ("metrics", "augmentable_inputs"):
            assert ours.get(key) == theirs.get(key), (name, key)
        # where the original names no default template, ours names one of the task's templates (tasks_more.py)
        assert ours.get("default_template") == theirs.get("default_template") or (
            "default_template" not in theirs and ours["default_template"].startswith("templates.")), name
    assert ours.get("defaults", {}) == theirs.get("defaults", {}), name


@pytest.mark.parametrize("name", NEW_NAMES)
def test_the_original_name_exists_with_its_type(name, original_catalog):
    theirs = original_entry(original_catalog, name)
    ours = fetch_artifact(name)[0].to_dict()
    assert ours["__type__"] == theirs["__type__"]
    for key in ("input_format", "references_field", "output_format", "reference", "target_prefix",
                "postprocessors"):
        if key in theirs:
            assert ours[key] == theirs[key], (name, key)


def test_templates_empty_renders_the_fields_the_original_renders(oracle, original_catalog):
    instances = [{"input_fields": {"question": "What?"}, "reference_fields": {"answers": ["a", "b"]}},
                 {"input_fields": {"text": "hi", "classes": ["a", "b"]}, "reference_fields": {"label": "a"}},
                 {"input_fields": {"input": "x"}, "reference_fields": {"output": "y"}}]
    theirs = oracle([{"kind": "operator", "artifact": original_entry(original_catalog, "templates.empty"),
                      "instances": instances}])[0]["instances"]
    template = fetch_artifact("templates.empty")[0]
    for instance, original in zip(instances, theirs):
        ours = template.process_instance(json.loads(json.dumps(instance)))
        for key in ("source", "target", "references"):
            assert ours[key] == original[key], (instance, key)


@pytest.fixture(scope="module")
def oracle_direct_results(oracle):
    jobs = [{"kind": "processor", "name": f"processors.{name}", "predictions": VALUES,
             "references": [[value, value.upper()] for value in VALUES]} for name in PROCESSORS]
    return dict(zip(PROCESSORS, oracle(jobs)))


@pytest.mark.parametrize("name", PROCESSORS)
def test_catalog_processor_applied_to_an_instance_as_the_original(name, oracle_direct_results):
    """`fetch_artifact("processors.x")[0].process_instance({"prediction", "references"})`: same values, or both
    refuse."""
    theirs = oracle_direct_results[name]
    assert "error" not in theirs, theirs.get("error")
    processor = fetch_artifact(f"processors.{name}")[0]
    logging.disable(logging.WARNING)
    try:
        for value, original in zip(VALUES, theirs["instances"]):
            try:
                out = processor.process_instance({"prediction": value, "references": [value, value.upper()]})
                ours = {"prediction": out["prediction"], "references": out["references"]}
            except (UnitxtError, ValueError, TypeError):
                ours = {"error": "refused"}
            if "error" in original:
                assert "error" in ours, f"{name} {value!r}: the original refuses, we give {ours!r}"
                continue
            assert json.loads(json.dumps(ours)) == json.loads(json.dumps(original)), f"{name} {value!r}"
    finally:
        logging.disable(logging.NOTSET)
