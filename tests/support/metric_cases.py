"""Random inputs and small helpers shared by the metric-class tests (tests/test_metrics_*.py)."""

import json
import math
import random
from typing import Any, Dict, List, Optional

WORDS = [
    "the", "The", "THE", "cat", "cats", "dog", "sat", "on", "mat", "a", "an", "is", "was", "run", "Run", "x1", "42",
    "3.5", "1,000", "5-6", "co-op", "well-known", "don't", "it's", "naïve", "café", "İstanbul", "ß", "日本語",
    "e.g.", "U.S.", "(see", "below)", "[1]", "#tag", "&amp;", "--", "-", "...", "a.", "$10", "100%",
]
PUNCT = ["", "", "", "", ",", ".", "!", "?", ";", ":", "'", '"']
SEPARATORS = [" ", " ", " ", " ", "  ", "\n", "\t"]


def random_text(rng: random.Random, max_words: int = 15) -> str:
    """A messy text: small vocabulary (so overlaps happen), punctuation, case, unicode, newlines; sometimes empty."""
    roll = rng.random()
    if roll < 0.04:
        return ""
    if roll < 0.06:
        return rng.choice([" ", "\n", ".", "- "])
    parts = []
    for _ in range(rng.randint(1, max_words)):
        parts.append(rng.choice(WORDS) + rng.choice(PUNCT))
        parts.append(rng.choice(SEPARATORS))
    return "".join(parts[:-1])


def noisy_copy(rng: random.Random, text: str) -> str:
    """Drop / shuffle some words so references overlap with the prediction."""
    words = [word for word in text.split(" ") if rng.random() > 0.25]
    if rng.random() < 0.3:
        rng.shuffle(words)
    return " ".join(words)


def random_text_corpus(seed: int, max_instances: int = 6, max_refs: int = 3, exact_copy: float = 0.1):
    """(predictions, references) of a small corpus; each instance has 1..max_refs references (count varies)."""
    rng = random.Random(seed)
    n = rng.randint(2, max_instances)
    predictions = [random_text(rng) for _ in range(n)]
    references = []
    for prediction in predictions:
        refs = []
        for _ in range(rng.randint(1, max_refs)):
            roll = rng.random()
            if roll < exact_copy:
                refs.append(prediction)
            elif roll < 0.6:
                refs.append(noisy_copy(rng, prediction))
            else:
                refs.append(random_text(rng))
        references.append(refs)
    return predictions, references


def reference_streams(references: List[List[str]]) -> List[List[Optional[str]]]:
    """Instance-major references of varying counts -> sacrebleu's reference streams (None-padded)."""
    width = max(len(refs) for refs in references)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]


def assert_close(actual: Any, expected: Any, tol: float = 1e-9, what: str = "") -> None:
    """Equal within tol (NaN equals NaN)."""
    if isinstance(expected, float) and math.isnan(expected):
        assert isinstance(actual, float) and math.isnan(actual), f"{what}: {actual!r} != NaN"
        return
    assert abs(actual - expected) <= tol, f"{what}: {actual!r} != {expected!r}"


def make_row(target: str, references: List[Any], metrics: List[str], postprocessors: List[str],
             task_data: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """A unitxt evaluation row as produced by a recipe (task_data as a JSON string)."""
    return {
        "source": "Question: ...",
        "target": target,
        "references": references,
        "metrics": metrics,
        "postprocessors": postprocessors,
        "task_data": json.dumps(task_data or {}),
        "groups": [],
        "subset": [],
        "media": {"images": [], "audios": []},
        "data_classification_policy": ["public"],
    }
