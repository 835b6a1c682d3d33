"""Offline stand-in for the Hub's `wer` evaluate script (loaded by name by the oracle): corpus word error rate, the
summed word edits over the summed reference words (jiwer)."""

import datasets
import evaluate
import jiwer


class Wer(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="WER (test stand-in).", citation="", inputs_description="",
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Value("string")}))

    def _compute(self, predictions=None, references=None, concatenate_texts=False):
        return jiwer.wer(list(references), list(predictions))
