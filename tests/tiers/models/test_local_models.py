"""Local Hugging Face engines on tiny random-weight models built here (no download): a Llama-style causal LM and a
T5 seq2seq model, with a byte-level BPE tokenizer trained on the prompts. Each engine's answers are checked against a
direct, unbatched computation with the same model."""

import json

import pytest
import torch
import transformers
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

import unitxt
from unitxt.inference import (
    HFAutoModelInferenceEngine,
    HFLlavaInferenceEngine,
    HFOptionSelectingInferenceEngine,
    HFPipelineBasedInferenceEngine,
)

CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")
RECIPE = "card=cards.demo.sentiment,loader_limit=12"


def _tokenizer(texts, path):
    raw = Tokenizer(models.BPE(unk_token=None))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<pad>", "</s>", "<s>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    raw.train_from_iterator(texts, trainer)
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="<pad>", eos_token="</s>",
                                                     bos_token="<s>")
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(path)
    return tokenizer


@pytest.fixture(scope="module")
def rows():
    return list(unitxt.load_dataset(RECIPE, split="test"))


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory, rows):
    texts = [row["source"] for row in rows] + ["positive negative user assistant system"] * 5
    causal = tmp_path_factory.mktemp("tiny-llama")
    tokenizer = _tokenizer(texts, causal)
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                                      num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
                                      max_position_embeddings=512, pad_token_id=0, eos_token_id=1, bos_token_id=2)
    transformers.LlamaForCausalLM(config).save_pretrained(causal)
    seq2seq = tmp_path_factory.mktemp("tiny-t5")
    _tokenizer(texts, seq2seq)
    t5_config = transformers.T5Config(vocab_size=len(tokenizer), d_model=32, d_kv=8, d_ff=64, num_layers=2,
                                      num_heads=2, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0)
    transformers.T5ForConditionalGeneration(t5_config).save_pretrained(seq2seq)
    return {"causal": str(causal), "seq2seq": str(seq2seq)}


def reference_generate(path, prompt, max_new_tokens):
    """Greedy generation for one prompt, unbatched, straight from transformers."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    config = transformers.AutoConfig.from_pretrained(path)
    cls = transformers.AutoModelForSeq2SeqLM if config.is_encoder_decoder else transformers.AutoModelForCausalLM
    model = cls.from_pretrained(path).eval()
    encoded = tokenizer(prompt, return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**encoded, max_new_tokens=max_new_tokens, do_sample=False,
                             pad_token_id=tokenizer.pad_token_id)
    new = out[0] if config.is_encoder_decoder else out[0, encoded["input_ids"].shape[1]:]
    return tokenizer.decode(new, skip_special_tokens=True)


def test_automodel_batched_equals_unbatched_reference(models_dir, rows, tmp_path):
    engine = HFAutoModelInferenceEngine(model_name=models_dir["causal"], max_new_tokens=6, batch_size=5,
                                        device="cpu", cache_dir=str(tmp_path))
    predictions = engine(rows)
    assert predictions == [reference_generate(models_dir["causal"], row["source"], 6) for row in rows]
    meta = engine.infer(rows[:1], return_meta_data=True)[0]
    assert meta.output_tokens <= 6 and meta.input_tokens > 5 and meta.inference_type == "hf-automodel"


def test_pipeline_engine_on_causal_and_seq2seq_models(models_dir, rows, tmp_path):
    for kind in ("causal", "seq2seq"):
        engine = HFPipelineBasedInferenceEngine(model_name=models_dir[kind], max_new_tokens=5, device="cpu",
                                                use_cache=False)
        assert engine(rows[:4]) == [reference_generate(models_dir[kind], row["source"], 5) for row in rows[:4]]


def test_chat_rows_go_through_the_chat_template(models_dir, tmp_path):
    chat_rows = list(unitxt.load_dataset(RECIPE + ",format=formats.chat_api", split="test"))[:3]
    engine = HFAutoModelInferenceEngine(model_name=models_dir["causal"], max_new_tokens=4, device="cpu",
                                        use_cache=False)
    outputs = engine.infer(chat_rows, return_meta_data=True)
    tokenizer = transformers.AutoTokenizer.from_pretrained(models_dir["causal"])
    for row, output in zip(chat_rows, outputs):
        expected_prompt = tokenizer.apply_chat_template(row["source"], tokenize=False, add_generation_prompt=True)
        assert output.input_text == expected_prompt and expected_prompt.endswith("<|assistant|>")
        assert output.prediction == reference_generate(models_dir["causal"], expected_prompt, 4)


def test_log_probs_match_a_forward_pass(models_dir, rows):
    engine = HFAutoModelInferenceEngine(model_name=models_dir["causal"], max_new_tokens=3, top_logprobs=2,
                                        device="cpu", use_cache=False)
    [tokens] = engine.infer_log_probs(rows[:1])
    tokenizer = transformers.AutoTokenizer.from_pretrained(models_dir["causal"])
    model = transformers.AutoModelForCausalLM.from_pretrained(models_dir["causal"]).eval()
    ids = tokenizer(rows[0]["source"])["input_ids"]
    for token in tokens:
        with torch.no_grad():
            distribution = torch.log_softmax(model(torch.tensor([ids])).logits[0, -1].float(), dim=-1)
        chosen = int(distribution.argmax())
        assert token["text"] == tokenizer.decode([chosen])
        assert token["logprob"] == pytest.approx(float(distribution[chosen]), abs=1e-4)
        assert token["top_tokens"][0]["logprob"] == pytest.approx(float(distribution.max()), abs=1e-4)
        assert len(token["top_tokens"]) == 2
        ids.append(chosen)


def test_option_selection_end_to_end(models_dir, rows, tmp_path):
    engine = HFOptionSelectingInferenceEngine(model_name=models_dir["causal"], device="cpu", cache_dir=str(tmp_path))
    predictions = engine(rows)
    tokenizer = transformers.AutoTokenizer.from_pretrained(models_dir["causal"])
    model = transformers.AutoModelForCausalLM.from_pretrained(models_dir["causal"]).eval()

    def score(context, option):
        context_ids, full = tokenizer(context)["input_ids"], tokenizer(context + option)["input_ids"]
        start = next((i for i, (a, b) in enumerate(zip(context_ids, full)) if a != b), len(context_ids))
        with torch.no_grad():
            logprobs = torch.log_softmax(model(torch.tensor([full])).logits[0].float(), dim=-1)
        return sum(float(logprobs[i - 1, full[i]]) for i in range(max(start, 1), len(full)))

    for row, prediction in zip(rows, predictions):
        options = json.loads(row["task_data"])["classes"]
        assert prediction == max(options, key=lambda option: score(row["source"], option))
    varied = [{"source": row["source"], "task_data": {"options": options}} for row, options in zip(rows, [
        [" good", " bad", " fine"], ["yes", "no"], [" the review", " sentiment is"], ["x", "positive", "neutral"]])]
    for row, prediction in zip(varied, engine(varied)):
        assert prediction == max(row["task_data"]["options"], key=lambda option: score(row["source"], option))
    results = unitxt.evaluate(predictions=predictions, data=rows)
    expected = sum(p == json.loads(r["task_data"])["label"] for p, r in zip(predictions, rows)) / len(rows)
    assert results.global_scores["accuracy"] == pytest.approx(expected)


def _tiny_llava(path):
    from PIL import Image  # noqa: F401 - the processor needs Pillow

    raw = Tokenizer(models.BPE(unk_token=None))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    raw.train_from_iterator(["what is in the image? a red square, describe it please"] * 3, trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<pad>", "</s>", "<s>", "<image>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="<pad>", eos_token="</s>",
                                                     bos_token="<s>", extra_special_tokens={"image_token": "<image>"})
    template = ("{% for m in messages %}<|{{ m['role'] }}|>{% for p in m['content'] %}{% if p['type'] == 'image' %}"
                "<image>{% else %}{{ p['text'] }}{% endif %}{% endfor %}\n{% endfor %}"
                "{% if add_generation_prompt %}<|assistant|>{% endif %}")
    processor = transformers.LlavaProcessor(
        image_processor=transformers.CLIPImageProcessor(size={"shortest_edge": 16},
                                                        crop_size={"height": 16, "width": 16}),
        tokenizer=tokenizer, patch_size=8, vision_feature_select_strategy="default", chat_template=template,
        num_additional_image_tokens=1)
    processor.save_pretrained(path)
    vision = transformers.CLIPVisionConfig(hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                           num_attention_heads=2, image_size=16, patch_size=8, projection_dim=16)
    text = transformers.LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                                    num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2, pad_token_id=0,
                                    eos_token_id=1, bos_token_id=2)
    config = transformers.LlavaConfig(vision_config=vision, text_config=text, vision_feature_layer=-1,
                                      image_token_index=tokenizer.convert_tokens_to_ids("<image>"))
    torch.manual_seed(0)
    transformers.LlavaForConditionalGeneration(config).save_pretrained(path)


def test_llava_engine_answers_rows_with_images(tmp_path):
    from PIL import Image

    from unitxt.image_utils import pil_to_data_url

    _tiny_llava(tmp_path / "llava")
    images = [Image.new("RGB", (20, 20), color) for color in ((255, 0, 0), (0, 0, 255))]
    rows = [{"source": f'what is in the image? <img src="media/images/0"> describe it',
             "media": {"images": [pil_to_data_url(image)], "audios": []}} for image in images]
    engine = HFLlavaInferenceEngine(model_name=str(tmp_path / "llava"), max_new_tokens=4, device="cpu",
                                    use_cache=False)
    outputs = engine.infer(rows, return_meta_data=True)
    processor = transformers.AutoProcessor.from_pretrained(tmp_path / "llava")
    model = transformers.AutoModelForImageTextToText.from_pretrained(tmp_path / "llava").eval()
    prompt = processor.apply_chat_template([{"role": "user", "content": [
        {"type": "text", "text": "what is in the image? "}, {"type": "image"}, {"type": "text", "text": " describe it"}]}],
        add_generation_prompt=True)
    for image, output in zip(images, outputs):
        encoded = processor(images=[image], text=prompt, return_tensors="pt")
        with torch.no_grad():
            generated = model.generate(**encoded, max_new_tokens=4, do_sample=False)
        expected = processor.decode(generated[0, encoded["input_ids"].shape[1]:], skip_special_tokens=True)
        assert output.input_text == prompt == "<|user|>what is in the image? <image> describe it<|assistant|>"
        assert output.prediction == expected and output.output_tokens == 4


def test_unitxt_evaluate_with_a_local_model(models_dir, rows, tmp_path, capsys):
    """`unitxt-evaluate --model hf`: the local engine with --batch_size, its answers in the samples file."""
    from unitxt.cli.evaluate import main

    model_args = f"pretrained={models_dir['causal']},max_new_tokens=4,device=cpu,use_cache=false"
    assert main(["-t", RECIPE, "-L", "4", "-b", "2", "-a", model_args, "-s", "-o", str(tmp_path), "-v",
                 "WARNING"]) == 0
    results_path, samples_path = capsys.readouterr().out.split()
    samples = json.loads(open(samples_path).read())
    (task,) = samples["samples"]
    expected = HFAutoModelInferenceEngine(model_name=models_dir["causal"], max_new_tokens=4, device="cpu",
                                          use_cache=False)(rows[:4])
    assert [row["prediction"] for row in samples["samples"][task]] == expected
    info = json.loads(open(results_path).read())["environment_info"]
    assert info["parsed_arguments"]["model"] == models_dir["causal"] and info["parsed_arguments"]["batch_size"] == 2
