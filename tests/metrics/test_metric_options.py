"""Metric names, options and result shapes that code written for the original system relies on (issue 26):
MaxAccuracy, F1BinaryPosOnly, Detector and LlamaIndexCorrectness exist; reference_field / prediction_field read
inputs from task_data; CIs can be switched off on a metric object; NER's per-type scores can be switched off on a
metric already used; Hedges' g of different means with no spread is the extreme effect."""

import math

import pytest
from unitxt.errors import MetricError
from unitxt.metrics import NER, Accuracy, F1Binary, F1Macro
from unitxt.test_utils.metrics import apply_metric


def _global(metric, predictions, references, task_data=None):
    return apply_metric(metric=metric, predictions=predictions, references=references, task_data=task_data)[0][
        "score"]["global"]


def test_max_accuracy_reports_best_instance_under_plain_name():
    from unitxt.metrics import MaxAccuracy

    outputs = apply_metric(metric=MaxAccuracy(), predictions=["x", "y", "z"], references=[["y"], ["y"], ["q"]])
    assert outputs[0]["score"]["global"]["accuracy"] == 1.0
    assert outputs[0]["score"]["global"]["score_name"] == "accuracy"
    assert [o["score"]["instance"]["accuracy"] for o in outputs] == [0.0, 1.0, 0.0]


def test_f1_binary_pos_only_drops_negative_class_scores():
    from unitxt.metrics import F1BinaryPosOnly

    predictions, references = [0.9, 0.1, 0.7, 0.2], [[1], [1], [0], [0]]
    full = _global(F1Binary(), predictions, references)
    positive = _global(F1BinaryPosOnly(), predictions, references)
    assert positive["f1_binary"] == pytest.approx(full["f1_binary"]) == pytest.approx(0.5)
    assert positive["precision_binary"] == pytest.approx(0.5)
    assert "f1_binary_neg" in full
    assert not any(name.startswith(("f1_binary_neg", "recall_binary_neg", "precision_binary_neg")) for name in positive)


def test_model_metrics_exist_with_original_names():
    from unitxt.metrics import Detector, LlamaIndexCorrectness

    assert Detector(model_name="some/classifier").main_score == "detector_score"
    judge = LlamaIndexCorrectness(model_name="gpt-3.5-turbo")
    assert judge.main_score == "llama_index_by_gpt_3_5_turbo_judge"


def test_llama_index_mock_judge_gives_top_grade_without_packages():
    from unitxt.metrics import LlamaIndexCorrectness

    outputs = apply_metric(metric=LlamaIndexCorrectness(model_name="mock"), predictions=["Paris"],
                           references=[["Paris"]], task_data=[{"question": "Capital of France?"}])
    assert outputs[0]["score"]["instance"] == {"correctness_llama_index_by_mock_judge": 1.0, "score": 1.0,
                                               "score_name": "correctness_llama_index_by_mock_judge"}


def test_reference_and_prediction_fields_read_task_data():
    by_reference = _global(Accuracy(reference_field="gold"), ["cat", "dog"], [["x"], ["x"]],
                           [{"gold": "cat"}, {"gold": ["dog", "pup"]}])
    assert by_reference["accuracy"] == 1.0
    by_prediction = _global(Accuracy(prediction_field="guess"), ["x", "x"], [["cat"], ["dog"]],
                            [{"guess": "cat"}, {"guess": "cow"}])
    assert by_prediction["accuracy"] == 0.5


def test_missing_task_data_field_is_a_clear_error():
    with pytest.raises(MetricError, match="reference_field='gold'"):
        _global(Accuracy(reference_field="gold"), ["cat"], [["cat"]], [{"other": 1}])


@pytest.mark.parametrize("metric_class", [Accuracy, F1Macro])
def test_disabled_confidence_intervals(metric_class):
    predictions = ["a", "b", "a", "b", "a"]
    references = [["a"], ["a"], ["a"], ["b"], ["b"]]
    with_ci = _global(metric_class(), predictions, references)
    assert any("_ci_" in name for name in with_ci)
    metric = metric_class()
    metric.disable_confidence_interval_calculation()
    without = _global(metric, predictions, references)
    assert not any("ci_low" in name or "ci_high" in name for name in without)
    assert without["score"] == pytest.approx(with_ci["score"])


def test_ner_per_type_scores_switched_off_after_use():
    metric = NER()
    predictions = [[("Ann", "PER"), ("Rome", "LOC")]]
    references = [[[("Ann", "PER"), ("Oslo", "LOC")]]]
    first = _global(metric, predictions, references)
    assert first["f1_PER"] == 1.0 and first["f1_LOC"] == 0.0
    metric.report_per_group_scores = False
    second = _global(metric, predictions, references)
    assert "f1_PER" not in second and "f1_LOC" not in second
    assert second["f1_micro"] == pytest.approx(first["f1_micro"])


def test_hedges_g_of_different_means_without_spread_is_extreme():
    from unitxt.metrics.robustness import normalized_hedges_g

    # originals all 1, paraphrases all 0: no spread, so the effect is the largest (-1 after normalising),
    # whatever the small-sample correction would make of a finite value
    assert normalized_hedges_g({"original": [1.0, 1.0], "paraphrase": [0.0, 0.0, 0.0]}) == -1.0
    assert normalized_hedges_g({"original": [0.0, 0.0, 0.0, 0.0], "paraphrase": [1.0]}) == 1.0
    assert math.isnan(normalized_hedges_g({"original": [1.0], "paraphrase": [0.0]}))


@pytest.mark.parametrize("name", ["F1MacroMultiLabel", "F1MicroMultiLabel", "PrecisionMacroMultiLabel",
                                  "RecallMicroMultiLabel"])
def test_multilabel_score_without_any_reference_class_is_nan(name):
    import unitxt.metrics as metrics

    metric_class = getattr(metrics, name)
    for predictions, references in (([[]], [[[]]]), ([["spam"], []], [[[]], [[]]])):
        assert math.isnan(_global(metric_class(), predictions, references)["score"])
    # one reference class somewhere: defined again (label-free instances add nothing)
    assert _global(metric_class(), [["spam"], []], [[["spam"]], [[]]])["score"] == 1.0


def test_multilabel_without_classes_is_nan_when_streamed_in_chunks():
    from unitxt.metrics import F1MicroMultiLabel
    from unitxt.metrics.accumulators import WHOLE, MetricAccumulator

    accumulator = MetricAccumulator(F1MicroMultiLabel(), "test", with_ci=False)
    accumulator.add([["a"]], [[[]]], [{}], {WHOLE: None})
    accumulator.add([[]], [[[]]], [{}], {WHOLE: None})
    assert math.isnan(accumulator.global_scores()["score"])
    accumulator.add([["a"]], [[["a"]]], [{}], {WHOLE: None})
    assert accumulator.global_scores()["score"] == pytest.approx(2 / 3)


def test_f1_classes_resample_as_global_metrics_and_catalog_f1_as_map_reduce():
    """The F1Macro/F1Micro classes are the original's global metrics (100 resamples by default); the catalog's
    metrics.f1_macro / metrics.f1_micro are its map-reduce F1 (1000), with the same point scores."""
    import numpy as np
    from scipy.stats import bootstrap

    from unitxt.catalog import fetch_artifact
    from unitxt.metrics import F1Micro
    from unitxt.metrics.kernels.classification import f1_macro

    rng = np.random.default_rng(11)
    gold = [str(v) for v in rng.integers(0, 4, 60)]
    pred = [g if rng.random() < 0.7 else str(rng.integers(0, 4)) for g in gold]
    assert F1Macro().resolved_n_resamples() == 100 and F1Micro().resolved_n_resamples() == 100
    assert fetch_artifact("metrics.f1_macro")[0].resolved_n_resamples() == 1000
    assert fetch_artifact("metrics.f1_micro")[0].resolved_n_resamples() == 1000

    def statistic(rows):
        rows = rows.astype(int)
        return f1_macro([gold[i] for i in rows], [pred[i] for i in rows])

    expected = bootstrap((np.arange(60),), statistic, n_resamples=100, confidence_level=0.95, vectorized=False,
                         random_state=np.random.default_rng(42), method="BCa").confidence_interval
    result = _global(F1Macro(), pred, [[g] for g in gold])
    assert result["f1_macro_ci_low"] == pytest.approx(expected.low, abs=1e-12)
    assert result["f1_macro_ci_high"] == pytest.approx(expected.high, abs=1e-12)
    catalog = _global(fetch_artifact("metrics.f1_macro")[0], pred, [[g] for g in gold])
    assert catalog["f1_macro"] == pytest.approx(result["f1_macro"])
    assert {name for name in catalog if name.startswith("f1_") and "ci" not in name} == \
        {name for name in result if name.startswith("f1_") and "ci" not in name}


def test_macro_f1_instance_reports_its_reference_class():
    from unitxt.catalog import fetch_artifact
    from unitxt.metrics import F1Micro

    predictions, references = ["tea", "tea", "milk"], [["tea"], ["milk"], ["milk"]]
    for metric in (F1Macro(), fetch_artifact("metrics.f1_macro")[0]):
        outputs = apply_metric(metric=metric, predictions=predictions, references=references)
        instances = [output["score"]["instance"] for output in outputs]
        assert [(i["f1_macro"], i.get("f1_tea"), i.get("f1_milk")) for i in instances] == [
            (1.0, 1.0, None), (0.0, None, 0.0), (1.0, None, 1.0)]
    for metric in (F1Micro(), fetch_artifact("metrics.f1_micro")[0]):
        instance = apply_metric(metric=metric, predictions=predictions, references=references)[0]["score"]["instance"]
        assert not any(name.startswith("f1_") and name != "f1_micro" for name in instance)
