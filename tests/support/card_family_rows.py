"""More synthetic Hub rows in the REAL schema of datasets behind family cards (see card_family_sources.py): RAG dialog
and long-answer QA data (ChatRAG-Bench, ClapNQ, Open Australian Legal QA) and the single cards built from tables.
`ROWS_BY_PATH` maps a repo id to make(name, data_dir, subject) -> {split: rows}, merged into BY_PATH there.
"""

import random
from typing import Any, Callable, Dict, List

from tests.support.card_mirrors import sentence, words

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


REWARD_SUBSETS = ["alpacaeval-easy", "mt-bench-hard", "llmbar-natural", "math-prm", "hep-go", "refusals-dangerous",
                  "donotanswer", "xstest-should-respond", "mt-bench-med"]


def _reward_bench(name, data_dir, _):
    def row(r, index):
        return {"prompt": words(r) + "?", "chosen": sentence(r), "chosen_model": "gpt-4", "rejected": sentence(r),
                "rejected_model": "llama-2", "subset": REWARD_SUBSETS[index % len(REWARD_SUBSETS)], "id": index}

    return {"filtered": [row(_rng("reward", i), i) for i in range(3 * len(REWARD_SUBSETS))]}


def _clinc(name, data_dir, _):
    return {split: [{"text": words(_rng("clinc", name, split, i)), "intent": (i * 37) % 151} for i in range(N)]
            for split in ("train", "validation", "test")}


def _discrim(name, data_dir, _):
    def row(r, index):
        return {"filled_template": f"The applicant is a {20 + index}-year-old. " + words(r) + "?",
                "decision_question_id": index % 5, "age": 20.0 + index, "gender": ["male", "female"][index % 2],
                "race": ["white", "Black", "Asian"][index % 3], "fill_type": name}

    return {"train": [row(_rng("discrim", name, i), i) for i in range(N)]}


def _long_text(r, index):
    """Texts of varied length: some over 6,000 and some over 10,000 characters."""
    return " ".join(sentence(r) for _ in range([5, 5, 5, 120, 230][index % 5]))


def _billsum(name, data_dir, _):
    def row(r, index):
        return {"text": _long_text(r, index), "summary": sentence(r), "title": words(r, 3, 6)}

    return {split: [row(_rng("billsum", split, i), i) for i in range(size)]
            for split, size in (("train", 40), ("test", N), ("ca_test", 4))}


def _tldr(name, data_dir, _):
    def row(r, index):
        return {"author": f"user{index}", "body": _long_text(r, index), "normalizedBody": "", "subreddit": "AskReddit",
                "subreddit_id": "t5_2qh1i", "id": f"c{index}", "content": _long_text(r, index), "summary": sentence(r)}

    return {"train": [row(_rng("tldr", i), i) for i in range(60)]}


def _ffqa(name, data_dir, _):
    def row(r, index, split):
        document, question = sentence(r), words(r) + "?"
        prompt = f"Answer the question based on the document.\nDocument: {document}\n\nQuestion: {question}"
        limit = {"2k": 2048, "4k": 4096, "8k": 8800, "16k": 16384}[split]
        return {"conversations": [{"from": "human", "value": prompt, "tok_len": limit - 500 + 300 * (index % 3)},
                                  {"from": "gpt", "value": words(r, 1, 3), "tok_len": 4}]}

    return {split: [row(_rng("ffqa", split, i), i, split) for i in range(12)] for split in ("2k", "4k", "8k", "16k")}


def _babi(name, data_dir, _):
    def row(r, index):
        return {"passage": sentence(r) + "\n" + sentence(r), "question": words(r) + "?", "answer": words(r, 1, 1),
                "task": index % 20 + 1}

    return {split: [row(_rng("babi", split, i), i) for i in range(N)] for split in ("train", "validation", "test")}


def _multidoc2dial(name, data_dir, _):
    def row(r, index, split):
        span = sentence(r)
        turns = [words(r) + "?" for _ in range(index % 3 + 1)]
        return {"id": f"{split}{index}", "title": words(r, 2, 4), "context": sentence(r) + " " + span,
                "question": "[SEP]".join(turns), "answers": {"text": [span], "answer_start": [5]},
                "utterance": sentence(r), "domain": ["ssa", "va", "dmv", "studentaid"][index % 4]}

    return {split: [row(_rng("md2d", split, i), i, split) for i in range(N)] for split in ("train", "validation", "test")}


LANGUAGE_CODES = ["ar", "bg", "de", "el", "en", "es", "fr", "hi", "it", "ja", "nl", "pl", "pt", "ru", "sw", "th", "tr",
                  "ur", "vi", "zh"]


def _language_id(name, data_dir, _):
    return {split: [{"labels": LANGUAGE_CODES[(i * 7) % 20], "text": sentence(_rng("langid", split, i))}
                    for i in range(N)] for split in ("train", "validation", "test")}


NEWSGROUPS = ["alt.atheism", "comp.graphics", "misc.forsale", "rec.autos", "sci.space", "talk.politics.guns"]


def _newsgroups(name, data_dir, _):
    def row(r, index):
        text = "" if index % 7 == 6 else " ".join(words(r) for _ in range([2, 5, 80][index % 3]))
        return {"text": text, "label": index % len(NEWSGROUPS), "label_text": NEWSGROUPS[index % len(NEWSGROUPS)]}

    return {split: [row(_rng("20ng", split, i), i) for i in range(size)] for split, size in (("train", 20), ("test", N))}


REUTERS_SOME_TOPICS = ["acq", "earn", "grain", "crude", "money-fx", "bfr", "hk"]


def _reuters(name, data_dir, _):
    def row(r, index, split):
        count = index % 3
        topics = [REUTERS_SOME_TOPICS[(index + k) % (5 if data_dir != "ModHayes" else 7)] for k in range(count)]
        return {"text": sentence(r) + " " + sentence(r), "text_type": '"NORM"', "topics": topics,
                "lewis_split": '"TRAIN"', "cgis_split": '"TRAINING-SET"', "old_id": f'"{index}"', "new_id": f'"{index}"',
                "places": ["usa"], "people": [], "orgs": [], "exchanges": [], "date": "26-FEB-1987 15:01:01.79",
                "title": words(r, 3, 6)}

    return {split: [row(_rng("reuters", data_dir, split, i), i, split) for i in range(size)]
            for split, size in (("train", 20), ("test", N), ("unused", 3))}


def _glue_wnli(name, data_dir, _):
    if name != "wnli":  # the other GLUE configs: the rows of the default tier's mirror, in their own schema
        from tests.support.card_mirrors import MIRRORS

        return MIRRORS["nyu-mll/glue"][name]

    def row(r, index, split):
        return {"sentence1": sentence(r), "sentence2": sentence(r), "label": -1 if split == "test" else index % 2,
                "idx": index}

    return {split: [row(_rng("wnli", split, i), i, split) for i in range(size)]
            for split, size in (("train", 20), ("validation", N), ("test", N))}


def _mt_bench_japanese(name, data_dir, _):
    categories = ["writing", "roleplay", "reasoning", "math", "coding", "extraction", "stem", "humanities"]
    return {"train": [{"question_id": 81 + i, "category": categories[i % 8],
                       "turns": [words(_rng("mtja", i)) + "?", words(_rng("mtja2", i)) + "?"]} for i in range(N)]}


ROWS_BY_PATH: Dict[str, Callable] = {
    "nvidia/ChatRAG-Bench": _chat_rag, "PrimeQA/clapnq": _clapnq, "umarbutler/open-australian-legal-qa": _australian,
    "allenai/reward-bench": _reward_bench, "clinc/clinc_oos": _clinc, "Anthropic/discrim-eval": _discrim,
    "FiscalNote/billsum": _billsum, "webis/tldr-17": _tldr, "abacusai/WikiQA-Free_Form_QA": _ffqa,
    "Muennighoff/babi": _babi, "IBM/multidoc2dial": _multidoc2dial, "papluca/language-identification": _language_id,
    "SetFit/20_newsgroups": _newsgroups, "ucirvine/reuters21578": _reuters, "nyu-mll/glue": _glue_wnli,
    "shi3z/MTbenchJapanese": _mt_bench_japanese,
}
