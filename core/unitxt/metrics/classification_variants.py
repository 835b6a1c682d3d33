"""More classification and regression metrics under the original catalog's type names (numpy/scipy only).

Binary accuracy/max-F1/max-accuracy, precision/recall of the positive class, multi-label precision/recall (micro and
macro), the "fast" accuracy/F1 variants, squared errors and the correlation aliases (spearmanr, pearsonr,
kendall_tau_metric), plus the documentation's SumAccuracy example. Scores are computed once per instance (or as
per-instance counts) and resampled with numpy, like the base classification metrics.
"""

import math
from typing import Any, Dict, List, Optional

from ..errors import MetricError
from .base import GlobalMetric, InstanceMetric
from .classification import F1, Accuracy, F1Binary, F1MultiLabel, _first_reference
from .correlation import KendallTauB, Pearson, Spearman
from .map_reduce import ConfidenceIntervalMixin, InstanceMapHooks, MapReduceMetric, MapReduceOverrides, MapReduceScores
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField


# ---------------------------------------------------------------- "fast" variants
class AccuracyFast(Accuracy):
    """Accuracy (share of predictions equal to a reference), the original system's map-reduce variant."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    reference_field: str = "references"
    prediction_field: str = "prediction"

    def map(self, prediction: Any, references: List[Any], task_data: Dict[str, Any]) -> Dict[str, float]:
        """1.0 when the prediction's text equals a reference's text (the original's map-reduce accuracy)."""
        return {self.main_score: float(str(prediction) in [str(reference) for reference in references])}

    def compute_all(self, predictions, references, task_data):
        """Texts against texts: Accuracy's vectorised column (the same values); anything else through `map`, as
        does any instance when a subclass overrides map, map_stream or reduce_one."""
        hooks_as_here = all(getattr(type(self), name) is getattr(AccuracyFast, name)
                            for name in ("map", "map_stream", "reduce_one"))
        if hooks_as_here and all(type(p) is str for p in predictions) and all(
                type(r) is str for refs in references for r in refs):
            return super().compute_all(predictions, references, task_data)
        return InstanceMapHooks.compute_all(self, predictions, references, task_data)

    map_stream = InstanceMapHooks.map_stream
    reduce_one = InstanceMapHooks.reduce_one


class F1Fast(F1):
    """Single-label F1 reporting `f1` (macro), `f1_micro`, `f1_macro` and `f1_<class>` (as chosen by `averages`)
    over the classes seen in the references."""

    main_score = "f1"
    prediction_type = Any  # the original's map-reduce F1 checks no types and takes the first reference
    single_reference_per_prediction = False
    ci_style = "map_reduce"  # the original's MapReduceMetric: 1000 resamples by default (metrics/intervals.py)
    averages: List[str] = ["f1", "micro", "macro", "per_class"]
    ignore_punc: bool = True
    ignore_case: bool = True
    reference_field: str = "references"
    prediction_field: str = "prediction"
    ci_score_names: Optional[List[str]] = None  # the original catalog format's name for ci_scores

    def resolved_ci_scores(self) -> List[str]:
        return list(self.ci_score_names) if self.ci_score_names is not None else super().resolved_ci_scores()

    def map_stream(self, evaluation_inputs: Any) -> List[Any]:
        """(prediction id, reference id) of every instance, ids numbered afresh (`get_str_id`)."""
        self.__dict__["str_to_id"], self.__dict__["id_to_str"] = {}, {}
        return [self.map(prediction=prediction, references=references, task_data=task_data)
                for prediction, references, task_data in evaluation_inputs]

    def map(self, prediction: Any, references: List[Any], task_data: Dict[str, Any]) -> Any:
        reference_id = self.get_str_id(references[0])
        return self.get_str_id(prediction), reference_id

    def reduce(self, intermediates: List[Any]) -> Dict[str, Any]:
        """The scores of (prediction id, reference id) pairs over the reference classes."""
        return self.scores_of_label_ids([pair[0] for pair in intermediates], [pair[1] for pair in intermediates])

    def reduce_one(self, intermediate: Any) -> Dict[str, Any]:
        return self.reduce([intermediate])

    # when a subclass overrides a map-reduce hook, its scores come through them as a map-reduce metric's would
    annotate_scores = MapReduceMetric.annotate_scores
    reduce_and_bootstrap = MapReduceMetric.reduce_and_bootstrap
    bootstrap = ConfidenceIntervalMixin.bootstrap

    def _sample_to_scores(self, sample: List[Any]) -> Dict[str, Any]:
        return self.reduce(sample)

    def original_hooks_overridden(self) -> bool:
        return not all(getattr(type(self), name) is getattr(F1Fast, name)
                       for name in ("map", "map_stream", "reduce", "reduce_one", "get_str_id"))

    def score(self, predictions, references, task_data):
        if not self.original_hooks_overridden():
            return super().score(predictions, references, task_data)  # the vectorised path, same scores
        intermediates = self.map_stream(zip(predictions, references, task_data))
        return MapReduceScores(self, intermediates, [self.reduce_one(item) for item in intermediates])

    def reports_instance_class(self) -> bool:
        return "per_class" in self.averages

    def select_label_scores(self, scores, classes, whole):
        averages = list(self.averages)
        result = {}
        if "f1" in averages or self.main_score == "f1":
            result["f1"] = scores["f1_macro"]
        if "micro" in averages:
            result["f1_micro"] = scores["f1_micro"]
        if "macro" in averages:
            result["f1_macro"] = scores["f1_macro"]
        if "per_class" in averages and whole:
            for position, label in enumerate(classes):
                result[f"f1_{label}"] = scores["f1_per_class"][:, position]
        return result


# ---------------------------------------------------------------- binary
def _binary_value(value: Any, threshold: float, metric: Any, what: str) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
        return int(value > threshold)
    if isinstance(value, float):
        return 0
    raise MetricError(f"{type(metric).__name__} expects numeric {what}s (0/1 or a score), got {value!r}.",
                      artifact=metric.artifact_name, field=what)


class PrecisionBinary(F1Binary):
    """Precision of the positive class (with recall and F1 of both classes, as F1Binary reports them)."""

    main_score = "precision_binary"
    metric: str = "precision"
    ci_scores = ["precision_binary", "recall_binary", "f1_binary"]


class RecallBinary(F1Binary):
    """Recall of the positive class (with precision and F1 of both classes)."""

    main_score = "recall_binary"
    metric: str = "recall"
    ci_scores = ["recall_binary", "precision_binary", "f1_binary"]


class F1BinaryPosOnly(F1Binary):
    """F1, precision and recall of the positive class only (F1Binary without the `*_neg` scores)."""

    ci_scores = ["f1_binary"]

    def scores_of_totals(self, totals, exact, keys=None):
        return {name: values for name, values in super().scores_of_totals(totals, exact, keys).items()
                if not name.endswith("_neg")}


class MaxAccuracy(Accuracy):
    """Accuracy per instance; the global score is the best instance's (reduction "max")."""

    reduction_map = {"max": ["accuracy"]}


class BinaryAccuracy(InstanceMetric):
    """1 when the prediction, thresholded (> threshold is positive), equals the 0/1 reference."""

    main_score = "accuracy_binary"
    ci_scores = ["accuracy_binary"]
    threshold: float = 0.5
    prediction_type = "Union[float, int, bool]"
    single_reference_per_prediction = True

    def compute(self, references, prediction, task_data):
        gold = _binary_value(references[0], 0.5, self, "reference")
        return {self.main_score: float(_binary_value(prediction, self.threshold, self, "prediction") == gold)}


def _binary_gold(metric: Any, references: List[List[Any]]) -> Any:
    np = _np()
    gold = []
    for value in _first_reference(references, metric):
        if value not in (0, 1) or isinstance(value, float) and math.isnan(value):
            raise MetricError(f"{type(metric).__name__} references must be 0 or 1, got {value!r}.",
                              artifact=metric.artifact_name, field="references")
        gold.append(int(value))
    return np.asarray(gold, dtype=np.int64)


class _BinaryGoldCheck:
    """Mixin: references must be 0/1, checked when the metric is evaluated (not lazily at scoring)."""

    def check_inputs(self, predictions, references, task_data) -> None:
        super().check_inputs(predictions, references, task_data)
        _binary_gold(self, references)


def best_accuracy_threshold(gold: Any, scores: Any) -> Dict[str, float]:
    """Highest accuracy of `scores >= t` against 0/1 gold over every threshold t, and the smallest such t
    (a prediction value, or just above the largest one when predicting all-negative is best)."""
    np = _np()
    n = len(gold)
    order = np.argsort(scores, kind="stable")
    sorted_scores, sorted_gold = scores[order], gold[order]
    distinct, first = np.unique(sorted_scores, return_index=True)
    # threshold = distinct[j]: instances at positions >= first[j] are predicted positive
    negatives_below = np.concatenate([[0], np.cumsum(1 - sorted_gold)])
    positives_below = np.concatenate([[0], np.cumsum(sorted_gold)])
    total_pos = int(sorted_gold.sum())
    correct = negatives_below[first] + (total_pos - positives_below[first])
    all_negative = n - total_pos
    best = int(np.argmax(correct))
    best_correct, best_threshold = int(correct[best]), float(distinct[best])
    if all_negative > best_correct:
        best_correct = all_negative
        best_threshold = 1.0 if distinct[-1] < 1 else float(distinct[-1]) + 0.01
    return {"max_accuracy_binary": best_correct / n, "best_thr_max_acc": best_threshold}


class BinaryMaxAccuracy(_BinaryGoldCheck, GlobalMetric):
    """Best accuracy over all decision thresholds of float predictions (>= threshold is positive), and the threshold.

    No instance scores (one instance has no meaningful best threshold); CIs rescore resamples."""

    main_score = "max_accuracy_binary"
    prediction_type = "Union[float, int, bool]"
    single_reference_per_prediction = True
    process_single_instances = False

    def compute(self, references, predictions, task_data):
        np = _np()
        gold = _binary_gold(self, references)
        scores = np.asarray([float(p) for p in predictions], dtype=np.float64)
        return best_accuracy_threshold(gold, np.nan_to_num(scores, nan=-np.inf))


def _first_best(values: Any, thresholds: Any, set_order: List[float]) -> int:
    """Position of the best value; among ties, the threshold the original meets first (it scans a Python set of
    the rounded predictions, whose iteration order is deterministic)."""
    np = _np()
    ties = np.flatnonzero(values == values.max())
    if ties.size == 1:
        return int(ties[0])
    rank = {value: position for position, value in enumerate(set_order)}
    return int(min(ties, key=lambda tie: rank.get(float(thresholds[tie]), len(rank))))


def best_f1_thresholds(gold: Any, scores: Any) -> Dict[str, float]:
    """For thresholds t among the predictions (rounded to 3 decimals), `scores >= t` as positive: the best F1 of the
    positive class and of the negative class (first best in increasing t), their thresholds, and precision/recall
    at each best point. Vectorised over thresholds with sorted scores (O(n log n))."""
    np = _np()
    finite = np.isfinite(scores)
    thresholds = np.unique(np.asarray([round(float(value), 3) for value in scores[finite]], dtype=np.float64))
    empty = {"max_f1_binary": -1.0, "best_thr_maxf1": -1.0, "max_f1_binary_neg": -1.0, "best_thr_maxf1_neg": -1.0,
             "recall_at_max_f1": 0.0, "recall_at_max_f1_neg": 0.0, "precision_at_max_f1": 0.0,
             "precision_at_max_f1_neg": 0.0}
    if thresholds.size == 0:
        return empty
    ranked = np.where(finite, scores, -np.inf)
    set_order = [value for value in {round(float(value), 3) for value in scores[finite]}]
    positives, negatives = np.sort(ranked[gold == 1]), np.sort(ranked[gold == 0])
    tp = positives.size - np.searchsorted(positives, thresholds, side="left")  # positives scored >= t
    fp = negatives.size - np.searchsorted(negatives, thresholds, side="left")
    fn = positives.size - tp
    tn = negatives.size - fp

    def prf(t_p, f_p, f_n):
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(t_p + f_p > 0, t_p / np.maximum(t_p + f_p, 1), 0.0)
            recall = np.where(t_p + f_n > 0, t_p / np.maximum(t_p + f_n, 1), 0.0)
            both = (t_p + f_n) + (t_p + f_p)  # as sklearn: 2 tp / (gold + predicted positives), bit for bit
            f1 = np.where(both > 0, 2 * t_p / np.maximum(both, 1), 0.0)
        return precision, recall, f1

    result = {}
    for suffix, (t_p, f_p, f_n) in (("", (tp, fp, fn)), ("_neg", (tn, fn, fp))):
        precision, recall, f1 = prf(t_p, f_p, f_n)
        best = _first_best(f1, thresholds, set_order)
        result[f"max_f1_binary{suffix}"] = float(f1[best])
        result[f"best_thr_maxf1{suffix}"] = float(thresholds[best])
        result[f"recall_at_max_f1{suffix}"] = float(recall[best])
        result[f"precision_at_max_f1{suffix}"] = float(precision[best])
    return {key: result[key] for key in empty}


class BinaryMaxF1(_BinaryGoldCheck, GlobalMetric):
    """Best F1 of the positive (and of the negative) class over the decision thresholds of float predictions."""

    main_score = "max_f1_binary"
    prediction_type = "Union[float, int, bool]"
    single_reference_per_prediction = True
    process_single_instances = False
    ci_scores = ["max_f1_binary", "max_f1_binary_neg"]

    def compute(self, references, predictions, task_data):
        np = _np()
        gold = _binary_gold(self, references)
        return best_f1_thresholds(gold, np.asarray([float(p) for p in predictions], dtype=np.float64))


# ---------------------------------------------------------------- multi-label precision / recall
class _MultiLabelScore(F1MultiLabel):
    """One precision/recall average of multi-label predictions (lists of class names) over the reference classes."""

    __abstract__ = True
    metric: str = "precision"

    def score_family(self) -> str:
        return self.metric

    def reports_per_class(self) -> bool:
        return False  # the original's precision/recall averages are one number (no <metric>_<class> scores)

    def fast_statistic(self, predictions, references, task_data):
        from .kernels.classification import encode_multilabel, multilabel_resampler

        encoding = encode_multilabel(_first_reference(references, self), predictions)
        resampler = multilabel_resampler(encoding, per_class=self.average == "macro")
        key, main = f"{self.metric}_{self.average}", self.main_score
        has_classes = bool(encoding.classes)

        def statistic(idx):
            scores = resampler(idx)
            return {main: scores[key] if has_classes else _np().full(len(idx), math.nan)}  # no class: undefined

        return statistic

    def score(self, predictions, references, task_data):
        from .kernels.classification import multilabel_scores

        scores = GlobalMetric.score(self, predictions, references, task_data)
        key = f"{self.metric}_{self.average}"
        for index, (prediction, gold) in enumerate(zip(predictions, _first_reference(references, self))):
            alone = multilabel_scores([gold], [prediction]) if gold else {key: math.nan}  # no class: undefined
            scores.instance_scores[index] = {self.main_score: float(alone[key])}
        return scores


class PrecisionMacroMultiLabel(_MultiLabelScore):
    main_score = "precision_macro"
    metric = "precision"
    average = "macro"


class PrecisionMicroMultiLabel(_MultiLabelScore):
    main_score = "precision_micro"
    metric = "precision"
    average = "micro"


class RecallMacroMultiLabel(_MultiLabelScore):
    main_score = "recall_macro"
    metric = "recall"
    average = "macro"


class RecallMicroMultiLabel(_MultiLabelScore):
    main_score = "recall_micro"
    metric = "recall"
    average = "micro"


# ---------------------------------------------------------------- regression
class MeanSquaredError(MapReduceOverrides, GlobalMetric):
    """Mean of (reference - prediction)^2 over the instances (NaN squared errors ignored)."""

    main_score = "mean_squared_error"
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)
    prediction_type = float
    single_reference_per_prediction = True
    reference_field: str = "references"
    prediction_field: str = "prediction"

    def _squared_errors(self, predictions, references):
        np = _np()
        gold = np.asarray([float(r[0]) for r in references], dtype=np.float64)
        return (gold - np.asarray([float(p) for p in predictions], dtype=np.float64)) ** 2

    def _finish(self, mean: Any) -> Any:
        return mean

    def map(self, prediction: float, references: List[float], task_data: Dict[str, Any]) -> float:
        """The squared error of one instance."""
        return (references[0] - prediction) ** 2

    def reduce(self, intermediates: List[float]) -> Dict[str, Any]:
        """The score of squared errors (NaN ones ignored)."""
        values = _np().asarray(intermediates, dtype=_np().float64)
        present = values[~_np().isnan(values)]
        return {self.main_score: float(self._finish(present.mean())) if present.size else math.nan}

    def fast_statistic(self, predictions, references, task_data):
        from .kernels.bootstrap import resampled_mean

        errors = self._squared_errors(predictions, references)
        main = self.main_score

        def statistic(idx):
            return {main: self._finish(resampled_mean(errors, idx))}

        return statistic

    def additive_statistics(self, predictions, references, task_data):
        np = _np()
        errors = self._squared_errors(predictions, references)
        seen = ~np.isnan(errors)
        return np.column_stack([np.where(seen, errors, 0.0), seen.astype(np.float64)])

    def scores_of_totals(self, totals, exact, keys=None):
        np = _np()
        with np.errstate(divide="ignore", invalid="ignore"):
            means = np.where(totals[:, 1] > 0, totals[:, 0] / np.maximum(totals[:, 1], 1.0), np.nan)
        return {self.main_score: self._finish(means)}


class RootMeanSquaredError(MeanSquaredError):
    """Square root of the mean squared error."""

    main_score = "root_mean_squared_error"

    def _finish(self, mean: Any) -> Any:
        return _np().sqrt(mean)

    def reduce(self, intermediates: List[float]) -> Dict[str, Any]:
        """The square root of the mean squared error (NaN errors ignored)."""
        return super().reduce(intermediates)


MeanSquaredError.map_reduce_home = MeanSquaredError
RootMeanSquaredError.map_reduce_home = RootMeanSquaredError


class Spearmanr(Spearman):
    """Spearman's rho under the original map-reduce type name (same scores as `spearman`)."""

    ci_score_names: Optional[List[str]] = None
    reference_field: str = "references"
    prediction_field: str = "prediction"

    def get_correlation_func(self) -> Any:
        """The original's hook: the correlation function (scipy's spearmanr)."""
        from scipy.stats import spearmanr

        return spearmanr


class Pearsonr(Pearson):
    """Pearson's r under the original map-reduce type name (same scores as `pearson`)."""

    ci_score_names: Optional[List[str]] = None
    reference_field: str = "references"
    prediction_field: str = "prediction"

    def get_correlation_func(self) -> Any:
        """The original's hook: the correlation function (scipy's pearsonr)."""
        from scipy.stats import pearsonr

        return pearsonr


class KendallTauMetric(KendallTauB):
    """Kendall's tau (variant "b", as scipy's default) with its p-value (`kendalltau_b_p_val`)."""

    variant: str = "b"

    def verify(self) -> None:
        super().verify()
        if self.variant != "b":
            raise MetricError(f"KendallTauMetric supports variant 'b' only (tau-b, scipy's default), got "
                              f"{self.variant!r}.", artifact=self.artifact_name, field="variant")


# ---------------------------------------------------------------- documentation example
class SumAccuracy(InstanceMetric):
    """The metrics tutorial's example: 1 when the predicted integer is within `relative_tolerance` of
    task_data num1 + num2."""

    main_score = "sum_accuracy"
    reduction_map = {"mean": ["sum_accuracy"]}
    ci_scores = ["sum_accuracy"]
    prediction_type = int
    relative_tolerance: float = 0.0

    def compute(self, references, prediction, task_data):
        for field in ("num1", "num2"):
            if field not in task_data:
                raise MetricError(f"SumAccuracy needs task_data field '{field}'; got {sorted(task_data)}.",
                                  artifact=self.artifact_name, field="task_data")
        actual = task_data["num1"] + task_data["num2"]
        close = math.isclose(actual, prediction, rel_tol=self.relative_tolerance)
        return {self.main_score: 1.0 if close else 0.0}

