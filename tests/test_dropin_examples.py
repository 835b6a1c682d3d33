"""The documentation's example programs, in our own small versions: the task fields, result shapes and engine
behaviours those programs rely on, checked as a user would run them (our data, our wording)."""

from unitxt.api import create_dataset, evaluate


def test_span_labeling_extraction_takes_entity_types_and_scores_entity_pairs():
    kinds = ["Animal", "City"]
    rows = [
        {"text": "A fox ran through Paris.", "entity_types": kinds, "spans_starts": [2, 18], "spans_ends": [5, 23],
         "labels": ["Animal", "City"]},
        {"text": "Oslo has no owls.", "entity_types": kinds, "spans_starts": [0], "spans_ends": [4],
         "labels": ["City"]},
    ]
    dataset = create_dataset(task="tasks.span_labeling.extraction", test_set=rows, split="test")
    assert "Animal, City" in dataset[0]["source"]  # the default template names the entity types
    results = evaluate(predictions=["fox: Animal, Paris: City", "owls: Animal"], data=dataset)
    assert results.instance_scores[0]["processed_references"] == [[("fox", "Animal"), ("Paris", "City")]]
    assert results.global_scores["score_name"] == "f1_micro"
    assert round(results.global_scores["recall_micro"], 4) == round(2 / 3, 4)
    assert round(results.global_scores["precision_micro"], 4) == round(2 / 3, 4)


def test_a_template_judge_takes_its_engine_as_model_like_later_examples_write():
    import pytest

    from unitxt.errors import UnitxtError
    from unitxt.inference import MockInferenceEngine
    from unitxt.llm_as_judge import LLMAsJudge
    from unitxt.templates import InputOutputTemplate

    template = InputOutputTemplate(input_format="Rate this reply to {question}: {answer}", output_format="[[{rating}]]",
                                   postprocessors=["processors.extract_mt_bench_rating_judgment"])
    engine = MockInferenceEngine(default_inference_value="[[6]]")
    judge = LLMAsJudge(model=engine, template=template, task="rating.single_turn", format="formats.empty",
                       main_score="reply_rating")
    assert judge.inference_model is engine
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "Why is the sky blue?", "answers": ["x"]}],
                             split="test", metrics=[judge])
    results = evaluate(predictions=["Scattering of sunlight."], data=dataset)
    assert results.global_scores["reply_rating"] == 0.6  # "[[6]]" on the 1..10 scale
    with pytest.raises(UnitxtError, match="'model' and 'inference_model' name the same field"):
        LLMAsJudge(model=engine, inference_model=engine, template=template)
