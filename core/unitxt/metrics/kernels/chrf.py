"""chrF (character n-gram F-score) in pure Python + numpy, scoring exactly as `sacrebleu` (2.x): per-instance
statistics rows (character and word n-gram matches, hypothesis and reference counts) that add up over a corpus, and
the F-beta formula applied to summed rows (corpus score, sentence scores and bootstrap resamples alike)."""

from collections import Counter
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from ...errors import MetricError
from .bleu import ArrayLike, _as_float_rows, _check_inputs, _clipped_hits

__all__ = ["chrf_from_statistics", "chrf_statistics", "corpus_chrf", "sentence_chrf_scores"]

CHRF_CHAR_ORDER = 6
CHRF_WORD_ORDER = 0
CHRF_BETA = 2
_CHRF_EPS = 1e-16


_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _char_ngrams(text: str, max_order: int) -> List[Counter]:
    """Counters of the character 1..max_order-grams of `text`."""
    length = len(text)
    counters = [Counter(text)]
    for n in range(2, max_order + 1):
        counters.append(Counter([text[i: i + n] for i in range(length - n + 1)]))
    return counters


def _split_punctuation(text: str) -> List[str]:
    """chrF++ words: whitespace tokens with one trailing (else one leading) punctuation mark split off."""
    words: List[str] = []
    for word in text.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in _PUNCTUATION:
            words.append(word[:-1])
            words.append(word[-1])
        elif word[0] in _PUNCTUATION:
            words.append(word[0])
            words.append(word[1:])
        else:
            words.append(word)
    return words


def _chrf_ngrams(text: str, char_order: int, word_order: int, whitespace: bool) -> Tuple[List[Counter], List[int]]:
    """chrF n-gram counters of one (already lowercased if needed) text, char orders then word orders,
    with the number of n-grams of each order."""
    chars = text if whitespace else "".join(text.split())
    counters = _char_ngrams(chars, char_order)
    totals = [max(len(chars) - n, 0) for n in range(char_order)]
    if word_order > 0:
        words = _split_punctuation(text)
        for n in range(1, word_order + 1):
            counters.append(Counter([" ".join(words[i: i + n]) for i in range(len(words) - n + 1)]))
            totals.append(max(len(words) - n + 1, 0))
    return counters, totals


def _chrf_score_row(stats: Sequence[float], beta: float, eps_smoothing: bool) -> float:
    """chrF (0..100) of one [hyp, ref, match] * orders vector, with sacrebleu's arithmetic."""
    factor = beta ** 2
    n_orders = len(stats) // 3
    score = 0.0
    effective_order = 0
    avg_prec = avg_rec = 0.0
    for i in range(n_orders):
        n_hyp, n_ref, n_match = stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]
        prec = n_match / n_hyp if n_hyp > 0 else _CHRF_EPS
        rec = n_match / n_ref if n_ref > 0 else _CHRF_EPS
        if eps_smoothing:
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else _CHRF_EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100 * score / n_orders
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


def _chrf_score_rows(stats: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """chrF of each row of an (r, 3*orders) array; same operation order as `_chrf_score_row`, so bit-equal."""
    factor = beta ** 2
    n_rows, width = stats.shape
    n_orders = width // 3
    score = np.zeros(n_rows)
    effective_order = np.zeros(n_rows)
    avg_prec = np.zeros(n_rows)
    avg_rec = np.zeros(n_rows)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n_orders):
            n_hyp, n_ref, n_match = stats[:, 3 * i], stats[:, 3 * i + 1], stats[:, 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1.0), _CHRF_EPS)
            rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1.0), _CHRF_EPS)
            if eps_smoothing:
                denom = factor * prec + rec
                score = score + np.where(denom > 0, (1 + factor) * prec * rec / denom, _CHRF_EPS)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(both, avg_prec + prec, avg_prec)
            avg_rec = np.where(both, avg_rec + rec, avg_rec)
            effective_order = effective_order + both
        if eps_smoothing:
            return 100 * score / n_orders
        has_order = effective_order > 0
        avg_prec = np.where(has_order, avg_prec / effective_order, 0.0)
        avg_rec = np.where(has_order, avg_rec / effective_order, 0.0)
        nonzero = (avg_prec + avg_rec) != 0
        result = (1 + factor) * avg_prec * avg_rec
        result = result / ((factor * avg_prec) + avg_rec)
    return np.where(nonzero, 100 * result, 0.0)


def chrf_statistics(
    predictions: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int = CHRF_CHAR_ORDER,
    word_order: int = CHRF_WORD_ORDER,
    beta: float = CHRF_BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> np.ndarray:
    """Per-instance chrF sufficient statistics, summable over instances.

    For each order (character orders 1..char_order, then word orders 1..word_order) three columns:
    [hypothesis n-grams, reference n-grams, matched n-grams].  Hypothesis n-grams count as 0 for an order in
    which the reference has none.  With several references, the row of the first reference with the best
    sentence chrF (computed with `beta` and `eps_smoothing`) is kept, as sacrebleu does.

    Returns:
        int64 array of shape (n, 3 * (char_order + word_order)).
    """
    all_refs = _check_inputs(predictions, references)
    if not isinstance(char_order, int) or not isinstance(word_order, int) or char_order < 0 or word_order < 0 \
            or char_order + word_order == 0:
        raise MetricError(
            f"invalid chrF orders char_order={char_order!r}, word_order={word_order!r}", field="char_order"
        )
    width = 3 * (char_order + word_order)
    rows = []
    for prediction, refs in zip(predictions, all_refs):
        if lowercase:
            prediction = prediction.lower()
            refs = [ref.lower() for ref in refs]
        hyp_ngrams, hyp_totals = _chrf_ngrams(prediction, char_order, word_order, whitespace)
        best_row: List[int] = []
        best_score = -1.0
        for ref in refs:
            ref_ngrams, ref_totals = _chrf_ngrams(ref, char_order, word_order, whitespace)
            row: List[int] = []
            for hyp_counter, hyp_total, ref_counter, ref_total in zip(hyp_ngrams, hyp_totals, ref_ngrams, ref_totals):
                if ref_total:
                    row.append(hyp_total)
                    row.append(ref_total)
                    row.append(_clipped_hits(hyp_counter, ref_counter))
                else:
                    row.extend((0, 0, 0))
            if len(refs) == 1:
                best_row = row
                break
            score = _chrf_score_row(row, beta, eps_smoothing)
            if score > best_score:
                best_score = score
                best_row = row
        rows.append(best_row)
    return np.array(rows, dtype=np.int64).reshape(len(rows), width)


def chrf_from_statistics(
    stats: ArrayLike, beta: float = CHRF_BETA, eps_smoothing: bool = False
) -> Union[float, np.ndarray]:
    """chrF (0..100) from summed statistics: a float for one vector, an (r,) array for an (r, 3*orders) array.

    Applied to per-instance rows it gives `sacrebleu.sentence_chrf` scores; to their sum, `corpus_chrf`.
    """
    rows = _as_float_rows(stats, lambda width: width > 0 and width % 3 == 0, "chrF")
    if np.ndim(stats) == 1:
        vector = [int(x) if float(x).is_integer() else float(x) for x in rows[0]]
        return _chrf_score_row(vector, beta, eps_smoothing)
    return _chrf_score_rows(rows, beta, eps_smoothing)


def corpus_chrf(
    predictions: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int = CHRF_CHAR_ORDER,
    word_order: int = CHRF_WORD_ORDER,
    beta: float = CHRF_BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> float:
    """Corpus chrF equal to `sacrebleu.corpus_chrf` (references given instance-major)."""
    stats = chrf_statistics(
        predictions, references, char_order, word_order, beta, lowercase, whitespace, eps_smoothing
    )
    return chrf_from_statistics(stats.sum(axis=0), beta, eps_smoothing)


def sentence_chrf_scores(
    predictions: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int = CHRF_CHAR_ORDER,
    word_order: int = CHRF_WORD_ORDER,
    beta: float = CHRF_BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> np.ndarray:
    """Per-instance chrF equal to `sacrebleu.sentence_chrf`, shape (n,)."""
    stats = chrf_statistics(
        predictions, references, char_order, word_order, beta, lowercase, whitespace, eps_smoothing
    )
    if len(stats) == 0:
        return np.zeros(0)
    return chrf_from_statistics(stats, beta, eps_smoothing)
