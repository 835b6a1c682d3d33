"""Offline stand-in for the Hub's `sacrebleu` evaluate script (loaded by name by the oracle): sacrebleu's corpus BLEU
with the script's settings (exp smoothing, no effective order) and its output keys."""

import datasets
import evaluate
import sacrebleu


class Sacrebleu(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="sacreBLEU (test stand-in).", citation="", inputs_description="",
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Sequence(datasets.Value("string"))}))

    def _compute(self, predictions, references, smooth_method="exp", smooth_value=None, force=False, lowercase=False,
                 tokenize=None, use_effective_order=False):
        streams = [[refs[i] for refs in references] for i in range(len(references[0]))]
        options = {"tokenize": tokenize} if tokenize else {}
        output = sacrebleu.corpus_bleu(predictions, streams, smooth_method=smooth_method, smooth_value=smooth_value,
                                       force=force, lowercase=lowercase, use_effective_order=use_effective_order,
                                       **options)
        return {"score": output.score, "counts": output.counts, "totals": output.totals,
                "precisions": output.precisions, "bp": output.bp, "sys_len": output.sys_len, "ref_len": output.ref_len}
