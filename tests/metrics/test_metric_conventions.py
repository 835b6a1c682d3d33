"""Metric conventions the original system fixes: an explicit n_resamples=None means no CI, a string prediction_type is
read as its type, input errors come in the original's order and words, F1 and char edit accuracy rules, NDCG naming."""

import pytest

from unitxt.errors import MetricError
from unitxt.metrics import NDCG, Accuracy, F1Micro, F1MicroMultiLabel
from unitxt.metrics.retrieval import RankedIdsNDCG
from unitxt.metrics.string_match import CharEditDistAccuracy
from unitxt.metrics.string_similarity import RelaxedCorrectness


def test_explicit_none_n_resamples_reports_no_interval_but_the_default_does():
    data = [{"type": "human_test"}, {"type": "augmented"}, {"type": "human_test"}]
    predictions, references = ["10", "30", "7"], [["14"], ["30"], ["7.2"]]
    without = RelaxedCorrectness(n_resamples=None).evaluate(predictions, references, data).global_scores()
    assert without["relaxed_overall"] == pytest.approx(2 / 3)
    assert not any(key.endswith(("_ci_low", "_ci_high")) for key in without)
    with_ci = RelaxedCorrectness(n_resamples=20).evaluate(predictions, references, data).global_scores()
    assert with_ci["relaxed_overall_ci_low"] <= with_ci["relaxed_overall"] <= with_ci["relaxed_overall_ci_high"]


def test_string_prediction_type_becomes_a_type():
    class IntAccuracy(Accuracy):
        prediction_type = "List[int]"

    from typing import List

    assert IntAccuracy().prediction_type == List[int]
    assert Accuracy(prediction_type="float").prediction_type is float


@pytest.mark.parametrize("predictions,references,message", [
    (["a", 3], [["a"], ["b"]], "Each prediction is expected to be of type 'str' in F1Micro metric. Received prediction "
                               "of type <class 'int'>: 3"),
    (["a", "b"], [["a"], "b"], "Expecting a list of references for each prediction in F1Micro metric. Received "
                               "reference of type <class 'str'>: b"),
    (["a", "b"], [["a"], ["b", "c"]], "Expecting a list with a single reference per prediction in F1Micro metric. "
                                      "Received a list with multiple references: ['b', 'c']"),
    # a bad reference is named before a bad prediction
    ([1, "b"], [["a"], [2]], "Each reference is expected to be of type 'str' in F1Micro metric. Received reference "
                             "of type <class 'int'>: 2"),
])
def test_f1_input_errors_use_the_original_wording(predictions, references, message):
    with pytest.raises(MetricError) as caught:
        F1Micro().evaluate(predictions, references)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_multilabel_f1_needs_one_list_of_labels_per_instance():
    with pytest.raises(MetricError, match=r"single reference per prediction .* multiple references: \['x', 'y'\]"):
        F1MicroMultiLabel().evaluate([["x"]], [["x", "y"]])
    scores = F1MicroMultiLabel().evaluate([["x"], ["y"]], [[["x"]], [["z"]]]).global_scores(with_ci=False)
    assert scores["f1_micro"] == pytest.approx(2 / 3)  # classes are those of the references: "y" is ignored


def test_char_edit_accuracy_of_two_empty_texts_is_zero():
    metric = CharEditDistAccuracy()
    rows = metric.instance_results(metric.evaluate(["  ", "abcd"], [[""], ["abce"]]))
    assert [row["char_edit_dist_accuracy"] for row in rows] == pytest.approx([0.0, 0.75])
    with pytest.raises(MetricError, match="single reference per prediction"):
        metric.evaluate(["a"], [["a", "b"]])


def test_ndcg_is_the_per_query_relevance_ndcg():
    from sklearn.metrics import ndcg_score

    data = [{"query": "q"}] * 3
    scores = NDCG().evaluate([0.9, 0.2, 0.5], [[3.0], [2.0], [0.0]], data).global_scores(with_ci=False)
    assert scores["nDCG"] == pytest.approx(ndcg_score([[3.0, 2.0, 0.0]], [[0.9, 0.2, 0.5]]))
    ranked = RankedIdsNDCG().evaluate([["a", "b"]], [[["b"]]]).global_scores(with_ci=False)
    assert ranked["ndcg"] == pytest.approx(1 / 1.584962500721156)


def test_ensemble_reports_each_member_interval_as_the_member_computes_it_alone():
    from unitxt.catalog import fetch_artifact
    from unitxt.metrics import MetricsEnsemble

    names = ["metrics.precision_micro_multi_label", "metrics.recall_macro_multi_label"]
    predictions = [["A"], ["B"], [""], ["A"], ["B"], ["A"]]
    references = [[["B", "A"]], [["B"]], [["A"]], [[""]], [["A"]], [["A"]]]
    ensemble = MetricsEnsemble(main_score="ensemble_score", metrics=names)
    together = ensemble.evaluate(predictions, references).global_scores()
    assert "ensemble_score_ci_low" not in together
    for index, name in enumerate(names):
        member = fetch_artifact(name)[0]
        alone = member.evaluate(predictions, references).global_scores()
        for suffix in ("", "_ci_low", "_ci_high"):
            assert together[f"ensemble_{index}_{member.main_score}{suffix}"] == pytest.approx(
                alone[member.main_score + suffix])
