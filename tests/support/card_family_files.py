"""Synthetic FILES in the real layout of the datasets that family cards read from URLs (JSON files of JUDGE-BENCH on
GitHub), for the compat tier's per-card comparison: `files_of(card)` gives {split: {"name", "text"}} per split of the
card's file loader; both sides then read the same local files instead of the URLs.

JUDGE-BENCH files: {"dataset", "annotations": [...], "instances": [{"id", "instance", "annotations": {aspect:
{"majority_human" | "mean_human", "individual_human_scores"}}}]}; `instance` is the annotators' text (DICES and WMT: a
dict of its parts). Texts are synthetic but keep the real section labels, so the cards' layout regexes apply.
"""

import json
import random
from typing import Any, Dict, List, Optional

from tests.support.card_mirrors import sentence, words

N = 8
ROSCOE_STEP = ["Grammar", "Factuality", "Coherency and Logic", "Final Answer", "Hallucination", "Redundancy",
               "Repetition", "Commonsense", "Arithmetic"]
ROSCOE_OVERALL = ["Overall Quality", "Coherency", "Missing Steps", "Contradiction"]
NEWSROOM = ["Informativeness", "Relevance", "Fluency", "Coherence"]


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _roscoe_text(r: random.Random, stepwise: bool, index: int) -> str:
    steps = [f"Step {k + 1} - {sentence(r)}" for k in range(r.randint(1, 3))]
    intro = ("For this task, you will be shown a CONTEXT with a \"Situation\" and a \"Claim\" about that "
             "\"Situation\".\n\nIs the Claim supported by the Situation?\n\n")
    body = (f"{intro}CONTEXT:\nSituation (Premise): {sentence(r)} {sentence(r)}\n\nClaim (Hypothesis): {words(r)}\n\n"
            f"Is the Claim supported by the Situation?\n\nCorrect Relationship (Yes or No): "
            f"{['yes', 'no'][index % 2]}\n\nGENERATED RESPONSE:\n" + "\n".join(steps) + "\n")
    return body + (f"JUDGE: {steps[index % len(steps)]}\n" if stepwise else "Judge the generated response:\n")


def _categorical(value: Any) -> Dict[str, Any]:
    return {"majority_human": value, "individual_human_scores": [value]}


def _graded(r: random.Random) -> Dict[str, Any]:
    scores = [r.randint(1, 5) for _ in range(3)]
    return {"mean_human": round(sum(scores) / 3, 2), "individual_human_scores": scores}


def _instances(path: str) -> Optional[List[Dict[str, Any]]]:
    rows = []
    for index in range(N):
        r = _rng(path, index)
        if "roscoe" in path:
            stepwise = "stepwise" in path
            annotations = ({name: _categorical(r.choice(["yes", "no"])) for name in ROSCOE_STEP} if stepwise else
                           {"Overall Quality": _graded(r), "Coherency": _graded(r),
                            "Missing Steps": _categorical(r.choice(["yes", "no"])),
                            "Contradiction": _categorical(r.choice(["yes", "no"]))})
            rows.append({"id": index + 1, "instance": _roscoe_text(r, stepwise, index), "annotations": annotations})
        elif "newsroom" in path:
            text = f"### Generated Summary\n\n{sentence(r)}\n\n### Source Article\n\n{sentence(r)} {sentence(r)}"
            rows.append({"id": index + 1, "instance": text, "annotations": {name: _graded(r) for name in NEWSROOM}})
        elif "cola" in path:
            rows.append({"id": index + 1, "instance": sentence(r),
                         "annotations": {"grammaticality": _categorical(["Yes", "No"][index % 2])}})
        elif "dices" in path:
            rows.append({"id": 100 + index, "instance": {"user_prompt": f"A: {words(r)}\\nB: {words(r)}\\n",
                                                         "response": sentence(r)},
                         "annotations": {"safety": _categorical(["Yes", "No"][index % 2])}})
        elif "inferential" in path:
            text = (f"You will be shown the response of a language model.\n\n### PROBLEM STATEMENT\n\n{sentence(r)}\n\n"
                    f"Statements:\n{sentence(r)}\n{sentence(r)}\nConclusion: {sentence(r)}\n\nLet's think step by "
                    f"step.\n\n### MODEL RESPONSE\n\n {sentence(r)}\n\nConclusion: True\n\n")
            if index == N - 1:
                text = "A text without the problem layout: " + sentence(r)  # dropped by the card
            rows.append({"id": index + 1, "instance": text,
                         "annotations": {"Sound Reasoning": _categorical(["yes", "no"][index % 2])}})
        elif "toxic_chat" in path:
            rows.append({"id": f"{index:064x}", "instance": sentence(r),
                         "annotations": {"toxicity": _categorical(str(index % 2)),
                                         "jailbreaking": _categorical(str(index // 2 % 2))}})
        elif "wmt-human" in path:
            rows.append({"id": index + 1, "instance": {"source": sentence(r), "reference": sentence(r),
                                                       "translation": sentence(r)},
                         "annotations": {"quality": {"mean_human": round(r.uniform(0, 6), 2),
                                                     "individual_human_scores": []}}})
        else:
            return None
    return rows


def finqa_records(split: str) -> List[Dict[str, Any]]:
    """FinQA's JSON layout: a list of reports with text passages, a table (header row first; one report has only a
    header, which the card drops) and the qa record (question, program, answer, executed answer)."""
    records = []
    for index in range(N):
        r = _rng("finqa", split, index)
        rows = [["", "2019", "2018"]] + [[words(r, 1, 2), f"${r.randint(1, 99)}", f"${r.randint(1, 99)}"]
                                         for _ in range(0 if index == 3 else r.randint(1, 3))]
        value = r.randint(1, 99)
        records.append({"pre_text": [sentence(r) for _ in range(r.randint(1, 3))],
                        "post_text": [sentence(r) for _ in range(r.randint(1, 2))],
                        "filename": f"ABC/2019/page_{index}.pdf", "table_ori": rows, "table": rows,
                        "qa": {"question": f"what is {words(r, 2, 4)}?", "program": f"add({value}, const_0)",
                               "gold_inds": {"text_0": sentence(r)}, "exe_ans": float(value),
                               "program_re": f"add({value}, const_0)", "answer": f"{value}%"},
                        "id": f"ABC/2019/page_{index}.pdf-{split}"})
    return records


def files_of(card) -> Optional[Dict[str, Dict[str, str]]]:
    """The card's split files as {split: {"name", "text"}}, or None when no synthetic layout is known."""
    files = getattr(card.loader, "files", None)
    if type(card.loader).__name__ != "LoadJsonFile" or not isinstance(files, dict):
        return None
    out = {}
    if all(isinstance(url, str) and "czyssrs/FinQA" in url for url in files.values()):
        return {split: {"name": url.rsplit("/", 1)[-1], "text": json.dumps(finqa_records(split))}
                for split, url in files.items()}
    for split, url in files.items():
        if not isinstance(url, str) or "JUDGE-BENCH" not in url:
            return None
        instances = _instances(url + split)
        if instances is None:
            return None
        out[split] = {"name": f"{split}.json", "text": json.dumps({"dataset": url.rsplit("/", 1)[-1],
                                                                   "instances": instances})}
    return out
