"""Local HF engines subclassed or called the original's way, on the tiny models of test_local_models: generation runs
through prepare_inputs / make_predictions / compute_transition_scores / get_logprobs / get_return_object, so an
override changes the answers; HFOptionSelectingInferenceEngine.get_log_probs equals a direct forward pass."""

import pytest
import torch
import transformers

from tests.tiers.models.test_local_models import models_dir, rows  # noqa: F401 - the shared fixtures
from unitxt.inference import HFAutoModelInferenceEngine, HFOptionSelectingInferenceEngine


def test_get_return_object_override_shapes_each_answer(models_dir, rows):  # noqa: F811
    class Tagged(HFAutoModelInferenceEngine):
        def get_return_object(self, output, generated_text, output_tokens, inp, inp_tokens, return_meta_data):
            return f"[{output_tokens} tokens] {output}"

    plain = HFAutoModelInferenceEngine(model_name=models_dir["causal"], max_new_tokens=3, device="cpu",
                                       use_cache=False)
    tagged = Tagged(model_name=models_dir["causal"], max_new_tokens=3, device="cpu", use_cache=False)
    expected = plain.infer(rows[:2], return_meta_data=True)
    assert tagged.infer(rows[:2]) == [f"[{o.output_tokens} tokens] {o.prediction}" for o in expected]


def test_compute_transition_scores_override_gives_the_token_log_probs(models_dir, rows):  # noqa: F811
    class Flat(HFAutoModelInferenceEngine):
        def compute_transition_scores(self, sequences, scores, beam_indices):
            return torch.full((sequences.shape[0], len(scores)), -0.5)

    [tokens] = Flat(model_name=models_dir["causal"], max_new_tokens=2, device="cpu",
                    use_cache=False).infer_log_probs(rows[:1])
    assert [token["logprob"] for token in tokens] == [-0.5] * len(tokens) and tokens


def test_prepare_inputs_applies_the_chat_template(models_dir):  # noqa: F811
    engine = HFAutoModelInferenceEngine(model_name=models_dir["causal"], device="cpu", use_cache=False)
    messages = [{"role": "user", "content": "positive or negative?"}]
    encoded = engine.prepare_inputs([messages, "plain text"])
    tokenizer = transformers.AutoTokenizer.from_pretrained(models_dir["causal"])
    templated = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    first = [i for i, m in zip(encoded["input_ids"][0].tolist(), encoded["attention_mask"][0].tolist()) if m]
    assert first == tokenizer(templated)["input_ids"]


def test_get_log_probs_is_the_sequence_log_probability(models_dir):  # noqa: F811
    engine = HFOptionSelectingInferenceEngine(model_name=models_dir["causal"], device="cpu", use_cache=False)
    texts = ["the review is positive", "negative"]
    tokenizer = transformers.AutoTokenizer.from_pretrained(models_dir["causal"])
    model = transformers.AutoModelForCausalLM.from_pretrained(models_dir["causal"]).eval()
    expected = []
    for text in texts:
        ids = tokenizer(text)["input_ids"]
        with torch.no_grad():
            logprobs = torch.log_softmax(model(torch.tensor([ids])).logits[0].float(), dim=-1)
        expected.append(sum(float(logprobs[i - 1, ids[i]]) for i in range(1, len(ids))))
    assert engine.get_log_probs(texts) == pytest.approx(expected, abs=1e-4)
