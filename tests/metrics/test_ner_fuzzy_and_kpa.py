"""fuzzy_ner, metric_based_ner and kpa: grouped F1 with approximate matching, values written out by hand."""

import difflib

import numpy as np
import pytest

from unitxt.metrics.kernels.bootstrap import percentile_interval, resample_indices
from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.grouped_f1 import fuzzy_ratio
from unitxt.settings_utils import settings


def metric(name):
    return fetch_artifact(name)[0]


def test_metric_based_ner_documented_example():
    predictions = [[("Amir", "Person"), ("Yaron", "Person")], [("Ran", "Person"), ("Yonatan", "Person")]]
    references = [[[("Yaron", "Person"), ("Ran", "Person")]], [[("Yonatan", "Person")]]]
    scores = metric("metrics.metric_based_ner").evaluate(predictions, references)
    assert scores.instance_scores[0]["f1_Person"] == 0.5
    assert scores.instance_scores[1]["f1_Person"] == pytest.approx(2 / 3)  # precision 1/2, recall 1
    result = scores.global_scores()
    # pooled: 2 of 4 predictions match, 2 of 3 references found
    assert result["f1_micro"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    assert "score_ci_low" not in result  # n_resamples = 0, as in the original


def test_metric_based_ner_with_a_lenient_metric():
    scored = metric("metrics.metric_based_ner[metric=metrics.token_overlap,min_score_for_match=0.5]").evaluate(
        [[("Barack Obama", "Person")]], [[[("Obama", "Person")]]])
    assert scored.instance_scores[0]["f1_micro"] == 1.0  # token F1 of the texts = 2/3 >= 0.5


def test_fuzzy_ratio_and_fuzzy_ner():
    assert fuzzy_ratio("Yaronn", "Yaron") == round(100 * difflib.SequenceMatcher(None, "Yaronn", "Yaron").ratio())
    predictions = [[("Yaronn", "Person"), ("Amir", "Location"), ("Tel Aviv", "Location")]]
    references = [[[("Yaron", "Person"), ("Ran", "Person"), ("Tel-Aviv", "Location")]]]
    result = metric("metrics.fuzzyner").evaluate(predictions, references).global_scores(with_ci=False)
    # Person: 1 of 1 prediction matched, 1 of 2 references; Location: 1 of 2 predictions, 1 of 1 reference
    assert result["f1_Person"] == pytest.approx(2 / 3) and result["f1_Location"] == pytest.approx(2 / 3)
    assert result["f1_micro"] == pytest.approx(2 / 3) and result["f1_macro"] == pytest.approx(2 / 3)
    strict = metric("metrics.fuzzyner[fuzz_ratio=95]").evaluate(predictions, references).global_scores(with_ci=False)
    assert strict["f1_micro"] == 0.0


def test_unknown_prediction_groups_lower_precision_only():
    result = metric("metrics.fuzzyner").evaluate([[("Paris", "City"), ("Bob", "Person")]],
                                                 [[[("Bob", "Person")]]]).global_scores(with_ci=False)
    assert result["in_classes_support"] == 0.5
    assert result["precision_micro"] == 0.5 and result["recall_micro"] == 1.0
    assert "f1_City" not in result and result["f1_macro"] == 1.0


def test_kpa_groups_by_keypoint_and_ignores_none():
    predictions = ["yes", "none", "yes", "yes"]
    references = [["yes"], ["yes"], ["none"], ["yes"]]
    task_data = [{"keypoint": "a"}, {"keypoint": "a"}, {"keypoint": "b"}, {"keypoint": "b"}]
    scores = metric("metrics.kpa").evaluate(predictions, references, task_data)
    result = scores.global_scores()
    # a: 1 predicted, 2 gold, 1 matched; b: 2 predicted, 1 gold, 1 matched
    assert result["f1_a"] == pytest.approx(2 / 3) and result["f1_b"] == pytest.approx(2 / 3)
    assert result["f1_micro"] == pytest.approx(2 / 3)
    counts = np.array([[1, 1, 1, 1], [0, 0, 0, 1], [0, 1, 0, 0], [1, 1, 1, 1]], dtype=float)  # pn pd rn rd
    samples = []
    for idx in resample_indices(4, settings.default_n_resamples, seed=int(settings.seed)):
        sums = counts[idx].sum(axis=1)
        p = np.where(sums[:, 1] > 0, sums[:, 0] / np.maximum(sums[:, 1], 1), 0)
        r = np.where(sums[:, 3] > 0, sums[:, 2] / np.maximum(sums[:, 3], 1), 0)
        samples.append(np.where(p + r > 0, 2 * p * r / np.maximum(p + r, 1e-300), 0))
    assert (result["f1_micro_ci_low"], result["f1_micro_ci_high"]) == pytest.approx(
        percentile_interval(np.concatenate(samples)))
    with pytest.raises(MetricError, match="keypoint"):
        metric("metrics.kpa").evaluate(["yes"], [["yes"]], [{}])
