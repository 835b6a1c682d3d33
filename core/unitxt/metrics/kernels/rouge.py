"""ROUGE-N, ROUGE-L and ROUGE-Lsum in pure Python + numpy, scoring exactly as Google's `rouge_score`.

What is reproduced (with the default tokenizer and no stemming):

* tokenization: lowercase, keep maximal runs of ``[a-z0-9]`` as tokens (everything else separates);
* ``rougeN`` (N = 1..9): clipped n-gram overlap, precision / recall / F1;
* ``rougeL``: longest common subsequence of the two token sequences;
* ``rougeLsum``: summary-level "union LCS" over sentences split on ``"\\n"``, counting each token at most
  as often as it occurs in both texts (ROUGE-1.5.5 behaviour, as `rouge_score` implements it);
* several references: per ROUGE type, the scores of the first reference with the highest F1.

Why it is fast: each text is tokenized once and shared by all ROUGE types, n-grams are counted with C-level
`Counter` construction, and LCS lengths use the bit-parallel algorithm (one big-int update per token instead of
a quadratic table).  ROUGE-Lsum needs the positions of one particular LCS (the one `rouge_score`'s table
backtrack chooses); those are read off the stored bit-parallel rows with popcounts.
"""

import re
from collections import Counter
from itertools import repeat
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...errors import MetricError
from .text_inputs import checked_text_inputs

__all__ = [
    "DEFAULT_ROUGE_TYPES",
    "lcs_length",
    "lcs_reference_positions",
    "rouge_instance_scores",
    "rouge_sentences",
    "rouge_tokenize",
    "rouge_for_instance",
]

DEFAULT_ROUGE_TYPES: Tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum")

_TOKEN_RE = re.compile(r"[a-z0-9]+")
_ROUGE_N_RE = re.compile(r"rouge([0-9])")

Score = Tuple[float, float, float]  # (precision, recall, fmeasure)
_ZERO: Score = (0.0, 0.0, 0.0)

if hasattr(int, "bit_count"):  # Python >= 3.10
    _popcount = int.bit_count
else:  # pragma: no cover - Python 3.9

    def _popcount(value: int) -> int:
        return bin(value).count("1")


# ----------------------------------------------------------------------------------------------------------
# Tokenization
# ----------------------------------------------------------------------------------------------------------


def _check_stemmer(use_stemmer: bool) -> None:
    """Stemming (nltk's Porter variant) is not reimplemented; refuse it instead of silently differing."""
    if use_stemmer:
        raise MetricError(
            "ROUGE with use_stemmer=True is not supported by the zero-install ROUGE implementation "
            "(it would need nltk's Porter stemmer); use use_stemmer=False.",
            field="use_stemmer",
        )


def rouge_tokenize(text: str, use_stemmer: bool = False) -> List[str]:
    """Tokens as rouge_score's default tokenizer makes them: lowercase, runs of [a-z0-9], all else separates."""
    _check_stemmer(use_stemmer)
    return _TOKEN_RE.findall(text.lower())


def rouge_sentences(text: str, use_stemmer: bool = False) -> List[List[str]]:
    """Token lists of the ``"\\n"``-separated sentences of `text` that contain at least one token (for rougeLsum).

    rouge_score keeps whitespace/punctuation-only lines as empty sentences, but they never change a score,
    so they are dropped here.
    """
    _check_stemmer(use_stemmer)
    findall = _TOKEN_RE.findall
    return [tokens for tokens in map(findall, text.lower().split("\n")) if tokens]


# ----------------------------------------------------------------------------------------------------------
# LCS building blocks
# ----------------------------------------------------------------------------------------------------------


def _match_masks(tokens: Sequence[str]) -> Dict[str, int]:
    """For each distinct token, the bitmask of the positions where it occurs in `tokens`."""
    masks: Dict[str, int] = {}
    get = masks.get
    bit = 1
    for token in tokens:
        masks[token] = get(token, 0) | bit
        bit <<= 1
    return masks


def _lcs_len_masks(rows_tokens: Sequence[str], masks: Dict[str, int], n_columns: int) -> int:
    """LCS length of `rows_tokens` and the column sequence described by `masks` (bit-parallel, Hyyro 2004)."""
    full = (1 << n_columns) - 1
    v = full
    get = masks.get
    for token in rows_tokens:
        u = v & get(token, 0)
        if u:
            v = ((v + u) | (v - u)) & full
    return n_columns - _popcount(v)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences."""
    if not a or not b:
        return 0
    return _lcs_len_masks(a, _match_masks(b), len(b))


def _lcs_positions_masks(ref_masks: Dict[str, int], n_ref: int, cand: Sequence[str]) -> List[int]:
    """Positions in the reference of the LCS that rouge_score's table backtrack picks (descending order).

    `ref_masks` are the match masks of the reference (bit p = reference position p).  The bit-parallel state
    after j candidate tokens, W_j, encodes column j of the LCS table: with Z_j = ~W_j, ``t[i][j]`` is the number
    of set bits of Z_j below bit i.  rouge_score walks back from (n_ref, len(cand)): on a match it goes
    diagonally, otherwise it moves up (towards fewer reference tokens) while ``t[i-1][j] == t[i][j]``, else left.
    So in column j with value k it stays among rows i0..i, where i0 - 1 is the highest set bit of Z_j below i,
    takes the highest matching reference position in that range, or else moves left at row i0.
    """
    full = (1 << n_ref) - 1
    v = full
    zeros = [0]
    append = zeros.append
    get = ref_masks.get
    for token in cand:
        u = v & get(token, 0)
        if u:
            v = ((v + u) | (v - u)) & full
        append(full ^ v)
    k = _popcount(zeros[-1])
    positions: List[int] = []
    i = n_ref
    j = len(cand)
    while k:
        low = (1 << i) - 1
        i0 = (zeros[j] & low).bit_length()
        j -= 1
        hits = get(cand[j], 0) & low
        if hits >> (i0 - 1):
            i = hits.bit_length() - 1
            positions.append(i)
            k -= 1
        else:
            i = i0
    return positions


def lcs_reference_positions(ref: Sequence[str], cand: Sequence[str]) -> List[int]:
    """Indices into `ref` of one LCS of `ref` and `cand`: the one rouge_score's backtrack returns (descending).

    The choice matters for rougeLsum, whose union-LCS depends on which LCS is taken.
    """
    if not ref or not cand:
        return []
    return _lcs_positions_masks(_match_masks(ref), len(ref), cand)


# ----------------------------------------------------------------------------------------------------------
# Per-text features and pair scoring
# ----------------------------------------------------------------------------------------------------------


def _parse_rouge_types(rouge_types: Sequence[str]) -> Tuple[Tuple[int, ...], bool, bool]:
    """Validate ROUGE type names; return (n-gram orders, wants rougeL, wants rougeLsum)."""
    if isinstance(rouge_types, str) or not isinstance(rouge_types, (list, tuple)) or not rouge_types:
        raise MetricError(
            f"rouge_types must be a non-empty list of ROUGE type names, got {rouge_types!r}", field="rouge_types"
        )
    orders = []
    want_l = want_lsum = False
    for rouge_type in rouge_types:
        if rouge_type == "rougeL":
            want_l = True
        elif rouge_type == "rougeLsum":
            want_lsum = True
        else:
            match = _ROUGE_N_RE.fullmatch(rouge_type) if isinstance(rouge_type, str) else None
            if match is None or match.group(1) == "0":
                raise MetricError(
                    f"Unknown ROUGE type {rouge_type!r}; expected rouge1..rouge9, rougeL or rougeLsum",
                    field="rouge_types",
                )
            orders.append(int(match.group(1)))
    return tuple(sorted(set(orders))), want_l, want_lsum


def _ngram_counter(tokens: List[str], n: int) -> Counter:
    """Counts of the n-grams (tuples; plain tokens for n=1) of `tokens`."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*[tokens[k:] for k in range(n)]))


class _Features:
    """Everything about one text that ROUGE scoring needs, computed once and shared across types/references."""

    __slots__ = ("tokens", "ngrams", "masks", "sentences", "sentence_masks", "token_counts")

    def __init__(self, text: str, orders: Tuple[int, ...], want_l: bool, want_lsum: bool, as_candidate: bool):
        lowered = text.lower()
        if want_lsum:
            findall = _TOKEN_RE.findall
            self.sentences = [t for t in map(findall, lowered.split("\n")) if t]
            if len(self.sentences) == 1:
                self.tokens = self.sentences[0]
            else:
                self.tokens = [token for sentence in self.sentences for token in sentence]
            if as_candidate:  # the prediction's token counts cap rougeLsum hits
                self.token_counts = Counter(self.tokens)
            else:  # reference sentences are the bit dimension of the union-LCS computation
                self.sentence_masks = [_match_masks(s) for s in self.sentences]
        else:
            self.tokens = _TOKEN_RE.findall(lowered)
        self.ngrams = {n: _ngram_counter(self.tokens, n) for n in orders}
        if want_l and as_candidate:
            self.masks = _match_masks(self.tokens)


def _fmeasure(precision: float, recall: float) -> float:
    """F1 as rouge_score computes it."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def _score_ngrams(ref: Counter, pred: Counter, n_ref: int, n_pred: int) -> Score:
    """Clipped n-gram overlap scores (denominators floored at 1, as rouge_score does)."""
    small, large = (ref, pred) if len(ref) <= len(pred) else (pred, ref)
    hits = sum(map(min, small.values(), map(large.get, small, repeat(0))))
    precision = hits / max(n_pred, 1)
    recall = hits / max(n_ref, 1)
    return precision, recall, _fmeasure(precision, recall)


def _score_lcs(ref: _Features, pred: _Features) -> Score:
    """rougeL: LCS of the whole token sequences."""
    ref_tokens = ref.tokens
    pred_tokens = pred.tokens
    if not ref_tokens or not pred_tokens:
        return _ZERO
    lcs = _lcs_len_masks(ref_tokens, pred.masks, len(pred_tokens))
    precision = lcs / len(pred_tokens)
    recall = lcs / len(ref_tokens)
    return precision, recall, _fmeasure(precision, recall)


def _score_lsum(ref: _Features, pred: _Features) -> Score:
    """rougeLsum: union of per-sentence LCS hits in each reference sentence, clipped by token counts."""
    m = len(ref.tokens)
    n = len(pred.tokens)
    if not m or not n:
        return _ZERO
    pred_sentences = pred.sentences
    union_counts: Counter = Counter()
    for ref_sentence, masks in zip(ref.sentences, ref.sentence_masks):
        union = set()
        n_ref = len(ref_sentence)
        for cand in pred_sentences:
            union.update(_lcs_positions_masks(masks, n_ref, cand))
        if union:
            union_counts.update([ref_sentence[i] for i in union])
    if not union_counts:
        return _ZERO
    counts = pred.token_counts
    hits = sum(map(min, union_counts.values(), map(counts.get, union_counts, repeat(0))))
    recall = hits / m
    precision = hits / n
    return precision, recall, _fmeasure(precision, recall)


def _score_features(
    ref: _Features, pred: _Features, rouge_types: Sequence[str], orders: Tuple[int, ...]
) -> Dict[str, Score]:
    """All requested ROUGE scores of one (reference, prediction) pair."""
    out: Dict[str, Score] = {}
    n_ref_tokens = len(ref.tokens)
    n_pred_tokens = len(pred.tokens)
    for rouge_type in rouge_types:
        if rouge_type == "rougeL":
            out[rouge_type] = _score_lcs(ref, pred)
        elif rouge_type == "rougeLsum":
            out[rouge_type] = _score_lsum(ref, pred)
        else:
            n = int(rouge_type[5:])
            out[rouge_type] = _score_ngrams(
                ref.ngrams[n], pred.ngrams[n], max(n_ref_tokens - n + 1, 0), max(n_pred_tokens - n + 1, 0)
            )
    return out


def rouge_for_instance(
    prediction: str,
    references: Sequence[str],
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    use_stemmer: bool = False,
) -> Dict[str, Score]:
    """(precision, recall, fmeasure) per ROUGE type for one prediction, like `RougeScorer.score_multi`.

    With several references, each type takes the scores of the first reference with the highest fmeasure.
    """
    _check_stemmer(use_stemmer)
    rouge_types = tuple(rouge_types) if isinstance(rouge_types, list) else rouge_types
    orders, want_l, want_lsum = _parse_rouge_types(rouge_types)
    _check_texts([prediction], [references])
    pred = _Features(prediction, orders, want_l, want_lsum, as_candidate=True)
    best: Dict[str, Score] = {}
    for reference in references:
        ref = _Features(reference, orders, False, want_lsum, as_candidate=False)
        for rouge_type, score in _score_features(ref, pred, rouge_types, orders).items():
            if rouge_type not in best or score[2] > best[rouge_type][2]:
                best[rouge_type] = score
    return best


# ----------------------------------------------------------------------------------------------------------
# Batch API
# ----------------------------------------------------------------------------------------------------------


def _check_texts(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """Raise MetricError unless predictions is a list of strings and references a same-length list of lists."""
    checked_text_inputs(predictions, references)


LONG_TEXT_CHARACTERS = 200_000  # above this many characters of prediction + references, ROUGE-L shows progress


def _long_texts(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> bool:
    """Whether the texts are long enough for ROUGE-L's quadratic work to take seconds."""
    total = 0
    for prediction, refs in zip(predictions, references):
        total += len(prediction) + sum(len(ref) for ref in refs)
        if total > LONG_TEXT_CHARACTERS:
            return True
    return False


def _progress(pairs, total: int):
    """A tqdm progress bar over the instances (tqdm comes with `datasets`)."""
    from tqdm.auto import tqdm

    return tqdm(pairs, total=total, desc="ROUGE-L on long texts", unit="instance", leave=False)


def rouge_instance_scores(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    use_stemmer: bool = False,
    with_precision_recall: bool = False,
) -> Dict[str, np.ndarray]:
    """Per-instance ROUGE fmeasures, equal to `RougeScorer(rouge_types).score_multi(refs, pred)`.

    Args:
        predictions: one predicted text per instance.
        references: per instance, a non-empty list of reference texts (best reference per type is used).
        rouge_types: any of "rouge1".."rouge9", "rougeL", "rougeLsum" (sentences split on "\\n").
        use_stemmer: must be False (Porter stemming is not implemented; True raises MetricError).
        with_precision_recall: also return "<type>_precision" and "<type>_recall" arrays.

    Returns:
        {rouge_type: float64 array of shape (n,)} holding fmeasures (plus precision/recall arrays if asked).
        The usual global score is the mean of each array.
    """
    _check_stemmer(use_stemmer)
    rouge_types = tuple(rouge_types) if isinstance(rouge_types, list) else rouge_types
    orders, want_l, want_lsum = _parse_rouge_types(rouge_types)
    _check_texts(predictions, references)
    n_types = len(rouge_types)
    per_type: List[List[Score]] = [[] for _ in range(n_types)]
    pairs = zip(predictions, references)
    if (want_l or want_lsum) and _long_texts(predictions, references):
        pairs = _progress(pairs, len(predictions))
    for prediction, refs in pairs:
        pred = _Features(prediction, orders, want_l, want_lsum, as_candidate=True)
        if len(refs) == 1:
            ref = _Features(refs[0], orders, False, want_lsum, as_candidate=False)
            scores = _score_features(ref, pred, rouge_types, orders)
            for t, rouge_type in enumerate(rouge_types):
                per_type[t].append(scores[rouge_type])
            continue
        best: List[Optional[Score]] = [None] * n_types
        for reference in refs:
            ref = _Features(reference, orders, False, want_lsum, as_candidate=False)
            scores = _score_features(ref, pred, rouge_types, orders)
            for t, rouge_type in enumerate(rouge_types):
                score = scores[rouge_type]
                current = best[t]
                if current is None or score[2] > current[2]:
                    best[t] = score
        for t in range(n_types):
            per_type[t].append(best[t])
    out: Dict[str, np.ndarray] = {}
    for t, rouge_type in enumerate(rouge_types):
        table = np.array(per_type[t], dtype=np.float64).reshape(-1, 3)
        out[rouge_type] = table[:, 2].copy()
        if with_precision_recall:
            out[f"{rouge_type}_precision"] = table[:, 0].copy()
            out[f"{rouge_type}_recall"] = table[:, 1].copy()
    return out
