"""Criteria judges (direct, pairwise) against the loopback OpenAI-protocol server scripted as a judge."""

import json
import logging
import math
import re

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.errors import UnitxtError
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge import LLMJudgeDirect, LLMJudgePairwise
from unitxt.llm_as_judge_constants import Criteria, CriteriaWithOptions, direct_criteria, pairwise_criteria
from unitxt.llm_as_judge_operators import (
    CreateCriteriaFromDict,
    CreateCriteriaFromString,
    CreateYesNoCriteriaFromString,
    LoadCriteria,
    LoadCriteriaWithOptions,
)
from unitxt.llm_as_judge_prompts import competition_ranking, parse_option

VERDICT = "nothing else:"
QUESTION = {"question": "What is asked?"}  # the context field of the conciseness criteria


def last_message(request):
    return request["messages"][-1]["content"]


def listed_options(text):
    return text.rsplit(VERDICT, 1)[1].strip().split(", ")


def judged_response(request):
    """The judged text, from the assessment turn that opens the conversation (the verdict request continues it)."""
    first = request["messages"][0]
    assert first["role"] == "user"
    return re.search(r"to judge:\n<<<\n(.*?)\n>>>", first["content"], flags=re.DOTALL).group(1)


def engine_for(server, tmp_path, **kwargs):
    kwargs.setdefault("cache_dir", str(tmp_path / "cache"))
    return OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                 show_progress=False, retry_base_delay=0.01, **kwargs)


def by_content(request):
    """A consistent judge: 'Yes' for responses with at most two words, whatever the option order."""
    text = last_message(request)
    if VERDICT not in text:
        return "The response is judged on its length."
    return "Yes" if len(judged_response(request).split()) <= 2 else "No."


def first_listed(request):
    """A judge with positional bias: always the first option listed."""
    text = last_message(request)
    return listed_options(text)[0] if VERDICT in text else "Some assessment."


def test_direct_scores_selected_options_and_no_bias(tmp_path):
    with OpenAIProtocolServer(answer=by_content) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path),
                               criteria=direct_criteria()["conciseness"], include_prompts_in_result=True)
        assert judge.main_score == "conciseness"
        scores = judge.evaluate(["Short answer", "a much longer answer here", "ok"], [[], [], []], [QUESTION] * 3)
        assert server.count == 3 * 2 * 2  # instances x option orders x (assessment, verdict)
        received = [request["messages"] for request in server.requests]
    # sent as chat messages: an assessment is one user turn; a verdict request continues that conversation with the
    # judge's assessment as the assistant turn, then asks for the option (the original's turn structure)
    assessments = [messages for messages in received if len(messages) == 1]
    verdicts = [messages for messages in received if len(messages) == 3]
    assert len(assessments) == len(verdicts) == 6 and all(m[0]["role"] == "user" for m in assessments)
    for messages in verdicts:
        assert [turn["role"] for turn in messages] == ["user", "assistant", "user"]
        assert messages[0] in [a[0] for a in assessments]
        assert messages[1]["content"] == "The response is judged on its length."
        assert listed_options(messages[2]["content"]) in (["Yes", "No"], ["No", "Yes"])
    assert [s["conciseness"] for s in scores.instance_scores] == [1.0, 0.0, 1.0]
    assert [s["conciseness_selected_option"] for s in scores.instance_scores] == ["Yes", "No", "Yes"]
    assert [s["conciseness_positional_bias"] for s in scores.instance_scores] == [False, False, False]
    assert scores.instance_scores[0]["conciseness_assessment"] == "The response is judged on its length."
    prompts = scores.instance_scores[0]["conciseness_prompts"]
    # as the original reports them: the chat messages each prompt is sent as
    assert prompts["assessment"][0]["role"] == "user" and "Short answer" in prompts["assessment"][0]["content"]
    assert prompts["option_selection"][-1]["content"].endswith("Yes, No")
    result = scores.global_scores()
    assert result["conciseness"] == pytest.approx(2 / 3)
    assert "conciseness_positional_bias" not in result  # globally the mean score only, as the original
    assert result["score_name"] == "conciseness"
    assert result["conciseness_ci_low"] <= 2 / 3 <= result["conciseness_ci_high"]


def test_positional_bias_is_flagged(tmp_path):
    criteria = direct_criteria()["temperature_in_celsius_and_fahrenheit"]
    with OpenAIProtocolServer(answer=first_listed) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), criteria=criteria)
        scores = judge.evaluate(["It is 20C."], [[]], [{}])
    instance = scores.instance_scores[0]
    assert instance["temperature_in_celsius_and_fahrenheit_selected_option"] == "Yes"
    assert instance["temperature_in_celsius_and_fahrenheit_positional_bias_selected_option"] == "Pass"
    assert instance["temperature_in_celsius_and_fahrenheit"] == 1.0
    assert instance["temperature_in_celsius_and_fahrenheit_positional_bias"] == 1.0


def test_without_positional_bias_check_half_the_requests(tmp_path):
    with OpenAIProtocolServer(answer=first_listed) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), check_positional_bias=False,
                               criteria=direct_criteria()["coherence"], generate_summaries=True)
        scores = judge.evaluate(["a", "b"], [[], []], [{"original text": "t"}] * 2)
        assert server.count == 2 * 2 + 2  # assessment + verdict per instance, then one summary each
    assert [s["coherence"] for s in scores.instance_scores] == [0.0, 0.0]  # option "1" scores 0.0
    assert "coherence_positional_bias" not in scores.instance_scores[0]
    assert scores.instance_scores[0]["coherence_summary"] == "Some assessment."


def test_garbage_answers_are_nan_with_a_counting_warning(tmp_path, caplog):
    def answer(request):
        text = last_message(request)
        if VERDICT not in text:
            return "thinking"
        return "5" if "good" in judged_response(request) else "I would rather not say."

    with OpenAIProtocolServer(answer=answer) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), criteria=direct_criteria()["fluency"])
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            scores = judge.evaluate(["good", "bad", "worse", "good too"], [[]] * 4, [{}] * 4)
    values = [s["fluency"] for s in scores.instance_scores]
    assert values[0] == 1.0 and values[3] == 1.0 and math.isnan(values[1]) and math.isnan(values[2])
    # no option was selected: the judge's clean_results leaves the empty key out, as the original's does
    assert "fluency_selected_option" not in scores.instance_scores[1]
    assert scores.instance_scores[1]["fluency_raw_verdict"] == "I would rather not say."
    assert "2 of 4 judge answers could not be parsed" in caplog.text
    assert scores.global_scores()["fluency"] == 1.0  # NaN instances are left out of the mean, not zeros


def test_context_fields_reach_the_prompt_and_missing_ones_are_named(tmp_path):
    seen = []

    def answer(request):
        seen.append(last_message(request))
        return "Excellent" if VERDICT in last_message(request) else "fine"

    with OpenAIProtocolServer(answer=answer) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), check_positional_bias=False,
                               criteria=direct_criteria()["answer_relevance"])
        scores = judge.evaluate(["Paris"], [[]], [{"question": "Capital of France?"}])
        assert scores.instance_scores[0]["answer_relevance"] == 1.0
        assert "question: Capital of France?" in seen[0]
        with pytest.raises(UnitxtError, match="Context field 'question' is missing"):
            judge.evaluate(["Paris"], [[]], [{"query": "x"}])


def test_criteria_per_instance_from_a_field(tmp_path):
    make = CreateYesNoCriteriaFromString(field="check", to_field="criteria", criteria_name="mentions_paris")
    rows = [make.process_instance({"check": "Does the response mention Paris?"})]
    rows.append(LoadCriteriaWithOptions(field="name", to_field="criteria").process_instance(
        {"name": "metrics.llm_as_judge.direct.criteria.funny_joke"}))
    assert rows[0]["criteria"]["option_map"] == {"Yes": 1.0, "No": 0.0}

    def answer(request):
        text = last_message(request)
        if VERDICT not in text:
            return "ok"
        return "Yes" if "Paris" in judged_response(request) else "Not funny"

    with OpenAIProtocolServer(answer=answer) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), criteria_field="criteria",
                               check_positional_bias=False)
        scores = judge.evaluate(["I love Paris", "knock knock"], [[], []], rows)
    assert [s["llm_as_judge"] for s in scores.instance_scores] == [1.0, 0.0]
    assert [json.loads(s["llm_as_judge_criteria"])["name"] for s in scores.instance_scores] == \
        ["mentions_paris", "funny_joke"]  # the criteria as JSON, as the original


def test_criteria_operators_and_validation():
    built = CreateCriteriaFromDict(field="c").process_instance({"c": {
        "name": "polite", "description": "Is it polite?", "options": [{"name": "Yes"}, {"name": "No"}],
        "option_map": {"Yes": 1.0, "No": 0.0}}})["c"]
    # typed as the original's task_data holds the criteria artifact
    assert built["options"] == [{"__type__": "criteria_option", "name": "Yes", "description": ""},
                                {"__type__": "criteria_option", "name": "No", "description": ""}]
    plain = CreateCriteriaFromString(field="c", criteria_name="brevity").process_instance({"c": "Shorter?"})["c"]
    assert plain == {"__type__": "criteria", "name": "brevity", "description": "Shorter?"}
    loaded = LoadCriteria(field="c").process_instance({"c": "metrics.llm_as_judge.pairwise.criteria.coherence"})
    assert loaded["c"]["name"] == "coherence"
    with pytest.raises(UnitxtError, match="has no score for option"):
        CriteriaWithOptions(name="x", options=[{"name": "A"}, {"name": "B"}], option_map={"A": 1.0})
    with pytest.raises(UnitxtError, match="at least two options"):
        CriteriaWithOptions(name="x", options=[{"name": "A"}])
    evenly = CriteriaWithOptions(name="x", options=[{"name": "A"}, {"name": "B"}, {"name": "C"}])
    assert [evenly.score_of(name) for name in "ABC"] == [1.0, 0.5, 0.0]
    with pytest.raises(UnitxtError, match="needs a criteria"):
        LLMJudgeDirect(inference_engine=OpenAiInferenceEngine(model_name="m")).evaluate(["a"], [[]], [{}])


def test_parse_option():
    options = ["Correct", "Partially correct", "Incorrect"]
    assert parse_option("Answer: Correct.", options) == "Correct"
    assert parse_option("I think it is partially correct", options) == "Partially correct"
    assert parse_option("**Incorrect**", options) == "Incorrect"
    assert parse_option("Correct or Incorrect, hard to say", options) is None
    assert parse_option("no idea", options) is None
    assert competition_ranking([0.5, 1.0, 0.5, 0.0]) == [2.0, 1.0, 2.0, 4.0]


def longer_wins(request):
    """Answers the option naming the longer response; the options are the responses' names ("Response <name>")."""
    text = last_message(request)
    if VERDICT not in text:
        return "Comparing the two."
    shown = re.findall(r"(Response [^:\n]+):\n<<<\n(.*?)\n>>>", request["messages"][0]["content"], flags=re.DOTALL)
    assert [name for name, _ in shown] == listed_options(text)  # the verdict's options name the shown responses
    (first_name, first), (second_name, second) = shown
    return first_name if len(first) > len(second) else second_name


def test_pairwise_winrates_and_rankings(tmp_path):
    with OpenAIProtocolServer(answer=longer_wins) as server:
        judge = LLMJudgePairwise(inference_engine=engine_for(server, tmp_path), include_prompts_in_result=True,
                                 criteria=pairwise_criteria()["conciseness"])
        scores = judge.evaluate([{"short": "ab", "long": "abcdef", "mid": "abcd"}], [[]], [{}])
        assert server.count == 3 * 2 * 2  # pairs x (both orders) x (assessment, verdict)
    instance = scores.instance_scores[0]
    assert (instance["long_winrate"], instance["mid_winrate"], instance["short_winrate"]) == (1.0, 0.5, 0.0)
    assert (instance["long_ranking"], instance["mid_ranking"], instance["short_ranking"]) == (1, 2, 3)
    assert instance["short_compared_to"] == ["long", "mid"]
    assert instance["short_contest_results"] == [False, False]
    assert instance["short_selections"] == ["long", "mid"]
    assert instance["long_positional_bias"] == [False, False]  # per comparison
    assert instance["short_llm_as_judge"] == 0.0 and instance["short_response_name"] == "short"
    assert judge.main_score == "short_winrate"  # the first system's winrate
    prompts = instance["short_prompts"]
    assert sorted(prompts) == ["assessment", "option_selection", "positional_bias_assessment",
                               "positional_bias_option_selection"]
    assert "Response short:\n<<<\nab\n>>>" in prompts["assessment"][0][0]["content"]
    # the verdict continues the assessment conversation: user, assistant (the assessment), user
    conversation = prompts["option_selection"][0]
    assert [turn["role"] for turn in conversation] == ["user", "assistant", "user"]
    assert conversation[0] == prompts["assessment"][0][0] and conversation[1]["content"] == "Comparing the two."
    assert listed_options(conversation[2]["content"]) == ["Response short", "Response long"]
    assert '"name": "conciseness"' in instance["criteria"]
    result = scores.global_scores()
    assert result["long_winrate"] == 1.0 and result["score_name"] == "short_winrate"
    assert "mid_ranking" not in result  # globally: the winrates only, as the original


def test_pairwise_positional_bias_and_list_predictions(tmp_path):
    with OpenAIProtocolServer(answer=lambda r: listed_options(last_message(r))[0] if VERDICT in last_message(r)
                              else "hmm") as server:
        judge = LLMJudgePairwise(inference_engine=engine_for(server, tmp_path),
                                 criteria=pairwise_criteria()["coherence"])
        scores = judge.evaluate([["x", "y", "z"], ["p", "q"]], [[], []], [{}, {}])
    first, second = scores.instance_scores
    assert [first[f"{k}_winrate"] for k in (1, 2, 3)] == [1.0, 0.5, 0.0]
    assert [first[f"{k}_positional_bias"] for k in (1, 2, 3)] == [[True, True], [True, True], [True, True]]
    assert [second[f"{k}_ranking"] for k in (1, 2)] == [1, 2]
    assert scores.global_scores()["1_winrate"] == 1.0
    assert scores.global_scores()["2_winrate"] == pytest.approx(0.25)  # mean of 0.5 and 0.0


def test_pairwise_garbage_and_bad_predictions(tmp_path, caplog):
    with OpenAIProtocolServer(answer=lambda r: "both are fine" if VERDICT in last_message(r) else "x") as server:
        judge = LLMJudgePairwise(inference_engine=engine_for(server, tmp_path), check_positional_bias=False,
                                 criteria=Criteria(name="quality", description="Which is better?"))
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            scores = judge.evaluate([["a", "b"]], [[]], [{}])
        assert math.isnan(scores.instance_scores[0]["1_winrate"])
        assert "1 of 1 judge answers could not be parsed" in caplog.text
        with pytest.raises(UnitxtError, match="compares two or more"):
            judge.evaluate([["only one"]], [[]], [{}])


def test_judge_calls_go_through_the_engine_cache(tmp_path):
    with OpenAIProtocolServer(answer=by_content) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), criteria=direct_criteria()["conciseness"])
        first = judge.evaluate(["ok", "a b c d"], [[], []], [QUESTION] * 2).instance_scores
        sent = server.count
        again = judge.evaluate(["ok", "a b c d"], [[], []], [QUESTION] * 2).instance_scores
        assert server.count == sent  # all answers came from the cache
    assert first == again


def test_judge_artifacts_written_for_the_original_catalog_load():
    """Judge entries in the shapes of the original system's catalog files (their fields) load as our classes."""
    from unitxt.artifact import from_serializable

    direct = from_serializable({
        "__type__": "llm_judge_direct", "evaluator_name": "GPT4", "generate_summaries": False,
        "inference_engine": {"__type__": "cross_provider_inference_engine", "max_tokens": 1024, "seed": 42,
                             "temperature": 0, "model": "gpt-4o", "credentials": {"api_base": "http://x"}}})
    assert (type(direct).__name__, direct.inference_engine.model, direct.check_positional_bias) == \
        ("LLMJudgeDirect", "gpt-4o", True)
    criteria = from_serializable({
        "__type__": "criteria_with_options", "name": "t", "description": "d", "prediction_field": "response",
        "context_fields": [], "option_map": {"Yes": 1.0, "No": 0.5},
        "options": [{"__type__": "criteria_option", "name": "Yes", "description": "y"},
                    {"__type__": "criteria_option", "name": "No", "description": "n"}]})
    assert criteria.option_names() == ["Yes", "No"] and criteria.score_of("No") == 0.5
    task_based = from_serializable({
        "__type__": "task_based_ll_mas_judge", "inference_model": "engines.classification.gpt_4o_openai",
        "template": "templates.rag_eval.faithfulness.logprobs", "task": "tasks.rag_eval.faithfulness.binary",
        "format": None, "main_score": "faithfulness_q_c_a_logprobs", "prediction_field": "answer",
        "infer_log_probs": True})
    assert task_based.infer_log_probs and task_based.main_score == "faithfulness_q_c_a_logprobs"
    for task in ("rating.single_turn", "response_assessment.rating.single_turn"):
        judge = from_serializable({
            "__type__": "llm_as_judge", "template": "templates.response_assessment.rating.mt_bench_single_turn",
            "inference_model": {"__type__": "open_ai_inference_engine", "model_name": "m"}, "task": task,
            "format": "formats.models.mistral.instruction", "main_score": "judge"})
        assert judge.task == "rating.single_turn"


def test_judge_prompts_of_a_stage_run_concurrently(tmp_path):
    with OpenAIProtocolServer(answer=by_content, latency=0.05) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path, num_parallel_requests=8),
                               criteria=direct_criteria()["conciseness"])
        scores = judge.evaluate([f"answer {k}" for k in range(8)], [[]] * 8, [QUESTION] * 8)
        assert server.count == 8 * 2 * 2
        assert server.max_in_flight > 1  # the 16 prompts of a stage went to the engine together
    assert [s["conciseness"] for s in scores.instance_scores] == [1.0] * 8


def test_criteria_from_json_text_and_yes_partially_no():
    from unitxt.llm_as_judge_operators import (CreateCriteriaFromJson, CreateCriteriaWithOptionsFromJson,
                                               CreateYesNoPartiallyCriteriaFromString)

    text = json.dumps({"name": "polite", "description": "Is it polite?", "options": [{"name": "Yes"}, {"name": "No"}],
                       "option_map": {"Yes": 1.0, "No": 0.0}})
    built = CreateCriteriaWithOptionsFromJson(field="c").process_instance({"c": text})["c"]
    assert built["name"] == "polite" and built["option_map"] == {"Yes": 1.0, "No": 0.0}
    plain = CreateCriteriaFromJson(field="c").process_instance({"c": '{"name": "brevity", "description": "Short?"}'})
    assert plain["c"] == {"__type__": "criteria", "name": "brevity", "description": "Short?"}
    with pytest.raises(UnitxtError, match="JSON text of a criteria"):
        CreateCriteriaFromJson(field="c").process_instance({"c": "not json"})
    graded = CreateYesNoPartiallyCriteriaFromString(field="c").process_instance({"c": "Mentions Paris?"})["c"]
    assert [option["name"] for option in graded["options"]] == ["Yes", "Partially", "No"]
    assert graded["option_map"] == {"Yes": 1.0, "Partially": 0.5, "No": 0.0} and graded["description"] == "Mentions Paris?"
