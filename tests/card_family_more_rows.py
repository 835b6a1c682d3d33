"""Synthetic rows in the real schema of the datasets behind cards_more_singles.py (GPQA, LegalBench, CoQA) for the
compat tier's per-card comparison (`MORE_ROWS_BY_PATH`, merged into tests/card_family_sources.py). Texts are
synthetic; field names, types, configs, data folders and splits are the datasets' own.
"""

import random
from typing import Any, Dict, List

from .card_mirrors import sentence, words

N = 8
Rows = Dict[str, List[Dict[str, Any]]]


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _gpqa(name, data_dir, _) -> Rows:
    def row(r, index):
        return {"Pre-Revision Question": words(r) + "?", "Pre-Revision Correct Answer": words(r, 1, 3),
                "Question": f"[{name}] " + words(r) + "?", "Correct Answer": words(r, 1, 3),
                "Incorrect Answer 1": words(r, 1, 3), "Incorrect Answer 2": words(r, 1, 3),
                "Incorrect Answer 3": words(r, 1, 3), "Explanation": sentence(r),
                "Subdomain": ["Molecular Biology", "Quantum Mechanics", "Organic Chemistry"][index % 3],
                "High-level domain": ["Biology", "Physics", "Chemistry"][index % 3], "Record ID": f"rec{index}"}

    return {"train": [row(_rng("gpqa", name, i), i) for i in range(N)]}


LEGAL_ANSWERS = {"abercrombie": ["generic", "descriptive", "suggestive", "arbitrary", "fanciful"],
                 "function_of_decision_section": ["Facts", "Issue", "Rule", "Analysis", "Conclusion"]}


def _legalbench(name, data_dir, _) -> Rows:
    def row(r, index):
        answer = LEGAL_ANSWERS.get(data_dir, ["Yes", "No"])[index % len(LEGAL_ANSWERS.get(data_dir, "ab"))]
        base = {"answer": answer, "index": str(index)}
        if data_dir == "corporate_lobbying":
            return {**base, "bill_title": words(r), "bill_summary": sentence(r), "company_name": words(r, 1, 2),
                    "company_description": sentence(r)}
        if data_dir == "function_of_decision_section":
            return {**base, "Citation": f"{index} F.3d {100 + index}", "Paragraph": sentence(r)}
        if data_dir == "international_citizenship_questions":
            return {**base, "question": words(r) + "?"}
        return {**base, "text": sentence(r)}

    return {split: [row(_rng("legal", data_dir, split, i), i) for i in range(size)]
            for split, size in (("train", 4), ("test", N))}


def _coqa(name, data_dir, _) -> Rows:
    def row(r, index):
        count = 1 + index % 3
        answers = [words(r, 1, 3) for _ in range(count)]
        return {"source": ["wikipedia", "cnn", "gutenberg"][index % 3], "story": sentence(r) + " " + sentence(r),
                "questions": [words(r) + "?" for _ in range(count)],
                "answers": {"input_text": answers, "answer_start": [k * 3 for k in range(count)],
                            "answer_end": [k * 3 + 2 for k in range(count)]}}

    return {split: [row(_rng("coqa", split, i), i) for i in range(size)]
            for split, size in (("train", 12), ("validation", N))}


MORE_ROWS_BY_PATH = {"Idavidrein/gpqa": _gpqa, "nguha/legalbench": _legalbench, "stanfordnlp/coqa": _coqa}


COEDIT_TASKS = ["gec", "paraphrase", "simplification", "coherence", "neutralize", "clarity", "gec"]
COEDIT_PREFIXES = ["Fix grammaticality: ", "Paraphrase this: ", "Simplify: ", "Make it coherent: ",
                   "Neutralize this text: ", "Clarify: "]


def _coedit(name, data_dir, _) -> Rows:
    def row(r, index):
        task = COEDIT_TASKS[index % len(COEDIT_TASKS)]
        src = sentence(r) + (": a quoted part" if index % 4 == 0 else "")  # a text with ": " in it stays whole
        return {"_id": str(index), "task": task, "src": COEDIT_PREFIXES[index % 6] + src, "tgt": sentence(r)}

    return {split: [row(_rng("coedit", split, i), i) for i in range(size)]
            for split, size in (("train", 21), ("validation", 14))}


def _summarize_from_feedback(name, data_dir, _) -> Rows:
    def row(r, index, split):
        news = index % 5 == 4  # CNN/DM rows carry an article and no post
        return {"info": {"id": f"t3_{index}", "post": None if news else sentence(r) + " " + sentence(r),
                         "title": words(r), "subreddit": None if news else "relationships",
                         "site": "cnn" if news else None, "article": sentence(r) if news else None},
                "summaries": [{"text": sentence(r), "policy": "sup2", "note": None},
                              {"text": sentence(r), "policy": "ref", "note": None}],
                "choice": index % 2, "worker": f"w{index % 3}", "batch": "batch3", "split": split,
                "extra": {"confidence": index % 9 + 1}}

    return {split: [row(_rng("sff", split, i), i, split) for i in range(size)]
            for split, size in (("train", 12), ("validation", N))}


MORE_ROWS_BY_PATH.update({"grammarly/coedit": _coedit, "openai/summarize_from_feedback": _summarize_from_feedback})
