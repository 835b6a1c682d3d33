"""Offline stand-in for the Hub's `squad` evaluate script (loaded by name by the oracle): SQuAD v1.1 exact match and
token F1 (0..100) of each prediction against its best gold answer, after the v1.1 answer normalisation."""

import collections
import re
import string

import datasets
import evaluate


def _normalize(text):
    text = "".join(character for character in text.lower() if character not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def _f1(prediction, gold):
    predicted, expected = _normalize(prediction).split(), _normalize(gold).split()
    common = sum((collections.Counter(predicted) & collections.Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


class Squad(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="SQuAD v1.1 (test stand-in).", citation="", inputs_description="",
            features=datasets.Features({
                "predictions": {"id": datasets.Value("string"), "prediction_text": datasets.Value("string")},
                "references": {"id": datasets.Value("string"),
                               "answers": datasets.Sequence({"text": datasets.Value("string"),
                                                             "answer_start": datasets.Value("int32")})}}))

    def _compute(self, predictions, references):
        answers = {reference["id"]: reference["answers"]["text"] for reference in references}
        exact = f1 = 0.0
        for prediction in predictions:
            golds = answers[prediction["id"]]
            exact += max(float(_normalize(prediction["prediction_text"]) == _normalize(gold)) for gold in golds)
            f1 += max(_f1(prediction["prediction_text"], gold) for gold in golds)
        return {"exact_match": 100.0 * exact / len(predictions), "f1": 100.0 * f1 / len(predictions)}
