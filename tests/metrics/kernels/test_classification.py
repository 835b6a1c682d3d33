"""Classification kernels against sklearn (oracle) and resampled versions against the plain ones."""

import time
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.preprocessing import MultiLabelBinarizer

from unitxt.metrics.kernels import bootstrap as bs
from unitxt.metrics.kernels import classification as ck
from unitxt.errors import MetricError

TOL = 1e-9


def _random_case(rng, case):
    """Random single-label data with a varying number of classes; some cases predict labels
    outside the reference classes, some never predict a class, some use ints."""
    n = int(rng.randint(1, 80))
    k = int(rng.randint(1, 8))
    names = [f"class_{i}" for i in range(k + 3)] if case % 4 else list(range(k + 3))
    gold = rng.randint(0, k, n)
    mode = case % 5
    if mode == 0:  # mostly right, some outside labels
        pred = np.where(rng.rand(n) < 0.6, gold, rng.randint(0, k + 3, n))
    elif mode == 1:  # class 0 never predicted
        pred = rng.randint(1, max(k, 2), n)
    elif mode == 2:  # nothing inside the classes
        pred = rng.randint(k, k + 3, n)
    else:
        pred = rng.randint(0, k + 1, n)
    return [names[i] for i in gold], [names[i] for i in pred]


def _sklearn_scores(y, p):
    labels = sorted(set(y))
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for avg in ("micro", "macro", "weighted"):
            prfs = skm.precision_recall_fscore_support(y, p, labels=labels, average=avg, zero_division=0)
            out[f"precision_{avg}"], out[f"recall_{avg}"], out[f"f1_{avg}"] = prfs[:3]
        out["f1_per_class"] = dict(zip(labels, skm.f1_score(y, p, labels=labels, average=None, zero_division=0)))
        out["accuracy"] = skm.accuracy_score(y, p)
        out["matthews_correlation"] = skm.matthews_corrcoef(y, p)
    out["in_classes_support"] = float(np.mean([x in set(y) for x in p]))
    return out


def test_single_label_scores_equal_sklearn_on_250_random_cases():
    rng = np.random.RandomState(0)
    for case in range(250):
        y, p = _random_case(rng, case)
        ours = ck.classification_scores(y, p)
        expected = _sklearn_scores(y, p)
        for name, value in expected.items():
            if name == "f1_per_class":
                assert list(ours[name]) == list(value)
                np.testing.assert_allclose(list(ours[name].values()), list(value.values()), atol=TOL, rtol=0)
            elif name in ours:
                assert ours[name] == pytest.approx(value, abs=TOL), (case, name)
        assert ours["precision_weighted"] == pytest.approx(expected["precision_weighted"], abs=TOL)


def test_single_metric_wrappers_and_hand_computed_example():
    y = ["a", "a", "b", "c"]
    p = ["a", "b", "b", "x"]  # 'x' is outside the classes, 'c' is never predicted
    # tp a=1 b=1 c=0; support a=2 b=1 c=1; predicted inside a=1 b=2 c=0
    assert ck.f1_per_class(y, p) == pytest.approx({"a": 2 / 3, "b": 2 / 3, "c": 0.0})
    assert ck.f1_macro(y, p) == pytest.approx(4 / 9)
    assert ck.f1_micro(y, p) == pytest.approx(4 / 7)  # 2 tp / (3 predicted inside + 4 gold) * 2
    assert ck.f1_weighted(y, p) == pytest.approx((2 * 2 / 3 + 2 / 3) / 4)
    assert ck.precision_micro(y, p) == pytest.approx(2 / 3)
    assert ck.recall_micro(y, p) == pytest.approx(0.5)
    assert ck.precision_macro(y, p) == pytest.approx((1 + 0.5 + 0) / 3)
    assert ck.recall_macro(y, p) == pytest.approx((0.5 + 1 + 0) / 3)
    assert ck.accuracy(y, p) == 0.5
    assert ck.in_classes_support(y, p) == 0.75
    assert ck.matthews_corrcoef(y, p) == pytest.approx(skm.matthews_corrcoef(y, p), abs=TOL)
    assert ck.matthews_corrcoef(["a", "a"], ["a", "a"]) == 0.0  # undefined -> 0 like sklearn


def test_encode_labels_codes():
    enc = ck.encode_labels(["b", "a", "b"], ["a", "z", "y"])
    assert enc.classes == ["a", "b"]
    assert enc.gold.tolist() == [1, 0, 1]
    assert enc.pred.tolist() == [0, 3, 2]  # outside labels get distinct codes >= K, sorted
    assert enc.n_labels == 4
    enc = ck.encode_labels(["a", "a", "b", "c"], ["a", "b", "b", "x"])
    tp, support, pred_count = ck.confusion_counts(enc.gold, enc.pred, len(enc.classes))
    assert (tp.tolist(), support.tolist(), pred_count.tolist()) == ([1, 1, 0], [2, 1, 1], [1, 2, 0])


def test_binary_scores_equal_sklearn_on_200_random_cases():
    rng = np.random.RandomState(1)
    for case in range(200):
        n = int(rng.randint(1, 60))
        y = rng.randint(0, 2 + case % 3, n)
        p = rng.randint(0, 2 + case % 2, n) if case % 7 else np.zeros(n, dtype=int)
        ours = ck.binary_scores(y.tolist(), p.tolist(), pos_label=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            prf = skm.precision_recall_fscore_support(y, p, labels=[1], average=None, zero_division=0)
            if set(y) | set(p) <= {0, 1}:
                assert ours["f1"] == pytest.approx(skm.f1_score(y, p, zero_division=0), abs=TOL)
        assert ours["precision"] == pytest.approx(prf[0][0], abs=TOL)
        assert ours["recall"] == pytest.approx(prf[1][0], abs=TOL)
        assert ck.f1_binary(y.tolist(), p.tolist(), 1) == pytest.approx(prf[2][0], abs=TOL)
    assert ck.f1_binary(["yes", "no", "yes"], ["yes", "yes", "no"], pos_label="yes") == pytest.approx(0.5)


def test_resampled_single_label_equals_plain_on_each_resample():
    rng = np.random.RandomState(2)
    for case in range(40):
        y, p = _random_case(rng, case)
        enc = ck.encode_labels(y, p)
        idx = next(bs.resample_indices(len(y), 6, seed=case))
        scores = ck.resampled_classification_scores(
            enc.gold, enc.pred, len(enc.classes), idx, n_labels=enc.n_labels, with_matthews=True
        )
        for j, row in enumerate(idx):
            plain = ck.classification_scores([y[i] for i in row], [p[i] for i in row])
            for name, values in scores.items():
                assert values[j] == pytest.approx(plain[name], abs=TOL), (case, name)


def test_classification_resampler_with_large_class_count_uses_the_split_path():
    rng = np.random.RandomState(3)
    gold = rng.randint(0, 300, 2000)
    pred = np.where(rng.rand(2000) < 0.5, gold, rng.randint(0, 320, 2000))
    idx = next(bs.resample_indices(2000, 3))
    scores = ck.resampled_classification_scores(gold, pred, 300, idx, n_labels=320, with_matthews=True)
    for j, row in enumerate(idx):
        plain = ck.classification_scores(gold[row].tolist(), pred[row].tolist())
        for name in ("f1_micro", "f1_macro", "f1_weighted", "accuracy", "in_classes_support", "matthews_correlation"):
            assert scores[name][j] == pytest.approx(plain[name], abs=TOL)


def test_resampled_binary_equals_plain():
    rng = np.random.RandomState(4)
    y, p = rng.randint(0, 2, 50).tolist(), rng.randint(0, 2, 50).tolist()
    counts = ck.binary_counts(y, p, 1)
    idx = next(bs.resample_indices(50, 5))
    scores = ck.resampled_binary_scores(*counts, idx)
    for j, row in enumerate(idx):
        plain = ck.binary_scores([y[i] for i in row], [p[i] for i in row], 1)
        for name in ("precision", "recall", "f1"):
            assert scores[name][j] == pytest.approx(plain[name], abs=TOL)


def _random_multilabel(rng, case):
    n = int(rng.randint(1, 40))
    k = int(rng.randint(1, 7))
    names = [f"l{i}" for i in range(k + 2)]
    refs = [[names[c] for c in rng.randint(0, k, rng.randint(0, 4))] for _ in range(n)]
    if not any(refs):
        refs[0] = [names[0]]
    preds = [[names[c] for c in rng.randint(0, k + 2, rng.randint(0, 4))] for _ in range(n)]
    if case % 6 == 0:  # class l0 never predicted
        preds = [[x for x in p if x != "l0"] for p in preds]
    return refs, preds


def test_multilabel_scores_equal_sklearn_on_200_random_cases():
    rng = np.random.RandomState(5)
    for case in range(200):
        refs, preds = _random_multilabel(rng, case)
        classes = sorted({x for r in refs for x in r})
        binarizer = MultiLabelBinarizer(classes=classes).fit(refs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unknown predicted labels are ignored with a warning
            y_true, y_pred = binarizer.transform(refs), binarizer.transform(preds)
            ours = ck.multilabel_scores(refs, preds)
            if len(classes) == 1:  # sklearn reads a 1-column indicator matrix as binary 0/1 labels
                y_true, y_pred = y_true[:, 0], y_pred[:, 0]
            for avg in ("micro", "macro", "weighted"):
                prfs = skm.precision_recall_fscore_support(
                    y_true, y_pred, average=avg if len(classes) > 1 else "binary", zero_division=0
                )
                for name, expected in zip(("precision", "recall", "f1"), prfs):
                    assert ours[f"{name}_{avg}"] == pytest.approx(expected, abs=TOL), (case, name, avg)
            per_class = skm.f1_score(y_true, y_pred, average=None, zero_division=0, labels=None if len(classes) > 1 else [1])
        np.testing.assert_allclose(list(ours["f1_per_class"].values()), per_class, atol=TOL, rtol=0)
        assert ck.multilabel_f1_micro(refs, preds) == ours["f1_micro"]
        assert ck.multilabel_f1_macro(refs, preds) == ours["f1_macro"]


def test_multilabel_hand_example_and_duplicates():
    refs = [["a", "b"], ["b"], []]
    preds = [["a", "a", "c"], ["a", "b"], ["b"]]  # 'c' is unknown -> ignored; duplicate 'a' counts once
    # tp a=1 b=1; support a=1 b=2; predicted a=2 b=2
    scores = ck.multilabel_scores(refs, preds)
    assert scores["f1_per_class"] == pytest.approx({"a": 2 / 3, "b": 0.5})
    assert scores["f1_micro"] == pytest.approx(4 / 7)
    assert scores["f1_macro"] == pytest.approx((2 / 3 + 0.5) / 2)


def test_resampled_multilabel_equals_plain_on_each_resample():
    rng = np.random.RandomState(6)
    for case in range(30):
        refs, preds = _random_multilabel(rng, case)
        enc = ck.encode_multilabel(refs, preds)
        idx = next(bs.resample_indices(len(refs), 5, seed=case))
        scores = ck.resampled_multilabel_scores(enc, idx)
        for j, row in enumerate(idx):
            plain = ck.multilabel_scores([refs[i] for i in row], [preds[i] for i in row])
            for name, values in scores.items():
                assert values[j] == pytest.approx(plain[name], abs=TOL), (case, name)


def test_bad_input_raises_metric_error():
    with pytest.raises(MetricError):
        ck.classification_scores(["a", "b"], ["a"])
    with pytest.raises(MetricError):
        ck.multilabel_scores(["a"], [["a"]])
    with pytest.raises(MetricError):
        ck.resampled_classification_scores([0, 5], [0, 1], 2, np.zeros((1, 2), dtype=np.int32))
    empty = ck.classification_scores([], [])
    assert np.isnan(empty["f1_micro"]) and empty["f1_per_class"] == {}


def test_ci_of_f1_micro_macro_and_accuracy_for_100k_instances():
    # Measured on the 2-core dev box (f1_micro + f1_macro + accuracy, 1000 resamples, 10 classes):
    # 10k: ~0.1 s, 100k: ~0.6 s, 1M: ~6 s (half of which is drawing the random indices).
    rng = np.random.RandomState(7)
    n, k = 100_000, 10
    gold = rng.randint(0, k, n)
    pred = np.where(rng.rand(n) < 0.7, gold, rng.randint(0, k + 1, n))
    start = time.perf_counter()
    cis = bs.bootstrap_cis(ck.classification_resampler(gold, pred, k), n)
    print(f"classification CIs n=100k: {time.perf_counter() - start:.2f}s")
    plain = ck.classification_scores(gold.tolist(), pred.tolist())
    for name in ("f1_micro", "f1_macro", "accuracy"):
        low, high = cis[name]
        assert low < plain[name] < high
        assert 0.002 < high - low < 0.01  # ~ 2 * 1.96 * sqrt(0.73 * 0.27 / 1e5) = 0.0055


def test_gathered_counts_row_by_row_for_large_resamples_equal_one_offset_bincount():
    from unitxt.metrics.kernels.classification import _offset_bincount, gathered_bincount

    rng = np.random.default_rng(5)
    codes = rng.integers(0, 7, 70_000).astype(np.uint8)
    idx = rng.integers(0, 70_000, size=(3, 70_000), dtype=np.int32)
    expected = np.stack([np.bincount(codes[row], minlength=7) for row in idx])
    assert np.array_equal(gathered_bincount(codes, idx, 7), expected)
    assert np.array_equal(_offset_bincount(np.take(codes, idx[:, :1000]), 7),
                          np.stack([np.bincount(codes[row[:1000]], minlength=7) for row in idx]))
