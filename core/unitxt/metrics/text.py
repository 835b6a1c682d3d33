"""Generation metrics over texts: ROUGE (instance scores, mean) and corpus BLEU / chrF (sacrebleu-exact).

All scores are on a 0..1 scale (unitxt's convention), so BLEU and chrF equal sacrebleu's numbers divided by 100.
BLEU and chrF are corpus metrics: each instance contributes a row of summable n-gram statistics, the global score is
the formula applied to their sum, and bootstrap resamples re-sum the rows with one matrix product per chunk.
Their instance scores are the sentence-level scores (sacrebleu's sentence_bleu / sentence_chrf).
"""

from typing import Any, Dict, List, Optional

from ..errors import MetricError
from .base import GlobalMetric, InstanceMetric, Statistic
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField

DEFAULT_ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


# ---------------------------------------------------------------- ROUGE
class Rouge(InstanceMetric):
    """ROUGE F-measures per instance, exactly as Google's rouge_score (no stemming); global = their means.

    For rougeLsum, texts are split into sentences by nltk's sentence splitter as in the original
    (`sent_split_newline`), when nltk and its punkt_tab data are installed; otherwise at newlines only (a warning
    says so). With several references, each ROUGE type takes its best reference (rouge_score's
    score_multi).
    """

    sent_split_newline: Any = InertField(default=True, reason='summaries are split into sentences at newlines here')

    main_score = "rougeL"
    prediction_type = str
    rouge_types: List[str] = list(DEFAULT_ROUGE_TYPES)
    use_stemmer: bool = False
    ci_scores = list(DEFAULT_ROUGE_TYPES)
    sent_split_newline: bool = True

    def verify(self) -> None:
        super().verify()
        if self.use_stemmer:
            raise MetricError(
                "Rouge(use_stemmer=True) is not supported: stemming needs nltk's Porter stemmer, which the "
                "zero-install edition does not include.", artifact=type(self).__name__, field="use_stemmer",
            )
        if self.main_score not in self.rouge_types:
            raise MetricError(
                f"main_score '{self.main_score}' must be one of rouge_types {self.rouge_types}.",
                artifact=type(self).__name__, field="main_score",
            )

    def resolved_reduction_map(self) -> Dict[str, List[str]]:
        return self.reduction_map if self.reduction_map is not None else {"mean": list(self.rouge_types)}

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        return self.compute_all([prediction], [references], [task_data])[0]

    def compute_all(self, predictions: List[str], references: List[List[str]], task_data: List[Dict[str, Any]]
                    ) -> List[Dict[str, float]]:
        """All instances in one vectorised call of the ROUGE kernel."""
        from .kernels.rouge import rouge_instance_scores

        predictions, references = list(predictions), [list(refs) for refs in references]
        if self.sent_split_newline and "rougeLsum" in self.rouge_types:
            # the sentences one per line (only rougeLsum reads lines; the other types' tokens are unchanged)
            from .sentence_split import split_sentences_as_lines

            predictions = split_sentences_as_lines(predictions)
            references = [split_sentences_as_lines(refs) for refs in references]
        columns = rouge_instance_scores(predictions, references, list(self.rouge_types))
        names = list(self.rouge_types)
        lists = [columns[name].tolist() for name in names]
        return [dict(zip(names, values)) for values in zip(*lists)]


# ---------------------------------------------------------------- corpus metrics from summable statistics
class _CorpusStatisticMetric(GlobalMetric):
    """A corpus score computed from summed per-instance statistics rows (BLEU, chrF); 0..1 scale (`_scale` times
    the reference library's 0..100 score)."""

    prediction_type = str
    _scale: float = 0.01

    def statistics(self, predictions: List[str], references: List[List[str]], task_data: Any = None) -> Any:
        """Per-instance statistics, an int array (n, width) whose row sums give the corpus statistics."""
        raise NotImplementedError(f"{type(self).__name__}.statistics() is not implemented")

    def score_rows(self, rows: Any) -> Any:
        """0..100 scores of an array of summed statistics rows (r, width)."""
        raise NotImplementedError(f"{type(self).__name__}.score_rows() is not implemented")

    def score_vector(self, vector: Any) -> float:
        """0..100 score of one summed statistics vector, with the reference library's exact arithmetic."""
        raise NotImplementedError(f"{type(self).__name__}.score_vector() is not implemented")

    def sentence_scores(self, stats: Any) -> Any:
        """0..100 sentence-level score of each per-instance row."""
        return self.score_rows(stats)

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        np = _np()
        from .kernels.bootstrap import resampled_sums

        stats = self.additive_statistics(predictions, references, task_data)

        def statistic(idx):
            idx = np.asarray(idx)
            if idx.shape[0] == 1:  # the global score: scalar path, bit-identical to the reference library
                return self.scores_of_totals(stats[idx[0]].sum(axis=0)[None, :], exact=True)
            return self.scores_of_totals(resampled_sums(stats, idx), exact=False)

        statistic.stats = stats  # reused for the sentence-level instance scores
        return statistic

    def additive_statistics(self, predictions, references, task_data) -> Any:
        return self.statistics(list(predictions), [list(refs) for refs in references], task_data)

    def scores_of_totals(self, totals: Any, exact: bool, keys: Any = None) -> Dict[str, Any]:
        np = _np()
        if exact:
            return {self.main_score: np.asarray([self.score_vector(row) * self._scale for row in totals])}
        return {self.main_score: np.asarray(self.score_rows(totals), dtype=np.float64) * self._scale}

    def single_instance_scores(self, predictions, references, task_data, statistic) -> Dict[str, Any]:
        np = _np()
        stats = getattr(statistic, "stats", None)
        if stats is None or len(stats) != len(predictions):
            stats = self.statistics(list(predictions), [list(refs) for refs in references], task_data)
        if len(stats) == 0:
            return {self.main_score: np.zeros(0)}
        return {self.main_score: np.asarray(self.sentence_scores(stats), dtype=np.float64) * self._scale}

    def compute(self, references: List[List[str]], predictions: List[str], task_data: List[Dict[str, Any]]
                ) -> Dict[str, float]:
        """Corpus score of the given instances (the plain, non-resampled computation)."""
        stats = self.statistics(list(predictions), [list(refs) for refs in references], task_data)
        return {self.main_score: self.score_vector(stats.sum(axis=0)) * self._scale}


class Bleu(_CorpusStatisticMetric):
    """Corpus BLEU equal to sacrebleu.corpus_bleu / 100 (13a tokenization, exp smoothing by default).

    Instance scores are sacrebleu.sentence_bleu / 100 (effective n-gram order). References may differ in number
    between instances (sacrebleu's None padding).
    """

    main_score = "bleu"
    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: Optional[float] = None

    def verify(self) -> None:
        super().verify()
        from .kernels.bleu import BLEU_TOKENIZERS, SMOOTH_DEFAULTS

        if self.tokenize not in BLEU_TOKENIZERS:
            raise MetricError(f"Unsupported tokenize '{self.tokenize}'; supported: {list(BLEU_TOKENIZERS)}.",
                              artifact=type(self).__name__, field="tokenize")
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise MetricError(f"Unknown smooth_method '{self.smooth_method}'; use one of {sorted(SMOOTH_DEFAULTS)}.",
                              artifact=type(self).__name__, field="smooth_method")

    def statistics(self, predictions, references, task_data=None):
        from .kernels.bleu import bleu_statistics

        return bleu_statistics(predictions, references, tokenize=self.tokenize, lowercase=self.lowercase)

    def score_rows(self, rows):
        from .kernels.bleu import bleu_from_statistics

        return bleu_from_statistics(rows, self.smooth_method, self.smooth_value)

    def score_vector(self, vector):
        from .kernels.bleu import bleu_from_statistics

        return float(bleu_from_statistics(vector, self.smooth_method, self.smooth_value))

    def sentence_scores(self, stats):
        from .kernels.bleu import bleu_from_statistics

        return bleu_from_statistics(stats, self.smooth_method, self.smooth_value, effective_order=True)


class Chrf(_CorpusStatisticMetric):
    """Corpus chrF equal to sacrebleu.corpus_chrf / 100 (char 6-grams, beta 2; word_order=2 gives chrF++).

    Instance scores are sacrebleu.sentence_chrf / 100.
    """

    main_score = "chrf"
    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def statistics(self, predictions, references, task_data=None):
        from .kernels.chrf import chrf_statistics

        return chrf_statistics(predictions, references, char_order=self.char_order, word_order=self.word_order,
                               beta=self.beta, lowercase=self.lowercase, whitespace=self.whitespace,
                               eps_smoothing=self.eps_smoothing)

    def score_rows(self, rows):
        from .kernels.chrf import chrf_from_statistics

        return chrf_from_statistics(rows, self.beta, self.eps_smoothing)

    def score_vector(self, vector):
        from .kernels.chrf import chrf_from_statistics

        return float(chrf_from_statistics(vector, self.beta, self.eps_smoothing))
