"""Catalog: judge-evaluation cards (meta-evaluation of LLM judges): the gold ratings of a strong judge are the
references, so a candidate judge is scored by how well its ratings agree (Spearman correlation)."""

from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, FilterByCondition, LiteralEval, Rename
from unitxt.splitters import RenameSplits


MT_BENCH_RATINGS = "OfirArviv/mt_bench_single_score_gpt4_judgement"
MT_BENCH_TAGS = {"task": "response assessment", "language": "en", "modality": "text",
                 "urls": {"dataset": f"https://huggingface.co/datasets/{MT_BENCH_RATINGS}",
                          "paper": "https://arxiv.org/abs/2306.05685"}}


def _first_turn(field, to_field):
    """The data stores each turn list as the text of a Python list: parse it (no code runs) and keep turn 1."""
    return [LiteralEval(field=field), Copy(field=f"{field}/0", to_field=to_field)]


def _first_turn_ratings(with_reference):
    return [
        RenameSplits(mapper={"train": "test"}),
        FilterByCondition(values={"turn": 1}, condition="eq"),
        FilterByCondition(values={"reference": "[]"}, condition="ne" if with_reference else "eq"),
        Rename(field_to_field={"model_input": "question", "score": "rating", "category": "group",
                               "model_output": "answer"}),
        *_first_turn("question", "question"),
        *_first_turn("answer", "answer"),
        *(_first_turn("reference", "reference_answer") if with_reference else []),
    ]


def register(add):
    add("cards.mt_bench.response_assessment.rating.single_turn_with_reference_gpt4_judgement", TaskCard(
        loader=LoadHF(path=MT_BENCH_RATINGS, split="train"),
        preprocess_steps=_first_turn_ratings(with_reference=True),
        task="tasks.response_assessment.rating.single_turn_with_reference",
        templates=["templates.response_assessment.rating.mt_bench_single_turn_with_reference"],
        __description__="MT-Bench first-turn questions that have a reference answer (math, reasoning, coding), the "
                        "answers of several models and GPT-4's 1-10 rating of each answer given the reference. "
                        "Evaluates a rating judge against GPT-4 (Spearman). One split (train in the data), used as "
                        "test.",
        __tags__=MT_BENCH_TAGS,
    ))
    add("cards.mt_bench.response_assessment.rating.single_turn_gpt4_judgement", TaskCard(
        loader=LoadHF(path=MT_BENCH_RATINGS, split="train"),
        preprocess_steps=_first_turn_ratings(with_reference=False),
        task="tasks.response_assessment.rating.single_turn",
        templates=["templates.response_assessment.rating.mt_bench_single_turn"],
        __description__="MT-Bench first-turn questions without a reference answer, the answers of several models and "
                        "GPT-4's 1-10 rating of each answer. Evaluates a rating judge against GPT-4 (Spearman). One "
                        "split (train in the data), used as test.",
        __tags__=MT_BENCH_TAGS,
    ))
