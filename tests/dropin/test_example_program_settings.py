"""What the original's example programs and the spec's programs rely on: mock inference mode, the example-test
settings, results rows' task_data, judges' inputs and score keys, and the names those programs use."""

import json
import math

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt import create_dataset, evaluate, settings
from unitxt.catalog import fetch_artifact
from unitxt.inference import (
    CrossProviderInferenceEngine,
    HFPipelineBasedInferenceEngine,
    LiteLLMInferenceEngine,
    OpenAiInferenceEngine,
    WMLInferenceEngineGeneration,
)

ROWS = [{"source": "Say hi.", "data_classification_policy": ["proprietary"]},
        {"source": [{"role": "user", "content": "chat"}], "data_classification_policy": ["public"]}]


@pytest.fixture
def mock_mode():
    with settings.context(mock_inference_mode=True):
        yield


@pytest.mark.parametrize("engine", [
    LiteLLMInferenceEngine(model="watsonx/x"), HFPipelineBasedInferenceEngine(model_name="google/flan-t5-small"),
    WMLInferenceEngineGeneration(model_name="ibm/granite"), CrossProviderInferenceEngine(model="llama-3-8b-instruct"),
    OpenAiInferenceEngine(model_name="gpt-4o")], ids=lambda engine: type(engine).__name__)
def test_mock_mode_answers_without_package_credentials_or_service(mock_mode, engine):
    """As the original's mock: the source as text, log-probs one "[[10]]" token; nothing is sent, so nothing is
    refused by data policy."""
    assert engine.infer(ROWS) == ["Say hi.", str(ROWS[1]["source"])]
    assert [output.prediction for output in engine.infer(ROWS, return_meta_data=True)] == ["Say hi.",
                                                                                          str(ROWS[1]["source"])]
    if engine.supports_log_probs():
        assert engine.infer_log_probs(ROWS[:1]) == [[{"logprob": -1, "text": "[[10]]",
                                                      "top_tokens": [{"logprob": -1, "text": "[[10]]"}]}]]


def test_mock_mode_from_the_environment(monkeypatch):
    monkeypatch.setenv("UNITXT_MOCK_INFERENCE_MODE", "True")
    assert LiteLLMInferenceEngine(model="watsonx/x").infer(ROWS[:1]) == ["Say hi."]


def test_global_loader_limit_caps_loaders_but_not_in_memory_data(tmp_path):
    from unitxt.loaders import LoadCSV, LoadFromDictionary

    path = tmp_path / "rows.csv"
    path.write_text("text,label\n" + "".join(f"t{i},{i % 2}\n" for i in range(9)))
    with settings.context(global_loader_limit=4):
        assert len(list(LoadCSV(files={"test": str(path)}).process()["test"])) == 4
        assert len(list(LoadCSV(files={"test": str(path)}, loader_limit=2).process()["test"])) == 2
        assert LoadCSV(files={"test": str(path)}, loader_limit=2).get_limiter() == "LoadCSV.loader_limit"
        assert LoadCSV(files={"test": str(path)}).get_limiter() == "unitxt.settings.global_loader_limit"
        data = {"test": [{"text": f"t{i}"} for i in range(6)]}
        assert len(list(LoadFromDictionary(data=data).process()["test"])) == 6
    assert len(list(LoadCSV(files={"test": str(path)}).process()["test"])) == 9


def test_results_rows_carry_task_data_as_a_dict_with_the_source():
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "What is 1+1?", "answers": ["2"]}],
                             split="test", metrics=["metrics.accuracy"])
    assert isinstance(dataset[0]["task_data"], str)  # dataset rows keep the JSON string
    row = evaluate(predictions=["2"], data=dataset)[0]
    assert row["task_data"]["question"] == "What is 1+1?" and row["task_data"]["answers"] == ["2"]
    assert row["task_data"]["source"] == row["source"] and row["task_data"]["metadata"]["num_demos"] == 0


def _rating_judge(engine, strip):
    from unitxt.llm_as_judge_from_template import LLMAsJudge

    return LLMAsJudge(inference_model=engine, template="templates.response_assessment.rating.mt_bench_single_turn",
                      task="rating.single_turn", format="formats.chat_api", main_score="judge",
                      strip_system_prompt_and_format_from_inputs=strip)


@pytest.mark.parametrize("strip", [True, False])
def test_rating_judge_sees_the_evaluated_input_as_the_original(tmp_path, strip):
    """Stripped: the instance re-rendered by its template with the plain format (no system prompt); else the source
    the model got. Never the task fields as "key: value" lines, never the reference answer."""
    with OpenAIProtocolServer(answer=lambda request: "Rating: [[8]]") as server:
        engine = OpenAiInferenceEngine(model_name="judge", base_url=server.base_url, credentials={"api_key": "k"},
                                       cache_dir=str(tmp_path), show_progress=False)
        dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "What is 1+1?", "answers": ["2"]}],
                                 split="test", metrics=[_rating_judge(engine, strip)],
                                 template="templates.qa.open.title", system_prompt="system_prompts.models.llama2")
        row = evaluate(predictions=["2"], data=dataset)[0]
        shown = server.requests[0]["messages"][-1]["content"]
    assert row["score"]["instance"]["judge"] == 0.8
    assert "Question:\nWhat is 1+1?" in shown and "answers:" not in shown and "question:" not in shown
    assert ("You are a helpful" in shown) is (not strip)


def test_direct_judge_on_the_users_own_server_scores_proprietary_rows_with_the_original_keys(tmp_path):
    from unitxt.llm_as_judge import CriteriaOption, CriteriaWithOptions, LLMJudgeDirect

    criteria = CriteriaWithOptions(name="Gives Units", description="Does the answer give units?",
                                   options=[CriteriaOption(name="Yes", description=""),
                                            CriteriaOption(name="No", description="")],
                                   option_map={"Yes": 1.0, "No": 0.0})
    with OpenAIProtocolServer(answer=lambda request: "Yes") as server:
        engine = OpenAiInferenceEngine(model_name="openai/gpt-oss-120b", base_url=server.base_url,
                                       credentials={"api_key": "k"}, cache_dir=str(tmp_path), show_progress=False)
        judge = LLMJudgeDirect(inference_engine=engine, criteria=criteria, context_fields=["question"])
        dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "How far?", "answers": ["5 km"]}],
                                 metrics=[judge], split="test")  # user data: proprietary
        scores = evaluate(predictions=["Five km."], data=dataset)[0]["score"]["instance"]
        assert server.count > 0
    assert engine.get_engine_id() == "gpt_oss_120b_openai"
    assert scores["gives_units"] == 1.0 and scores["gives_units_using_gpt_oss_120b_openai_openai"] == 1.0
    assert list(scores["gives_units_prompts"]) == ["assessment", "positional_bias_assessment", "option_selection",
                                                   "posional_bias_option_selection"]


def test_prefixed_direct_judges_keep_the_older_score_keys(mock_mode):
    name = ("metrics.llm_as_judge.direct.rits.llama3_1_70b[context_fields=[question],criteria=metrics.llm_as_judge."
            "direct.criterias.answer_relevance,score_prefix=answer_relevance_]")
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "How far?", "answers": ["5 km"]}],
                             metrics=[name], split="test")
    scores = evaluate(predictions=["Five km."], data=dataset)[0]["score"]["instance"]
    assert "answer_relevance_llm_as_a_judge_score" in scores and "answer_relevance_positional_bias" in scores
    # mock mode: the judge settles on the option closest to its echoed verdict request, "Could be Improved" (0.5),
    # as the original's judge does
    assert scores["answer_relevance_llm_as_a_judge_score"] == 0.5 and scores["score"] == 0.5


def test_names_the_spec_programs_use():
    for criteria in ("temperature_in_celsius_and_fahrenheit", "funny_joke", "summarization_preference"):
        linked = fetch_artifact(f"metrics.llm_as_judge.pairwise.criterias.{criteria}")[0]
        assert linked.to_dict() == fetch_artifact(f"metrics.llm_as_judge.pairwise.criteria.{criteria}")[0].to_dict()
    judge = fetch_artifact("metrics.llm_as_judge.rating.llama_3_70b_instruct_ibm_genai_template_generic_single_turn")[0]
    assert judge.main_score == "llama_3_70b_instruct_template_generic_single_turn"
    rag = fetch_artifact("metrics.rag.answer_correctness.llama_3_1_70b_instruct_wml_q_a_gt_loose_logprobs"
                         "[model=engines.classification.gpt_4_1_openai]")[0]
    assert rag.inference_model.to_dict() == fetch_artifact("engines.classification.gpt_4_1_openai")[0].to_dict()


def test_cross_provider_judge_forgets_unreadable_answers_in_its_provider_engine(tmp_path, monkeypatch):
    answers = ["no rating here"]
    with OpenAIProtocolServer(answer=lambda request: answers[0]) as server:
        monkeypatch.setenv("LITELLM_API_URL", server.base_url)
        monkeypatch.setenv("UNITXT_INFERENCE_CACHE_DIR", str(tmp_path))
        name = "metrics.llm_as_judge.rating.llama_3_70b_instruct.generic_single_turn"
        inputs = (["a summary"], [["ref"]], [{"source": "Summarize: x", "metadata": {}}])
        judge = fetch_artifact(name)[0]
        assert math.isnan(judge.evaluate(*inputs).instance_scores[0][judge.main_score])
        answers[0] = "Rating: [[6]]"
        judge = fetch_artifact(name)[0]
        assert judge.evaluate(*inputs).instance_scores[0][judge.main_score] == 0.6 and server.count == 2


def test_granite_guardian_risk_names_and_custom_risks():
    from unitxt.metrics import (
        GraniteGuardianAssistantRisk,
        GraniteGuardianCustomRisk,
        GraniteGuardianUserRisk,
        RiskType,
    )

    assert "jailbreak" in GraniteGuardianUserRisk.get_available_risk_names()
    assert "jailbreak" not in GraniteGuardianAssistantRisk.get_available_risk_names()
    custom = GraniteGuardianCustomRisk(risk_name="personal_information", risk_definition="Personal data is shared.",
                                       user_message_field="user_prompt")
    assert custom.risk_type == RiskType.CUSTOM_RISK.value and custom.main_score == "personal_information"
    assert "Personal data is shared." in custom.prompt(0.0, {"user_prompt": "my SSN is 1"})
    with pytest.raises(Exception, match="not a valid user_risk risk"):
        GraniteGuardianUserRisk(risk_name="function_call")


def test_dialogs_take_tool_call_turns():
    from unitxt.types import Dialog
    from unitxt.types.checking import isoftype

    dialog = [{"role": "user", "content": "add 1 and 2"},
              {"role": "assistant", "content": "", "tool_calls": [
                  {"id": "c1", "type": "function", "function": {"name": "add", "arguments": {"a": 1, "b": 2}}}]},
              {"role": "tool", "tool_call_id": "c1", "name": "add", "content": "3"}]
    assert isoftype(dialog, Dialog)
    assert not isoftype([{"role": "user"}], Dialog)
    assert json.loads(json.dumps(dialog)) == dialog
