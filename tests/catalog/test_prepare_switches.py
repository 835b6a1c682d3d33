"""Catalog-building code written for the original runs here and saves the same JSON: its environment switches
(UNITXT_TEST_CARD_DISABLE, UNITXT_TEST_METRIC_DISABLE, UNITXT_SKIP_ARTIFACTS_PREPARE_AND_VERIFY), saved entries that
hold the arguments as given (nothing derived), catalog-fetched parts written by name, links with a null message, the
original's engine ids and the names its catalog scripts import."""

import json
import os

import pytest

from unitxt.artifact import Artifact, fetch_artifact
from unitxt.catalog import add_link_to_catalog, add_to_catalog
from unitxt.errors import UnitxtError
from unitxt.test_utils.catalog import temp_catalog


def saved(path: str, name: str) -> dict:
    with open(os.path.join(path, *name.split(".")) + ".json") as f:
        return json.load(f)


# ---------------------------------------------------------------- switches
def test_test_card_disable_returns_before_touching_the_card(monkeypatch):
    from unitxt.test_utils.card import test_card

    monkeypatch.setenv("UNITXT_TEST_CARD_DISABLE", "True")
    assert test_card("cards.this_card_does_not_exist") is None  # not even resolved
    monkeypatch.setenv("UNITXT_TEST_CARD_DISABLE", "False")
    with pytest.raises(UnitxtError):
        test_card("cards.this_card_does_not_exist")


def test_test_metric_disable_returns_before_scoring(monkeypatch):
    from unitxt.metrics import Accuracy
    from unitxt.test_utils.metrics import test_metric

    wrong_target = {"accuracy": 0.123}
    monkeypatch.setenv("UNITXT_TEST_METRIC_DISABLE", "True")
    assert test_metric(Accuracy(), ["a"], [["a"]], [wrong_target], wrong_target) is None
    monkeypatch.delenv("UNITXT_TEST_METRIC_DISABLE")
    with pytest.raises(AssertionError):
        test_metric(Accuracy(), ["a"], [["a"]], [wrong_target], wrong_target)


class _Picky(Artifact):
    value: int = 0

    def verify(self) -> None:
        if self.value < 0:
            raise UnitxtError("value must not be negative")


def test_skip_artifacts_prepare_and_verify_builds_unchecked(monkeypatch):
    with pytest.raises(UnitxtError, match="must not be negative"):
        _Picky(value=-1)
    monkeypatch.setenv("UNITXT_SKIP_ARTIFACTS_PREPARE_AND_VERIFY", "True")
    assert _Picky(value=-1).value == -1


def test_the_original_switches_are_settings():
    from unitxt.settings_utils import get_settings

    settings = get_settings()
    for name in ("test_card_disable", "test_metric_disable", "use_only_local_catalogs",
                 "skip_artifacts_prepare_and_verify"):
        assert getattr(settings, name) is False
        assert getattr(settings, f"{name}_key") == f"UNITXT_{name.upper()}"


# ---------------------------------------------------------------- what is saved
def test_saved_fields_are_the_given_arguments_not_derived_values():
    from unitxt.inference import WMLInferenceEngineGeneration
    from unitxt.metrics import LlamaIndexFaithfulness
    from unitxt.operators import JoinStreams

    join = JoinStreams(left_stream="a", right_stream="b", how="inner", on="id", new_stream_name="c")
    assert join.to_dict()["on"] == "id"
    engine = WMLInferenceEngineGeneration(model_name="m", random_seed=42)
    assert engine.seed == 42 and "seed" not in engine.to_dict() and engine.to_dict()["random_seed"] == 42
    judge = LlamaIndexFaithfulness(model_name="mock")
    assert judge.main_score == "llama_index_by_mock_judge"
    assert judge.to_dict() == {"__type__": "llama_index_faithfulness", "model_name": "mock"}


def test_a_field_set_after_construction_is_saved():
    from unitxt.operators import JoinStreams

    join = JoinStreams(left_stream="a", right_stream="b", how="inner", on="id", new_stream_name="c")
    join.new_stream_name = "d"
    assert join.to_dict()["new_stream_name"] == "d"


def test_catalog_fetched_parts_are_saved_by_name_and_links_with_a_null_message():
    from unitxt.templates import InputOutputTemplate, TemplatesList

    with temp_catalog() as path:
        add_to_catalog(InputOutputTemplate(input_format="{text}", output_format="{label}"), "templates.t1",
                       overwrite=True)
        fetched, _ = fetch_artifact("templates.t1")
        add_to_catalog(TemplatesList([fetched, InputOutputTemplate(input_format="{x}", output_format="{y}")]),
                       "templates.all", overwrite=True)
        items = saved(path, "templates.all")["items"]
        assert items[0] == "templates.t1" and items[1]["__type__"] == "input_output_template"
        add_link_to_catalog("templates.t1", "templates.old_t1", overwrite=True)
        assert saved(path, "templates.old_t1") == {"__type__": "artifact_link", "to": "templates.t1",
                                                   "__deprecated_msg__": None}


# ---------------------------------------------------------------- engine ids
def test_engine_ids_are_the_original_ones():
    from unitxt.inference import (AzureOpenAIInferenceEngine, CrossProviderInferenceEngine,
                                  WMLInferenceEngineGeneration)
    from unitxt.inference.base import get_model_and_label_id

    assert get_model_and_label_id("org/Model-3.1-8B", "wml") == "model_3,1_8b_wml"
    assert WMLInferenceEngineGeneration(model_name="mistralai/mixtral-8x7b-instruct-v01").get_engine_id() == \
        "mixtral_8x7b_instruct_v01_wml"
    assert AzureOpenAIInferenceEngine(model_name="gpt-4o-2024-08-06").get_engine_id() == \
        "gpt_4o_2024_08_06_azure_openai"
    assert CrossProviderInferenceEngine(model="mistral-large-instruct", provider="watsonx").get_engine_id() == \
        "mistral_large_watsonx"
    assert CrossProviderInferenceEngine(model="llama-3-3-70b-instruct", provider="ollama").get_engine_id() == \
        "llama3,3_ollama"


# ---------------------------------------------------------------- names the original's scripts import
def test_criteria_enums_hold_the_predefined_criteria():
    from unitxt.llm_as_judge_constants import DirectCriteriaCatalogEnum, PairwiseCriteriaCatalogEnum

    assert DirectCriteriaCatalogEnum.TOXICITY.value.name == "toxicity"
    assert DirectCriteriaCatalogEnum.JAILBREAK_USER_MESSAGE.value.name == "user_message_jailbreak"
    assert DirectCriteriaCatalogEnum.STEP_BY_STEP_REASONING_MISSING_STEPS.value.option_map == {"Yes": 0.0, "No": 1.0}
    assert len(DirectCriteriaCatalogEnum) == 63 and len(PairwiseCriteriaCatalogEnum) == 7


def test_granite_guardian_risk_table():
    from unitxt.metrics import RISK_TYPE_TO_CLASS, GraniteGuardianBase, RiskType

    assert RiskType.USER_MESSAGE.value == "user_risk"
    made = RISK_TYPE_TO_CLASS[RiskType.ASSISTANT_MESSAGE](risk_name="harm")
    assert made.to_dict() == {"__type__": "granite_guardian_assistant_risk", "risk_name": "harm"}
    assert sum(len(names) for names in GraniteGuardianBase.available_risks.values()) == 15
    assert {kind.value: cls.__name__ for kind, cls in RISK_TYPE_TO_CLASS.items()} == {  # the original's table
        "user_risk": "GraniteGuardianUserRisk", "assistant_risk": "GraniteGuardianAssistantRisk",
        "rag_risk": "GraniteGuardianRagRisk", "agentic_risk": "GraniteGuardianAgenticRisk",
        "custom_risk": "GraniteGuardianCustomRisk"}


def test_instance_field_operator_is_the_field_operator_base():
    from unitxt.operators import FieldOperator, InstanceFieldOperator, Set

    assert InstanceFieldOperator is FieldOperator
    assert not issubclass(Set, InstanceFieldOperator)


def test_sql_logic_accuracy_runs_the_prediction_with_the_gold_select_list():
    from unitxt.metrics import SQLExecutionLogicAccuracy
    from unitxt.metrics.sql import with_select_list_of

    assert with_select_list_of("SELECT id FROM t", "SELECT name, (SELECT 1 FROM u) FROM t WHERE a > 3") == \
        "SELECT id FROM t WHERE a > 3"
    assert with_select_list_of("SELECT id FROM t", "UPDATE t SET a = 1") == ""
    db = {"db_type": "in_memory", "data": {"people": {"columns": ["id", "name", "age"],
                                                      "rows": [[1, "Ann", 40], [2, "Bob", 20]]}}}
    metric = SQLExecutionLogicAccuracy()
    same_logic = metric.compute(["SELECT id FROM people WHERE age > 30"],
                                "SELECT name FROM people WHERE age > 30", {"db": db})
    other_logic = metric.compute(["SELECT id FROM people WHERE age > 30"],
                                 "SELECT name FROM people WHERE age < 30", {"db": db})
    assert same_logic["execution_accuracy"] == 1.0 and other_logic["execution_accuracy"] == 0.0


def test_extract_with_regex_gives_the_first_findall_match_as_the_original():
    from unitxt.processors import ExtractWithRegex

    parser = ExtractWithRegex(regex=r"\[\[(.*?)\]\]", field="x")
    assert parser.process_value("so my final answer is [[Yes]] and [[No]]") == "Yes"
    assert parser.process_value("no brackets") == ""
    assert ExtractWithRegex(regex=r"a(b)(c)", field="x").process_value("abc") == ("b", "c")
    assert ExtractWithRegex(regex="(.*)", group=1, field="x").process_value("whole") == "whole"


def test_evaluators_metadata_builds_the_original_judge_names():
    from unitxt.llm_as_judge_constants import (EVALUATORS_METADATA, EvaluatorNameEnum, EvaluatorTypeEnum,
                                               ModelProviderEnum)
    from unitxt.llm_as_judge_utils import get_evaluator_metadata

    metadata = get_evaluator_metadata(EvaluatorNameEnum.LLAMA3_3_70B)
    assert metadata.name is EvaluatorNameEnum.LLAMA3_3_70B and metadata.name.name == "LLAMA3_3_70B"
    assert metadata.name == "Llama3.3-70b"  # a str Enum: equal to its value, as the original's
    assert metadata.name.value.lower().replace("-", "_").replace(".", "_") == "llama3_3_70b"
    assert ModelProviderEnum.AZURE in metadata.providers and ModelProviderEnum.AZURE.value == "azure"
    assert EvaluatorTypeEnum.PAIRWISE.value == "pairwise"
    assert sum(len(entry.providers) for entry in EVALUATORS_METADATA) == 59
    with pytest.raises(ValueError, match="does not exist"):
        get_evaluator_metadata("NO_SUCH_JUDGE")
