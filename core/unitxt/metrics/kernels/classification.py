"""Single-label and multi-label classification scores from integer-coded labels, plain and resampled.

Semantics equal sklearn's f1/precision/recall_score(y_true, y_pred, labels=sorted(set(y_true)),
zero_division=0): the classes are the labels seen in the references, and a prediction outside that
set is wrong (a false negative of its gold class) but a false positive of no class. Resampled
variants recompute the scores of many bootstrap resamples at once with offset `np.bincount`s; each
resample uses the classes present in its own references, exactly like the plain version would.
All functions take references (gold) first, predictions second, like sklearn's (y_true, y_pred).
"""

from typing import Any, Callable, Dict, Hashable, List, NamedTuple, Sequence, Tuple

import numpy as np

from ...errors import MetricError

Counts = Tuple[np.ndarray, np.ndarray, np.ndarray]


class LabelEncoding(NamedTuple):
    """Integer codes of a single-label dataset.

    classes: sorted distinct reference labels (code k <-> classes[k]); gold: codes in [0, K);
    pred: codes, where a label outside the classes gets its own code >= K (needed by Matthews);
    n_labels: K plus the number of distinct outside predicted labels.
    """

    classes: List[Any]
    gold: np.ndarray
    pred: np.ndarray
    n_labels: int


def _sorted_distinct(labels: Any, what: str) -> List[Any]:
    try:
        distinct = set(labels)
    except TypeError as e:
        raise MetricError(f"{what} must be hashable labels: {e}") from e
    try:
        return sorted(distinct)
    except TypeError:  # mixed types: any deterministic order will do
        return sorted(distinct, key=lambda x: (type(x).__name__, repr(x)))


def _check_lengths(references: Sequence, predictions: Sequence) -> None:
    if len(references) != len(predictions):
        raise MetricError(
            f"references and predictions must have the same length, got {len(references)} and {len(predictions)}"
        )


def encode_labels(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> LabelEncoding:
    """Map string (or any hashable) labels to int codes; classes = sorted distinct references."""
    references, predictions = list(references), list(predictions)
    _check_lengths(references, predictions)
    classes = _sorted_distinct(references, "references")
    index = {label: code for code, label in enumerate(classes)}
    outside = [label for label in _sorted_distinct(predictions, "predictions") if label not in index]
    for offset, label in enumerate(outside):
        index[label] = len(classes) + offset
    gold = np.array(list(map(index.__getitem__, references)), dtype=np.int64)
    pred = np.array(list(map(index.__getitem__, predictions)), dtype=np.int64)
    return LabelEncoding(classes, gold, pred, len(index))


def _safe_div(numerator: Any, denominator: Any) -> np.ndarray:
    """numerator / denominator with 0 where the denominator is 0 (sklearn's zero_division=0)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), 0.0)


def scores_from_counts(tp: np.ndarray, support: np.ndarray, pred_count: np.ndarray) -> Dict[str, np.ndarray]:
    """Precision/recall/F1 (micro, macro, support-weighted, per class) from per-class counts.

    Arrays have shape (..., K): tp, support (gold count) and pred_count (predicted count) per class.
    Only classes with support > 0 take part (others are "outside" for this (re)sample): their
    predictions are not false positives and they are left out of macro averages.
    Returns arrays of shape (...) (per-class entries have shape (..., K)).
    """
    tp, support, pred_count = (np.asarray(a, dtype=np.float64) for a in (tp, support, pred_count))
    present = support > 0
    pred_in = np.where(present, pred_count, 0.0)
    tp_sum, support_sum, pred_sum = tp.sum(axis=-1), support.sum(axis=-1), pred_in.sum(axis=-1)
    n_present = present.sum(axis=-1)
    precision, recall = _safe_div(tp, pred_in), _safe_div(tp, support)
    f1 = _safe_div(2.0 * tp, pred_in + support)
    return {
        "f1_micro": _safe_div(2.0 * tp_sum, pred_sum + support_sum),
        "f1_macro": _safe_div(np.where(present, f1, 0.0).sum(axis=-1), n_present),
        "f1_weighted": _safe_div((f1 * support).sum(axis=-1), support_sum),
        "precision_micro": _safe_div(tp_sum, pred_sum),
        "precision_macro": _safe_div(np.where(present, precision, 0.0).sum(axis=-1), n_present),
        "recall_micro": _safe_div(tp_sum, support_sum),
        "recall_macro": _safe_div(np.where(present, recall, 0.0).sum(axis=-1), n_present),
        "precision_weighted": _safe_div((precision * support).sum(axis=-1), support_sum),
        "recall_weighted": _safe_div((recall * support).sum(axis=-1), support_sum),
        "f1_per_class": f1,
        "precision_per_class": precision,
        "recall_per_class": recall,
    }


def _offset_bincount(codes: np.ndarray, width: int) -> np.ndarray:
    """Row-wise bincount of an (r, n) code matrix with codes in [0, width): shape (r, width).

    Row j is shifted by j * width so a single np.bincount counts all rows (no loop over rows).
    """
    rows = codes.shape[0]
    flat = codes.astype(np.intp)
    flat += (np.arange(rows, dtype=np.intp) * width)[:, None]
    return np.bincount(flat.ravel(), minlength=rows * width).reshape(rows, width)


# From this many instances per resample on, each resample row is gathered and counted alone: its codes stay in the
# CPU cache, where one big gather of an (r, n) matrix is bound by memory traffic (3-6x slower at n = 1M).
_ROW_WISE_FROM = 1 << 16


def gathered_bincount(codes: np.ndarray, idx: np.ndarray, width: int) -> np.ndarray:
    """Row-wise bincount of codes[idx] for an (r, n) index matrix: shape (r, width), exact integer counts."""
    if idx.shape[1] >= _ROW_WISE_FROM:
        return np.stack([np.bincount(np.take(codes, row), minlength=width) for row in idx]) if len(idx) else \
            np.zeros((0, width), dtype=np.int64)
    return _offset_bincount(np.take(codes, idx), width)


def _compact(codes: np.ndarray, bound: int) -> np.ndarray:
    """Smallest unsigned dtype holding codes < bound: gathers from a 1-2 byte array stay in cache."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if bound <= np.iinfo(dtype).max + 1:
            return codes.astype(dtype)
    return codes.astype(np.int64)


# Below this many joint (gold, hit, pred) cells one gather + one bincount yields all counts.
_MAX_JOINT_CELLS = 1 << 16


class _Prepared(NamedTuple):
    """Per-instance codes in compact dtypes, computed once per dataset (not once per chunk)."""

    joint: Any  # (2 * gold + hit) * (K + 1) + pred_clipped when few enough cells, else None
    gold_hit: Any  # 2 * gold + (gold == pred), in [0, 2K); None when joint is used
    pred_clipped: Any  # pred with every outside label mapped to K; None when joint is used
    pred: np.ndarray  # full pred codes in [0, n_labels), for Matthews
    n_classes: int
    n_labels: int


def _prepare(gold: Any, pred: Any, n_classes: int, n_labels: int = 0) -> _Prepared:
    gold = np.asarray(gold, dtype=np.int64)
    pred = np.asarray(pred, dtype=np.int64)
    if gold.shape != pred.shape or gold.ndim != 1:
        raise MetricError(f"gold and pred codes must be 1-d arrays of equal length, got {gold.shape} and {pred.shape}")
    if gold.size and (gold.min() < 0 or gold.max() >= n_classes):
        raise MetricError(f"gold codes must lie in [0, {n_classes})")
    if pred.size and pred.min() < 0:
        raise MetricError("pred codes must be non-negative (codes >= n_classes mean 'outside the classes')")
    k = int(n_classes)
    n_labels = max(int(n_labels), k, int(pred.max()) + 1 if pred.size else 0)
    gold_hit = 2 * gold + (gold == pred)
    pred_clipped = np.minimum(pred, k)
    compact_pred = _compact(pred, n_labels)
    if 2 * k * (k + 1) <= _MAX_JOINT_CELLS:
        joint = _compact(gold_hit * (k + 1) + pred_clipped, 2 * k * (k + 1))
        return _Prepared(joint, None, None, compact_pred, k, n_labels)
    return _Prepared(None, _compact(gold_hit, 2 * k), _compact(pred_clipped, k + 1), compact_pred, k, n_labels)


def _counts_of_rows(prep: _Prepared, idx: np.ndarray) -> Counts:
    codes, widths = label_code_arrays(prep, False)
    return _counts_of_code_counts(prep, [gathered_bincount(c, idx, width) for c, width in zip(codes, widths)])


def label_code_arrays(prep: _Prepared, with_matthews: bool) -> Tuple[List[np.ndarray], List[int]]:
    """(per-instance code arrays, their widths) whose counts decide every single-label score of a resample (see
    `label_scores_of_code_counts`)."""
    k = prep.n_classes
    if prep.joint is not None:
        codes, widths = [prep.joint], [2 * k * (k + 1)]
    else:
        codes, widths = [prep.gold_hit, prep.pred_clipped], [2 * k, k + 1]
    if with_matthews:
        codes, widths = codes + [prep.pred], widths + [prep.n_labels]
    return codes, widths


def _counts_of_code_counts(prep: _Prepared, counts: List[np.ndarray]) -> Counts:
    k = prep.n_classes
    if prep.joint is not None:
        cells = counts[0].reshape(-1, k, 2, k + 1)
        by_gold = cells.sum(axis=3)
        pred_count = cells.sum(axis=(1, 2))[:, :k]
    else:
        by_gold = counts[0].reshape(-1, k, 2)
        pred_count = counts[1][:, :k]
    return by_gold[:, :, 1], by_gold.sum(axis=2), pred_count


def label_scores_of_code_counts(prep: _Prepared, counts: List[np.ndarray]) -> Dict[str, np.ndarray]:
    """Every single-label score of resamples from the counts (r, width) of each of `label_code_arrays` (the scores
    `_single_label_scores` gives on the index rows having those counts)."""
    tp, support, pred_count = _counts_of_code_counts(prep, counts)
    all_pred = counts[-1] if len(counts) == len(label_code_arrays(prep, False)[0]) + 1 else None
    return label_scores_from_counts(tp, support, pred_count, all_pred)


def matthews_from_counts(
    correct: np.ndarray, support: np.ndarray, pred_count: np.ndarray, pred_count_all_labels: np.ndarray
) -> np.ndarray:
    """Multi-class Matthews correlation (sklearn's formula) from counts; 0 when undefined.

    correct: (...) number of correct predictions; support, pred_count: (..., K) over the gold
    classes; pred_count_all_labels: (..., L) predicted counts over every predicted label.
    """
    correct = np.asarray(correct, dtype=np.float64)
    support = np.asarray(support, dtype=np.float64)
    pred_count = np.asarray(pred_count, dtype=np.float64)
    p_all = np.asarray(pred_count_all_labels, dtype=np.float64)
    n = support.sum(axis=-1)
    cov_tp = correct * n - (support * pred_count).sum(axis=-1)
    cov_pp = n * n - (p_all * p_all).sum(axis=-1)
    cov_tt = n * n - (support * support).sum(axis=-1)
    denominator = cov_pp * cov_tt
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, cov_tp / np.sqrt(np.where(denominator > 0, denominator, 1.0)), 0.0)


def confusion_counts(gold: Any, pred: Any, n_classes: int) -> Counts:
    """Per-class (tp, support, pred_count), each shape (K,), from int codes (pred >= K = outside)."""
    prep = _prepare(gold, pred, n_classes)
    tp, support, pred_count = _counts_of_rows(prep, np.arange(prep.pred.size)[None, :])
    return tp[0], support[0], pred_count[0]


def _single_label_scores(prep: _Prepared, idx: np.ndarray, with_matthews: bool) -> Dict[str, np.ndarray]:
    tp, support, pred_count = _counts_of_rows(prep, idx)
    all_pred = gathered_bincount(prep.pred, idx, prep.n_labels) if with_matthews else None
    return label_scores_from_counts(tp, support, pred_count, all_pred)


def label_scores_from_counts(tp: np.ndarray, support: np.ndarray, pred_count: np.ndarray,
                             pred_count_all_labels: Any = None) -> Dict[str, np.ndarray]:
    """Every single-label score from per-class counts of shape (r, K) over the gold classes (plus Matthews when the
    predicted counts over every predicted label, (r, L), are given): resampled index rows and a stream's
    Poisson-weighted counts are scored by the same arithmetic."""
    scores = scores_from_counts(tp, support, pred_count)
    n = support.sum(axis=1)  # every instance's gold label is one of the classes
    in_classes = np.where(support > 0, pred_count, 0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores["accuracy"] = tp.sum(axis=1) / n
        scores["in_classes_support"] = in_classes / n
    if pred_count_all_labels is not None:
        scores["matthews_correlation"] = matthews_from_counts(
            tp.sum(axis=1), support, pred_count, np.asarray(pred_count_all_labels, dtype=np.float64))
    return scores


_SCALARS = (
    "f1_micro",
    "f1_macro",
    "f1_weighted",
    "precision_micro",
    "precision_macro",
    "precision_weighted",
    "recall_micro",
    "recall_macro",
    "recall_weighted",
    "accuracy",
    "in_classes_support",
)


def classification_resampler(
    gold: Any, pred: Any, n_classes: int, n_labels: int = 0, with_matthews: bool = False
) -> Callable[[np.ndarray], Dict[str, np.ndarray]]:
    """A vectorised statistic idx (r, n) -> {score name: r values} for `bootstrap.bootstrap_cis`.

    Prepares compact per-instance codes once; each chunk then costs one gather and one offset
    bincount of joint (gold, hit, pred) codes for up to 180 classes (two of each above that, one
    more with Matthews). Scores: f1/precision/recall micro, macro and weighted, accuracy,
    in_classes_support (and matthews_correlation).
    """
    prep = _prepare(gold, pred, n_classes, n_labels)

    def statistic(idx: np.ndarray) -> Dict[str, np.ndarray]:
        scores = _single_label_scores(prep, idx, with_matthews)
        return {name: value for name, value in scores.items() if not name.endswith("_per_class")}

    return statistic


def resampled_classification_scores(
    gold: Any, pred: Any, n_classes: int, idx: np.ndarray, n_labels: int = 0, with_matthews: bool = False
) -> Dict[str, np.ndarray]:
    """Scores of every resample row of idx (r, n) at once: {name: r values}; see classification_resampler."""
    return classification_resampler(gold, pred, n_classes, n_labels, with_matthews)(np.asarray(idx))


def classification_scores(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> Dict[str, Any]:
    """All single-label scores: floats for the averages and matthews_correlation, dicts
    class -> value for f1/precision/recall_per_class. Empty input gives NaN everywhere."""
    enc = encode_labels(references, predictions)
    n = enc.gold.size
    if n == 0:
        result: Dict[str, Any] = {name: float("nan") for name in _SCALARS + ("matthews_correlation",)}
        result.update({"f1_per_class": {}, "precision_per_class": {}, "recall_per_class": {}})
        return result
    prep = _prepare(enc.gold, enc.pred, len(enc.classes), enc.n_labels)
    scores = _single_label_scores(prep, np.arange(n)[None, :], with_matthews=True)
    result = {name: float(value[0]) for name, value in scores.items() if not name.endswith("_per_class")}
    for name in ("f1_per_class", "precision_per_class", "recall_per_class"):
        result[name] = {label: float(v) for label, v in zip(enc.classes, scores[name][0])}
    return result


def f1_micro(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Micro F1 over the reference classes (== sklearn average='micro', labels=sorted(set(y_true)))."""
    return classification_scores(references, predictions)["f1_micro"]


def f1_macro(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Unweighted mean of the per-class F1 over the reference classes."""
    return classification_scores(references, predictions)["f1_macro"]


def f1_weighted(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Support-weighted mean of the per-class F1."""
    return classification_scores(references, predictions)["f1_weighted"]


def f1_per_class(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> Dict[Any, float]:
    """class -> F1 for every reference class (the caller names them f1_<class>)."""
    return classification_scores(references, predictions)["f1_per_class"]


def precision_micro(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Correct predictions / predictions inside the class set (0 if there are none)."""
    return classification_scores(references, predictions)["precision_micro"]


def precision_macro(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Mean per-class precision (a never-predicted class counts as 0)."""
    return classification_scores(references, predictions)["precision_macro"]


def recall_micro(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Correct predictions / instances (equals accuracy for single-label data)."""
    return classification_scores(references, predictions)["recall_micro"]


def recall_macro(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Mean per-class recall (balanced accuracy)."""
    return classification_scores(references, predictions)["recall_macro"]


def accuracy(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Fraction of predictions equal to their reference."""
    return classification_scores(references, predictions)["accuracy"]


def in_classes_support(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Fraction of predictions that are one of the reference classes."""
    return classification_scores(references, predictions)["in_classes_support"]


def matthews_corrcoef(references: Sequence[Hashable], predictions: Sequence[Hashable]) -> float:
    """Multi-class Matthews correlation over all labels (== sklearn.metrics.matthews_corrcoef)."""
    return classification_scores(references, predictions)["matthews_correlation"]


# ---------------------------------------------------------------------------------------------
# Binary (one positive class)


def binary_counts(
    references: Sequence[Hashable], predictions: Sequence[Hashable], pos_label: Hashable
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-instance 0/1 arrays (tp, fp, fn) for the positive class, for resampling."""
    references, predictions = list(references), list(predictions)
    _check_lengths(references, predictions)
    gold = np.fromiter((x == pos_label for x in references), dtype=bool, count=len(references))
    pred = np.fromiter((x == pos_label for x in predictions), dtype=bool, count=len(predictions))
    as_int = lambda mask: mask.astype(np.int64)  # noqa: E731
    return as_int(gold & pred), as_int(~gold & pred), as_int(gold & ~pred)


def binary_scores_from_counts(tp: Any, fp: Any, fn: Any) -> Dict[str, np.ndarray]:
    """precision/recall/f1 of the positive class from (summed) counts, elementwise, zero_division=0."""
    tp, fp, fn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn))
    return {
        "precision": _safe_div(tp, tp + fp),
        "recall": _safe_div(tp, tp + fn),
        "f1": _safe_div(2.0 * tp, 2.0 * tp + fp + fn),
    }


def binary_scores(
    references: Sequence[Hashable], predictions: Sequence[Hashable], pos_label: Hashable = 1
) -> Dict[str, float]:
    """Precision, recall and F1 of `pos_label` (== sklearn average='binary', zero_division=0)."""
    counts = binary_counts(references, predictions, pos_label)
    return {name: float(v) for name, v in binary_scores_from_counts(*(c.sum() for c in counts)).items()}


def f1_binary(references: Sequence[Hashable], predictions: Sequence[Hashable], pos_label: Hashable = 1) -> float:
    """F1 of the positive class `pos_label`."""
    return binary_scores(references, predictions, pos_label)["f1"]


def resampled_binary_scores(tp: Any, fp: Any, fn: Any, idx: np.ndarray) -> Dict[str, np.ndarray]:
    """Binary precision/recall/f1 of every resample row of idx (r, n), from per-instance counts."""
    sums = [np.take(np.asarray(a, dtype=np.int64), idx).sum(axis=1) for a in (tp, fp, fn)]
    return binary_scores_from_counts(*sums)


# ---------------------------------------------------------------------------------------------
# Multi-label


class MultiLabelEncoding(NamedTuple):
    """Sparse (instance, class) pairs of a multi-label dataset.

    classes: sorted union of reference labels; gold/pred/hit_pairs: int64 arrays (2, P) of
    (instance, class code) pairs of the reference labels, the predicted labels inside the classes,
    and their intersection (duplicates inside an instance removed, like MultiLabelBinarizer).
    """

    classes: List[Any]
    n: int
    gold_pairs: np.ndarray
    pred_pairs: np.ndarray
    hit_pairs: np.ndarray


def _label_set(item: Any, what: str, i: int) -> set:
    if isinstance(item, (str, bytes)) or not hasattr(item, "__iter__"):
        raise MetricError(f"{what}[{i}] must be a list of labels, got {type(item).__name__}")
    try:
        return set(item)
    except TypeError as e:
        raise MetricError(f"{what}[{i}] must contain hashable labels: {e}") from e


def _pairs(rows: List[List[int]]) -> np.ndarray:
    sizes = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    inst = np.repeat(np.arange(len(rows), dtype=np.int64), sizes)
    cls = np.fromiter((c for r in rows for c in r), dtype=np.int64, count=int(sizes.sum()))
    return np.stack([inst, cls])


def encode_multilabel(references: Sequence[Sequence[Hashable]], predictions: Sequence[Sequence[Hashable]]) -> MultiLabelEncoding:
    """Encode per-instance label lists; predicted labels outside the reference classes are dropped."""
    references, predictions = list(references), list(predictions)
    _check_lengths(references, predictions)
    gold_sets = [_label_set(x, "references", i) for i, x in enumerate(references)]
    pred_sets = [_label_set(x, "predictions", i) for i, x in enumerate(predictions)]
    classes = _sorted_distinct(set().union(*gold_sets) if gold_sets else set(), "references")
    index = {label: code for code, label in enumerate(classes)}
    gold_rows = [sorted(index[x] for x in s) for s in gold_sets]
    pred_rows = [sorted(index[x] for x in s if x in index) for s in pred_sets]
    hit_rows = [sorted(set(g).intersection(p)) for g, p in zip(gold_rows, pred_rows)]
    return MultiLabelEncoding(classes, len(references), _pairs(gold_rows), _pairs(pred_rows), _pairs(hit_rows))


def multilabel_counts(enc: MultiLabelEncoding) -> Counts:
    """Per-class (tp, support, pred_count), each shape (K,)."""
    k = len(enc.classes)
    return tuple(np.bincount(p[1], minlength=k) for p in (enc.hit_pairs, enc.gold_pairs, enc.pred_pairs))


def multilabel_scores(
    references: Sequence[Sequence[Hashable]], predictions: Sequence[Sequence[Hashable]]
) -> Dict[str, Any]:
    """Multi-label micro/macro/weighted precision, recall, F1 and per-class dicts
    (== sklearn with MultiLabelBinarizer(classes=reference classes), zero_division=0)."""
    enc = encode_multilabel(references, predictions)
    scores = scores_from_counts(*multilabel_counts(enc))
    result: Dict[str, Any] = {name: float(v) for name, v in scores.items() if not name.endswith("_per_class")}
    for name in ("f1_per_class", "precision_per_class", "recall_per_class"):
        result[name] = {label: float(v) for label, v in zip(enc.classes, scores[name])}
    return result


def multilabel_f1_micro(references: Sequence[Sequence[Hashable]], predictions: Sequence[Sequence[Hashable]]) -> float:
    """Micro F1 over all (instance, class) decisions."""
    return multilabel_scores(references, predictions)["f1_micro"]


def multilabel_f1_macro(references: Sequence[Sequence[Hashable]], predictions: Sequence[Sequence[Hashable]]) -> float:
    """Mean per-class F1 over the reference classes."""
    return multilabel_scores(references, predictions)["f1_macro"]


def multilabel_resampler(enc: MultiLabelEncoding, per_class: bool = False) -> Callable[[np.ndarray], Dict[str, np.ndarray]]:
    """A vectorised statistic idx (r, n) -> {f1/precision/recall micro, macro, weighted: r values} (and the
    `*_per_class` (r, K) arrays with `per_class`).

    Per-class counts of a resample are (class x instance indicator matrix) @ (instance
    multiplicities of the resample), one sparse product per chunk.
    """
    from scipy import sparse  # lazy: keep `import unitxt` fast

    k, n = len(enc.classes), enc.n

    def indicator(pairs: np.ndarray) -> Any:
        data = np.ones(pairs.shape[1], dtype=np.float64)
        return sparse.csr_matrix((data, (pairs[1], pairs[0])), shape=(k, n))

    hit, gold, pred = indicator(enc.hit_pairs), indicator(enc.gold_pairs), indicator(enc.pred_pairs)

    def statistic(idx: np.ndarray) -> Dict[str, np.ndarray]:
        rows = idx.shape[0]
        flat = idx.astype(np.int64) * rows + np.arange(rows, dtype=np.int64)[:, None]
        multiplicity = np.bincount(flat.ravel(), minlength=n * rows).reshape(n, rows).astype(np.float64)
        counts = [np.asarray(m @ multiplicity).T for m in (hit, gold, pred)]
        scores = scores_from_counts(*counts)
        return {name: value for name, value in scores.items() if per_class or not name.endswith("_per_class")}

    return statistic


def resampled_multilabel_scores(enc: MultiLabelEncoding, idx: np.ndarray) -> Dict[str, np.ndarray]:
    """Multi-label scores of every resample row of idx (r, n) at once; see multilabel_resampler."""
    return multilabel_resampler(enc)(np.asarray(idx))
