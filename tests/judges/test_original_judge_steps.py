"""Judges subclassed the original's way: the steps the original's judges run (criteria, contexts, predictions,
evaluation steps and result cleaning for LLMJudge; instances, inference and results for the template judges) are the
steps ours run, so an override changes the outcome. The loopback server plays the judge model."""

import json
import math
import re

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.errors import UnitxtError
from unitxt.inference import MockInferenceEngine, OpenAiInferenceEngine, WMLInferenceEngineGeneration
from unitxt.llm_as_judge import LLMAsJudge, LLMJudgeDirect, TaskBasedLLMasJudge
from unitxt.llm_as_judge_constants import Criteria, CriteriaOption, CriteriaWithOptions

VERDICT = "nothing else:"
YES_NO = CriteriaWithOptions(name="short", description="Is the response short?", context_fields=["question"],
                             options=[CriteriaOption(name="Yes"), CriteriaOption(name="No")],
                             option_map={"Yes": 1.0, "No": 0.0})


def engine_for(server, tmp_path):
    return OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                 cache_dir=str(tmp_path / "cache"), show_progress=False)


def yes_if_short(request):
    """Assessments are plain text; the verdict is Yes for a judged response of at most two words."""
    first, last = request["messages"][0]["content"], request["messages"][-1]["content"]
    if VERDICT not in last:
        return "Assessed."
    judged = re.search(r"to judge:\n<<<\n(.*?)\n>>>", first, flags=re.DOTALL).group(1)
    return "Yes" if len(judged.split()) <= 2 else "No"


def test_criteria_and_contexts_come_from_the_overridable_steps(tmp_path):
    seen = []

    class PerRowCriteria(LLMJudgeDirect):
        def get_criteria(self, task_data, eval_count):
            return [YES_NO] * eval_count

        def get_contexts(self, task_data, criteria):
            contexts = super().get_contexts(task_data, criteria)
            return [dict(context, topic="weather") for context in contexts]

        def perform_evaluation_step(self, instances, task, template, previous_messages=None):
            prompts, raw, predictions = super().perform_evaluation_step(instances, task, template, previous_messages)
            seen.extend(prompt[0]["content"] for prompt in prompts)
            return prompts, raw, predictions

    with OpenAIProtocolServer(answer=yes_if_short) as server:
        judge = PerRowCriteria(inference_engine=engine_for(server, tmp_path), check_positional_bias=False,
                               criteria_field="unused")
        scores = judge.evaluate(["fine", "far too many words here"], [[], []],
                                [{"question": "Rain?"}, {"question": "Sun?"}])
    assert [row["short"] for row in scores.instance_scores] == [1.0, 0.0]
    assert any("topic" in prompt and "weather" in prompt and "Rain?" in prompt for prompt in seen)


def test_predictions_from_task_data_and_previous_messages():
    judge = LLMJudgeDirect(inference_engine=MockInferenceEngine(), criteria=YES_NO)
    criteria = judge.get_criteria([{"q": 1}, {"q": 2}], 2)
    assert criteria == [YES_NO, YES_NO]
    from_data = CriteriaWithOptions(name="c", description="d", prediction_field="answer",
                                    options=[CriteriaOption(name="a"), CriteriaOption(name="b")])
    assert judge.get_predictions([{"answer": "x"}], [from_data], []) == ["x"]
    assert judge.get_predictions([{"answer": "x"}], [from_data], ["given"]) == ["given"]
    with pytest.raises(UnitxtError, match="prediction_field"):
        judge.get_predictions([{}], [YES_NO], [])
    assert judge.get_context_fields_as_dict("q") == {"q": "q"}
    assert judge.get_context_fields_as_dict(["a", "b"]) == {"a": "a", "b": "b"}
    assert judge.get_context_fields_as_dict({"shown": "path.to"}) == {"shown": "path.to"}
    assert judge.get_contexts([{"question": {"k": 1}}], [YES_NO]) == [{"question": '{"k": 1}'}]
    prompts, raw, _ = judge.perform_evaluation_step([{"source": [{"role": "user", "content": "Q"}]}], None, None,
                                                    previous_messages=[{"role": "system", "content": "S"}])
    assert prompts == [[{"role": "system", "content": "S"}, {"role": "user", "content": "Q"}]]
    assert raw == ["[[10]]"]


def test_clean_results_drops_empty_values_as_the_original():
    judge = LLMJudgeDirect(inference_engine=MockInferenceEngine(), criteria=YES_NO)
    results = [{"a": 1, "b": None, "c": [], "d": {}, "e": {"f": None, "g": {}}, "h": [None], "i": 0, "j": False}]
    assert judge.clean_results(results) == [{"a": 1, "h": [None], "i": 0, "j": False}]


def test_criteria_from_json_text():
    criteria = CriteriaWithOptions.from_jsons(json.dumps(
        {"name": "tone", "description": "Is it polite?", "options": [{"name": "Yes", "description": "polite"},
                                                                   {"name": "No", "description": "rude"}]}))
    assert criteria.option_names() == ["Yes", "No"] and criteria.options[0].description == "polite"
    plain = Criteria.from_jsons('{"name": "clarity", "description": "Is it clear?", "prediction_field": "answer"}')
    assert (type(plain), plain.name, plain.prediction_field) == (Criteria, "clarity", "answer")
    with pytest.raises(UnitxtError, match="criteria as JSON text"):
        Criteria.from_jsons("{not json")


def rate_by_length(request):
    text = request["messages"][-1]["content"]
    answer = re.search(r"\[Assistant Response Begins\]\n(.*?)\n\[Assistant Response Ends\]", text, re.DOTALL).group(1)
    return f"Rating: [[{len(answer.split())}]]"


def test_template_judge_steps_can_be_overridden(tmp_path):
    class Halved(LLMAsJudge):
        def prepare_instances(self, references, predictions, task_data):
            instances = super().prepare_instances(references, predictions, task_data)
            return [dict(instance, answer=instance["answer"] + " extra") for instance in instances]

        def get_metric_results_from_prediction_outputs(self, outputs):
            results = super().get_metric_results_from_prediction_outputs(outputs)
            for result, output in zip(results, outputs):
                result[self.main_score] /= 2
                result["raw"] = output["raw_prediction"]
            return results

    with OpenAIProtocolServer(answer=rate_by_length) as server:
        judge = Halved(inference_model=engine_for(server, tmp_path), task="rating.single_turn",
                       template="templates.response_assessment.rating.mt_bench_single_turn", main_score="rating")
        assert judge.get_full_task_name() == "tasks.response_assessment.rating.single_turn"
        scores = judge.evaluate(["one two", "a b c d"], [[], []], [{"question": "Q1"}, {"question": "Q2"}])
    # the answers have 3 and 5 words with " extra"; the template's processor reads [[n]] as n/10
    assert [row["rating"] for row in scores.instance_scores] == [0.15, 0.25]
    assert scores.instance_scores[0]["raw"] == "Rating: [[3]]"


def test_task_based_judge_instances_and_format_choice(tmp_path):
    judge = TaskBasedLLMasJudge(inference_model=MockInferenceEngine(), task="tasks.rag_eval.answer_correctness.binary",
                                template="templates.rag_eval.answer_correctness.judge_loose_match_no_context",
                                prediction_field="answer")
    assert judge.get_full_task_name() == "tasks.rag_eval.answer_correctness.binary"
    assert judge.preprocess_instance({"question": "q"}) == {"question": "q", "task_data": {"question": "q"},
                                                           "prediction": None, "references": [""]}
    instances = judge.prepare_instances([[""]], ["Lyon"], [{"question": "Capital?", "ground_truths": ["Paris"]}])
    assert (instances[0]["question"], instances[0]["answer"], instances[0]["ground_truths"]) == \
        ("Capital?", "Lyon", ["Paris"])
    chosen = TaskBasedLLMasJudge(inference_model=MockInferenceEngine(), format=None,
                                 task="tasks.rag_eval.answer_correctness.binary",
                                 template="templates.rag_eval.answer_correctness.judge_loose_match_no_context")
    assert chosen.format.__id__ == "formats.chat_api"
    watsonx = TaskBasedLLMasJudge(inference_model=WMLInferenceEngineGeneration(
        model_name="meta-llama/llama-3-3-70b-instruct"), format=None, task="tasks.rag_eval.answer_correctness.binary",
        template="templates.rag_eval.answer_correctness.judge_loose_match_no_context")
    assert watsonx.format.__id__ == "formats.llama3_instruct"


def test_task_based_infer_instances_reports_raw_and_processed_answers(tmp_path):
    with OpenAIProtocolServer(answer=lambda request: "yes") as server:
        judge = TaskBasedLLMasJudge(inference_model=engine_for(server, tmp_path),
                                    task="tasks.rag_eval.answer_correctness.binary",
                                    template="templates.rag_eval.answer_correctness.judge_loose_match_no_context")
        outputs = judge.infer_instances([{"question": "Capital?", "answer": "Paris", "ground_truths": ["Paris"]}])
    assert outputs[0]["raw_prediction"] == "yes" and outputs[0]["prediction"] == 1.0
    assert "Capital?" in outputs[0]["source"]
    assert not math.isnan(judge.get_metric_results_from_prediction_outputs(outputs)[0][judge.main_score])
