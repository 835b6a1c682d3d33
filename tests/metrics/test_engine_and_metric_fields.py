"""Fields the original catalog format sets on engines and metrics: OllamaInferenceEngine.model, random_seed of the
watsonx engines, F1Fast.ci_score_names, NormalizedSacrebleu.language_to_tokenizer."""

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.artifact import ArtifactDefinitionError, from_serializable
from unitxt.metrics.kernels.bleu import bleu_statistics


def test_ollama_model_field_names_the_requested_model(tmp_path):
    with OpenAIProtocolServer() as server:
        engine = from_serializable({"__type__": "ollama_inference_engine", "model": "llama2",
                                    "base_url": server.base_url, "cache_dir": str(tmp_path), "show_progress": False})
        assert engine([{"source": "hi"}]) == ["echo: hi"]
        assert server.requests[-1]["model"] == "llama2"


def test_random_seed_is_the_seed_and_a_different_seed_is_refused():
    engine = from_serializable({"__type__": "wml_inference_engine_generation", "model_name": "m", "random_seed": 3})
    assert engine.seed == 3
    with pytest.raises(ArtifactDefinitionError, match="seed .* and random_seed"):
        from_serializable({"__type__": "wml_inference_engine_generation", "model_name": "m", "seed": 1,
                           "random_seed": 3})


def test_f1_fast_ci_score_names_choose_the_intervals():
    metric = from_serializable({"__type__": "f1_fast", "main_score": "f1_macro", "averages": ["macro", "micro"],
                                "ci_score_names": ["f1_micro"]})
    scores = metric.evaluate(["a", "b", "a", "c", "b"], [["a"], ["b"], ["b"], ["c"], ["b"]]).global_scores()
    assert "f1_micro_ci_low" in scores and "f1_macro_ci_low" not in scores
    assert scores["f1_micro"] == pytest.approx(0.8)


def test_normalized_sacrebleu_picks_each_instance_tokenizer_from_its_target_language():
    metric = from_serializable({"__type__": "normalized_sacrebleu",
                                "language_to_tokenizer": {"english": None, "plain": "none"}})
    predictions = ["Hello, world of tests", "Hello, world of tests"]
    references = [["Hello , world of tests"], ["Hello , world of tests"]]
    task_data = [{"target_language": "English"}, {"target_language": "plain"}]
    rows = metric.statistics(predictions, references, task_data)
    assert (rows[0] == bleu_statistics(predictions[:1], references[:1], tokenize="13a")[0]).all()
    assert (rows[1] == bleu_statistics(predictions[1:], references[1:], tokenize="none")[0]).all()
    assert not (rows[0] == rows[1]).all()  # "Hello," is one token without 13a's punctuation split
    scores = metric.evaluate(predictions, references, task_data).global_scores()
    assert 0 < scores["sacrebleu"] < 1
