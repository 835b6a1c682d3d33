"""Correlation and ranking metrics over numeric predictions: Spearman, Pearson, Kendall tau-b, ROC AUC.

Each instance has a float prediction and one numeric reference. Pairs with a non-finite value (NaN from an
unparsable prediction, +-inf) are dropped, as the kernels in correlation_kernels.py document; an undefined
correlation (fewer than 2 pairs, a constant side) is NaN. Spearman, Pearson and ROC AUC score all bootstrap
resamples of a chunk in one vectorised call; Kendall's tau-b has no vectorised form and runs scipy per resample.
Instance scores are NaN (a correlation of one pair is undefined). Global scores add a two-sided p-value.
"""

from typing import Any, Callable, Dict, List, Optional

from .metric_base import GlobalMetric, MetricScores, Statistic


def _np():
    import numpy

    return numpy


class _CorrelationScores(MetricScores):
    """MetricScores whose global scores also carry the p-value of the correlation over the same instances."""

    def __init__(self, base: MetricScores, pvalue: Callable[[Any], float]):
        super().__init__(base.metric, base.instance_scores, base.statistic, base.n)
        self.pvalue = pvalue

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        np = _np()
        scores = super().global_scores(positions, with_ci)
        if scores:
            positions = np.arange(self.n) if positions is None else np.asarray(positions, dtype=np.int64)
            metric = self.metric
            scores[f"{metric.score_prefix}{metric.main_score}_p_value"] = self.pvalue(positions)
        return scores


class _Correlation(GlobalMetric):
    """Base: a correlation between the first reference and the prediction of every instance."""

    prediction_type = float
    single_reference_per_prediction = True
    _method: str = "pearson"  # correlation_with_pvalue method; None for no p-value

    def _arrays(self, predictions, references):
        np = _np()
        gold = np.asarray([refs[0] for refs in references], dtype=np.float64).reshape(-1)
        pred = np.asarray(list(predictions), dtype=np.float64).reshape(-1)
        return gold, pred

    def resampled(self, gold: Any, pred: Any, idx: Any) -> Any:
        """Score of every resample row of idx (r, m)."""
        raise NotImplementedError

    def plain(self, gold: Any, pred: Any) -> float:
        """Score of the given instances (reference library semantics)."""
        raise NotImplementedError

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        gold, pred = self._arrays(predictions, references)
        main = self.main_score

        def statistic(idx):
            return {main: self.resampled(gold, pred, idx)}

        statistic.arrays = (gold, pred)
        return statistic

    def single_instance_scores(self, predictions, references, task_data, statistic) -> Dict[str, Any]:
        np = _np()
        return {self.main_score: np.full(len(predictions), np.nan)}

    def score(self, predictions, references, task_data) -> MetricScores:
        base = super().score(predictions, references, task_data)
        if self._method is None:
            return base
        from .correlation_kernels import correlation_with_pvalue

        gold, pred = base.statistic.arrays

        def pvalue(positions):
            return correlation_with_pvalue(gold[positions], pred[positions], self._method)[1]

        return _CorrelationScores(base, pvalue)

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]
                ) -> Dict[str, float]:
        gold, pred = self._arrays(predictions, references)
        return {self.main_score: self.plain(gold, pred)}


class Spearman(_Correlation):
    """Spearman's rho (scipy.stats.spearmanr, average ranks for ties) between references and predictions."""

    main_score = "spearmanr"
    _method = "spearman"

    def resampled(self, gold, pred, idx):
        from .correlation_kernels import resampled_spearman

        return resampled_spearman(gold, pred, idx)

    def plain(self, gold, pred):
        from .correlation_kernels import spearman

        return spearman(gold, pred)


class Pearson(_Correlation):
    """Pearson's r (scipy.stats.pearsonr) between references and predictions."""

    main_score = "pearsonr"
    _method = "pearson"

    def resampled(self, gold, pred, idx):
        from .correlation_kernels import resampled_pearson

        return resampled_pearson(gold, pred, idx)

    def plain(self, gold, pred):
        from .correlation_kernels import pearson

        return pearson(gold, pred)


class KendallTauB(_Correlation):
    """Kendall's tau-b (scipy.stats.kendalltau) between references and predictions; CIs call scipy per resample."""

    main_score = "kendalltau_b"
    _method = "kendall"

    def resampled(self, gold, pred, idx):
        np = _np()
        from .correlation_kernels import kendall_tau_b

        return np.asarray([kendall_tau_b(gold[row], pred[row]) for row in np.asarray(idx)], dtype=np.float64)

    def plain(self, gold, pred):
        from .correlation_kernels import kendall_tau_b

        return kendall_tau_b(gold, pred)


class RocAuc(_Correlation):
    """Area under the ROC curve of float prediction scores for 0/1 references (== sklearn roc_auc_score)."""

    main_score = "roc_auc"
    _method = None

    def resampled(self, gold, pred, idx):
        from .correlation_kernels import resampled_roc_auc

        return resampled_roc_auc(gold, pred, idx)

    def plain(self, gold, pred):
        from .correlation_kernels import roc_auc

        return roc_auc(gold, pred)
