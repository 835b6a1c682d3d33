"""NER span-F1 kernels against sklearn (set-valued data), a plain multiset reference, and resampling."""

import warnings
from collections import Counter

import numpy as np
import pytest
from sklearn.metrics import precision_recall_fscore_support
from sklearn.preprocessing import MultiLabelBinarizer

from unitxt.metrics.kernels import bootstrap as bs
from unitxt.metrics.kernels import ner as nk
from unitxt.errors import MetricError

TOL = 1e-9
TYPES = ["PER", "LOC", "ORG", "MISC"]
WORDS = ["Paris", "Ada", "IBM", "Rome", "Alan", "ACME", "Nile"]


def _random_instances(rng, n, duplicates):
    def spans():
        pairs = [(WORDS[rng.randint(len(WORDS))], TYPES[rng.randint(len(TYPES))]) for _ in range(rng.randint(0, 5))]
        return pairs if duplicates else list(dict.fromkeys(pairs))

    references = [spans() for _ in range(n)]
    predictions = []
    for gold in references:
        kept = [pair for pair in gold if rng.rand() < 0.6]
        predictions.append(kept + spans()[: rng.randint(0, 3)])
        if not duplicates:
            predictions[-1] = list(dict.fromkeys(predictions[-1]))
    return references, predictions


def _sklearn_prf(references, predictions, keep=lambda pair: True):
    """Micro P/R/F1 over (instance, pair) decisions, via a MultiLabelBinarizer over all pairs."""
    gold = [[f"{s}|{t}" for s, t in r if keep((s, t))] for r in references]
    pred = [[f"{s}|{t}" for s, t in p if keep((s, t))] for p in predictions]
    classes = sorted({x for row in gold + pred for x in row})
    if not classes:
        return 0.0, 0.0, 0.0
    binarizer = MultiLabelBinarizer(classes=classes).fit(gold + pred)
    y_true, y_pred = binarizer.transform(gold), binarizer.transform(pred)
    if len(classes) == 1:  # a 1-column indicator matrix is read as binary labels
        y_true, y_pred = y_true[:, 0], y_pred[:, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        average = "micro" if len(classes) > 1 else "binary"
        return precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)[:3]


def test_span_f1_equals_sklearn_on_200_random_set_valued_cases():
    rng = np.random.RandomState(0)
    for case in range(200):
        references, predictions = _random_instances(rng, int(rng.randint(1, 12)), duplicates=False)
        scores = nk.span_f1(references, predictions)
        expected = _sklearn_prf(references, predictions)
        actual = (scores["precision_micro"], scores["recall_micro"], scores["f1_micro"])
        assert actual == pytest.approx(expected, abs=TOL), case
        supported = []
        for entity_type in TYPES:
            p, r, f = _sklearn_prf(references, predictions, keep=lambda pair, t=entity_type: pair[1] == t)
            if entity_type in scores["f1_per_type"]:
                assert scores["precision_per_type"][entity_type] == pytest.approx(p, abs=TOL)
                assert scores["recall_per_type"][entity_type] == pytest.approx(r, abs=TOL)
                assert scores["f1_per_type"][entity_type] == pytest.approx(f, abs=TOL)
            if any(t == entity_type for row in references for _, t in row):
                supported.append((p, r, f))
        macro = np.mean(supported, axis=0) if supported else (0.0, 0.0, 0.0)
        assert (scores["precision_macro"], scores["recall_macro"], scores["f1_macro"]) == pytest.approx(
            tuple(macro), abs=TOL
        )


def ref_counts(references, predictions):
    """Per-type TP/FP/FN with multiset matching, summed over instances."""
    tp, fp, fn = Counter(), Counter(), Counter()
    for gold, pred in zip(references, predictions):
        g, p = Counter(map(tuple, gold)), Counter(map(tuple, pred))
        for (_, t), c in (g & p).items():
            tp[t] += c
        for (_, t), c in (p - g).items():
            fp[t] += c
        for (_, t), c in (g - p).items():
            fn[t] += c
    return tp, fp, fn


def test_multiset_counts_equal_reference_on_200_random_cases_with_duplicates():
    rng = np.random.RandomState(1)
    for _ in range(200):
        references, predictions = _random_instances(rng, int(rng.randint(1, 10)), duplicates=True)
        counts = nk.span_counts(references, predictions)
        tp, fp, fn = ref_counts(references, predictions)
        for j, t in enumerate(counts.types):
            assert (counts.tp[:, j].sum(), counts.fp[:, j].sum(), counts.fn[:, j].sum()) == (tp[t], fp[t], fn[t])
        total_tp, total_fp, total_fn = sum(tp.values()), sum(fp.values()), sum(fn.values())
        expected_f1 = 2 * total_tp / (2 * total_tp + total_fp + total_fn) if total_tp else 0.0
        assert nk.span_f1(references, predictions)["f1_micro"] == pytest.approx(expected_f1, abs=TOL)


def test_hand_computed_example():
    references = [[("Ada", "PER"), ("Paris", "LOC")], [("IBM", "ORG"), ("IBM", "ORG")]]
    predictions = [[("Ada", "PER"), ("Paris", "ORG")], [("IBM", "ORG"), ("Rome", "MISC")]]
    # PER: tp 1; LOC: fn 1; ORG: tp 1, fp 1 (Paris), fn 1 (second IBM); MISC: fp 1
    scores = nk.span_f1(references, predictions)
    assert scores["precision_micro"] == pytest.approx(2 / 4)
    assert scores["recall_micro"] == pytest.approx(2 / 4)
    assert scores["f1_micro"] == pytest.approx(0.5)
    assert scores["f1_per_type"] == pytest.approx({"LOC": 0.0, "MISC": 0.0, "ORG": 0.5, "PER": 1.0})
    # macro over the reference types LOC, ORG, PER (MISC has no support)
    assert scores["f1_macro"] == pytest.approx((0.0 + 0.5 + 1.0) / 3)
    assert scores["recall_macro"] == pytest.approx((0.0 + 0.5 + 1.0) / 3)
    counts = nk.span_counts(references, predictions)
    assert counts.types == ["LOC", "MISC", "ORG", "PER"]
    assert counts.fn.tolist() == [[1, 0, 0, 0], [0, 0, 1, 0]]


def test_no_entities_at_all_scores_zero():
    scores = nk.span_f1([[], []], [[], []])
    assert scores["f1_micro"] == 0.0 and scores["f1_macro"] == 0.0 and scores["f1_per_type"] == {}


def test_resampled_scores_equal_plain_on_each_resample():
    rng = np.random.RandomState(2)
    for case in range(20):
        references, predictions = _random_instances(rng, int(rng.randint(2, 15)), duplicates=case % 2 == 0)
        counts = nk.span_counts(references, predictions)
        idx = next(bs.resample_indices(len(references), 6, seed=case))
        resampled = nk.resampled_span_scores(counts, idx)
        for j, row in enumerate(idx):
            plain = nk.span_f1([references[i] for i in row], [predictions[i] for i in row])
            for name, values in resampled.items():
                assert values[j] == pytest.approx(plain[name], abs=TOL), (case, name)


def test_ner_ci_via_bootstrap_cis():
    rng = np.random.RandomState(3)
    references, predictions = _random_instances(rng, 400, duplicates=False)
    counts = nk.span_counts(references, predictions)
    cis = bs.bootstrap_cis(nk.ner_resampler(counts), 400)
    f1 = nk.span_f1(references, predictions)["f1_micro"]
    low, high = cis["f1_micro"]
    assert low < f1 < high and 0.02 < high - low < 0.15


def test_bad_input_raises_metric_error():
    with pytest.raises(MetricError):
        nk.span_f1([[("a", "PER")]], [])
    with pytest.raises(MetricError):
        nk.span_f1(["Ada PER"], [[]])
    with pytest.raises(MetricError):
        nk.span_f1([[("Ada", "PER", "extra")]], [[]])
