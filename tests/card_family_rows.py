"""More synthetic Hub rows in the REAL schema of datasets behind family cards (see card_family_sources.py): RAG dialog
and long-answer QA data (ChatRAG-Bench, ClapNQ, Open Australian Legal QA) and the single cards built from tables.
`ROWS_BY_PATH` maps a repo id to make(name, data_dir, subject) -> {split: rows}, merged into BY_PATH there.
"""

import random
from typing import Any, Callable, Dict, List

from .card_mirrors import sentence, words

Rows = List[Dict[str, Any]]
N = 8


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _chat_rag(name, data_dir, _):
    def row(r, index):
        turns = []
        for turn in range(index % 3 + 1):
            turns.append({"role": "user", "content": words(r) + "?"})
            if turn < index % 3:
                turns.append({"role": "assistant", "content": sentence(r)})
        return {"messages": turns, "answers": [sentence(r)],
                "ctxs": [{"title": words(r, 1, 3), "text": sentence(r) + " " + sentence(r)} for _ in range(2)]}

    return {"test": [row(_rng("chat_rag", name, i), i) for i in range(3 * N)]}


def _clapnq(name, data_dir, _):
    def row(r, index, split):
        passage = [sentence(r) for _ in range(3)]
        answer = "" if index % 4 == 3 else " ".join(passage[:2])
        return {"id": f"{split}{index}", "input": words(r) + "?",
                "passages": [{"title": words(r, 1, 3), "text": " ".join(passage), "sentences": passage}],
                "output": [{"answer": answer, "selected_sentences": passage[:2] if answer else [],
                            "meta": {"annotator": [index], "has_minimal_answer": False, "non_consecutive": False,
                                     "round": 2}}]}

    return {split: [row(_rng("clapnq", split, i), i, split) for i in range(size)]
            for split, size in (("train", 2 * N), ("validation", N))}


def _australian(name, data_dir, _):
    def row(r, index):
        citation = f"Case {index} [20{10 + index % 9}] NSWSC {index + 1}"
        return {"question": words(r) + "?", "answer": sentence(r), "text": f"# Question\n{words(r)}?",
                "prompt": f"# Snippet\n{sentence(r)}",
                "source": {"version_id": f"v{index}", "type": "decision", "jurisdiction": "new_south_wales",
                           "source": "nsw_caselaw", "citation": citation, "url": f"https://example.org/{index}",
                           "text": sentence(r) + " " + sentence(r)}}

    return {"train": [row(_rng("australian", i), i) for i in range(20)]}


ROWS_BY_PATH: Dict[str, Callable] = {
    "nvidia/ChatRAG-Bench": _chat_rag, "PrimeQA/clapnq": _clapnq, "umarbutler/open-australian-legal-qa": _australian,
}
