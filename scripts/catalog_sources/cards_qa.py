"""Catalog: question-answering cards (cards.squad, cards.gsm8k, cards.truthful_qa ...)."""

from _shared import card_tags
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, ExecuteExpression, IndexOf, Set
from unitxt.operators.label_spans import ShuffleFieldValues
from unitxt.splitters import RenameSplits, SplitRandomMix


def _tags(task, url, paper=None, **extra):
    return card_tags(task, dataset_url=url, paper=paper, **extra)


def register(add):
    add("cards.squad", TaskCard(
        loader=LoadHF(path="rajpurkar/squad"),
        preprocess_steps=[
            "splitters.small_no_test",
            Copy(field="answers/text", to_field="answers"),
            Set(fields={"context_type": "passage"}),
        ],
        task="tasks.qa.extractive",
        templates="templates.qa.with_context.all",
        __description__="SQuAD v1.1: questions posed by crowd workers on Wikipedia paragraphs, answered by a span of "
                        "the paragraph (any of the listed gold spans is correct). Tested on the public validation "
                        "split; validation is 5% of train. Scored with SQuAD exact match and token F1.",
        __tags__=_tags("extractive question answering", "https://huggingface.co/datasets/rajpurkar/squad",
                       "https://arxiv.org/abs/1606.05250"),
    ))
    add("cards.gsm8k", TaskCard(
        loader=LoadHF(path="openai/gsm8k", name="main"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[95%]", "validation": "train[5%]", "test": "test"}),
            ExecuteExpression(expression="[answer.split('####')[-1].strip().replace(',', '')]", to_field="answers"),
        ],
        task="tasks.qa.open",
        templates="templates.qa.open.all",
        __description__="GSM8K: grade-school math word problems needing 2-8 steps of arithmetic. The reference is "
                        "the final numeric answer (the text after '####' in the worked solution).",
        __tags__=_tags("math word problems", "https://huggingface.co/datasets/openai/gsm8k",
                       "https://arxiv.org/abs/2110.14168"),
    ))
    add("cards.truthful_qa", TaskCard(
        loader=LoadHF(path="truthfulqa/truthful_qa", name="multiple_choice"),
        preprocess_steps=[
            RenameSplits(mapper={"validation": "test"}),
            ExecuteExpression(expression="mc1_targets['choices'][mc1_targets['labels'].index(1)]", to_field="correct"),
            ShuffleFieldValues(field="mc1_targets/choices", to_field="choices", seed_fields=["question"]),
            IndexOf(search_in="choices", index_of="correct", to_field="answer"),
        ],
        task="tasks.qa.multiple_choice.open",
        templates="templates.qa.multiple_choice.open.all",
        __description__="TruthfulQA (multiple_choice config, MC1 targets): questions that some humans answer falsely "
                        "because of misconceptions; pick the single true answer. The dataset has only a validation "
                        "split: it is the test split, used whole (zero-shot; no demos split). The data lists "
                        "the true answer first, so the choices are shuffled with a seeded, per-question permutation.",
        __tags__=_tags("multiple choice question answering", "https://huggingface.co/datasets/truthfulqa/truthful_qa",
                       "https://arxiv.org/abs/2109.07958"),
    ))
