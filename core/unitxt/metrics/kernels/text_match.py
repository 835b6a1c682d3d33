"""Per-instance string-matching scores: SQuAD EM/F1, token overlap, containment, edit distances, WER, ANLS.

Functions score one prediction against its references (references first, like
`InstanceMetric.compute(references, prediction)`); scores over several references take the best
reference. Edit distances use Hyyroe's bit-parallel Levenshtein algorithm on Python integers, so a
pair costs O(len(shorter)) big-int operations instead of a Python loop over every DP cell.
"""

import re
import string
from collections import Counter
from typing import Any, Dict, Hashable, Iterable, List, Sequence, Tuple

import numpy as np

from ...errors import MetricError

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def _check_references(references: Any) -> List[Any]:
    if isinstance(references, (str, bytes)):
        raise MetricError("references must be a list of references, got a single string")
    references = list(references)
    if not references:
        raise MetricError("references must not be empty")
    return references


# ---------------------------------------------------------------------------------------------
# SQuAD (official v1.1 evaluation script semantics, scores 0..100)


def normalize_squad_answer(text: str) -> str:
    """SQuAD v1.1 normalisation: lowercase, drop punctuation, drop articles a/an/the, squeeze whitespace."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def normalize_answer(s: str) -> str:
    """The original's name and parameter for the SQuAD normalisation (unitxt.metrics.normalize_answer)."""
    return normalize_squad_answer(s)


def _squad_f1_single(prediction_tokens: List[str], reference_tokens: List[str]) -> float:
    same = sum((Counter(prediction_tokens) & Counter(reference_tokens)).values())
    if same == 0:
        return 0.0
    precision = same / len(prediction_tokens)
    recall = same / len(reference_tokens)
    return 2 * precision * recall / (precision + recall)


def squad_exact_match(references: Sequence[str], prediction: str) -> float:
    """100 if the normalised prediction equals some normalised reference, else 0."""
    normalized = normalize_squad_answer(prediction)
    return 100.0 if any(normalized == normalize_squad_answer(r) for r in _check_references(references)) else 0.0


def squad_f1(references: Sequence[str], prediction: str) -> float:
    """Best token F1 (0..100) between the normalised prediction and any normalised reference."""
    tokens = normalize_squad_answer(prediction).split()
    return 100.0 * max(_squad_f1_single(tokens, normalize_squad_answer(r).split()) for r in _check_references(references))


# ---------------------------------------------------------------------------------------------
# Bag-of-words overlap and simple matches


def token_overlap(references: Sequence[str], prediction: str) -> Dict[str, float]:
    """Whitespace-token bag-of-words precision/recall/f1 against the reference with the highest f1.

    No shared token (including empty texts) gives 0 for all three; on ties the first reference wins.
    """
    prediction_bag = Counter(prediction.split())
    best = {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    for reference in _check_references(references):
        reference_bag = Counter(reference.split())
        common = sum((prediction_bag & reference_bag).values())
        if common == 0:
            continue
        precision = common / sum(prediction_bag.values())
        recall = common / sum(reference_bag.values())
        f1 = 2 * precision * recall / (precision + recall)
        if f1 > best["f1"]:
            best = {"precision": precision, "recall": recall, "f1": f1}
    return best


def string_containment(references: Sequence[str], prediction: str) -> float:
    """1 if some reference is a substring of the prediction (an empty reference always is), else 0."""
    return 1.0 if any(reference in prediction for reference in _check_references(references)) else 0.0


def exact_match(references: Sequence[Any], prediction: Any) -> float:
    """1 if the prediction equals some reference exactly, else 0."""
    return 1.0 if any(prediction == reference for reference in _check_references(references)) else 0.0


def _multiset(items: Iterable[Any]) -> Counter:
    items = list(items)
    try:
        return Counter(items)
    except TypeError:  # unhashable elements (e.g. nested lists): compare their reprs
        return Counter(repr(item) for item in items)


def unsorted_list_exact_match(reference: Sequence[Any], prediction: Sequence[Any]) -> float:
    """1 if the two lists hold the same elements with the same multiplicities, in any order."""
    return 1.0 if _multiset(reference) == _multiset(prediction) else 0.0


def jaccard_index(references: Sequence[Iterable[Hashable]], prediction: Iterable[Hashable]) -> float:
    """Best |P & R| / |P | R| over references, treating each as a set (two empty sets score 1)."""
    predicted = set(prediction)
    best = 0.0
    for reference in _check_references(references):
        gold = set(reference)
        union = len(predicted | gold)
        best = max(best, 1.0 if union == 0 else len(predicted & gold) / union)
    return best


# ---------------------------------------------------------------------------------------------
# Levenshtein distance (bit-parallel)


def levenshtein_distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Unit-cost insert/delete/substitute edit distance between two sequences (strings or word lists).

    Hyyroe (2001) bit-vector formulation of Myers' algorithm: the DP column of the longer sequence
    is a Python int bit vector, and each element of the shorter one updates it in ~15 int ops.
    """
    if len(a) < len(b):
        a, b = b, a
    m = len(a)
    if len(b) == 0:
        return m
    match_masks: Dict[Hashable, int] = {}
    for i, symbol in enumerate(a):
        match_masks[symbol] = match_masks.get(symbol, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    vp, vn, score = full, 0, m
    for symbol in b:
        eq = match_masks.get(symbol, 0)
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = vn | ~(xh | vp)
        hn = vp & xh
        if hp & top:
            score += 1
        elif hn & top:
            score -= 1
        hp = ((hp << 1) | 1) & full
        hn = (hn << 1) & full
        vp = (hn | ~(xv | hp)) & full
        vn = hp & xv
    return score


def normalized_edit_distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Levenshtein distance / max(len(a), len(b)); 0 for two empty sequences."""
    longest = max(len(a), len(b))
    return 0.0 if longest == 0 else levenshtein_distance(a, b) / longest


def char_edit_distance(references: Sequence[str], prediction: str, normalized: bool = True) -> float:
    """Smallest character edit distance to any reference, normalised by the longer string by default."""
    distance = normalized_edit_distance if normalized else levenshtein_distance
    return float(min(distance(prediction, reference) for reference in _check_references(references)))


def anls(references: Sequence[str], prediction: str, threshold: float = 0.5) -> float:
    """Average Normalized Levenshtein Similarity of one answer, as the original system's metrics.anls: 1 - NL of the
    closest reference, 0 when that is below `threshold`.

    The edit distance is between the lowercased, stripped, whitespace-squeezed texts, but it is divided by the longer
    RAW text's length (its uppercased form's, padding included), as the original does; two empty texts score 1.
    """
    answer = " ".join(prediction.strip().lower().split())
    answer_length = len(prediction.upper())
    nearest = min(_raw_normalized_distance(answer, answer_length, reference)
                  for reference in _check_references(references))
    similarity = 1.0 - nearest
    return 0.0 if similarity < threshold else similarity


def _raw_normalized_distance(answer: str, answer_length: int, reference: str) -> float:
    """Edit distance of the normalised texts over the longer raw length (0 when both are empty)."""
    longest = max(answer_length, len(reference.upper()))
    gold = " ".join(reference.strip().lower().split())
    return 0.0 if longest == 0 else levenshtein_distance(answer, gold) / longest


# ---------------------------------------------------------------------------------------------
# Word error rate


def word_edits(reference: str, prediction: str) -> Tuple[int, int]:
    """(word-level edit distance, number of reference words), whitespace tokenisation."""
    reference_words = reference.split()
    return levenshtein_distance(reference_words, prediction.split()), len(reference_words)


def word_edit_counts(references: Sequence[str], predictions: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
    """Per-instance int64 arrays (edits, reference word counts); one reference string per instance."""
    if len(references) != len(predictions):
        raise MetricError(
            f"references and predictions must have the same length, got {len(references)} and {len(predictions)}"
        )
    pairs = [word_edits(r, p) for r, p in zip(references, predictions)]
    edits = np.fromiter((e for e, _ in pairs), dtype=np.int64, count=len(pairs))
    lengths = np.fromiter((n for _, n in pairs), dtype=np.int64, count=len(pairs))
    return edits, lengths


def _wer_ratio(edits: Any, lengths: Any) -> np.ndarray:
    """edits / lengths elementwise; an empty reference counts as one word, as the original's WER (its score is the
    number of inserted words, 0 when the prediction is empty too)."""
    edits = np.asarray(edits, dtype=np.float64)
    lengths = np.asarray(lengths, dtype=np.float64)
    return edits / np.where(lengths > 0, lengths, 1.0)


def instance_wer(reference: str, prediction: str) -> float:
    """Word edits / reference words of one instance (0 for two empty texts, NaN for an empty reference)."""
    return float(_wer_ratio(*word_edits(reference, prediction)))


def corpus_wer(references: Sequence[str], predictions: Sequence[str]) -> float:
    """Corpus WER: total word edits / total reference words (like jiwer.wer on the lists)."""
    edits, lengths = word_edit_counts(references, predictions)
    return float(_wer_ratio(edits.sum(), lengths.sum()))


def resampled_corpus_wer(edits: Any, lengths: Any, idx: np.ndarray) -> np.ndarray:
    """Corpus WER of every resample row of idx (r, n), from the per-instance word_edit_counts."""
    edits = np.asarray(edits, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    return _wer_ratio(np.take(edits, idx).sum(axis=1), np.take(lengths, idx).sum(axis=1))
