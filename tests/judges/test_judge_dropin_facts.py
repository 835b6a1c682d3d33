"""Judges as code written for the original uses them: the documented standalone example whose template asks for
"[[10]]" or "[[0]]", criteria judges evaluated without predictions, and the judge names and enums at the original's
import paths."""

import enum
import math

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.api import create_dataset, evaluate
from unitxt.blocks import Task
from unitxt.inference import OpenAiInferenceEngine
from unitxt.templates import InputOutputTemplate


def judge_engine(server, tmp_path):
    return OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                 cache_dir=str(tmp_path / "cache"), show_progress=False)


def rate_austin(request):
    rated = request["messages"][-1]["content"].split("[Assistant's Answer]", 1)[1]
    return "[[10]]" if "austin" in rated.lower() else "[[0]]"


def test_the_standalone_example_scores_a_zero_verdict_zero(tmp_path):
    """examples/standalone_evaluation_llm_as_judge.py with its judge on a loopback server and given answers."""
    from unitxt.llm_as_judge import LLMAsJudge

    data = [{"query": "What is the capital of Texas?", "document": "The capital of Texas is Austin.",
             "reference_answer": "Austin"},
            {"query": "What is the color of the sky right now?",
             "document": "The sky is generally black during the night.", "reference_answer": "Black"}]
    judge_template = InputOutputTemplate(
        instruction="Please act as an impartial judge and evaluate if the assistant's answer is correct."
        ' Answer "[[10]]" if the answer is accurate, and "[[0]]" if the answer is wrong. '
        'Please use the exact format of the verdict as "[[rate]]". You can explain your answer after the verdict.\n\n',
        input_format="[User's input]\n{question}\n[Assistant's Answer]\n{answer}\n", output_format="[[{rating}]]",
        postprocessors=["processors.extract_mt_bench_rating_judgment"])
    with OpenAIProtocolServer(answer=rate_austin) as server:
        metric = LLMAsJudge(inference_model=judge_engine(server, tmp_path), template=judge_template,
                            format="formats.chat_api", task="rating.single_turn", main_score="llm_judge_score",
                            strip_system_prompt_and_format_from_inputs=False)
        task = Task(input_fields={"query": str, "document": str}, reference_fields={"reference_answer": str},
                    prediction_type=str, metrics=[metric])
        template = InputOutputTemplate(instruction="Answer the following query based on the provided document.",
                                       input_format="Document:\n{document}\nQuery:\n{query}",
                                       output_format="{reference_answer}", postprocessors=["processors.lower_case"])
        dataset = create_dataset(test_set=data, task=task, template=template, format="formats.chat_api",
                                 split="test", max_test_instances=10)
        results = evaluate(predictions=["Austin", "Blue"], data=dataset)
        assert sorted(request["messages"][-1]["content"].count("[Assistant's Answer]") for request in
                      server.requests) == [1, 1]
    assert [row["score"] for row in results.instance_scores] == [1.0, 0.0]  # "[[0]]" is 0.0, not NaN
    assert results.global_scores["llm_judge_score"] == 0.5


def test_mt_bench_verdicts_read_as_the_original():
    from unitxt.judges.verdicts import READERS

    read = READERS["extract_mt_bench_rating_judgment"]
    assert [read(text) for text in ("[[0]]", "[[10]]", "[[7/10]]", "Rating: [[ 3 ]]")] == [0.0, 1.0, 0.7, 0.3]
    assert all(math.isnan(read(text)) for text in ("[[11]]", "[[-1]]", "[[x]]", "none"))


def test_a_judge_of_catalog_criteria_reads_its_predictions_from_task_data_when_none_are_given(tmp_path):
    """evaluate(data=dataset) without predictions and a template without post-processors: the judge gets the
    EmptyPrediction placeholder (any prediction type) and judges the criteria's prediction_field of task_data."""

    def answer(request):
        if len(request["messages"]) == 1:
            return "Assessed."
        return "Excellent" if "Paris" in request["messages"][0]["content"] else "Bad"

    with OpenAIProtocolServer(answer=answer) as server:
        from unitxt.llm_as_judge import LLMJudgeDirect

        judge = LLMJudgeDirect(inference_engine=judge_engine(server, tmp_path), context_fields=["question"],
                               criteria="metrics.llm_as_judge.direct.criteria.answer_relevance")
        task = Task(input_fields={"question": str, "response": str}, reference_fields={}, prediction_type=str,
                    metrics=[judge])
        template = InputOutputTemplate(input_format="{question}", output_format="", postprocessors=[])
        rows = [{"question": "Capital of France?", "response": "Paris"},
                {"question": "Capital of France?", "response": "Lyon"}]
        dataset = create_dataset(task=task, template=template, test_set=rows, split="test",
                                 data_classification_policy=["public"])
        results = evaluate(data=dataset)
    assert [row["answer_relevance_selected_option"] for row in results.instance_scores] == ["Excellent", "Bad"]
    assert results.global_scores["answer_relevance"] == 0.5


def test_judge_names_and_enums_at_the_original_paths():
    from unitxt.llm_as_judge import (EVALUATOR_TO_MODEL_ID, EmptyPrediction, EvaluatorNameEnum, ModelProviderEnum,
                                     get_evaluator_metadata, rank_indexes)
    from unitxt.metric_utils import EmptyPrediction as from_metric_utils

    assert issubclass(EvaluatorNameEnum, enum.Enum) and issubclass(ModelProviderEnum, str)
    assert EvaluatorNameEnum.GPT4o.value == "GPT-4o" and ModelProviderEnum.AZURE.value == "azure"
    assert [member.name for member in ModelProviderEnum][:3] == ["WATSONX", "OPENAI", "RITS"]
    assert EVALUATOR_TO_MODEL_ID[EvaluatorNameEnum.MIXTRAL8_7b] == "mixtral-8x7b-instruct-v01"
    assert get_evaluator_metadata(EvaluatorNameEnum.GPT4o).providers == [ModelProviderEnum.OPENAI,
                                                                         ModelProviderEnum.AZURE]
    assert rank_indexes([3, 1, 3]) == [0, 2, 0]
    assert EmptyPrediction is from_metric_utils and str(EmptyPrediction()) == "<__empty_prediction__>"
