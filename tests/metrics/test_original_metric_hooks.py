"""Subclasses written the way programs for the original write them, overriding its metric hooks (map / reduce /
annotate_scores / reduce_and_bootstrap on map-reduce metrics, label ids of classification metrics, CustomF1 and
NER element hooks and scoring steps, model-backed metrics' batch hooks): the scores change accordingly. Expected
values come from the inputs (sklearn, numpy, plain arithmetic)."""

import math

import numpy as np
import pytest
from sklearn.metrics import f1_score

from unitxt.metrics import (NER, AccuracyFast, CustomF1, F1Fast, F1Macro, JaccardIndex, MapReduceMetric,
                            MeanReduction, MeanSquaredError, MetricsEnsemble, NormalizedSacrebleu, StringContainment)


def _process(metric, predictions, references, task_data=None):
    rows = [{"prediction": p, "references": r, "task_data": d}
            for p, r, d in zip(predictions, references, task_data or [{}] * len(predictions))]
    return list(metric.process(rows))


class Squares(MapReduceMetric):
    main_score = "mean_square"
    n_resamples = 20

    def map(self, prediction, references, task_data):
        return prediction ** 2

    def reduce(self, intermediates):
        return {"mean_square": float(np.mean(intermediates)), "count": len(intermediates)}


def test_map_reduce_compute_annotates_instance_and_global_scores():
    instance_scores, global_scores = Squares(score_prefix="my_").compute(
        [{"prediction": p, "references": []} for p in (1.0, 2.0, 3.0)])
    assert instance_scores[1] == {"my_mean_square": 4.0, "my_count": 1, "score": 4.0, "score_name": "my_mean_square"}
    assert global_scores["my_mean_square"] == pytest.approx(14 / 3) and global_scores["num_of_instances"] == 3
    assert global_scores["score_ci_low"] == global_scores["my_mean_square_ci_low"] <= 14 / 3


def test_overriding_annotate_scores_and_reduce_and_bootstrap():
    class Annotated(Squares):
        def annotate_scores(self, scores):
            return {**super().annotate_scores(scores), "annotated": True}

    class NoIntervals(Squares):
        def reduce_and_bootstrap(self, intermediates):
            return {**self.reduce(intermediates), "bootstrapped": False}

    out = _process(Annotated(), [1.0, 2.0, 3.0], [[], [], []])
    assert out[0]["score"]["instance"]["annotated"] and out[0]["score"]["global"]["annotated"]
    plain = _process(NoIntervals(), [1.0, 2.0, 3.0], [[], [], []])[0]["score"]["global"]
    assert plain["bootstrapped"] is False and "mean_square_ci_low" not in plain


def test_bootstrap_of_a_constant_score_is_its_value():
    class Constant(Squares):
        def reduce(self, intermediates):
            return {"mean_square": 2.0}

    assert Constant().bootstrap([1, 2, 3, 4], ["mean_square"]) == {"mean_square_ci_low": 2.0,
                                                                    "mean_square_ci_high": 2.0}


def test_instance_metrics_of_the_original_map_reduce_family_score_through_map_and_reduce():
    class CaseBlindContainment(StringContainment):
        def map(self, prediction, references, task_data):
            return super().map(prediction.lower(), [r.lower() for r in references], task_data)

    class MaxContainment(StringContainment):
        reduction = MeanReduction()

        def reduce(self, intermediates):
            return {"string_containment": max(i["string_containment"] for i in intermediates)}

    class StrictJaccard(JaccardIndex):
        def map(self, prediction, references, task_data):
            return {"jaccard_index": float(set(prediction) == set(references[0]))}

    predictions, references = ["Hello World", "foo", "BAR"], [["world"], ["x"], ["bar"]]
    assert _process(StringContainment(n_resamples=None), predictions, references)[0]["score"]["global"][
        "string_containment"] == 0.0
    assert _process(CaseBlindContainment(n_resamples=None), predictions, references)[0]["score"]["global"][
        "string_containment"] == pytest.approx(2 / 3)
    assert _process(MaxContainment(n_resamples=None), ["ab", "c"], [["a"], ["x"]])[0]["score"]["global"][
        "string_containment"] == 1.0
    out = _process(StrictJaccard(n_resamples=None), [["a", "b"], ["a"]], [[["b", "a"]], [["a", "c"]]])
    assert [row["score"]["instance"]["jaccard_index"] for row in out] == [1.0, 0.0]
    assert AccuracyFast().map(1, ["1"], {}) == {"accuracy": 1.0}  # texts compared, as the original's map
    assert _process(AccuracyFast(n_resamples=None), [1, "a"], [["1"], ["b"]])[0]["score"]["global"]["accuracy"] == 0.5


def test_f1_fast_and_f1_label_hooks_score_the_subclass_labels():
    predictions = ["A", "b", "a", "C", "B", "a", "c"]
    references = [["a"], ["B"], ["b"], ["c"], ["b"], ["a"], ["b"]]
    gold, lowered = [r[0].lower() for r in references], [p.lower() for p in predictions]
    expected = f1_score(gold, lowered, labels=sorted(set(gold)), average="macro", zero_division=0)

    class CaseBlindF1Fast(F1Fast):
        def map(self, prediction, references, task_data):
            return super().map(prediction.lower(), [r.lower() for r in references], task_data)

    class CaseBlindF1(F1Macro):
        def get_str_id(self, str):
            return super().get_str_id(str.lower())

    fast = _process(CaseBlindF1Fast(n_resamples=None), predictions, references)[0]["score"]["global"]
    assert fast["f1"] == pytest.approx(expected) and fast["f1_a"] == pytest.approx(0.8)
    assert fast["f1_micro"] == pytest.approx(f1_score(gold, lowered, labels=sorted(set(gold)), average="micro"))
    labels = _process(CaseBlindF1(n_resamples=None), predictions, references)[0]["score"]["global"]
    assert labels["f1_macro"] == pytest.approx(expected) and set(labels) >= {"f1_a", "f1_b", "f1_c"}
    assert F1Macro().get_str_id("x") == 0 and F1Fast().map("q", ["r"], {}) == (1, 0)


def test_squared_error_and_sacrebleu_map_reduce():
    class AbsoluteError(MeanSquaredError):
        main_score = "mean_absolute_error"

        def map(self, prediction, references, task_data):
            return abs(references[0] - prediction)

    predictions, references = [1.0, 2.5, 3.0], [[1.5], [2.0], [5.0]]
    assert _process(MeanSquaredError(n_resamples=None), predictions, references)[0]["score"]["global"][
        "mean_squared_error"] == pytest.approx((0.25 + 0.25 + 4) / 3)
    assert _process(AbsoluteError(n_resamples=None), predictions, references)[0]["score"]["global"][
        "mean_absolute_error"] == pytest.approx(3 / 3)
    import sacrebleu

    metric = NormalizedSacrebleu(tokenize="13a")
    stats = [metric.map("the cat sat on the mat", ["the cat is on the mat"], {}), metric.map("a dog", ["the dog"], {})]
    reference = sacrebleu.corpus_bleu(["the cat sat on the mat", "a dog"], [["the cat is on the mat", "the dog"]])
    reduced = metric.reduce(stats)
    assert (stats[0].counts, stats[0].totals) == ([5, 3, 1, 0], [6, 5, 4, 3])
    assert reduced["sacrebleu"] == round(reference.score / 100, 2) and reduced["counts"] == reference.counts


def test_ner_element_hooks_and_custom_f1_steps():
    predictions = [[("Paris", "LOC"), ("IBM", "ORG")], [("john", "PER"), ("X", "MISC")]]
    references = [[[("paris", "LOC"), ("IBM", "ORG")]], [[("John", "PER")]]]

    class CaseBlindNER(NER):
        def get_element_representation(self, element, additional_input):
            return str(element[0]).lower()

    class NoMisc(NER):
        def should_ignore_element(self, element, additional_input):
            return element[1] == "MISC"

    plain = _process(NER(n_resamples=None), predictions, references)[0]["score"]["global"]
    blind = _process(CaseBlindNER(n_resamples=None), predictions, references)[0]["score"]["global"]
    assert plain["f1_micro"] == pytest.approx(2 * (1 / 4) * (1 / 3) / (1 / 4 + 1 / 3))
    assert blind["f1_micro"] == pytest.approx(2 * (3 / 4) * 1 / (3 / 4 + 1))
    assert _process(NoMisc(n_resamples=None), predictions, references)[0]["score"]["global"][
        "precision_micro"] == pytest.approx(1 / 3)

    class Words(CustomF1):
        prediction_type = list

        def get_element_group(self, element, additional_input):
            return element.split(":")[0]

        def get_element_representation(self, element, additional_input):
            return element.split(":")[1]

    class HalfRecall(Words):
        def recall(self, pn, pd, rn, rd):
            return 0.5 * super().recall(pn, pd, rn, rd)

    words_p, words_r = [["a:x", "b:y"], ["a:z"]], [[["a:x", "b:q"]], [["a:z", "a:x"]]]
    full = _process(Words(n_resamples=None), words_p, words_r)[0]["score"]["global"]
    half = _process(HalfRecall(n_resamples=None), words_p, words_r)[0]["score"]["global"]
    assert (full["precision_micro"], full["recall_micro"]) == (pytest.approx(2 / 3), pytest.approx(2 / 4))
    assert half["recall_micro"] == pytest.approx(1 / 4) and half["precision_micro"] == pytest.approx(2 / 3)
    assert half["f1_micro"] == pytest.approx(2 * (2 / 3) * (1 / 4) / (2 / 3 + 1 / 4))
    assert Words().group_elements(["a:x", "a:x", "b:y"], {}) == {"a": {"x": 2}, "b": {"y": 1}}


def test_model_backed_batch_hooks_and_ensembles():
    from unitxt.metrics.model_based import BertScore, GraniteGuardianRagRisk

    class FakeBert(BertScore):  # the batch scorer stands in for the model
        _requirements_list = {}

        def compute(self, references, predictions, task_data):
            return [{"f1": float(p == r[0]), "precision": 1.0, "recall": 0.5} for p, r in zip(predictions, references)]

    class BestBert(FakeBert):
        def reduce(self, intermediates):
            return {name: max(i[name] for i in intermediates) for name in ("f1", "precision", "recall")}

    rows = (["a", "b", "c"], [["a"], ["x"], ["y"]])
    assert FakeBert().map_stream(zip(*rows, [{}] * 3))[0] == {"f1": 1.0, "precision": 1.0, "recall": 0.5}
    assert _process(FakeBert(n_resamples=None), *rows)[0]["score"]["global"]["f1"] == pytest.approx(1 / 3)
    assert _process(BestBert(n_resamples=None), *rows)[0]["score"]["global"]["f1"] == 1.0

    guardian = GraniteGuardianRagRisk(risk_name="groundedness")
    messages = guardian.process_input_fields({"context": "ctx", "prediction": "answer"})
    assert messages == [{"role": "context", "content": "ctx"}, {"role": "assistant", "content": "answer"}]
    assert guardian.get_prompt(messages).startswith("Context: ctx\nAssistant message: answer")
    label, risk = guardian.parse_output([{"text": "Yes", "top_tokens": [{"text": "Yes", "logprob": math.log(0.6)},
                                                                         {"text": "No", "logprob": math.log(0.2)}]}])
    assert (label, risk) == ("Yes", pytest.approx(0.75))
    with pytest.raises(Exception, match="context"):
        guardian.verify_granite_guardian_config({"assistant": "a"})

    class SecondOnly(MetricsEnsemble):
        def ensemble(self, instance):
            return instance["score"]["instance"]["ensemble_1_string_containment"]

    ensemble_rows = (["ab", "cd"], [["ab"], ["c"]])
    metrics = ["metrics.accuracy", "metrics.string_containment"]
    out = _process(SecondOnly(metrics=metrics, n_resamples=None), *ensemble_rows)
    assert [row["score"]["instance"]["ensemble_score"] for row in out] == [1.0, 1.0]
    both = _process(MetricsEnsemble(metrics=metrics, n_resamples=None), *ensemble_rows)
    assert [row["score"]["instance"]["ensemble_score"] for row in both] == [1.0, 0.5]


def test_streamed_evaluation_keeps_the_inputs_of_a_metric_scored_through_overridden_hooks():
    from unitxt.metrics.accumulators import KIND_NAMES, _kind_by_type

    class CaseBlindF1(F1Macro):
        def get_str_id(self, str):
            return super().get_str_id(str.lower())

    class CaseBlindF1Fast(F1Fast):
        def map(self, prediction, references, task_data):
            return super().map(prediction.lower(), [r.lower() for r in references], task_data)

    class AbsoluteError(MeanSquaredError):
        def map(self, prediction, references, task_data):
            return abs(references[0] - prediction)

    assert [KIND_NAMES.get(_kind_by_type(metric)) for metric in (F1Fast(), F1Macro(), MeanSquaredError())] == [
        "labels", "labels", "sums"]  # merged by their counts
    assert [_kind_by_type(metric) for metric in (CaseBlindF1(), CaseBlindF1Fast(), AbsoluteError())] == [None] * 3
