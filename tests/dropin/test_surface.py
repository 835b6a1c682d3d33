"""Code written for the original runs unchanged (issue 26): its module paths and most used names, the catalog content
of shared names, and old catalog names it renamed (resolved to their successor with a deprecation warning)."""

import importlib
import json
import logging
import sqlite3  # noqa: F401 - the in-memory connector's engine (standard library)
import warnings
from typing import Dict, List, Optional

import pytest

from unitxt.catalog import add_to_catalog, fetch_artifact, get_from_catalog


# ---------------------------------------------------------------- module paths and names
@pytest.mark.parametrize("path,name", [
    ("unitxt.settings_utils", "get_constants"), ("unitxt.error_utils", "UnitxtError"),
    ("unitxt.error_utils", "error_context"), ("unitxt.type_utils", "to_type_string"),
    ("unitxt.formats", "apply_capital_new_line_notation"), ("unitxt.utils", "retry_connection_with_exponential_backoff"),
    ("unitxt.parsing_utils", "separate_inside_and_outside_square_brackets"),
    ("unitxt.text2sql_utils", "InMemoryDatabaseConnector"), ("unitxt.test_utils.catalog", "temp_catalog"),
    ("unitxt.struct_data_operators", "SerializeTableAsMarkdown"), ("unitxt.struct_data_operators", "TransposeTable"),
    ("unitxt.dialog_operators", "SerializeDialog"), ("unitxt.string_operators", "RegexSplit"),
    ("unitxt.stream_operators", "JoinStreams"), ("unitxt.span_lableing_operators", "IobExtractor"),
    ("unitxt.processors", "StanceToProCon"), ("unitxt.metric_utils", "EvaluationResults"),
    ("unitxt.base_metric", "Metric"), ("unitxt.llm_as_judge_from_template", "LLMAsJudge"),
    ("unitxt.register", "register_local_catalog"), ("unitxt.test_utils.artifact", "test_artfifact_saving_and_loading"),
    ("unitxt", "get_constants"), ("unitxt", "dataset_url"), ("unitxt", "register_all_artifacts"),
])
def test_the_original_path_gives_the_name(path, name):
    assert getattr(importlib.import_module(path), name) is not None


def test_old_paths_are_the_modules_of_the_names_not_copies():
    assert importlib.import_module("unitxt.error_utils") is importlib.import_module("unitxt.errors")
    assert importlib.import_module("unitxt.text2sql_utils") is importlib.import_module("unitxt.metrics.sql")
    from unitxt.processors import StanceToProCon
    from unitxt.judges.judgment_processors import StanceToProCon as Home

    assert StanceToProCon is Home


def test_get_constants_is_one_object_with_the_installation_values():
    from unitxt.settings_utils import get_constants

    constants = get_constants()
    assert constants is get_constants()
    assert constants.dataset_url == "unitxt/data" and constants.metric_url == "unitxt/metric"
    assert constants.catalog_dir.endswith("catalog_snapshot") and constants.instance_stream == "__INSTANCE_STREAM__"
    with pytest.raises(AttributeError, match="already set"):
        constants.dataset_url = "elsewhere"


def test_error_context_keeps_the_error_type_and_adds_the_context():
    from unitxt.error_utils import Documentation, UnitxtError, error_context

    with pytest.raises(ValueError) as caught:
        with error_context(None, stage="Loading", card="cards.x"):
            raise ValueError("boom")
    assert "Stage: Loading" in str(caught.value) and "Card: cards.x" in str(caught.value)
    assert str(caught.value).endswith("boom")
    error = UnitxtError("Bad task", Documentation.ADDING_TASK)
    assert "docs/adding_task.html" in str(error) and error.artifact is None


def test_to_type_string_and_inference():
    from unitxt.type_utils import infer_type_string, to_type_string

    assert to_type_string(List[str]) == "List[str]"
    assert to_type_string(Optional[Dict[str, int]]) == "Optional[Dict[str, int]]"
    assert infer_type_string({"a": [1.0]}) == "Dict[str,List[float]]"
    with pytest.raises(ValueError):
        to_type_string(5)


def test_capital_new_line_notation():
    from unitxt.formats import apply_capital_new_line_notation

    assert apply_capital_new_line_notation("a\\Nb\\N\\Nc") == "a\nb\nc"
    assert apply_capital_new_line_notation("\\Nstart") == "start"
    assert apply_capital_new_line_notation("x\n\\Ny") == "x\ny"


def test_retry_with_exponential_backoff_retries_connection_errors_only():
    from unitxt.utils import retry_connection_with_exponential_backoff

    calls = []

    @retry_connection_with_exponential_backoff(max_retries=3, backoff_factor=0)
    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionError("down")
        return "up"

    assert flaky() == "up" and len(calls) == 3

    @retry_connection_with_exponential_backoff(max_retries=3, backoff_factor=0)
    def wrong():
        calls.append(1)
        raise KeyError("not a network error")

    calls.clear()
    with pytest.raises(KeyError):
        wrong()
    assert len(calls) == 1


def test_square_bracket_queries_as_the_original_parses_them():
    from unitxt.parsing_utils import (
        parse_key_equals_value_string_to_dict,
        separate_inside_and_outside_square_brackets,
    )

    assert separate_inside_and_outside_square_brackets("a.b[c=d,e=[1,2]]") == ("a.b", {"c": "d", "e": [1, 2]})
    assert separate_inside_and_outside_square_brackets("abc") == ("abc", None)
    assert separate_inside_and_outside_square_brackets("a[]") == ("a", {})
    assert parse_key_equals_value_string_to_dict("a=true,b=None,c=1.5,e=-3") == {"a": True, "b": None, "c": 1.5,
                                                                                 "e": -3}
    for bad in ("a[b", "a]b[", "a[b=1]c"):
        with pytest.raises(ValueError):
            separate_inside_and_outside_square_brackets(bad)


def test_in_memory_database_connector():
    from unitxt.text2sql_utils import InMemoryDatabaseConnector, get_db_connector

    db = {"db_type": "in_memory", "db_id": None,
          "data": {"users": {"columns": ["id", "name"], "rows": [[1, "a"], [2, "b"]]}}}
    connector = get_db_connector("in_memory")(db)
    assert isinstance(connector, InMemoryDatabaseConnector)
    assert connector.get_table_schema() == "CREATE TABLE `users` (`id` TEXT, `name` TEXT);"
    assert connector.execute_query("SELECT name FROM users ORDER BY id") == ([("a",), ("b",)], None)
    rows, error = connector.execute_query("SELECT nope FROM users")
    assert rows is None and "no such column: nope" in error
    with pytest.raises(ValueError):
        InMemoryDatabaseConnector({"db_type": "in_memory", "data": None})


def test_temp_catalog_receives_writes_and_disappears():
    from unitxt.operators import Set
    from unitxt.test_utils.catalog import temp_catalog

    with temp_catalog() as path:
        add_to_catalog(Set(fields={"a": 1}), "operators.dropin_temp_probe", verbose=False)
        assert get_from_catalog("operators.dropin_temp_probe").fields == {"a": 1}
        assert (importlib.import_module("pathlib").Path(path) / "operators" / "dropin_temp_probe.json").exists()
    with pytest.raises(LookupError):
        get_from_catalog("operators.dropin_temp_probe")


# ---------------------------------------------------------------- public test helpers
def test_check_operator_saves_and_reloads_sorts_and_compares():
    from unitxt.operators import Set
    from unitxt.test_utils.operators import apply_operator, check_operator, check_operator_exception

    operator = Set(fields={"b": 1})
    assert check_operator(operator, [{"a": 2}, {"a": 1}], [{"a": 1, "b": 1}, {"a": 2, "b": 1}], sort_outputs_by="a")
    with pytest.raises(AssertionError):
        check_operator(operator, [{"a": 1}], [{"a": 1, "b": 2}])
    assert apply_operator(operator, [{"a": 1}]) == [{"a": 1, "b": 1}]
    check_operator_exception(fetch_artifact("processors.literal_eval")[0], [{"prediction": "(", "references": []}],
                             ["Cannot read"])
    with pytest.raises(AssertionError, match="Did not receive expected exception: anything"):
        check_operator_exception(operator, [{"a": 1}], "anything")


def test_check_operator_refuses_an_operator_that_changes_when_reloaded():
    from unitxt.operators import Set
    from unitxt.test_utils.artifact import ArtifactRoundTripError, test_artifact_saving_and_loading
    from unitxt.test_utils.operators import check_operator

    assert test_artifact_saving_and_loading(Set(fields={"x": [1, 2]})).fields == {"x": [1, 2]}
    with pytest.raises(ArtifactRoundTripError, match="can not be saved"):
        test_artifact_saving_and_loading(Set(fields={"x": {1, 2}}))  # a set has no JSON form
    with pytest.raises(AssertionError):
        check_operator(Set(fields={"x": {1, 2}}), [{"a": 1}], [{"a": 1, "x": {1, 2}}])


def test_metric_helpers_of_the_original():
    from unitxt.test_utils.metrics import check_scores, round_floats, test_metric

    assert round_floats({"a": 0.12345, "b": [0.555, {"c": 1.0049}], "d": "x"}) == {"a": 0.12, "b": [0.56, {"c": 1.0}],
                                                                                 "d": "x"}
    check_scores({"score": 0.5}, [{"score": 1.0}], {"score": 0.5}, [{"score": 1.0}])
    with pytest.raises(AssertionError, match="global score"):
        check_scores({"score": 0.5}, [{"score": 1.0}], {"score": 0.6}, [{"score": 1.0}])
    metric = fetch_artifact("metrics.accuracy")[0]
    assert test_metric(metric, ["a", "b"], [["a"], ["c"]],
                       instance_targets=[{"accuracy": 1.0, "score": 1.0, "score_name": "accuracy"},
                                         {"accuracy": 0.0, "score": 0.0, "score_name": "accuracy"}],
                       global_target={"accuracy": 0.5, "score": 0.5, "score_name": "accuracy",
                                      "accuracy_ci_low": 0.0, "accuracy_ci_high": 1.0, "score_ci_low": 0.0,
                                      "score_ci_high": 1.0},
                       score_keys_to_ignore=None)


# ---------------------------------------------------------------- catalog content of shared names
def test_shared_tasks_hold_the_original_defaults():
    assert fetch_artifact("tasks.qa.open")[0].defaults == {"answers": []}
    assert fetch_artifact("tasks.qa.with_context")[0].defaults == {"answers": []}
    assert fetch_artifact("tasks.classification.multi_class")[0].defaults["type_of_class"] == "class"
    zero_or_one = fetch_artifact("tasks.classification.binary.zero_or_one")[0]
    assert zero_or_one.reference_fields == {"class": "str", "label": "int"} and zero_or_one.prediction_type == "float"


def test_a_question_alone_fills_tasks_qa_open():
    task = fetch_artifact("tasks.qa.open")[0]
    instance = task.process_instance({"question": "Why?"})
    assert instance["reference_fields"] == {"answers": []}


def test_templates_empty_renders_the_input_values():
    template = fetch_artifact("templates.empty")[0]
    out = template.process_instance({"input_fields": {"text": "hi", "classes": ["a", "b"]},
                                     "reference_fields": {"label": "a"}})
    assert out["source"] == "hi, a, b" and out["target"] == "a" and out["references"] == ["a"]


@pytest.mark.parametrize("name", ["processors.lower_case", "processors.take_first_word", "processors.yes_no_to_int",
                                  "processors.to_string_stripped", "processors.stance_to_pro_con",
                                  "processors.to_yes_or_none", "processors.str_to_float_format"])
def test_a_catalog_processor_applies_to_prediction_and_references(name):
    processor = fetch_artifact(name)[0]
    value = processor.process_instance({"prediction": "Yes now", "references": ["Yes now"]})
    assert value["references"] == [value["prediction"]]


def test_prediction_only_processors_leave_references_alone():
    out = fetch_artifact("processors.predictions_yes_1_else_0")[0].process_instance(
        {"prediction": "yes", "references": ["yes"]})
    assert out == {"prediction": "1", "references": ["yes"]}  # a string "1", as the original gives
    out = fetch_artifact("processors.load_json_from_predictions")[0].process_instance(
        {"prediction": "not json", "references": ['{"a": 1}']})
    assert out == {"prediction": [], "references": ['{"a": 1}']}


def test_a_processor_without_field_outside_evaluation_says_what_is_missing():
    with pytest.raises(AssertionError, match="No field to operate on"):
        fetch_artifact("processors.lower_case")[0].process_instance({"text": "A"})


def test_new_shared_templates_render():
    template = fetch_artifact("templates.qa.with_context.simple")[0]
    out = template.process_instance({"input_fields": {"context": "c", "question": "q"},
                                     "reference_fields": {"answers": ["a"]}})
    assert out["source"] == "Context: c\nQuestion: q" and out["references"] == ["a"]
    judge = fetch_artifact("templates.rag_eval.answer_correctness.judge_loose_match_no_context")[0]
    assert judge.postprocessors[-2:] == ["processors.predictions_yes_1_else_0",
                                         "processors.cast_to_float_return_zero_if_failed"]
    for name in judge.postprocessors:
        fetch_artifact(name)


# ---------------------------------------------------------------- renamed names
@pytest.mark.parametrize("old,new", [
    ("metrics.llm_as_judge.direct.criterias.answer_relevance", "metrics.llm_as_judge.direct.criteria.answer_relevance"),
    ("metrics.llm_as_judge.pairwise.criterias.coherence", "metrics.llm_as_judge.pairwise.criteria.coherence"),
    ("metrics.llm_as_judge.rating.llama_3_8b_instruct_ibm_genai_template_mt_bench_single_turn",
     "metrics.llm_as_judge.rating.llama_3_3_70b_instruct_watsonx_template_mt_bench_single_turn"),
    ("metrics.rag.mrr", "metrics.rag.external_rag.context_correctness.mrr"),
    ("metrics.rag.answer_correctness.llama_3_1_70b_instruct_wml_q_a_gt_loose_logprobs",
     "metrics.rag.answer_correctness.llama_3_3_70b_instruct_watsonx_judge_logprobs"),
])
def test_a_renamed_name_gives_its_successor_with_a_warning_naming_it(old, new, caplog):
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING, logger="unitxt"):
        warnings.simplefilter("always")
        artifact = fetch_artifact(old)[0]
    assert json.dumps(artifact.to_dict(), sort_keys=True) == json.dumps(fetch_artifact(new)[0].to_dict(),
                                                                        sort_keys=True)
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert any(old in message and new in message for message in messages), messages
    assert any(new in record.getMessage() for record in caplog.records)


def test_a_renamed_criteria_works_inside_a_judge_query():
    judge = fetch_artifact("metrics.llm_as_judge.direct.rits.llama3_3_70b[criteria=metrics.llm_as_judge.direct."
                           "criterias.answer_relevance, context_fields=[question]]")[0]
    criteria = judge.criteria if not isinstance(judge.criteria, str) else fetch_artifact(judge.criteria)[0]
    assert criteria.name == "answer_relevance"


def test_dataclass_of_the_original_declares_fields_without_becoming_a_catalog_type():
    from unitxt.artifact import registered_artifact_types
    from unitxt.dataclass import Dataclass, RequiredFieldError, UnexpectedArgumentError, is_dataclass

    class Point(Dataclass):
        x: int = 0
        label: str

    point = Point(label="p")
    assert (point.x, point.label) == (0, "p") and is_dataclass(point) and is_dataclass(Point)
    with pytest.raises(RequiredFieldError):
        Point()
    with pytest.raises(UnexpectedArgumentError):
        Point(label="p", z=1)
    with pytest.raises(TypeError):  # the original's field errors are TypeErrors
        Point()
    assert "point" not in registered_artifact_types()
