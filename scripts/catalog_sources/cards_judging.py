"""Catalog: judge-evaluation cards (meta-evaluation of LLM judges): the gold ratings of a strong judge are the
references, so a candidate judge is scored by how well its ratings agree (Spearman correlation)."""

from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, FilterByCondition, LiteralEval, Rename
from unitxt.splitters import RenameSplits


def register(add):
    add("cards.mt_bench.response_assessment.rating.single_turn_gpt4_judgement", TaskCard(
        loader=LoadHF(path="OfirArviv/mt_bench_single_score_gpt4_judgement", split="train"),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            FilterByCondition(values={"turn": 1}, condition="eq"),
            FilterByCondition(values={"reference": "[]"}, condition="eq"),
            Rename(field_to_field={"model_input": "question", "score": "rating", "category": "group",
                                   "model_output": "answer"}),
            LiteralEval(field="question"),
            Copy(field="question/0", to_field="question"),
            LiteralEval(field="answer"),
            Copy(field="answer/0", to_field="answer"),
        ],
        task="tasks.response_assessment.rating.single_turn",
        templates=["templates.response_assessment.rating.mt_bench_single_turn"],
        __description__="MT-Bench first-turn questions without a reference answer, the answers of several models and "
                        "GPT-4's 1-10 rating of each answer. Evaluates a rating judge against GPT-4 (Spearman). One "
                        "split (train in the data), used as test.",
        __tags__={"task": "response assessment", "language": "en", "modality": "text",
                  "urls": {"dataset": "https://huggingface.co/datasets/OfirArviv/mt_bench_single_score_gpt4_judgement",
                           "paper": "https://arxiv.org/abs/2306.05685"}},
    ))
