"""Correlation and ranking metrics over numeric predictions: Spearman, Pearson, Kendall tau-b, ROC AUC.

Each instance has a float prediction and one numeric reference. Pairs with a non-finite value (NaN from an
unparsable prediction, +-inf) are dropped, as the kernels in kernels/correlation.py document; an undefined
correlation (fewer than 2 pairs, a constant side) is NaN. Spearman, Pearson and ROC AUC score all bootstrap
resamples of a chunk in one vectorised call (ranks of resamples by counting draws of each distinct value, not by
sorting); Kendall's tau-b has no vectorised form and runs scipy per resample.
Instance scores are NaN (a correlation of one pair is undefined). Global scores add a two-sided p-value; when pairs
were dropped, `num_of_instances` counts the pairs used, `<main>_dropped_pairs` how many were dropped, and a warning
says so.
"""

from typing import Any, Callable, Dict, List, Optional

from ..errors import MetricError
from .base import GlobalMetric, KeyedStatistics, MetricScores, Statistic
from ..lazy_imports import numpy_module as _np


class _CorrelationScores(MetricScores):
    """MetricScores whose global scores also carry the p-value of the correlation over the same instances, and the
    count of pairs dropped for a non-finite value."""

    def __init__(self, base: MetricScores, pvalue: Optional[Callable[[Any], float]], finite: Any):
        super().__init__(base.metric, base.instance_scores, base.statistic, base.n)
        self.pvalue = pvalue
        self.finite = finite
        self._warned: set = set()

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        np = _np()
        scores = super().global_scores(positions, with_ci)
        if scores:
            positions = np.arange(self.n) if positions is None else np.asarray(positions, dtype=np.int64)
            metric = self.metric
            name = f"{metric.score_prefix}{metric.main_score}"
            if self.pvalue is not None:
                scores[f"{name}{metric._p_value_suffix}"] = self.pvalue(positions)
            used = int(self.finite[positions].sum())
            if used < len(positions):
                from ..logging_utils import get_logger

                dropped = len(positions) - used
                scores[f"{name}_dropped_pairs"] = dropped
                scores["num_of_instances"] = used
                if (dropped, len(positions)) not in self._warned:
                    self._warned.add((dropped, len(positions)))
                    get_logger().warning(f"{type(metric).__name__}: {dropped} of {len(positions)} prediction/reference "
                                         "pairs have a NaN or infinite value and were left out of the correlation.")
        return scores


def _dense_codes(values: Any, valid: Any):
    """Dense rank codes 0..u-1 of the valid values (u distinct valid values); invalid entries get code u."""
    np = _np()
    codes = np.empty(values.shape, dtype=np.int64)
    distinct, inverse = np.unique(values[valid], return_inverse=True)
    codes[valid] = inverse.reshape(-1)
    codes[~valid] = len(distinct)
    return codes, len(distinct)


def _resampled_ranks(codes: Any, n_codes: int, idx: Any) -> Any:
    """Average ranks (1-based, ties share their mean rank) of each resample row's drawn values among its valid ones.

    Counting instead of sorting: every resample draws from the same n values, so a row's ranks follow from how often
    it drew each distinct value (one bincount and one cumsum per chunk). Invalid entries get meaningless ranks.
    """
    np = _np()
    rows = idx.shape[0]
    width = n_codes + 1
    taken = codes[idx]
    flat = taken + (np.arange(rows, dtype=np.int64) * width)[:, None]
    counts = np.bincount(flat.ravel(), minlength=rows * width).reshape(rows, width)
    average = (np.cumsum(counts, axis=1) - counts) + (counts + 1) / 2.0
    return np.take_along_axis(average, taken, axis=1)


def _counting_fits(n_codes: int, idx: Any) -> bool:
    """Whether the (rows, distinct values) count table stays about as small as the index matrix itself."""
    return idx.shape[0] * (n_codes + 1) <= 4 * idx.size + 4096


class _Correlation(GlobalMetric):
    """Base: a correlation between the first reference and the prediction of every instance."""

    prediction_type = float
    single_reference_per_prediction = True
    _method: str = "pearson"  # correlation_with_pvalue method; None for no p-value
    _p_value_suffix: str = "_p_value"  # global key of the p-value: <main_score><suffix>

    def _arrays(self, predictions, references):
        np = _np()
        gold = np.asarray([refs[0] for refs in references], dtype=np.float64).reshape(-1)
        pred = np.asarray(list(predictions), dtype=np.float64).reshape(-1)
        return gold, pred

    def resampled(self, gold: Any, pred: Any, idx: Any, cache: Optional[Dict[str, Any]] = None) -> Any:
        """Score of every resample row of idx (r, m); `cache` keeps per-dataset preparations between calls."""
        raise NotImplementedError(f"{type(self).__name__}.resampled() is not implemented")

    def plain(self, gold: Any, pred: Any) -> float:
        """Score of the given instances (reference library semantics)."""
        raise NotImplementedError(f"{type(self).__name__}.plain() is not implemented")

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        gold, pred = self._arrays(predictions, references)
        main = self.main_score
        cache: Dict[str, Any] = {}

        def statistic(idx):
            return {main: self.resampled(gold, pred, idx, cache)}

        statistic.arrays = (gold, pred)
        return statistic

    def single_instance_scores(self, predictions, references, task_data, statistic) -> Dict[str, Any]:
        np = _np()
        return {self.main_score: np.full(len(predictions), np.nan)}

    def score(self, predictions, references, task_data) -> MetricScores:
        base = super().score(predictions, references, task_data)
        gold, pred = base.statistic.arrays
        finite = _np().isfinite(gold) & _np().isfinite(pred)
        if self._method is None:
            return _CorrelationScores(base, None, finite)
        from .kernels.correlation import correlation_with_pvalue

        def pvalue(positions):
            return correlation_with_pvalue(gold[positions], pred[positions], self._method)[1]

        return _CorrelationScores(base, pvalue, finite)

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]
                ) -> Dict[str, float]:
        gold, pred = self._arrays(predictions, references)
        return {self.main_score: self.plain(gold, pred)}


class Spearman(_Correlation):
    """Spearman's rho (scipy.stats.spearmanr, average ranks for ties) between references and predictions."""

    main_score = "spearmanr"
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)
    n_resamples: Optional[int] = 100  # the original catalog entry's
    _method = "spearman"

    def resampled(self, gold, pred, idx, cache=None):
        np = _np()
        idx = np.asarray(idx)
        cache = {} if cache is None else cache
        if "codes" not in cache:
            valid = np.isfinite(gold) & np.isfinite(pred)
            cache["codes"] = (valid, _dense_codes(gold, valid), _dense_codes(pred, valid))
        valid, (gold_codes, n_gold), (pred_codes, n_pred) = cache["codes"]
        if not (_counting_fits(n_gold, idx) and _counting_fits(n_pred, idx)):
            from .kernels.correlation import resampled_spearman

            return resampled_spearman(gold, pred, idx)
        from .kernels.correlation import masked_pearson

        return masked_pearson(_resampled_ranks(gold_codes, n_gold, idx), _resampled_ranks(pred_codes, n_pred, idx),
                              valid[idx])

    def plain(self, gold, pred):
        from .kernels.correlation import spearman

        return spearman(gold, pred)


class Pearson(_Correlation):
    """Pearson's r (scipy.stats.pearsonr) between references and predictions.

    A stream merges it by moment sums (`additive_statistics`), each chunk's taken about a round number near its
    means (a key of the sums), so large offsets lose no precision; a side whose centred sum of squares is below 1e-12
    of its raw one (about the shift) counts as constant, r undefined."""

    main_score = "pearsonr"
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)
    n_resamples: Optional[int] = 100  # the original catalog entry's
    _method = "pearson"
    _MOMENTS = ("n", "sx", "sy", "sxx", "syy", "sxy")

    def additive_statistics(self, predictions, references, task_data):
        """Per instance: 1, x, y, x², y², xy of a finite pair about the chunk's shifts (zeros otherwise), and 1 for
        a dropped pair."""
        np = _np()
        gold, pred = self._arrays(predictions, references)
        finite = np.isfinite(gold) & np.isfinite(pred)
        a, b = _round_shift(gold[finite]), _round_shift(pred[finite])
        x, y = np.where(finite, gold - a, 0.0), np.where(finite, pred - b, 0.0)
        keys = [(moment, a, b) for moment in self._MOMENTS] + [("dropped", 0.0, 0.0)]
        rows = np.column_stack([finite, x, y, x * x, y * y, x * y, ~finite]).astype(np.float64)
        return KeyedStatistics(keys, rows)

    def scores_of_totals(self, totals, exact, keys=None):
        np = _np()
        n, sx, sy, sxx, syy, sxy = _moments_about_one_shift(totals, keys)
        with np.errstate(invalid="ignore", divide="ignore"):
            cxx, cyy, cxy = sxx - sx * sx / n, syy - sy * sy / n, sxy - sx * sy / n
            varies = (n >= 2) & (cxx > 1e-12 * sxx) & (cyy > 1e-12 * syy)
            r = np.clip(cxy / np.sqrt(np.where(varies, cxx * cyy, 1.0)), -1.0, 1.0)
        return {self.main_score: np.where(varies, r, np.nan)}

    def details_of_totals(self, vector, keys=None):
        """The two-sided p-value (scipy's exact beta distribution of r), and the dropped pairs when there are any."""
        import math

        from scipy import special

        totals = _np().asarray(vector, dtype=float)[None, :]
        used = float(_moments_about_one_shift(totals, keys)[0][0])
        dropped = int(sum(vector[column] for column, key in enumerate(keys) if key[0] == "dropped"))
        r = float(self.scores_of_totals(totals, True, keys)[self.main_score][0])
        if math.isnan(r):
            p_value = math.nan
        elif used == 2:
            p_value = 1.0
        else:
            half = used / 2 - 1
            p_value = float(min(1.0, 2 * special.betainc(half, half, 0.5 * (1 - abs(r)))))
        name = f"{self.score_prefix}{self.main_score}"
        details: Dict[str, Any] = {f"{name}{self._p_value_suffix}": p_value}
        if dropped:
            from ..logging_utils import get_logger

            details.update({f"{name}_dropped_pairs": dropped, "num_of_instances": int(used)})
            get_logger().warning(f"{type(self).__name__}: {dropped} of {dropped + int(used)} prediction/reference "
                                 "pairs have a NaN or infinite value and were left out of the correlation.")
        return details

    def resampled(self, gold, pred, idx, cache=None):
        from .kernels.correlation import resampled_pearson

        return resampled_pearson(gold, pred, idx)

    def plain(self, gold, pred):
        from .kernels.correlation import pearson

        return pearson(gold, pred)


def _round_shift(values: Any) -> float:
    """A round number near the values' mean, on the scale of their spread: chunks of the same data mostly get the
    same shift (so they share columns), and moments about it keep their precision."""
    np = _np()
    if values.size == 0:
        return 0.0
    mean, spread = float(values.mean()), float(values.std())
    if not spread > 0:
        return mean
    quantum = 10.0 ** np.floor(np.log10(spread))
    return float(np.round(mean / quantum) * quantum)


def _moments_about_one_shift(totals: Any, keys: Any) -> Any:
    """(n, Σx, Σy, Σx², Σy², Σxy) per row of keyed totals, every shift's sums moved to the first shift and added."""
    np = _np()
    column = {key: index for index, key in enumerate(keys)}
    shifts = list(dict.fromkeys((a, b) for moment, a, b in keys if moment == "n"))
    rows = totals.shape[0]
    if not shifts:
        return tuple(np.zeros(rows) for _ in range(6))
    base_a, base_b = shifts[0]
    n, sx, sy, sxx, syy, sxy = (np.zeros(rows) for _ in range(6))
    for a, b in shifts:
        m = {moment: totals[:, column[(moment, a, b)]] for moment in Pearson._MOMENTS}
        dx, dy = a - base_a, b - base_b
        n += m["n"]
        sx += m["sx"] + m["n"] * dx
        sy += m["sy"] + m["n"] * dy
        sxx += m["sxx"] + 2 * dx * m["sx"] + m["n"] * dx * dx
        syy += m["syy"] + 2 * dy * m["sy"] + m["n"] * dy * dy
        sxy += m["sxy"] + dx * m["sy"] + dy * m["sx"] + m["n"] * dx * dy
    return n, sx, sy, sxx, syy, sxy


class KendallTauB(_Correlation):
    """Kendall's tau-b (scipy.stats.kendalltau) between references and predictions; CIs call scipy per resample."""

    main_score = "kendalltau_b"
    _p_value_suffix = "_p_val"  # the original system's key: kendalltau_b_p_val
    _method = "kendall"

    def resampled(self, gold, pred, idx, cache=None):
        np = _np()
        from .kernels.correlation import kendall_tau_b

        return np.asarray([kendall_tau_b(gold[row], pred[row]) for row in np.asarray(idx)], dtype=np.float64)

    def plain(self, gold, pred):
        from .kernels.correlation import kendall_tau_b

        return kendall_tau_b(gold, pred)


class RocAuc(_Correlation):
    """Area under the ROC curve of float prediction scores for 0/1 references (== sklearn roc_auc_score)."""

    main_score = "roc_auc"
    _method = None

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        statistic = super().fast_statistic(predictions, references, task_data)
        np = _np()
        gold = statistic.arrays[0]
        finite = gold[np.isfinite(gold)]
        if not np.all((finite == 0) | (finite == 1)):
            raise MetricError("roc_auc references must be binary (0/1); got "
                              f"{sorted(set(finite.tolist()) - {0.0, 1.0})[:5]}.", artifact=self.artifact_name,
                              field="references")
        return statistic

    def resampled(self, gold, pred, idx, cache=None):
        np = _np()
        idx = np.asarray(idx)
        cache = {} if cache is None else cache
        if "codes" not in cache:
            valid = np.isfinite(gold) & np.isfinite(pred)
            cache["codes"] = (valid, _dense_codes(pred, valid))
        valid, (codes, n_codes) = cache["codes"]
        if not _counting_fits(n_codes, idx):
            from .kernels.correlation import resampled_roc_auc

            return resampled_roc_auc(gold, pred, idx)
        taken_valid = valid[idx]
        positives = taken_valid & (gold[idx] == 1)
        n_pos = positives.sum(axis=1).astype(np.float64)
        n_neg = taken_valid.sum(axis=1) - n_pos
        rank_sum = np.where(positives, _resampled_ranks(codes, n_codes, idx), 0.0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            auc = (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)
        return np.where((n_pos > 0) & (n_neg > 0), auc, np.nan)

    def plain(self, gold, pred):
        from .kernels.correlation import roc_auc

        return roc_auc(gold, pred)
