"""Per-query ranking scores: MRR, average precision (MAP), recall@k, precision@k and NDCG@k.

Inputs are the gold ids (a list, or a dict id -> gain for graded NDCG) and the predicted ids in
ranked order, gold first. A predicted id repeated later in the ranking is ignored after its first
occurrence. A query without any relevant gold id scores 0 everywhere (as sklearn's ndcg_score
does for all-zero relevance). Means over queries (MRR, MAP) are the caller's job: use the
per-query arrays of `retrieval_scores_batch`, which also feed `bootstrap.mean_ci`.
"""

import math
from typing import Any, Dict, Hashable, List, Mapping, Sequence, Union

import numpy as np

from ...errors import MetricError

Gold = Union[Sequence[Hashable], Mapping[Hashable, float]]


def _ranked(predicted_ids: Sequence[Hashable]) -> List[Hashable]:
    if isinstance(predicted_ids, (str, bytes)):
        raise MetricError("predicted ids must be a list of ids, got a single string")
    return list(dict.fromkeys(predicted_ids))


def _gains(gold: Gold) -> Dict[Hashable, float]:
    """id -> gain (> 0 only); a plain list of ids means binary relevance (gain 1)."""
    if isinstance(gold, (str, bytes)):
        raise MetricError("gold ids must be a list of ids or a dict id -> gain, got a single string")
    if isinstance(gold, Mapping):
        gains = {key: float(value) for key, value in gold.items()}
        if any(not math.isfinite(v) or v < 0 for v in gains.values()):
            raise MetricError("graded relevance gains must be finite and non-negative")
        return {key: value for key, value in gains.items() if value > 0}
    return {key: 1.0 for key in gold}


def _check_k(k: int) -> int:
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise MetricError(f"k must be a positive integer, got {k!r}")
    return int(k)


def _hits(gold: Gold, predicted_ids: Sequence[Hashable]) -> np.ndarray:
    relevant = _gains(gold)
    return np.fromiter((pid in relevant for pid in _ranked(predicted_ids)), dtype=bool)


def reciprocal_rank(gold: Gold, predicted_ids: Sequence[Hashable]) -> float:
    """1 / (1-based rank of the first relevant prediction); 0 if none is relevant."""
    hits = _hits(gold, predicted_ids)
    return 1.0 / (int(np.argmax(hits)) + 1) if hits.any() else 0.0


def average_precision(gold: Gold, predicted_ids: Sequence[Hashable]) -> float:
    """Sum of precision@rank over the ranks of relevant predictions, divided by the number of gold ids.

    Gold ids never retrieved contribute 0 precision (TREC-style AP); MAP is its mean over queries.
    """
    n_relevant = len(_gains(gold))
    if n_relevant == 0:
        return 0.0
    hits = _hits(gold, predicted_ids)
    ranks = np.flatnonzero(hits) + 1
    return float((np.arange(1, ranks.size + 1) / ranks).sum() / n_relevant)


def average_precision_over_retrieved(gold: Gold, predicted_ids: Sequence[Hashable]) -> float:
    """Sum of precision@rank over the ranks of relevant predictions, divided by the number of relevant ids retrieved
    (0 when none is): the original system's metrics.map."""
    ranks = np.flatnonzero(_hits(gold, predicted_ids)) + 1
    return float((np.arange(1, ranks.size + 1) / ranks).mean()) if ranks.size else 0.0


def match_at_k(gold: Gold, predicted_ids: Sequence[Hashable], k: int) -> float:
    """1 when a relevant id is among the top k predictions, else 0."""
    return float(_hits(gold, predicted_ids)[: _check_k(k)].any())


def recall_at_k(gold: Gold, predicted_ids: Sequence[Hashable], k: int) -> float:
    """Fraction of the gold ids found among the top k predictions."""
    n_relevant = len(_gains(gold))
    return float(_hits(gold, predicted_ids)[: _check_k(k)].sum() / n_relevant) if n_relevant else 0.0


def precision_at_k(gold: Gold, predicted_ids: Sequence[Hashable], k: int, over_retrieved: bool = False) -> float:
    """Relevant predictions among the top k, divided by k, or with `over_retrieved` by the number of predictions in
    the top k (a ranking shorter than k is rescaled, as the original system's retrieval_at_k)."""
    k = _check_k(k)
    top = _hits(gold, predicted_ids)[:k]
    denominator = top.size if over_retrieved else k
    return float(top.sum() / denominator) if denominator else 0.0


def _dcg(gains: np.ndarray) -> float:
    return float((gains / np.log2(np.arange(2, gains.size + 2))).sum())


def ndcg_at_k(gold: Gold, predicted_ids: Sequence[Hashable], k: Union[int, None] = None) -> float:
    """Normalised DCG with linear gains and log2(rank + 1) discount.

    DCG sums the gains of the top k predictions; the ideal DCG sums the top k gold gains; k=None
    uses the whole ranking; zero ideal DCG gives 0. Equals sklearn.metrics.ndcg_score(y_true,
    y_score, k=k) when y_score ranks the predicted ids in order above all other ids, provided the
    top k are all predicted ids (beyond the ranking sklearn would average the gains of tied unranked
    ids, whereas unranked ids earn nothing here).
    """
    gains = _gains(gold)
    ranked = _ranked(predicted_ids)
    if k is not None:
        k = _check_k(k)
        ranked = ranked[:k]
    ideal = np.sort(np.fromiter(gains.values(), dtype=np.float64, count=len(gains)))[::-1]
    ideal_dcg = _dcg(ideal if k is None else ideal[:k])
    if ideal_dcg == 0:
        return 0.0
    return _dcg(np.fromiter((gains.get(pid, 0.0) for pid in ranked), dtype=np.float64, count=len(ranked))) / ideal_dcg


def retrieval_scores(gold: Gold, predicted_ids: Sequence[Hashable], ks: Sequence[int] = (1, 3, 5, 10)) -> Dict[str, Any]:
    """All scores of one query: {'mrr', 'map', 'ndcg' (full ranking): float,
    'recall', 'precision', 'ndcg_at_k': {k: float}}."""
    ks = [_check_k(k) for k in ks]
    return {
        "mrr": reciprocal_rank(gold, predicted_ids),
        "map": average_precision(gold, predicted_ids),
        "ndcg": ndcg_at_k(gold, predicted_ids),
        "recall": {k: recall_at_k(gold, predicted_ids, k) for k in ks},
        "precision": {k: precision_at_k(gold, predicted_ids, k) for k in ks},
        "ndcg_at_k": {k: ndcg_at_k(gold, predicted_ids, k) for k in ks},
    }


def retrieval_scores_batch(
    golds: Sequence[Gold], predictions: Sequence[Sequence[Hashable]], ks: Sequence[int] = (1, 3, 5, 10)
) -> Dict[str, np.ndarray]:
    """Per-query float arrays: 'mrr', 'map', 'ndcg', and 'recall@k', 'precision@k', 'ndcg@k' for k in ks."""
    if len(golds) != len(predictions):
        raise MetricError(f"gold and predictions must have the same length, got {len(golds)} and {len(predictions)}")
    per_query = [retrieval_scores(g, p, ks) for g, p in zip(golds, predictions)]
    names = ["mrr", "map", "ndcg"] + [f"{m}@{k}" for m in ("recall", "precision", "ndcg") for k in ks]

    def value(scores: Dict[str, Any], name: str) -> float:
        if "@" not in name:
            return scores[name]
        measure, k = name.split("@")
        return scores["ndcg_at_k" if measure == "ndcg" else measure][int(k)]

    return {name: np.array([value(s, name) for s in per_query], dtype=np.float64) for name in names}
