"""Synthetic files and rows in the real layout of the tool-calling datasets (BFCL v3 JSON Lines files on GitHub,
Salesforce/xlam-function-calling-60k on the Hub) for the compat tier's per-card comparison.

BFCL: questions {id, question: [[{role, content}], ...], function: [{name, description, parameters: {type, properties,
required}}]} with Python / Java type names; answers {id, ground_truth: [{function: {argument: [accepted values]}}]}.
One question has no answer (the cards join inner). xLAM: query, and tools / answers as JSON strings.
"""

import json
import random
from typing import Any, Dict, List, Optional

from tests.support.card_mirrors import sentence, words

N = 6
TYPES = [("integer", "int"), ("string", "str"), ("number", "float"), ("object", "dict"), ("array", "list"),
         ("string", "String"), ("string", "any"), ("integer", "Bigint")]


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _function(r: random.Random, index: int) -> Dict[str, Any]:
    names = [f"arg_{k}" for k in range(r.randint(1, 3))]
    properties = {name: {"type": TYPES[(index + k) % len(TYPES)][1], "description": words(r)}
                  for k, name in enumerate(names)}
    return {"name": f"tool_{index}", "description": sentence(r),
            "parameters": {"type": "dict", "properties": properties, "required": names[:1]}}


def _bfcl(url: str, answers: bool) -> str:
    lines = []
    for index in range(N - (1 if answers else 0)):
        r = _rng(url, index)
        if answers:
            calls = [{f"tool_{index + k}": {"arg_0": [r.randint(1, 9), r.randint(10, 20)][:1 + k % 2],
                                            "arg_1": [words(r, 1, 2), ""]}} for k in range(1 + index % 2)]
            lines.append({"id": f"case_{index}", "ground_truth": calls})
        else:
            turns = [[{"role": "user", "content": words(r) + "?"}] + ([{"role": "assistant", "content": "ok"}]
                                                                      if k else []) for k in range(1 + index % 2)]
            lines.append({"id": f"case_{index}", "question": turns,
                          "function": [_function(r, index + k) for k in range(1 + index % 2)]})
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def bfcl_files(card) -> Optional[Dict[str, Dict[str, str]]]:
    """The card's BFCL files as {split: {"name", "text"}}, or None for other loaders."""
    files = getattr(card.loader, "files", None)
    if not isinstance(files, dict) or not all("berkeley-function-call-leaderboard" in str(url)
                                              for url in files.values()):
        return None
    return {split: {"name": f"{split}.json", "text": _bfcl(url, "possible_answer" in url)}
            for split, url in files.items()}


def _xlam(name, data_dir, _) -> Dict[str, List[Dict[str, Any]]]:
    rows = []
    for index in range(N):
        r = _rng("xlam", index)
        tools = [{"name": f"tool_{index}_{k}", "description": sentence(r),
                  "parameters": {f"p{j}": {"type": ["int", "str", "str, optional", "List[int]", "float, optional"][
                      (index + j) % 5], "description": words(r), "default": "" if j else None}
                                 for j in range(1 + (index + k) % 3)}} for k in range(1 + index % 2)]
        answers = [{"name": tools[0]["name"], "arguments": {"p0": r.randint(1, 9)}}]
        rows.append({"id": index, "query": words(r) + "?", "answers": json.dumps(answers), "tools": json.dumps(tools)})
    return {"train": rows}


TOOL_ROWS_BY_PATH = {"Salesforce/xlam-function-calling-60k": _xlam}
