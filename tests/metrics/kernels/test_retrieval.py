"""Retrieval kernels against sklearn (NDCG, AP), plain reference implementations and hand-computed values."""

import math

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, ndcg_score

from unitxt.metrics.kernels import retrieval as rk
from unitxt.errors import MetricError

TOL = 1e-9


def ref_reciprocal_rank(gold, ranked):
    for position, pid in enumerate(ranked, start=1):
        if pid in gold:
            return 1.0 / position
    return 0.0


def ref_average_precision(gold, ranked):
    if not gold:
        return 0.0
    hits, total = 0, 0.0
    for position, pid in enumerate(ranked, start=1):
        if pid in gold:
            hits += 1
            total += hits / position
    return total / len(gold)


def _random_query(rng, case):
    """Distinct predicted ids in ranked order and a random gold list (possibly with unranked ids)."""
    pool = [f"doc{i}" for i in range(int(rng.randint(2, 25)))]
    ranked = list(rng.permutation(pool)[: rng.randint(1, len(pool) + 1)])
    gold = list(rng.choice(pool, rng.randint(0 if case % 10 == 0 else 1, 6), replace=False)) if len(pool) > 5 else [pool[0]]
    return pool, ranked, gold


def _sklearn_ndcg(pool, ranked, gains, k):
    """ndcg_score on the same items: ranked ids get decreasing scores above every unranked id."""
    y_true = np.array([[gains.get(pid, 0.0) for pid in pool]])
    position = {pid: i for i, pid in enumerate(ranked)}
    y_score = np.array([[len(pool) - position[pid] if pid in position else -1.0 for pid in pool]])
    return ndcg_score(y_true, y_score, k=k)


def test_ndcg_equals_sklearn_on_300_random_cases():
    rng = np.random.RandomState(0)
    for case in range(300):
        pool, ranked, gold = _random_query(rng, case)
        graded = case % 2 == 1
        gains = {pid: float(rng.randint(1, 4)) for pid in gold} if graded else {pid: 1.0 for pid in gold}
        gold_input = gains if graded else gold
        for k in sorted({1, 3, len(ranked)} | ({int(rng.randint(1, len(ranked) + 1))})):
            if k > len(ranked):
                continue
            expected = _sklearn_ndcg(pool, ranked, gains, k)
            assert rk.ndcg_at_k(gold_input, ranked, k) == pytest.approx(expected, abs=TOL), (case, k)
        full = list(ranked) + [pid for pid in pool if pid not in ranked]  # a complete ranking
        assert rk.ndcg_at_k(gold_input, full) == pytest.approx(_sklearn_ndcg(pool, full, gains, None), abs=TOL)


def test_mrr_map_recall_precision_equal_reference_on_300_random_cases():
    rng = np.random.RandomState(1)
    for case in range(300):
        pool, ranked, gold = _random_query(rng, case)
        gold_set = set(gold)
        assert rk.reciprocal_rank(gold, ranked) == ref_reciprocal_rank(gold_set, ranked)
        assert rk.average_precision(gold, ranked) == pytest.approx(ref_average_precision(gold_set, ranked), abs=TOL)
        for k in (1, 3, 5, 10):
            top = set(ranked[:k])
            assert rk.recall_at_k(gold, ranked, k) == pytest.approx(
                len(top & gold_set) / len(gold_set) if gold_set else 0.0, abs=TOL
            )
            assert rk.precision_at_k(gold, ranked, k) == pytest.approx(len(top & gold_set) / k, abs=TOL)


def test_average_precision_equals_sklearn_when_every_gold_id_is_ranked():
    rng = np.random.RandomState(2)
    for _ in range(200):
        pool = [f"d{i}" for i in range(int(rng.randint(2, 30)))]
        ranked = list(rng.permutation(pool))
        gold = list(rng.choice(pool, rng.randint(1, len(pool) + 1), replace=False))
        y_true = [int(pid in gold) for pid in ranked]
        y_score = np.arange(len(ranked), 0, -1)
        expected = average_precision_score(y_true, y_score)
        assert rk.average_precision(gold, ranked) == pytest.approx(expected, abs=TOL)


def test_hand_computed_values():
    ranked = ["d3", "d1", "d7", "d2"]
    gold = ["d1", "d2", "d9"]
    assert rk.reciprocal_rank(gold, ranked) == 0.5
    assert rk.average_precision(gold, ranked) == pytest.approx((1 / 2 + 2 / 4) / 3)
    assert rk.recall_at_k(gold, ranked, 2) == pytest.approx(1 / 3)
    assert rk.recall_at_k(gold, ranked, 10) == pytest.approx(2 / 3)
    assert rk.precision_at_k(gold, ranked, 2) == 0.5
    assert rk.precision_at_k(gold, ranked, 10) == pytest.approx(0.2)
    # DCG@4 = 1/log2(3) + 1/log2(5); IDCG@4 = 1 + 1/log2(3) + 1/log2(4)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3) + 0.5)
    assert rk.ndcg_at_k(gold, ranked, 4) == pytest.approx(expected)
    # graded gains: DCG = 3 + 1/log2(3); IDCG = 3 + 2/log2(3)
    assert rk.ndcg_at_k({"a": 3, "b": 2, "c": 0}, ["a", "c", "x", "b"], 2) == pytest.approx(3 / (3 + 2 / math.log2(3)))
    # k beyond the ranking: unranked gold ids earn nothing
    assert rk.ndcg_at_k(["a", "b"], ["a"], 5) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_duplicates_and_empty_gold():
    assert rk.reciprocal_rank(["b"], ["a", "a", "b"]) == 0.5  # the repeated 'a' is ignored
    assert rk.average_precision(["a"], ["a", "a"]) == 1.0
    assert rk.precision_at_k(["a"], ["a", "a"], 2) == 0.5
    for f in (rk.reciprocal_rank, rk.average_precision, rk.ndcg_at_k):
        assert f([], ["a", "b"]) == 0.0
    assert rk.recall_at_k([], ["a"], 1) == 0.0


def test_retrieval_scores_and_batch():
    scores = rk.retrieval_scores(["d1", "d2"], ["d2", "d5", "d1"], ks=(1, 2))
    assert scores["mrr"] == 1.0
    assert scores["map"] == pytest.approx((1 + 2 / 3) / 2)
    assert scores["recall"] == {1: 0.5, 2: 0.5}
    assert scores["precision"] == {1: 1.0, 2: 0.5}
    assert scores["ndcg_at_k"][1] == 1.0
    batch = rk.retrieval_scores_batch([["d1", "d2"], ["x"]], [["d2", "d5", "d1"], ["y", "x"]], ks=(1, 2))
    assert sorted(batch) == sorted(
        ["mrr", "map", "ndcg", "recall@1", "recall@2", "precision@1", "precision@2", "ndcg@1", "ndcg@2"]
    )
    assert batch["mrr"].tolist() == [1.0, 0.5]
    assert batch["precision@2"].tolist() == [0.5, 0.5]
    assert batch["ndcg@2"][1] == pytest.approx(1 / math.log2(3))


def test_bad_input_raises_metric_error():
    with pytest.raises(MetricError):
        rk.recall_at_k(["a"], ["a"], 0)
    with pytest.raises(MetricError):
        rk.reciprocal_rank(["a"], "abc")
    with pytest.raises(MetricError):
        rk.ndcg_at_k({"a": -1.0}, ["a"])
    with pytest.raises(MetricError):
        rk.retrieval_scores_batch([["a"]], [])
