"""The BLEU metrics under the original system's catalog names, with its scales and keys.

- `Sacrebleu` (metrics.sacrebleu): sacrebleu.corpus_bleu on its 0..100 scale, with counts, totals, precisions, bp,
  sys_len and ref_len; an instance is scored as a one-sentence corpus.
- `NormalizedSacrebleu` (metrics.normalized_sacrebleu): corpus BLEU with effective n-gram order, score and
  precisions / 100 and bp rounded to 2 decimals; instances are sentence BLEU.
- `NmtBleu` (metrics.bleu): the BLEU of HF evaluate's `bleu` metric (tensorflow nmt: shortest reference length, no
  smoothing, 0..1), with precisions, brevity_penalty, length_ratio, translation_length, reference_length.
"""

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from .base import MetricScores
from .map_reduce import MapReduceOverrides
from .text import Bleu, _CorpusStatisticMetric
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField

# the install hint for sacrebleu's Korean tokenizer ("ko-mecab"), which the original's BLEU can be asked to use
KO_ERROR_MESSAGE = """

BLEU with the Korean tokenizer needs sacrebleu's optional Korean dependencies. Install them with:

`pip install "sacrebleu[ko]"`

On macOS, if installing them fails for want of 'mecab-config', install MeCab first (`brew install mecab`), then run
`pip install "sacrebleu[ko]"` again.

"""


@dataclass
class SacreBleuStats:
    """BLEU's sufficient statistics of a corpus: matching and total n-grams per order, hypothesis and reference length
    (sum them over sentences to get the corpus's)."""

    counts: List[int]
    totals: List[int]
    sys_len: int
    ref_len: int


class _DetailedScores(MetricScores):
    """MetricScores whose global scores also carry the score's parts computed over the same instances."""

    def __init__(self, base: MetricScores, stats: Any, details: Callable[[Any], Dict[str, Any]]):
        super().__init__(base.metric, base.instance_scores, base.statistic, base.n)
        self.stats = stats
        self.details = details

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        scores = super().global_scores(positions, with_ci)
        if scores:
            rows = self.stats if positions is None else self.stats[_np().asarray(positions, dtype=_np().int64)]
            scores.update(self.details(rows.sum(axis=0)))
        return scores


class _DetailedCorpusMetric(_CorpusStatisticMetric):
    """A corpus statistic metric that reports the parts of its score, globally and per instance."""

    def details(self, vector: Any) -> Dict[str, Any]:
        """The parts of the score of one summed statistics vector (JSON-friendly values)."""
        raise NotImplementedError(f"{type(self).__name__}.details() is not implemented")

    def details_of_totals(self, vector: Any, keys: Any = None) -> Dict[str, Any]:
        return self.details(vector)

    def score(self, predictions, references, task_data):
        scores = super().score(predictions, references, task_data)
        stats = getattr(scores.statistic, "stats", None)
        if stats is None:
            stats = self.statistics(list(predictions), [list(refs) for refs in references], task_data)
        for instance, row in zip(scores.instance_scores, stats):
            instance.update(self.details(row))
        return _DetailedScores(scores, stats, self.details)


class Sacrebleu(_DetailedCorpusMetric, Bleu):
    """sacrebleu.corpus_bleu on its 0..100 scale with its parts (as HF evaluate's `sacrebleu`)."""

    main_score = "sacrebleu"
    _scale = 1.0

    def sentence_scores(self, stats):
        from .kernels.bleu import bleu_from_statistics

        return bleu_from_statistics(stats, self.smooth_method, self.smooth_value)

    def details(self, vector):
        from .kernels.bleu import bleu_details_from_statistics

        parts = bleu_details_from_statistics(vector, self.smooth_method, self.smooth_value)
        return {name: parts[name] for name in ("counts", "totals", "precisions", "bp", "sys_len", "ref_len")}


class NormalizedSacrebleu(MapReduceOverrides, _DetailedCorpusMetric, Bleu):
    """Corpus BLEU with effective n-gram order, / 100 and rounded to 2 decimals (score and precisions).

    `language_to_tokenizer` (the original catalog format) picks each instance's tokenizer from its task_data
    `target_language` (lower-cased; a language mapped to None, or not listed, uses `tokenize`)."""

    prediction_field: Any = InertField(default='prediction', reason='this metric reads the predictions themselves')
    reference_field: Any = InertField(default='references', reason='this metric reads the references themselves')
    force: Any = InertField(default=False, reason="sacrebleu's defaults apply here")
    max_ngram_order: Any = InertField(default=4, reason='n-grams up to 4 are counted here')
    use_effective_order: Any = InertField(default=True, reason="sacrebleu's sentence defaults apply here")

    main_score = "sacrebleu"
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)
    language_to_tokenizer: Optional[Dict[str, Optional[str]]] = None

    def statistics(self, predictions, references, task_data=None):
        if not self.language_to_tokenizer or task_data is None:
            return super().statistics(predictions, references, task_data)
        np = _np()
        from .kernels.bleu import bleu_statistics

        chosen = []
        for data in task_data:
            language = str((data or {}).get("target_language", "")).strip().lower()
            chosen.append(self.language_to_tokenizer.get(language) or self.tokenize)
        rows = None
        for tokenize in sorted(set(chosen)):
            positions = [i for i, name in enumerate(chosen) if name == tokenize]
            part = bleu_statistics([predictions[i] for i in positions], [references[i] for i in positions],
                                   tokenize=tokenize, lowercase=self.lowercase)
            if rows is None:
                rows = np.zeros((len(predictions), part.shape[1]), dtype=part.dtype)
            rows[positions] = part
        return rows if rows is not None else super().statistics(predictions, references, task_data)

    def scores_of_totals(self, totals, exact, keys=None):
        values = super().scores_of_totals(totals, exact)[self.main_score]
        if exact:
            return {self.main_score: _np().asarray([round(float(value), 2) for value in values])}
        return {self.main_score: _np().round(values, 2)}

    def score_rows(self, rows):
        from .kernels.bleu import bleu_from_statistics

        return bleu_from_statistics(rows, self.smooth_method, self.smooth_value, effective_order=True)

    def score_vector(self, vector):
        from .kernels.bleu import bleu_from_statistics

        return float(bleu_from_statistics(vector, self.smooth_method, self.smooth_value, effective_order=True))

    def single_instance_scores(self, predictions, references, task_data, statistic):
        columns = super().single_instance_scores(predictions, references, task_data, statistic)
        return {name: _np().round(values, 2) for name, values in columns.items()}

    def details(self, vector):
        from .kernels.bleu import bleu_details_from_statistics

        parts = bleu_details_from_statistics(vector, self.smooth_method, self.smooth_value, effective_order=True)
        result = {name: parts[name] for name in ("counts", "totals", "sys_len", "ref_len")}
        result["precisions"] = [round(value / 100.0, 2) for value in parts["precisions"]]
        result["bp"] = round(parts["bp"], 2)
        return result

    def map(self, prediction: str, references: List[str], task_data: Dict[str, Any]) -> SacreBleuStats:
        """The BLEU statistics of one instance (its tokenizer as `statistics` picks it)."""
        row = [int(value) for value in self.statistics([prediction], [list(references)], [task_data])[0]]
        order = (len(row) - 2) // 2
        return SacreBleuStats(counts=row[:order], totals=row[order:2 * order], sys_len=row[-2], ref_len=row[-1])

    def reduce(self, intermediates: List[SacreBleuStats]) -> Dict[str, Any]:
        """Corpus BLEU of summed instance statistics, with its parts."""
        np = _np()
        rows = [[*stats.counts, *stats.totals, stats.sys_len, stats.ref_len] for stats in intermediates]
        vector = np.asarray(rows, dtype=np.int64).sum(axis=0)
        score = float(np.asarray(self.scores_of_totals(vector[None, :], exact=True)[self.main_score])[0])
        return {self.main_score: score, **self.details(vector)}


NormalizedSacrebleu.map_reduce_home = NormalizedSacrebleu


class NmtBleu(_DetailedCorpusMetric):
    """BLEU as HF evaluate's `bleu` metric (tensorflow nmt compute_bleu): 13a tokens, clipped n-gram precisions up to
    `max_order`, no smoothing, brevity penalty against the shortest reference; 0..1. Instances: the same formula on
    each instance alone."""

    main_score = "bleu"
    max_order: int = 4
    _scale = 1.0

    def statistics(self, predictions, references, task_data=None):
        from .kernels.bleu import bleu_statistics

        return bleu_statistics(predictions, references, tokenize="13a", max_ngram_order=self.max_order,
                               reference_length="shortest")

    def score_rows(self, rows):
        from .kernels.bleu import nmt_bleu_from_statistics

        parts = nmt_bleu_from_statistics(rows)
        # no tokens on either side: the reference formula divides by zero (length ratio, brevity penalty); the
        # original then has no score (NaN in a resample, which the CI replaces by a draw of the others)
        undefined = (parts["translation_length"] == 0) | (parts["reference_length"] == 0)
        return _np().where(undefined, _np().nan, parts["bleu"])

    def score_vector(self, vector):
        return float(self.score_rows(_np().asarray(vector)[None, :])[0])

    def single_instance_scores(self, predictions, references, task_data, statistic):
        """As the original: an instance whose BLEU is undefined (an empty prediction or reference) scores None."""
        columns = super().single_instance_scores(predictions, references, task_data, statistic)
        values = columns[self.main_score]
        if _np().isnan(values).any():
            values = values.astype(object)
            values[_np().isnan(values.astype(float))] = None
            columns[self.main_score] = values
        return columns

    def details(self, vector):
        from .kernels.bleu import nmt_bleu_from_statistics

        if _np().isnan(self.score_vector(vector)):
            return {}
        parts = nmt_bleu_from_statistics(_np().asarray(vector)[None, :])
        return {"precisions": [float(value) for value in parts["precisions"][0]],
                "brevity_penalty": float(parts["brevity_penalty"][0]), "length_ratio": float(parts["length_ratio"][0]),
                "translation_length": int(parts["translation_length"][0]),
                "reference_length": int(parts["reference_length"][0])}
