"""Programs written for the original run unchanged: the behaviours its documented example programs rely on.

Each test is our own small program in the style of those examples (our data, our wording), checking one behaviour
the original has: old module paths, question-only datasets through reference templates, judges whose criteria is
given while a criteria field is also named.
"""

import importlib

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.api import create_dataset, evaluate
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge import LLMJudgeDirect
from unitxt.llm_as_judge_constants import CriteriaWithOptions
from unitxt.templates import MultiReferenceTemplate


def test_the_engines_old_module_path_is_the_inference_module():
    old = importlib.import_module("unitxt.inference_engines")
    assert old is importlib.import_module("unitxt.inference")
    from unitxt.inference_engines import MockInferenceEngine  # noqa: F401  (the old import line works)


def test_a_reference_template_over_an_empty_reference_list_gives_an_empty_target():
    template = MultiReferenceTemplate(input_format="Q: {question}", references_field="answers")
    rendered = template.process_instance({"input_fields": {"question": "Which planet is red?"},
                                          "reference_fields": {"answers": []}})
    assert rendered["source"].endswith("Q: Which planet is red?")
    assert rendered["target"] == ""
    assert rendered["references"] == []


def test_questions_without_answers_render_with_the_open_qa_task():
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "Name a prime number."},
                                                              {"question": "Name a colour."}], split="test")
    assert [row["references"] for row in dataset] == [[], []]
    assert "Name a colour." in dataset[1]["source"]


KINDNESS = CriteriaWithOptions.from_obj({
    "name": "kindness",
    "description": "Is the reply kind to the reader?",
    "options": [{"name": "Kind", "description": "The reply is friendly."},
                {"name": "Unkind", "description": "The reply is rude."}],
    "option_map": {"Kind": 1.0, "Unkind": 0.0},
})


def test_a_judge_given_a_criteria_uses_it_even_when_a_criteria_field_is_named(tmp_path):
    with OpenAIProtocolServer(answer=lambda request: "Kind") as server:
        engine = OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                       cache_dir=str(tmp_path / "cache"), show_progress=False,
                                       data_classification_policy=["public", "proprietary"])
        judge = LLMJudgeDirect(inference_engine=engine, criteria=KINDNESS, context_fields=["question"],
                               criteria_field="criteria")
        dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "How are you?"}], metrics=[judge],
                                 split="test")
        results = evaluate(predictions=["Very well, thank you for asking!"], data=dataset)
    assert results.instance_scores[0]["kindness"] == pytest.approx(1.0)
    assert results.global_scores["score_name"] == "kindness"
