"""Resamples scored from code counts (metrics/kernels/counted.py) give the very numbers of the index-based statistics:
the same resample stream (int64 draws, draws on a helper thread), the same per-resample counts, the same jackknife, and
so the same CI bounds through evaluate()."""

import math

import numpy as np
import pytest

from unitxt import evaluate
from unitxt.metrics.kernels import counted as counted_module
from unitxt.metrics.kernels.bootstrap import resample_indices, resampled_mean
from unitxt.metrics.kernels.classification import _prepare, _single_label_scores, label_code_arrays, \
    label_scores_of_code_counts
from unitxt.metrics.kernels.counted import JointCodes, counted_jackknife, drawn_ahead, resampled_distributions, \
    two_valued_means
from unitxt.settings_utils import settings


@pytest.mark.parametrize("n", [2, 7, 1_000, 999_983])
def test_int64_draws_are_the_int32_stream_and_one_big_draw(n):
    resamples = max(3, 2_000_000 // n * 2 + 1)  # several chunks
    small = np.concatenate([c.ravel() for c in resample_indices(n, resamples, seed=11)])
    wide = list(resample_indices(n, resamples, seed=11, dtype=np.int64))
    assert all(chunk.dtype == np.int64 for chunk in wide)
    assert np.array_equal(small, np.concatenate([c.ravel() for c in wide]))
    whole = np.random.default_rng(11).integers(0, n, size=(resamples, n))
    assert np.array_equal(small, whole.ravel())


def test_draws_ahead_on_a_thread_are_the_same_chunks_and_errors_reach_the_caller():
    direct = list(resample_indices(5_000, 900, seed=3))
    ahead = list(drawn_ahead(resample_indices(5_000, 900, seed=3)))
    assert len(direct) == len(ahead) == 3 and all(np.array_equal(a, b) for a, b in zip(direct, ahead))

    def failing():
        yield np.zeros((1, 2), dtype=np.int64)
        raise ValueError("draw failed")

    with pytest.raises(ValueError, match="draw failed"):
        list(drawn_ahead(failing()))
    first = next(iter(drawn_ahead(resample_indices(100, 10_000_000, seed=1, max_indices_per_chunk=100))))
    assert first.shape == (1, 100)  # leaving early stops the drawing thread (the test would hang otherwise)


def _bincount_rows(codes, idx, width):
    return np.stack([np.bincount(codes[row], minlength=width) for row in idx])


@pytest.mark.parametrize("m", [3, 1_000, 70_001])  # offset bincount, and the row-wise paired count (odd length)
def test_joint_code_counts_are_the_counts_of_each_array(m):
    rng = np.random.default_rng(m)
    arrays = [rng.integers(0, 12, m).astype(np.uint8), rng.integers(0, 2, m).astype(np.uint8),
              rng.integers(0, 5, m).astype(np.int64)]
    widths = [12, 2, 7]  # codes 5 and 6 of the last array never occur
    positions = np.arange(m, dtype=np.int64)
    joint = JointCodes.build(arrays, widths, positions)
    idx = rng.integers(0, m, size=(4, m))
    for array, width, marginal in zip(arrays, widths, joint.marginals(joint.counts(idx))):
        assert marginal.dtype == np.int64
        assert np.array_equal(marginal, _bincount_rows(array, idx, width))


def test_joint_codes_of_a_subset_count_only_its_positions():
    codes = np.array([0, 1, 2, 3, 0, 1], dtype=np.uint8)
    positions = np.array([1, 3, 5])
    joint = JointCodes.build([codes], [4], positions)
    (counts,) = joint.marginals(joint.counts(np.array([[0, 0, 2], [1, 1, 1]])))
    assert counts.tolist() == [[0, 3, 0, 0], [0, 0, 0, 3]]  # codes 1, 1, 1 and 3, 3, 3


def test_too_many_joint_codes_fall_back():
    codes = np.arange(counted_module.MAX_JOINT_CODES + 1)
    assert JointCodes.build([codes], [len(codes)], np.arange(len(codes))) is None


def test_two_valued_means_score_as_resampled_mean():
    rng = np.random.default_rng(1)
    column = np.where(rng.random(500) < 0.3, 100.0, 0.0)
    constant = np.full(500, 0.25)
    spec = two_valued_means({"em": column, "c": constant})
    joint = JointCodes.build(spec.codes, spec.widths, np.arange(500))
    idx = rng.integers(0, 500, size=(50, 500))
    computed = spec.scores(joint.marginals(joint.counts(idx)))
    assert np.array_equal(computed["em"], resampled_mean(column, idx))
    assert np.array_equal(computed["c"], resampled_mean(constant, idx))
    assert two_valued_means({"x": np.array([0.0, 0.5, 1.0])}) is None
    assert two_valued_means({"x": np.array([0.0, 0.8])}) is None  # sums of 0.8 round by order: gathered
    assert two_valued_means({"x": np.array([0.0, math.nan])}) is None


def test_two_valued_fractions_resample_as_numpy_sums_them():
    """Scores 0 / 0.8 (a judge's 8 of 10): each resample's mean is numpy's mean of the gathered values bit for bit,
    as the original's bootstrap computes it (its order of summation rounds; BCa counts resamples below the point)."""
    rng = np.random.default_rng(5)
    for values in (np.where(rng.random(60) < 0.25, 0.8, 0.0), np.where(rng.random(60) < 0.4, 100.0, 0.0),
                   np.full(60, 0.1)):
        idx = rng.integers(0, 60, size=(400, 60))
        assert np.array_equal(resampled_mean(values, idx), np.array([np.mean(values[row]) for row in idx]))


def _label_prep(rng, n, k=4, with_outside=True):
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, k + (2 if with_outside else 0), n))
    return _prepare(gold, pred, k, k + 2)


@pytest.mark.parametrize("with_matthews", [False, True])
def test_label_scores_of_code_counts_are_the_index_scores(with_matthews):
    rng = np.random.default_rng(2)
    prep = _label_prep(rng, 300)
    codes, widths = label_code_arrays(prep, with_matthews)
    joint = JointCodes.build(codes, widths, np.arange(300))
    idx = rng.integers(0, 300, size=(40, 300))
    from_counts = label_scores_of_code_counts(prep, joint.marginals(joint.counts(idx)))
    from_idx = _single_label_scores(prep, idx, with_matthews=with_matthews)
    assert set(from_counts) == set(from_idx)
    for name, values in from_idx.items():
        assert np.array_equal(from_counts[name], values), name


def test_counted_jackknife_is_the_leave_one_out_statistic():
    rng = np.random.default_rng(4)
    prep = _label_prep(rng, 60)
    codes, widths = label_code_arrays(prep, True)
    positions = np.arange(5, 60, dtype=np.int64)
    spec = counted_module.CountedStatistic(codes, widths, lambda counts: label_scores_of_code_counts(prep, counts))
    names = ["f1_macro", "f1_micro", "matthews_correlation"]
    jackknife = counted_jackknife(spec, positions, names)
    rows = np.array([np.delete(positions, i) for i in range(len(positions))])
    expected = _single_label_scores(prep, rows, with_matthews=True)
    for name in names:
        assert np.array_equal(jackknife[name], expected[name]), name


def test_resampled_distributions_mix_counted_and_index_statistics():
    rng = np.random.default_rng(6)
    values = np.where(rng.random(200) < 0.5, 1.0, 0.0)
    spread = rng.random(200)  # many values: no counted form

    def plain(idx):
        return {"m": resampled_mean(values, idx)}

    def other(idx):
        return {"s": resampled_mean(spread, idx)}

    positions = np.arange(200, dtype=np.int64)
    members = [(plain, ["m"], two_valued_means({"m": values})), (other, ["s"], None)]
    got = resampled_distributions(members, positions, lambda dtype: resample_indices(200, 300, seed=9, dtype=dtype))
    index_based = [np.concatenate([f(idx)[name] for idx in resample_indices(200, 300, seed=9)])
                   for f, name in ((plain, "m"), (other, "s"))]
    assert np.array_equal(got[0]["m"], index_based[0]) and np.array_equal(got[1]["s"], index_based[1])


def _rows(n, seed):
    rng = np.random.default_rng(seed)
    classes = ["alpha", "beta", "gamma", "delta"]
    predictions, rows = [], []
    for index in range(n):
        label = classes[rng.integers(0, 4)]
        guess = label if rng.random() < 0.65 else ["alpha", "beta", "gamma", "delta", "other"][rng.integers(0, 5)]
        predictions.append(guess)
        rows.append({"source": f"text {index}", "target": label, "references": [label],
                     "metrics": ["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro",
                                 "metrics.matthews_correlation", "metrics.precision_macro"],
                     "postprocessors": [], "task_data": {"text": f"text {index}", "label": label},
                     "subset": ["even"] if index % 2 == 0 else [], "data_classification_policy": ["public"]})
    return predictions, rows


def _global_and_subsets(results):
    return results.global_scores, getattr(results, "subsets_scores", None)


@pytest.mark.parametrize("n,resamples", [(300, 1000), (70_000, 30)])
def test_evaluate_gives_the_same_bounds_with_and_without_counts(n, resamples, monkeypatch):
    predictions, rows = _rows(n, seed=n)
    with settings.context(default_n_resamples=resamples):
        counted = _global_and_subsets(evaluate(predictions, rows))
        monkeypatch.setattr(JointCodes, "build", classmethod(lambda cls, *args: None))
        monkeypatch.setattr(counted_module, "counted_jackknife", lambda *args: None)
        import unitxt.metrics.intervals as intervals

        monkeypatch.setattr(intervals, "counted_jackknife", lambda *args: None)
        indexed = _global_and_subsets(evaluate(predictions, rows))
    assert any("_ci_" in key for key in counted[0])
    assert repr(counted) == repr(indexed)  # every number, bit for bit


def test_accuracy_instance_scores_are_floats_and_a_nan_prediction_is_wrong():
    from unitxt.catalog import fetch_artifact

    metric = fetch_artifact("metrics.accuracy")[0]
    scores = metric.evaluate(["a", "b", math.nan, 3], [["a"], ["a", "c"], [math.nan], [3.0]])
    rows = metric.instance_results(scores)
    assert [row["accuracy"] for row in rows] == [1.0, 0.0, 0.0, 1.0]
    assert all(type(row["accuracy"]) is float for row in rows)
    assert scores.global_scores()["accuracy"] == 0.5
