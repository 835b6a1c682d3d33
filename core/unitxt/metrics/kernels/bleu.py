"""BLEU in pure Python + numpy, scoring exactly as `sacrebleu` (2.x) does with its default settings (chrF, built the
same way, is in chrf.py).

The metric is split into per-instance *sufficient statistics* (integer rows that add up over a corpus) and a
final formula applied to summed rows.  That makes corpus scores, sentence scores and bootstrap resampling cheap:

* corpus score:     ``bleu_from_statistics(bleu_statistics(preds, refs).sum(axis=0))``
* sentence scores:  ``bleu_from_statistics(bleu_statistics(preds, refs), effective_order=True)`` (row-wise)
* bootstrap:        ``bleu_from_statistics(counts @ stats)`` with ``counts`` an (r, n) resampling-count matrix.

References are given instance-major: ``references[i]`` is the list of reference strings of instance i (its length
may vary; ``None`` entries are ignored exactly like sacrebleu's padding).  sacrebleu takes the transpose
(one stream per reference position).
"""

import math
import re
from collections import Counter
from itertools import chain, repeat
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from ...errors import MetricError
from .text_inputs import checked_text_inputs

__all__ = [
    "BLEU_TOKENIZERS",
    "bleu_details_from_statistics",
    "bleu_from_statistics",
    "bleu_statistics",
    "clear_tokenizer_cache",
    "corpus_bleu",
    "sentence_bleu_scores",
    "tokenize_13a",
    "tokenize_none",
]

MAX_NGRAM_ORDER = 4
SMOOTH_DEFAULTS: Dict[str, Optional[float]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
_LOG_OF_ZERO = -9999999999  # sacrebleu's floor for log(0)

ArrayLike = Union[np.ndarray, Sequence[float]]

# ----------------------------------------------------------------------------------------------------------
# Tokenizers
# ----------------------------------------------------------------------------------------------------------

# mteval-v13a: these ASCII symbols (and the space) become separate tokens: each is surrounded by spaces.
_13A_SYMBOLS = ' !"#$%&()*+/:;<=>?@[\\]^_`{|}~'
_13A_SYMBOL_TABLE = str.maketrans({symbol: f" {symbol} " for symbol in _13A_SYMBOLS})
# Period and comma are split off unless they sit between digits; a dash is split off after a digit.
_13A_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_13A_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_13A_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def _chunk_tokens_13a(chunk: str) -> List[str]:
    """13a tokens of one whitespace-free chunk (the symbol, period/comma and dash rules)."""
    text = f" {chunk} ".translate(_13A_SYMBOL_TABLE)
    if "." in text or "," in text:
        text = _13A_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
        text = _13A_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    if "-" in text:
        text = _13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    return text.split()


class _ChunkCache(dict):
    """Memo of `_chunk_tokens_13a` for short chunks (words repeat a lot); emptied when it reaches `limit`."""

    limit = 100_000
    max_chunk_length = 64

    def __missing__(self, chunk: str) -> List[str]:
        tokens = _chunk_tokens_13a(chunk)
        if len(chunk) <= self.max_chunk_length:
            if len(self) >= self.limit:
                self.clear()
            self[chunk] = tokens
        return tokens


_13A_CHUNKS = _ChunkCache()


def clear_tokenizer_cache() -> None:
    """Forget the memoised 13a chunk tokenizations (to free memory, or to time cold runs)."""
    _13A_CHUNKS.clear()


def _tokens_13a(line: str) -> List[str]:
    """Tokens of `line` under the mteval-v13a rules (the whitespace split of `tokenize_13a`).

    The symbol / period-comma / dash rules only look at two adjacent characters, never at whitespace as a
    character they rewrite, so they act independently on each whitespace-separated chunk: chunks are tokenized
    once and memoised.
    """
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return list(chain.from_iterable(map(_13A_CHUNKS.__getitem__, line.split())))


def tokenize_13a(line: str) -> str:
    """sacrebleu's default "13a" tokenization (mteval-v13a.pl): tokens joined by single spaces."""
    return " ".join(_tokens_13a(line))


def tokenize_none(line: str) -> str:
    """sacrebleu's "none" tokenizer: the line unchanged (BLEU then splits it on whitespace)."""
    return line


_TOKEN_FUNCTIONS: Dict[str, Callable[[str], List[str]]] = {"13a": _tokens_13a, "none": str.split}
BLEU_TOKENIZERS = tuple(_TOKEN_FUNCTIONS)  # supported values of the `tokenize` argument


def _bleu_tokenizer(tokenize: str) -> Callable[[str], List[str]]:
    """The token-list function for a tokenizer name, or MetricError."""
    try:
        return _TOKEN_FUNCTIONS[tokenize]
    except (KeyError, TypeError):
        raise MetricError(
            f"Unsupported BLEU tokenizer {tokenize!r}; supported: {list(BLEU_TOKENIZERS)}", field="tokenize"
        ) from None


# ----------------------------------------------------------------------------------------------------------
# Input checks
# ----------------------------------------------------------------------------------------------------------


def _check_inputs(predictions: Sequence[str], references: Sequence[Sequence[Optional[str]]]) -> List[List[str]]:
    """Validate the inputs; return per instance the list of non-None references (sacrebleu's padding)."""
    return checked_text_inputs(predictions, references, drop_missing_references=True)


def _as_float_rows(stats: ArrayLike, width_check: Callable[[int], bool], what: str) -> np.ndarray:
    """`stats` as a 2-D float64 array (one row per statistics vector)."""
    array = np.asarray(stats, dtype=np.float64)
    if array.ndim not in (1, 2) or not width_check(array.shape[-1]):
        raise MetricError(f"invalid {what} statistics of shape {array.shape}", field="statistics")
    return array.reshape(-1, array.shape[-1])


# ----------------------------------------------------------------------------------------------------------
# BLEU statistics
# ----------------------------------------------------------------------------------------------------------


def _word_ngrams(tokens: List[str], max_order: int) -> List[Counter]:
    """Counters of the 1..max_order-grams of `tokens` (tokens for n=1, tuples above)."""
    counters = [Counter(tokens)]
    for n in range(2, max_order + 1):
        counters.append(Counter(zip(*[tokens[k:] for k in range(n)])))
    return counters


def _clipped_hits(hyp: Dict[Any, int], ref: Dict[Any, int]) -> int:
    """Sum over hypothesis n-grams of min(hypothesis count, reference count)."""
    return sum(map(min, hyp.values(), map(ref.get, hyp, repeat(0))))


def _closest_ref_len(hyp_len: int, ref_lens: List[int]) -> int:
    """The reference length closest to the hypothesis length (the shorter one on ties)."""
    return min(ref_lens, key=lambda ref_len: (abs(hyp_len - ref_len), ref_len))


def bleu_statistics(
    predictions: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    tokenize: str = "13a",
    lowercase: bool = False,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    reference_length: str = "closest",
) -> np.ndarray:
    """Per-instance BLEU sufficient statistics, summable over instances.

    Args:
        predictions: one hypothesis string per instance.
        references: per instance, the list of its reference strings (None entries ignored).
        tokenize: "13a" (sacrebleu's default) or "none".
        lowercase: lowercase hypothesis and references before tokenizing.
        max_ngram_order: highest n-gram order N (4 for standard BLEU).
        reference_length: "closest" (sacrebleu) or "shortest" (the BLEU of HF evaluate / tensorflow nmt).

    Returns:
        int64 array of shape (n, 2N+2): [correct_1..N, total_1..N, sys_len, ref_len], where correct_k counts
        hypothesis k-grams clipped by their maximum count in any reference and ref_len is the reference length
        closest to the hypothesis length (shorter on ties), as sacrebleu computes them.
    """
    tokens_of = _bleu_tokenizer(tokenize)
    all_refs = _check_inputs(predictions, references)
    if reference_length not in ("closest", "shortest"):
        raise MetricError(f"reference_length must be 'closest' or 'shortest', got {reference_length!r}.",
                          field="reference_length")
    shortest = reference_length == "shortest"
    if not isinstance(max_ngram_order, int) or max_ngram_order < 1:
        raise MetricError(f"max_ngram_order must be a positive int, got {max_ngram_order!r}", field="max_ngram_order")
    order = max_ngram_order
    rows = []
    for prediction, refs in zip(predictions, all_refs):
        if lowercase:
            prediction = prediction.lower()
            refs = [ref.lower() for ref in refs]
        hyp_tokens = tokens_of(prediction.rstrip())
        hyp_len = len(hyp_tokens)
        hyp_ngrams = _word_ngrams(hyp_tokens, order)
        ref_tokens = tokens_of(refs[0].rstrip())
        ref_lens = [len(ref_tokens)]
        ref_ngrams: List[Dict[Any, int]] = _word_ngrams(ref_tokens, order)
        for ref in refs[1:]:
            ref_tokens = tokens_of(ref.rstrip())
            ref_lens.append(len(ref_tokens))
            for merged, counts in zip(ref_ngrams, _word_ngrams(ref_tokens, order)):
                get = merged.get
                for ngram, count in counts.items():
                    if count > get(ngram, 0):
                        merged[ngram] = count
        row = [_clipped_hits(h, r) for h, r in zip(hyp_ngrams, ref_ngrams)]
        row.extend(max(hyp_len - n, 0) for n in range(order))
        row.append(hyp_len)
        row.append(ref_lens[0] if len(ref_lens) == 1 else min(ref_lens) if shortest else _closest_ref_len(hyp_len, ref_lens))
        rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(len(rows), 2 * order + 2)


def _check_smoothing(smooth_method: str, smooth_value: Optional[float]) -> float:
    """Validate a smoothing method name; return the smoothing value to use (defaults as sacrebleu)."""
    if smooth_method not in SMOOTH_DEFAULTS:
        raise MetricError(
            f"Unknown BLEU smooth_method {smooth_method!r}; expected one of {sorted(SMOOTH_DEFAULTS)}",
            field="smooth_method",
        )
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    return smooth_value if smooth_value is not None else 0.0


def _bleu_row(
    correct: List[float], total: List[float], sys_len: int, ref_len: int,
    smooth_method: str, smooth_value: float, effective_order: bool,
) -> Dict[str, Any]:
    """BLEU of one statistics vector with Python floats (bit-identical to sacrebleu's `compute_bleu`)."""
    order = len(correct)
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * order
    details = {"bp": bp, "sys_len": sys_len, "ref_len": ref_len, "counts": list(correct), "totals": list(total)}
    if not any(correct):
        return dict(details, score=0.0, precisions=precisions)
    correct, total = list(correct), list(total)
    smooth_mteval = 1.0
    eff_order = order
    for n in range(order):
        if smooth_method == "add-k" and n > 0:
            correct[n] += smooth_value
            total[n] += smooth_value
        if total[n] == 0:
            break
        if effective_order:
            eff_order = n + 1
        if correct[n] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n] = 100.0 / (smooth_mteval * total[n])
            elif smooth_method == "floor":
                precisions[n] = 100.0 * smooth_value / total[n]
        else:
            precisions[n] = 100.0 * correct[n] / total[n]
    log_sum = sum([math.log(p) if p != 0.0 else _LOG_OF_ZERO for p in precisions[:eff_order]])
    score = bp * math.exp(log_sum / eff_order)
    return dict(details, score=score, precisions=precisions)


def _bleu_rows(
    stats: np.ndarray, smooth_method: str, smooth_value: float, effective_order: bool
) -> Dict[str, np.ndarray]:
    """BLEU of each row of a (r, 2N+2) statistics array, vectorised (equal to `_bleu_row` up to ~1 ulp)."""
    order = (stats.shape[1] - 2) // 2
    correct = stats[:, :order].copy()
    total = stats[:, order: 2 * order].copy()
    sys_len = stats[:, 2 * order]
    ref_len = stats[:, 2 * order + 1]
    n_rows = stats.shape[0]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        short = sys_len < ref_len
        bp = np.ones(n_rows)
        bp[short] = np.where(sys_len[short] > 0, np.exp(1 - ref_len[short] / sys_len[short]), 0.0)
        any_correct = (correct != 0).any(axis=1)
        if smooth_method == "add-k":
            correct[:, 1:] += smooth_value
            total[:, 1:] += smooth_value
        valid = np.logical_and.accumulate(total != 0, axis=1)  # orders before the first empty one
        zero = valid & (correct == 0)
        precisions = np.where(valid & ~zero, 100.0 * correct / total, 0.0)
        if smooth_method == "exp":
            doubling = 2.0 ** np.cumsum(zero, axis=1)
            precisions = np.where(zero, 100.0 / (doubling * total), precisions)
        elif smooth_method == "floor":
            precisions = np.where(zero, 100.0 * smooth_value / total, precisions)
        eff_order = valid.sum(axis=1) if effective_order else np.full(n_rows, order)
        logs = np.where(precisions != 0.0, np.log(np.where(precisions != 0.0, precisions, 1.0)), _LOG_OF_ZERO)
        used = np.arange(order)[None, :] < eff_order[:, None]
        logs = np.where(used, logs, 0.0)
        log_sum = logs[:, 0].copy()
        for n in range(1, order):
            log_sum = log_sum + logs[:, n]
        scores = bp * np.exp(log_sum / np.maximum(eff_order, 1))
    scores = np.where(any_correct, scores, 0.0)
    precisions = np.where(any_correct[:, None], precisions, 0.0)
    return {
        "score": scores,
        "precisions": precisions,
        "bp": bp,
        "sys_len": sys_len,
        "ref_len": ref_len,
        "counts": stats[:, :order],
        "totals": stats[:, order: 2 * order],
    }


def bleu_details_from_statistics(
    stats: ArrayLike,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
) -> Dict[str, Any]:
    """BLEU with its parts from summed statistics: score (0..100), precisions (0..100), bp, sys_len, ref_len.

    A 1-D `stats` vector gives Python scalars (and lists for precisions/counts/totals) computed exactly as
    sacrebleu does; a (r, 2N+2) array gives arrays with one entry (row) per statistics row.
    """
    smooth_value = _check_smoothing(smooth_method, smooth_value)
    rows = _as_float_rows(stats, lambda width: width >= 4 and width % 2 == 0, "BLEU")
    if np.ndim(stats) == 1:
        order = (rows.shape[1] - 2) // 2
        vector = rows[0]
        as_number = [int(x) if float(x).is_integer() else float(x) for x in vector]
        return _bleu_row(
            as_number[:order], as_number[order: 2 * order], as_number[2 * order], as_number[2 * order + 1],
            smooth_method, smooth_value, effective_order,
        )
    return _bleu_rows(rows, smooth_method, smooth_value, effective_order)


def bleu_from_statistics(
    stats: ArrayLike,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
) -> Union[float, np.ndarray]:
    """BLEU score(s) (0..100) from summed statistics: a float for one vector, an (r,) array for (r, 2N+2) rows.

    Defaults match `sacrebleu.corpus_bleu`; use ``effective_order=True`` for `sacrebleu.sentence_bleu` scores.
    """
    details = bleu_details_from_statistics(stats, smooth_method, smooth_value, effective_order)
    return details["score"]


def corpus_bleu(
    predictions: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
) -> Dict[str, Any]:
    """Corpus BLEU with details, equal to `sacrebleu.corpus_bleu` (references given instance-major)."""
    stats = bleu_statistics(predictions, references, tokenize=tokenize, lowercase=lowercase)
    return bleu_details_from_statistics(stats.sum(axis=0), smooth_method, smooth_value, effective_order)


def sentence_bleu_scores(
    predictions: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
) -> np.ndarray:
    """Per-instance BLEU equal to `sacrebleu.sentence_bleu` (smoothing "exp", effective order), shape (n,)."""
    stats = bleu_statistics(predictions, references, tokenize=tokenize, lowercase=lowercase)
    if len(stats) == 0:
        return np.zeros(0)
    return bleu_from_statistics(stats, smooth_method, smooth_value, effective_order=True)


def nmt_bleu_from_statistics(stats: ArrayLike) -> Dict[str, Any]:
    """BLEU as HF evaluate's `bleu` (tensorflow nmt's compute_bleu, no smoothing) from summed statistics rows
    (r, 2N+2) with shortest reference lengths: {"bleu", "precisions" (r, N), "brevity_penalty", "length_ratio",
    "translation_length", "reference_length"}, 0..1 scale. Any zero n-gram precision makes BLEU 0."""
    rows = _as_float_rows(stats, lambda width: width >= 4 and width % 2 == 0, "BLEU")
    order = (rows.shape[1] - 2) // 2
    matches, possible = rows[:, :order], rows[:, order: 2 * order]
    translation, reference = rows[:, 2 * order], rows[:, 2 * order + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = np.where(possible > 0, matches / np.where(possible > 0, possible, 1.0), 0.0)
        positive = (precisions > 0).all(axis=1)
        geo_mean = np.where(positive, np.exp(np.log(np.where(precisions > 0, precisions, 1.0)).mean(axis=1)), 0.0)
        ratio = np.where(reference > 0, translation / np.where(reference > 0, reference, 1.0), np.inf)
        penalty = np.where(ratio > 1.0, 1.0, np.where(ratio > 0, np.exp(1.0 - 1.0 / np.where(ratio > 0, ratio, 1.0)), 0.0))
    return {"bleu": geo_mean * penalty, "precisions": precisions, "brevity_penalty": penalty, "length_ratio": ratio,
            "translation_length": translation, "reference_length": reference}
