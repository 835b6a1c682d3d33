"""Scores of metric subclasses written against the original's hooks, through the public API of whichever unitxt runs
it (the original's or ours), as JSON: argv[1] is the output path. Run by both pythons; test_same_metric_hooks.py
compares the two."""

import json
import math
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

from unitxt.metrics import (KPA, NER, Accuracy, CustomF1, F1Fast, F1Macro, MapReduceMetric,  # noqa: E402
                            MeanSquaredError, NormalizedSacrebleu)


def rows(predictions, references, task_data=None):
    return [{"prediction": p, "references": r, "task_data": d}
            for p, r, d in zip(predictions, references, task_data or [{} for _ in predictions])]


def scored(metric, predictions, references, task_data=None):
    out = list(metric.process(rows(predictions, references, task_data)))
    return {"global": out[0]["score"]["global"], "instances": [row["score"]["instance"] for row in out]}


class CaseF1(F1Macro):
    def get_str_id(self, str):
        return super().get_str_id(str.lower())


class CaseF1Fast(F1Fast):
    def map(self, prediction, references, task_data):
        return super().map(prediction.lower(), [r.lower() for r in references], task_data)


class AbsoluteError(MeanSquaredError):
    main_score = "mean_absolute_error"

    def map(self, prediction, references, task_data):
        return abs(references[0] - prediction)


class LowerNER(NER):
    def get_element_representation(self, element, additional_input):
        return str(element[0]).lower()


class NoMiscNER(NER):
    def should_ignore_element(self, element, additional_input):
        return element[1] == "MISC"


class Words(CustomF1):
    prediction_type = list

    def get_element_group(self, element, additional_input):
        return element.split(":")[0]

    def get_element_representation(self, element, additional_input):
        return element.split(":")[1]


class HalfRecallWords(Words):
    def recall(self, pn, pd, rn, rd):
        return 0.5 * super().recall(pn, pd, rn, rd)


class MacroMaxWords(Words):
    def add_macro_scores(self, f1_result, recall_result, precision_result, result):
        result["f1_macro"] = max(f1_result.values()) if f1_result else 0.0
        result["recall_macro"] = result["precision_macro"] = 0.0


class Squares(MapReduceMetric):
    main_score = "mean_square"

    def map(self, prediction, references, task_data):
        return prediction ** 2

    def reduce(self, intermediates):
        return {"mean_square": float(np.mean(intermediates)), "spread": float(np.std(intermediates))}


def main():
    results = {}
    labels = (["A", "b", "a", "C", "B", "a", "c"], [["a"], ["B"], ["b"], ["c"], ["b"], ["a"], ["b"]])
    results["f1_get_str_id"] = scored(CaseF1(n_resamples=40), *labels)["global"]
    results["f1_fast_map"] = scored(CaseF1Fast(n_resamples=40, ci_score_names=["f1", "f1_micro"]), *labels)
    results["mse_map"] = scored(AbsoluteError(n_resamples=40), [1.0, 2.5, 3.0, 0.0, 4.0],
                                [[1.5], [2.0], [5.0], [0.5], [4.0]])
    entities = ([[("Paris", "LOC"), ("IBM", "ORG")], [("john", "PER"), ("X", "MISC")], [("Rome", "LOC")]],
                [[[("paris", "LOC"), ("IBM", "ORG")]], [[("John", "PER")]], [[("Rome", "LOC"), ("Y", "MISC")]]])
    for name, cls in (("ner_representation", LowerNER), ("ner_ignore", NoMiscNER)):
        results[name] = scored(cls(n_resamples=30), *entities)
    words = ([["a:x", "b:y"], ["a:z"], ["c:w", "b:y"], ["a:x"]], [[["a:x", "b:q"]], [["a:z", "a:x"]], [["b:y"]],
                                                                  [["b:y"]]])
    for name, cls in (("custom_f1", Words), ("custom_f1_recall", HalfRecallWords), ("custom_f1_macro", MacroMaxWords)):
        results[name] = scored(cls(n_resamples=30), *words)
    results["kpa"] = scored(KPA(n_resamples=30), ["kp1", "none", "kp1", "kp3"], [["kp1"], ["kp2"], ["kp1"], ["kp3"]],
                            [{"keypoint": k} for k in ("kp1", "kp2", "kp1", "kp3")])["global"]
    results["map_reduce"] = scored(Squares(n_resamples=50), [1.0, 2.0, 3.0, 5.0, 8.0], [[]] * 5)
    bleu = NormalizedSacrebleu(tokenize="13a")
    stats = [bleu.map("the cat sat on the mat", ["the cat is on the mat"], {}), bleu.map("a dog", ["the dog"], {})]
    results["sacrebleu_reduce"] = bleu.reduce(stats)
    values = [1.0, 0.0, 1.0, 1.0, math.nan, 0.0, 1.0, 0.5, 0.25, 1.0]
    instances = [{"score": {"instance": {"accuracy": v, "other": (i % 3) / 2}}} for i, v in enumerate(values)]
    accuracy = Accuracy(n_resamples=100)
    results["score_based_ci"] = accuracy.score_based_confidence_interval(instances, ["accuracy", "other"])
    results["average_item_scores"] = accuracy.average_item_scores(instances, "accuracy")
    results["max_item_scores"] = accuracy.max_item_scores(instances, "other")
    results["resample_from_non_nan"] = list(accuracy.resample_from_non_nan(np.array([1.0, np.nan, 3.0, np.nan, 5.0])))
    results["global_ci"] = F1Macro(n_resamples=50).compute_global_confidence_intervals(
        [["a"], ["b"], ["b"], ["c"], ["a"], ["a"], ["b"], ["c"]], ["a", "b", "a", "c", "b", "a", "c", "c"],
        [{}] * 8, "f1_macro")
    with open(sys.argv[1], "w", encoding="utf-8") as file:
        json.dump(results, file, default=float)


if __name__ == "__main__":
    main()
