"""Judges under settings.mock_inference_mode and evaluation without predictions, as the original's: a criteria judge
settles on an option, reads its predictions from task_data when none are given, and template judges name their
scores after the engine."""

import pytest

from unitxt import settings
from unitxt.api import create_dataset, evaluate
from unitxt.errors import UnitxtError
from unitxt.inference import CrossProviderInferenceEngine, MockInferenceEngine
from unitxt.llm_as_judge import LLMJudgeDirect
from unitxt.llm_as_judge_constants import CriteriaWithOptions
from unitxt.llm_as_judge_from_template import TaskBasedLLMasJudge
from unitxt.task import Task
from unitxt.test_utils.metrics import apply_metric


@pytest.fixture()
def mock_mode():
    with settings.context(mock_inference_mode=True):
        yield


def _criteria(**extra):
    return CriteriaWithOptions.from_obj({
        "name": "helpful", "description": "Is the answer helpful?",
        "options": [{"name": "Excellent", "description": ""}, {"name": "Acceptable", "description": ""},
                    {"name": "Could be Improved", "description": ""}, {"name": "Bad", "description": ""}],
        "option_map": {"Excellent": 1.0, "Acceptable": 0.75, "Could be Improved": 0.5, "Bad": 0.0}, **extra})


def _judge(criteria, context_fields=None):
    return LLMJudgeDirect(inference_engine=CrossProviderInferenceEngine(model="llama-3-3-70b-instruct"),
                          criteria=criteria, context_fields=context_fields)


def test_a_mock_direct_judge_settles_on_the_closest_option_whatever_the_judged_text(mock_mode):
    judge = _judge(_criteria(), ["question"])
    rows = [{"question": f"Question {i}?"} for i in range(3)]
    dataset = create_dataset(task="tasks.qa.open", test_set=rows, metrics=[judge], split="test")
    answers = ["A long answer about Voldemort, Hogwarts and the Ministry of Magic, with many capitals.", "ok", "No."]
    results = evaluate(predictions=answers, data=dataset)
    assert [row["score"]["instance"]["helpful_selected_option"] for row in results] == ["Could be Improved"] * 3
    assert results[0]["score"]["global"]["helpful"] == 0.5
    prompts = results[0]["score"]["instance"]["helpful_prompts"]
    assert prompts["assessment"][0]["role"] == "user" and "Question 0?" in prompts["assessment"][0]["content"]


def test_without_predictions_a_judge_reads_them_from_the_criteria_prediction_field(mock_mode):
    judge = _judge(_criteria(prediction_field="answer", context_fields={"asked": "question"}))
    task = Task(input_fields={"question": str, "answer": str}, reference_fields={}, prediction_type=str,
                metrics=[judge])
    dataset = create_dataset(task=task, test_set=[{"question": "Why?", "answer": "Because of the wind."}],
                             split="test", template="templates.empty")
    instance = evaluate(data=dataset)[0]["score"]["instance"]
    prompt = instance["helpful_prompts"]["assessment"][0]["content"]
    assert "Because of the wind." in prompt and "asked: Why?" in prompt


def test_without_predictions_or_prediction_field_the_judge_says_what_to_set(mock_mode):
    judge = _judge(_criteria(), ["question"])
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "Why?"}], metrics=[judge], split="test")
    with pytest.raises(UnitxtError) as caught:
        evaluate(dataset=dataset)
    assert str(caught.value.original_error) == (
        "You must set either the predictions in the evaluate() call or specify the prediction field name to be "
        "taken from the task_data using the `Criteria`'s prediction_field field.")
    assert "stage 'metric'" in str(caught.value)


def test_a_mock_engine_answers_its_own_value_in_mock_mode(mock_mode):
    engine = MockInferenceEngine(model_name="meta-llama/llama-3-8b-instruct", default_inference_value="no")
    assert engine.infer([{"source": "Is it?"}]) == ["no"]
    assert CrossProviderInferenceEngine(model="llama-3-8b-instruct").infer([{"source": "Is it?"}]) == ["Is it?"]


def test_a_task_based_judge_names_its_scores_after_the_engine_and_reports_its_answer():
    engine = MockInferenceEngine(model_name="meta-llama/llama-3-8b-instruct", default_inference_value="no")
    judge = TaskBasedLLMasJudge(inference_model=engine, task="tasks.rag_eval.answer_correctness.binary",
                                template="templates.rag_eval.answer_correctness.judge_loose_match_no_context",
                                main_score="correct", include_meta_data=True)
    task_data = [{"question": "Capital of France?", "answer": "Lyon", "ground_truths": ["Paris"]}]
    output = apply_metric(metric=judge, predictions=[None], references=[[""]], task_data=task_data)[0]["score"]
    instance, main = output["instance"], "llama_3_8b_instruct_mock_correct"
    assert instance["score_name"] == main and instance[main] == 0.0 and "correct" not in instance
    assert instance[f"{main}_judge_raw_output"] == "no" and instance[f"{main}_generated_text"] == "no"
    assert "Capital of France?" in instance[f"{main}_judge_raw_input"]
    assert output["global"]["score_name"] == main and output["global"][main] == 0.0
