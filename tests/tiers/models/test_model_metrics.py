"""Model-based metrics on tiny random-weight models built here (no download): Perplexity (causal and seq2seq) and
Reward, each checked against a direct computation with the same model."""

import math

import pytest
import torch
import transformers
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from unitxt.metrics.model_based import Perplexity, Reward

TEXTS = ["Paris is the capital of France.", "What is the capital of France?", "Lyon is a city.",
         "Generate a question: ", "Is this answer good?"] * 4


def _tokenizer(path):
    raw = Tokenizer(models.BPE(unk_token=None))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    raw.train_from_iterator(TEXTS, trainers.BpeTrainer(vocab_size=300, special_tokens=["<pad>", "</s>", "<s>"],
                                                       initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="<pad>", eos_token="</s>",
                                                     bos_token="<s>")
    tokenizer.save_pretrained(path)
    return tokenizer


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.manual_seed(0)
    causal = tmp_path_factory.mktemp("ppl-llama")
    tokenizer = _tokenizer(causal)
    transformers.LlamaForCausalLM(transformers.LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
        num_key_value_heads=2, max_position_embeddings=256, pad_token_id=0, eos_token_id=1, bos_token_id=2,
    )).save_pretrained(causal)
    seq2seq = tmp_path_factory.mktemp("ppl-t5")
    _tokenizer(seq2seq)
    transformers.T5ForConditionalGeneration(transformers.T5Config(
        vocab_size=len(tokenizer), d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=2, pad_token_id=0,
        eos_token_id=1, decoder_start_token_id=0)).save_pretrained(seq2seq)
    classifier = tmp_path_factory.mktemp("reward-bert")
    _tokenizer(classifier)
    transformers.BertForSequenceClassification(transformers.BertConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
        max_position_embeddings=256, num_labels=2, pad_token_id=0)).save_pretrained(classifier)
    return {"causal": str(causal), "seq2seq": str(seq2seq), "classifier": str(classifier)}


def direct_causal(path, source, target):
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    model = transformers.AutoModelForCausalLM.from_pretrained(path).eval()
    prefix = tokenizer(source).input_ids
    full = tokenizer(source + target).input_ids
    with torch.no_grad():
        logits = model(torch.tensor([full])).logits[0]
    logprobs = torch.log_softmax(logits.float(), dim=-1)
    values = [logprobs[position - 1, full[position]].item() for position in range(len(prefix), len(full))]
    return math.exp(sum(values) / len(values))


def direct_seq2seq(path, source, target):
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    model = transformers.AutoModelForSeq2SeqLM.from_pretrained(path).eval()
    labels = tokenizer(target).input_ids
    decoder_input = [model.config.decoder_start_token_id] + labels[:-1]
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([tokenizer(source).input_ids]),
                       decoder_input_ids=torch.tensor([decoder_input])).logits[0]
    logprobs = torch.log_softmax(logits.float(), dim=-1)
    values = [logprobs[position, token].item() for position, token in enumerate(labels)]
    return math.exp(sum(values) / len(values))


@pytest.mark.parametrize("kind", ["causal", "seq2seq"])
def test_perplexity_best_context_equals_direct_teacher_forcing(tiny, kind):
    metric = Perplexity(model_name=tiny[kind], source_field="contexts", target_field="question",
                        source_template="Generate a question: {reference}", main_score="context_relevance")
    contexts = ["Paris is the capital of France.", "Lyon is a city."]
    question = "What is the capital of France?"
    scores = metric.evaluate(["ignored"], [[]], [{"contexts": contexts, "question": question}])
    direct = direct_causal if kind == "causal" else direct_seq2seq
    expected = max(direct(tiny[kind], f"Generate a question: {c}", question) for c in contexts)
    assert scores.instance_scores[0]["context_relevance"] == pytest.approx(expected, rel=1e-5)


def test_reward_equals_direct_classifier_probability(tiny):
    metric = Reward(model_name=tiny["classifier"])
    scores = metric.evaluate(["Paris is the capital of France."], [["What is the capital of France?"]], [{}])
    tokenizer = transformers.AutoTokenizer.from_pretrained(tiny["classifier"])
    model = transformers.AutoModelForSequenceClassification.from_pretrained(tiny["classifier"]).eval()
    with torch.no_grad():
        logits = model(**tokenizer("What is the capital of France?", "Paris is the capital of France.",
                                   return_tensors="pt")).logits[0]
    assert scores.instance_scores[0]["reward_score"] == pytest.approx(torch.softmax(logits, -1).max().item(), rel=1e-5)
