"""METEOR (Banerjee & Lavie 2005) as nltk's meteor_score computes it, in pure Python: exact then Porter-stem word
alignment, F-mean with recall weight `alpha`, fragmentation penalty gamma * (chunks / matches)^beta; the best
reference wins.

Differences from the original system (nltk + WordNet): no WordNet synonym stage (WordNet data is a download, not
available offline), the stemmer is Porter's original 1980 algorithm (nltk's ORIGINAL_ALGORITHM mode), and texts
are tokenized into words and punctuation marks by a regular expression instead of nltk's punkt/Treebank tokenizer.
"""

import re
from typing import Any, Callable, List, Sequence, Tuple

from .base import InstanceMetric
from .map_reduce import InstanceMapHooks
from ..artifact import InertField

_VOWELS = "aeiou"


def _is_consonant(word: str, i: int) -> bool:
    if word[i] in _VOWELS:
        return False
    if word[i] == "y":
        return True if i == 0 else not _is_consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]: the number of vowel-consonant sequences."""
    sequence = "".join("c" if _is_consonant(stem, i) else "v" for i in range(len(stem)))
    return sequence.count("vc")


def _contains_vowel(stem: str) -> bool:
    return any(not _is_consonant(stem, i) for i in range(len(stem)))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _ends_cvc(word: str) -> bool:
    return (len(word) >= 3 and _is_consonant(word, len(word) - 3) and not _is_consonant(word, len(word) - 2)
            and _is_consonant(word, len(word) - 1) and word[-1] not in "wxy")


def _apply_rules(word: str, rules: Sequence[Tuple[str, str, Callable[[str], bool]]]) -> str:
    """The first rule whose suffix ends the word decides (replaced if its condition holds on the stem)."""
    for suffix, replacement, condition in rules:
        if suffix == "*d":
            if _ends_double_consonant(word):
                stem = word[:-2]
                return stem + replacement if condition is None or condition(stem) else word
            continue
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)] if suffix else word
            return stem + replacement if condition is None or condition(stem) else word
    return word


def _positive(stem: str) -> bool:
    return _measure(stem) > 0


def porter_stem(word: str) -> str:
    """Porter's (1980) stemmer, original algorithm, on the lower-cased word."""
    word = word.lower()
    # step 1a
    word = _apply_rules(word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)])
    # step 1b
    if word.endswith("eed"):
        stem = word[:-3]
        word = stem + "ee" if _measure(stem) > 0 else word
    else:
        for suffix in ("ed", "ing"):
            if word.endswith(suffix) and _contains_vowel(word[: -len(suffix)]):
                stem = word[: -len(suffix)]
                word = _apply_rules(stem, [
                    ("at", "ate", None), ("bl", "ble", None), ("iz", "ize", None),
                    ("*d", stem[-1] if stem else "", lambda s, last=stem[-1:]: last not in ("l", "s", "z")),
                    ("", "e", lambda s: _measure(s) == 1 and _ends_cvc(s)),
                ])
                break
    # step 1c
    word = _apply_rules(word, [("y", "i", _contains_vowel)])
    # step 2
    word = _apply_rules(word, [(s, r, _positive) for s, r in (
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
        ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
        ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
        ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"))])
    # step 3
    word = _apply_rules(word, [(s, r, _positive) for s, r in (
        ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
        ("ness", ""))])
    # step 4
    def big(stem):
        return _measure(stem) > 1

    word = _apply_rules(word, [(s, "", big) for s in (
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent")]
        + [("ion", "", lambda s: _measure(s) > 1 and s[-1:] in ("s", "t"))]
        + [(s, "", big) for s in ("ou", "ism", "ate", "iti", "ous", "ive", "ize")])
    # step 5a
    if word.endswith("e"):
        stem = word[:-1]
        if _measure(stem) > 1 or (_measure(stem) == 1 and not _ends_cvc(stem)):
            word = stem
    # step 5b
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        word = word[:-1]
    return word


_TOKEN = re.compile(r"\w+(?:'\w+)?|[^\w\s]")


def tokenize(text: str) -> List[str]:
    """Words (with an inner apostrophe) and single punctuation marks."""
    return _TOKEN.findall(text)


def _match(hypothesis: List[Tuple[int, str]], reference: List[Tuple[int, str]]):
    """Align equal words, scanning both from the end (nltk's order); returns matches and what is left."""
    matches = []
    hypothesis, reference = list(hypothesis), list(reference)
    for i in range(len(hypothesis) - 1, -1, -1):
        for j in range(len(reference) - 1, -1, -1):
            if hypothesis[i][1] == reference[j][1]:
                matches.append((hypothesis[i][0], reference[j][0]))
                hypothesis.pop(i)
                reference.pop(j)
                break
    return matches, hypothesis, reference


def _chunks(matches: List[Tuple[int, int]]) -> int:
    chunks = 1
    for (h, r), (next_h, next_r) in zip(matches, matches[1:]):
        if not (next_h == h + 1 and next_r == r + 1):
            chunks += 1
    return chunks


def single_meteor(reference: List[str], hypothesis: List[str], alpha: float = 0.9, beta: float = 3,
                  gamma: float = 0.5, stemmer: Callable[[str], str] = porter_stem) -> float:
    """METEOR of one tokenized hypothesis against one tokenized reference."""
    hyp = list(enumerate(word.lower() for word in hypothesis))
    ref = list(enumerate(word.lower() for word in reference))
    exact, hyp_left, ref_left = _match(hyp, ref)
    stemmed, _, _ = _match([(i, stemmer(w)) for i, w in hyp_left], [(j, stemmer(w)) for j, w in ref_left])
    matches = sorted(exact + stemmed, key=lambda pair: pair[0])
    if not matches or not hyp or not ref:
        return 0.0
    precision, recall = len(matches) / len(hyp), len(matches) / len(ref)
    fmean = precision * recall / (alpha * precision + (1 - alpha) * recall)
    penalty = gamma * (_chunks(matches) / len(matches)) ** beta
    return (1 - penalty) * fmean


class MeteorFast(InstanceMapHooks, InstanceMetric):
    """METEOR of the prediction against its best reference (see the module docstring for the alignment stages)."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "meteor"
    ci_scores = ["meteor"]
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)
    prediction_type = str
    alpha: float = 0.9
    beta: int = 3
    gamma: float = 0.5

    def map(self, prediction, references, task_data):
        hypothesis = tokenize(prediction)
        score = max((single_meteor(tokenize(str(ref)), hypothesis, self.alpha, self.beta, self.gamma)
                     for ref in references), default=0.0)
        return {self.main_score: score}


class Meteor(MeteorFast):
    """METEOR (the instance-metric variant of the original system; same scores as meteor_fast)."""
