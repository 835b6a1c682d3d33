"""Option selection the original's way: a subclass implementing `get_token_count` and `get_options_log_probs` (the
original's protocol) is run by `select` and by `infer`; engines here score through `options_log_probs`. The
watsonx.ai engines' own steps (answer objects, image checks, token counts and option log-probs) and the HF engines'
answer objects are checked on plain inputs (their SDKs are not needed for these steps)."""

import json
import math

import pytest

from unitxt.errors import UnitxtError
from unitxt.inference import (HFAutoModelInferenceEngine, HFPipelineBasedInferenceEngine,
                              OptionSelectingByLogProbsInferenceEngine, WMLInferenceEngineChat,
                              WMLInferenceEngineGeneration)

# per-word log-probs of a toy model: an option's tokens are its words
WORDS = {"big": -0.5, "cat": -3.0, "dog": -0.2, "bird": -2.0, "red": -1.0, "blue": -0.1}


class WordScorer(OptionSelectingByLogProbsInferenceEngine):
    """Written against the original's protocol."""

    def get_token_count(self, dataset):
        for instance in dataset:
            instance["token_count"] = len(instance["source"].split())
        return dataset

    def get_options_log_probs(self, dataset):
        for instance in dataset:
            words = instance["source"].split()[instance["task_data"]["token_count"]:]
            instance["prediction"] = [{"text": word, "logprob": WORDS[word]} for word in words]
        return dataset


def test_select_takes_the_most_likely_option_token_by_token():
    dataset = [{"source": "pet: ", "task_data": {"options": ["cat", "dog", "bird"]}},
               {"source": "a ", "task_data": {"options": ["big cat", "big dog", "red"]}},
               {"source": "b ", "task_data": {"options": ["big", "big"]}}]
    chosen = [instance["prediction"] for instance in WordScorer().select(dataset)]
    # "dog" is the likeliest word; "big" is shared by two options, so their second words decide; equal options:
    # the first
    assert chosen == ["dog", "big dog", "big"]


def test_infer_runs_select_on_rows_with_options():
    rows = [{"source": "pet: ", "task_data": json.dumps({"options": ["bird", "cat"]})},
            {"source": "color: ", "task_data": {"options": ["red", "blue"]}}]
    assert WordScorer(use_cache=False).infer(rows) == ["bird", "blue"]


def test_engines_here_score_options_by_their_summed_log_probs():
    class Summing(OptionSelectingByLogProbsInferenceEngine):
        def options_log_probs(self, pairs):
            return [sum(WORDS[word] for word in option.split()) for _, option in pairs]

    dataset = [{"source": "a ", "task_data": {"options": ["big cat", "red", "blue dog"]}}]
    assert Summing().select(dataset)[0]["prediction"] == "blue dog"  # -0.3 beats -1.0 and -3.5


def test_option_selection_cache_key_includes_the_options():
    engine = WordScorer()
    key = engine.get_instance_cache_key({"source": "s", "task_data": {"options": ["a", "b"]}})
    assert key == {"kind": "text", "source": "s", "options": ["a", "b"]}


class FakeWatsonxModel:
    """Stands for the SDK's ModelInference: word tokens, and per input token the toy model's log-prob."""

    def tokenize(self, prompt, return_tokens):
        return {"result": {"token_count": len(prompt.split())}}

    def generate(self, prompt, params):
        assert params["return_options"] == {"input_tokens": True, "token_logprobs": True}
        tokens = [{"text": word, "logprob": WORDS.get(word, -9.0)} for word in prompt.split()]
        tokens[0].pop("logprob")  # the first input token has no log-prob
        return {"results": [{"input_tokens": tokens}]}

    def get_details(self):
        return {"model_id": "toy"}


def test_watsonx_engines_select_options_through_their_token_counts_and_log_probs():
    engine = WMLInferenceEngineGeneration(model_name="toy")
    engine._model = FakeWatsonxModel()
    assert engine.get_token_count([{"source": "one two three"}]) == [{"source": "one two three", "token_count": 3}]
    [scored] = engine.get_options_log_probs([{"source": "x y dog", "task_data": {"token_count": 3}}])
    assert scored["prediction"] == [{"text": "dog", "logprob": -0.2}]
    dataset = [{"source": "my pet is ", "task_data": {"options": ["cat", "dog"]}}]
    assert engine.select(dataset)[0]["prediction"] == "dog"
    assert engine.get_model_details() == {"model_id": "toy"}


def test_watsonx_answer_objects_follow_the_sdk_results():
    generation = WMLInferenceEngineGeneration(model_name="toy", seed=4)
    result = {"generated_text": "Paris", "input_token_count": 7, "generated_token_count": 1, "stop_reason": "eos"}
    output = generation.get_return_object("Paris", result, "Capital?", True)
    assert (output.prediction, output.input_tokens, output.output_tokens, output.stop_reason, output.seed,
            output.input_text, output.model_name) == ("Paris", 7, 1, "eos", 4, "Capital?", "toy")
    assert generation.get_return_object("Paris", result, "Capital?", False) == "Paris"
    chat = WMLInferenceEngineChat(model_name="toy")
    answer = {"choices": [{"message": {"content": "Hi"}, "finish_reason": "stop"}],
              "usage": {"prompt_tokens": 5, "completion_tokens": 1}}
    output = chat.get_return_object("Hi", "Hi", answer, None, True)
    assert (output.prediction, output.input_tokens, output.output_tokens, output.stop_reason) == ("Hi", 5, 1, "stop")


def test_watsonx_chat_image_checks():
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    WMLInferenceEngineChat.verify_messages([{"role": "user", "content": [image, {"type": "text", "text": "?"}]}])
    with pytest.raises(UnitxtError, match="one image per conversation"):
        WMLInferenceEngineChat.verify_messages([{"role": "user", "content": [image, image]}])
    with pytest.raises(UnitxtError, match="'input_image' part"):
        WMLInferenceEngineChat.verify_messages([{"role": "user", "content": [{"type": "input_image"}]}])
    assert WMLInferenceEngineChat.check_instance_contains_image({"source": "x", "media": {"images": ["i"]}})
    assert not WMLInferenceEngineChat.check_instance_contains_image({"source": "x", "media": {"images": []}})
    assert not WMLInferenceEngineChat.check_instance_contains_image({"source": "x"})


def test_hf_answer_objects():
    engine = HFAutoModelInferenceEngine(model_name="some/model", seed=1)
    output = engine.get_return_object("ok", "ok", 1, "prompt", 3, True)
    assert (output.prediction, output.generated_text, output.output_tokens, output.input_text, output.input_tokens,
            output.model_name) == ("ok", "ok", 1, "prompt", 3, "some/model")
    assert engine.get_return_object("ok", "ok", 1, "prompt", 3, False) == "ok"
    pipeline = HFPipelineBasedInferenceEngine(model_name="some/model")
    assert pipeline.get_return_object({"generated_text": "yes"}, "q", False) == "yes"
    assert pipeline.get_return_object({"generated_text": "yes"}, "q", True).input_text == "q"


def test_binary_logprobs_processor_hooks():
    from unitxt.processors import InferDictsToBinaryLogprobs

    tokens = [{"top_tokens": [{"text": "maybe", "logprob": -0.1}]},
              {"top_tokens": [{"text": " Yes", "logprob": math.log(0.6)}, {"text": "NO,", "logprob": math.log(0.2)},
                              {"text": "yesterday", "logprob": math.log(0.1)}]}]
    processor = InferDictsToBinaryLogprobs(pos_class_name="yes", neg_class_name="no", field="p")
    positive, negative = processor.get_pos_neg_probs(tokens[1])
    assert positive == pytest.approx([0.6]) and negative == pytest.approx([0.2])
    assert list(processor.get_token_range(tokens)) == [0, 1]
    assert processor.process_value(tokens) == pytest.approx(0.6 / 0.8)

    class FirstTokenOnly(InferDictsToBinaryLogprobs):
        def get_token_range(self, obj):
            return range(1)

    assert FirstTokenOnly(pos_class_name="yes", neg_class_name="no", field="p").process_value(tokens) == 0
