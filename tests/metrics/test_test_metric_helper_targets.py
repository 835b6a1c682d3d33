"""`test_metric` reproduces the original's stated targets: a global metric's CIs come from 3 bootstrap resamples (as
the original's helper runs them), and the scores the original's metric scripts state (NER and KPA per-type instance
scores, multi-label precision/recall, retrieval at k) come out here."""

import math

import numpy as np
import pytest
from scipy.stats import bootstrap
from sklearn.metrics import roc_auc_score

from unitxt.metrics import KPA, NER, PrecisionMacroMultiLabel, PrecisionMicroMultiLabel, RetrievalAtK, RocAuc
from unitxt.test_utils.metrics import MetricTestError, apply_metric, test_metric


def _bca_3_resamples(statistic, n, seed=42):
    result = bootstrap((np.arange(n),), statistic, n_resamples=3, confidence_level=0.95,
                       random_state=np.random.default_rng(seed), method="BCa", vectorized=False)
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def test_global_metric_cis_are_scipys_bca_over_three_resamples_and_the_metric_is_left_unchanged():
    rng = np.random.default_rng(4)
    references = [int(v) for v in [0, 1] * 8]
    predictions = [float(v) for v in np.clip(np.asarray(references) * 0.3 + rng.random(16) * 0.8, 0, 1)]
    low, high = _bca_3_resamples(
        lambda rows: roc_auc_score([references[i] for i in rows], [predictions[i] for i in rows]), 16)
    metric = RocAuc()
    outputs = apply_metric(metric, predictions, [[r] for r in references])
    full_resamples = outputs[0]["score"]["global"]
    assert abs(full_resamples["roc_auc_ci_low"] - low) > 0.05  # 100 resamples give another interval
    auc = roc_auc_score(references, predictions)
    global_target = {"roc_auc": round(auc, 2), "score": round(auc, 2), "score_name": "roc_auc",
                     "roc_auc_ci_low": round(low, 2), "roc_auc_ci_high": round(high, 2),
                     "score_ci_low": round(low, 2), "score_ci_high": round(high, 2)}
    instance_targets = [output["score"]["instance"] for output in outputs]
    assert test_metric(metric, predictions, [[r] for r in references], instance_targets, global_target) is True
    assert metric.n_resamples is None  # the helper bootstraps a copy
    wrong = dict(global_target, roc_auc_ci_low=round(full_resamples["roc_auc_ci_low"], 2))
    with pytest.raises(MetricTestError, match="roc_auc_ci_low"):
        test_metric(metric, predictions, [[r] for r in references], instance_targets, wrong)


def test_ner_instances_report_f1_of_the_types_in_their_own_reference():
    predictions = [[("Amir", "Person"), ("Yaron", "Location")], [("Ran", "Person"), ("Yonatan", "Org")], []]
    references = [[[("Yaron", "Person"), ("Ran", "Person")]], [[("Yonatan", "Location"), ("Ran", "Person")]],
                  [[("X", "Org")]]]
    instances = [output["score"]["instance"] for output in apply_metric(NER(), predictions, references)]
    assert [sorted(k for k in scores if k.startswith("f1_") and k not in ("f1_micro", "f1_macro"))
            for scores in instances] == [["f1_Person"], ["f1_Location", "f1_Person"], ["f1_Org"]]
    assert instances[1]["f1_Person"] == 1.0 and instances[1]["f1_Location"] == 0.0
    assert instances[1]["f1_macro"] == 0.5


def test_kpa_reproduces_the_original_scripts_targets():
    predictions = ["yes", "yes", "none", "none", "yes"]
    references = [["yes"], ["none"], ["yes"], ["yes"], ["yes"]]
    task_data = [{"keypoint": i} for i in ["1", "1", "2", "2", "2"]]
    outputs = apply_metric(KPA(), predictions, references, task_data)
    instances = [output["score"]["instance"] for output in outputs]
    assert [sorted(k for k in s if k in ("f1_1", "f1_2")) for s in instances] == [["f1_1"], [], ["f1_2"], ["f1_2"],
                                                                                 ["f1_2"]]
    global_scores = outputs[0]["score"]["global"]
    # the key points' F1 by hand: "1" tp=1 fp=1 fn=0 -> 2/3; "2" tp=1 fp=0 fn=2 -> 1/2; micro 2*(2/3*1/2)/(2/3+1/2)
    assert global_scores["f1_1"] == pytest.approx(2 / 3) and global_scores["f1_2"] == pytest.approx(0.5)
    assert global_scores["f1_micro"] == pytest.approx(4 / 7)
    assert "f1_macro_ci_low" not in global_scores  # the main score's CI only
    target = {"f1_1": 0.67, "f1_2": 0.5, "f1_macro": 0.58, "recall_macro": 0.67, "precision_macro": 0.75,
              "in_classes_support": 1.0, "f1_micro": 0.57, "recall_micro": 0.5, "precision_micro": 0.67,
              "score": 0.57, "score_name": "f1_micro", "score_ci_low": 0.33, "score_ci_high": 0.75,
              "f1_micro_ci_low": 0.33, "f1_micro_ci_high": 0.75, "num_of_instances": 5}
    assert test_metric(KPA(), predictions, references, instances, target, task_data=task_data) is True


def test_multi_label_precision_is_nan_without_reference_classes_and_one_number_for_macro():
    predictions = [["yes"], ["yes"], [], [], ["no", "yes"], ["no"]]
    references = [[["yes"]], [[]], [["yes"]], [["yes"]], [["no"]], [["maybe", "no"]]]
    micro = apply_metric(PrecisionMicroMultiLabel(), predictions, references)
    assert math.isnan(micro[1]["score"]["instance"]["precision_micro"])
    assert micro[0]["score"]["global"]["precision_micro"] == pytest.approx(3 / 5)  # pooled: 3 hits of 5 predicted
    macro = apply_metric(PrecisionMacroMultiLabel(), predictions, references)[0]["score"]["global"]
    assert not [key for key in macro if key in ("precision_yes", "precision_no", "precision_maybe")]
    assert macro["precision_macro"] == pytest.approx((1 / 3 + 1 + 0) / 3)  # yes 1/3, no 2/2, maybe 0


def test_retrieval_at_k_defaults_are_the_originals():
    metric = RetrievalAtK(k_list=[1, 3, 5, 10, 20, 40])
    predictions, references = [["a", "b", "c", "d", "e", "f"], ["g", "r", "u"]], [[["c", "d"]], [["g"]]]
    first = apply_metric(metric, predictions, references)[0]["score"]["instance"]
    assert first["score_name"] == "match_at_1" and first["match_at_3"] == 1.0 and first["match_at_1"] == 0.0
    # precision over the ids retrieved: 2 hits among the 6 ids at k=10
    assert first["precision_at_10"] == pytest.approx(2 / 6) and first["precision_at_5"] == pytest.approx(2 / 5)
    assert first["recall_at_3"] == 0.5 and not [key for key in first if key.startswith("ndcg")]
