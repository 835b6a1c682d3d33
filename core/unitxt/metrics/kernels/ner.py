"""Entity-span F1: exact matching of (span_text, type) pairs, micro / macro / per-type, with resampling.

Each instance has a list of (span_text, entity_type) pairs for the references and for the
prediction. Matching is on the exact pair and is a multiset intersection (a pair listed twice
must be predicted twice to score two hits). TP/FP/FN are counted per instance and type, then
summed over instances; per-instance count matrices let bootstrap resamples re-sum them.
Zero denominators give 0 (sklearn's zero_division=0).
"""

from collections import Counter
from typing import Any, Callable, Dict, Hashable, List, NamedTuple, Sequence, Tuple

import numpy as np

from .bootstrap import resampled_sums
from ...errors import MetricError

Span = Tuple[str, Hashable]


class SpanCounts(NamedTuple):
    """types: sorted union of reference and predicted entity types; tp, fp, fn: int64 arrays (n, T)."""

    types: List[Hashable]
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray


def _spans(item: Any, what: str, i: int) -> Counter:
    if isinstance(item, (str, bytes)) or not hasattr(item, "__iter__"):
        raise MetricError(f"{what}[{i}] must be a list of (span_text, type) pairs, got {type(item).__name__}")
    pairs = []
    for pair in item:
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise MetricError(f"{what}[{i}] holds {pair!r}, expected a (span_text, type) pair")
        pairs.append((pair[0], pair[1]))
    try:
        return Counter(pairs)
    except TypeError as e:
        raise MetricError(f"{what}[{i}] must hold hashable spans and types: {e}") from e


def _sorted(types: set) -> List[Hashable]:
    try:
        return sorted(types)
    except TypeError:
        return sorted(types, key=lambda x: (type(x).__name__, repr(x)))


def span_counts(references: Sequence[Sequence[Span]], predictions: Sequence[Sequence[Span]]) -> SpanCounts:
    """Per-instance, per-type TP / FP / FN counts of exact (span, type) matches."""
    references, predictions = list(references), list(predictions)
    if len(references) != len(predictions):
        raise MetricError(
            f"references and predictions must have the same length, got {len(references)} and {len(predictions)}"
        )
    gold = [_spans(x, "references", i) for i, x in enumerate(references)]
    pred = [_spans(x, "predictions", i) for i, x in enumerate(predictions)]
    types = _sorted({t for bag in gold + pred for _, t in bag})
    column = {t: j for j, t in enumerate(types)}
    n = len(gold)
    tp, fp, fn = (np.zeros((n, len(types)), dtype=np.int64) for _ in range(3))
    for i, (g, p) in enumerate(zip(gold, pred)):
        hits = g & p
        for target, bag in ((tp, hits), (fp, p - hits), (fn, g - hits)):
            for (_, entity_type), count in bag.items():
                target[i, column[entity_type]] += count
    return SpanCounts(types, tp, fp, fn)


def _safe_div(numerator: Any, denominator: Any) -> np.ndarray:
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), 0.0)


def span_scores_from_counts(tp: Any, fp: Any, fn: Any, zero_division: float = 0.0) -> Dict[str, np.ndarray]:
    """Scores from summed counts of shape (..., T).

    Micro pools all types (every false positive counts, whatever its type). Macro averages the
    per-type scores over the types with reference support (tp + fn > 0), 0 if there are none.
    Per-type entries keep shape (..., T). in_classes_support: the share of predicted spans whose type has
    reference support (1 without predicted spans), as the original reports it. A nonzero `zero_division` scores
    as the original's: precision (recall) with nothing predicted (nothing to find) gets it, so does an F1 whose
    precision and recall are both 0, and a macro score over no supported type.
    """
    if zero_division:
        return _with_zero_division(tp, fp, fn, float(zero_division))
    tp, fp, fn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn))
    supported = (tp + fn) > 0
    n_supported = supported.sum(axis=-1)
    precision, recall = _safe_div(tp, tp + fp), _safe_div(tp, tp + fn)
    f1 = _safe_div(2.0 * tp, 2.0 * tp + fp + fn)
    tp_sum, fp_sum, fn_sum = tp.sum(axis=-1), fp.sum(axis=-1), fn.sum(axis=-1)

    def macro(values: np.ndarray) -> np.ndarray:
        return _safe_div(np.where(supported, values, 0.0).sum(axis=-1), n_supported)

    predicted = tp_sum + fp_sum
    predicted_in_classes = np.where(supported, tp + fp, 0.0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):  # no predicted span: all (none) in the classes
        in_classes = np.where(predicted > 0, predicted_in_classes / np.maximum(predicted, 1.0), 1.0)

    return {
        "precision_micro": _safe_div(tp_sum, tp_sum + fp_sum),
        "recall_micro": _safe_div(tp_sum, tp_sum + fn_sum),
        "f1_micro": _safe_div(2.0 * tp_sum, 2.0 * tp_sum + fp_sum + fn_sum),
        "precision_macro": macro(precision),
        "recall_macro": macro(recall),
        "f1_macro": macro(f1),
        "in_classes_support": in_classes,
        "precision_per_type": precision,
        "recall_per_type": recall,
        "f1_per_type": f1,
    }


def _with_zero_division(tp: Any, fp: Any, fn: Any, zero_division: float) -> Dict[str, np.ndarray]:
    """span_scores_from_counts with the original's zero_division rules (F1 from precision and recall)."""
    scores = span_scores_from_counts(tp, fp, fn)
    tp, fp, fn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn))

    def ratios(hits, predicted, gold):
        precision = np.where(predicted > 0, _safe_div(hits, predicted), zero_division)
        recall = np.where(gold > 0, _safe_div(hits, gold), zero_division)
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = np.where(precision + recall > 0, 2 * precision * recall / np.where(precision + recall > 0,
                                                                                    precision + recall, 1.0),
                          zero_division)
        return precision, recall, f1

    precision, recall, f1 = ratios(tp, tp + fp, tp + fn)
    supported = (tp + fn) > 0
    n_supported = supported.sum(axis=-1)

    def macro(values: np.ndarray) -> np.ndarray:
        return np.where(n_supported > 0, _safe_div(np.where(supported, values, 0.0).sum(axis=-1), n_supported),
                        zero_division)

    micro = ratios(tp.sum(axis=-1), (tp + fp).sum(axis=-1), (tp + fn).sum(axis=-1))
    scores.update({"precision_micro": micro[0], "recall_micro": micro[1], "f1_micro": micro[2],
                   "precision_macro": macro(precision), "recall_macro": macro(recall), "f1_macro": macro(f1),
                   "precision_per_type": precision, "recall_per_type": recall, "f1_per_type": f1})
    return scores


def span_f1(references: Sequence[Sequence[Span]], predictions: Sequence[Sequence[Span]],
            zero_division: float = 0.0) -> Dict[str, Any]:
    """Micro and macro precision/recall/f1 (floats) and f1/precision/recall_per_type (dict type -> float)."""
    counts = span_counts(references, predictions)
    scores = span_scores_from_counts(counts.tp.sum(axis=0), counts.fp.sum(axis=0), counts.fn.sum(axis=0),
                                     zero_division)
    result: Dict[str, Any] = {name: float(v) for name, v in scores.items() if not name.endswith("_per_type")}
    for name in ("f1_per_type", "precision_per_type", "recall_per_type"):
        result[name] = {t: float(v) for t, v in zip(counts.types, scores[name])}
    return result


def ner_resampler(counts: SpanCounts) -> Callable[[np.ndarray], Dict[str, np.ndarray]]:
    """A vectorised statistic idx (r, n) -> {micro/macro precision, recall, f1: r values} for bootstrap_cis."""
    stacked = np.concatenate([counts.tp, counts.fp, counts.fn], axis=1)
    n_types = len(counts.types)

    def statistic(idx: np.ndarray) -> Dict[str, np.ndarray]:
        sums = resampled_sums(stacked, idx)
        tp, fp, fn = sums[:, :n_types], sums[:, n_types : 2 * n_types], sums[:, 2 * n_types :]
        scores = span_scores_from_counts(tp, fp, fn)
        return {name: value for name, value in scores.items() if not name.endswith("_per_type")}

    return statistic


def resampled_span_scores(counts: SpanCounts, idx: np.ndarray) -> Dict[str, np.ndarray]:
    """Micro/macro scores of every resample row of idx (r, n) at once; see ner_resampler."""
    return ner_resampler(counts)(np.asarray(idx))
