"""Classification and accuracy-style metrics (numpy/scipy only): accuracy, exact/containment matches, Jaccard,
prediction length, F1 (macro/micro/weighted/binary/multi-label), precision, recall and Matthews correlation."""

import math
from typing import Any, Dict, List, Optional

from ..errors import MetricError
from .base import GlobalMetric, InstanceMetric, KeyedStatistics, Metric, Statistic, keyed_columns
from .map_reduce import InstanceMapHooks
from .scores import ColumnScores
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField


def _first_reference(references: List[List[Any]], metric: Metric) -> List[Any]:
    try:
        return [refs[0] for refs in references]
    except IndexError:  # an instance without references: named below
        pass
    firsts = []
    for index, refs in enumerate(references):
        if len(refs) == 0:
            raise MetricError(f"Instance {index} has no reference.", artifact=metric.artifact_name, field="references")
        firsts.append(refs[0])
    return firsts


def _hashable(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return "__nan__"  # a NaN prediction never equals a class
    if isinstance(value, list):
        return tuple(_hashable(item) for item in value)
    return value


# ---------------------------------------------------------------- accuracy-style instance metrics
class Accuracy(InstanceMetric):
    """1 when the prediction equals one of the references, else 0."""

    main_score = "accuracy"
    ci_scores = ["accuracy"]
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)

    def compute(self, references, prediction, task_data):
        return {"accuracy": float(any(_equal(prediction, reference) for reference in references))}

    def compute_all(self, predictions, references, task_data):
        """One column of 0/1 values (read as dicts on access): a text prediction is compared with `in` (== for
        strings), anything else by `_equal` (a NaN prediction equals nothing)."""
        from .base import ColumnScores

        np = _np()
        column = np.fromiter(
            ((p in refs) if type(p) is str else any(_equal(p, r) for r in refs) for p, refs in zip(predictions, references)),
            dtype=np.float64, count=len(predictions))
        return ColumnScores({"accuracy": column}, len(predictions))


def _equal(prediction: Any, reference: Any) -> bool:
    if isinstance(prediction, float) and math.isnan(prediction):
        return False
    return prediction == reference


class ExactMatchMM(InstanceMetric):
    """Multiple-choice answer match (MMStar style): the lower-cased gold option letter equals the prediction's first
    character, or the character after "(", "option " or "the answer is " at its start (best reference)."""

    main_score = "exact_match_mm"
    ci_scores = ["exact_match_mm"]

    @staticmethod
    def exact_match(pred: str, gt: str) -> float:
        """1.0 when the lower-cased answer letter `gt` is the prediction's first character, or follows "(",
        "option " or "the answer is " at its start (MMStar's rule); the one place instances are judged."""
        return ExactMatchMM.option_match(pred, gt)

    @staticmethod
    def option_match(prediction: str, reference: str) -> float:
        answer = reference.lower().strip().replace("\n", " ")
        predicted = prediction.lower().strip().replace("\n", " ")
        for prefix in ("", "(", "option ", "the answer is "):
            if predicted.startswith(prefix) and len(predicted) > len(prefix) and answer == predicted[len(prefix)]:
                return 1.0
        return 0.0

    def compute(self, references, prediction, task_data):
        return {"exact_match_mm": max((self.exact_match(str(prediction), str(r)) for r in references), default=0.0)}


class StringContainment(InstanceMapHooks, InstanceMetric):
    """1 when some reference occurs in the prediction."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "string_containment"
    ci_scores = ["string_containment"]
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)

    def map(self, prediction, references, task_data):
        from .kernels.text_match import string_containment

        return {"string_containment": string_containment([str(r) for r in references], str(prediction))}


class StringContainmentOld(InstanceMetric):
    """1 when the text of some reference occurs in the text of the prediction: the original's instance-metric form
    of StringContainment (its CIs follow instance metrics; instance scores carry score and score_name)."""

    main_score = "string_containment"
    reduction_map = {"mean": ["string_containment"]}
    ci_scores = ["string_containment"]

    def compute(self, references, prediction, task_data):
        value = float(any(str(reference) in str(prediction) for reference in references))
        return {self.main_score: value, "score": value, "score_name": self.main_score}


class UnsortedListExactMatch(InstanceMetric):
    """1 when the predicted list equals a reference list up to order."""

    main_score = "unsorted_list_exact_match"
    ci_scores = ["unsorted_list_exact_match"]

    def compute(self, references, prediction, task_data):
        try:
            predicted = sorted(map(str, prediction))
        except TypeError:
            return {"unsorted_list_exact_match": 0.0}
        match = any(sorted(map(str, reference)) == predicted for reference in references)
        return {"unsorted_list_exact_match": float(match)}


class JaccardIndex(InstanceMapHooks, InstanceMetric):
    """|pred ∩ ref| / |pred ∪ ref| of the predicted and reference sets (max over references)."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "jaccard_index"
    ci_scores = ["jaccard_index"]
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)

    def map(self, prediction, references, task_data):
        predicted = set(map(str, prediction)) if isinstance(prediction, (list, tuple, set)) else {str(prediction)}
        best = 0.0
        for reference in references:
            gold = set(map(str, reference)) if isinstance(reference, (list, tuple, set)) else {str(reference)}
            union = predicted | gold
            best = max(best, len(predicted & gold) / len(union) if union else 1.0)
        return {"jaccard_index": best}


class PredictionLength(InstanceMetric):
    """Length of the prediction in characters (global: mean). The instance score is a one-item list ([60]), as the
    original system reports it."""

    main_score = "prediction_length"
    ci_scores: Optional[List[str]] = []  # the original reports no CI of the length

    def compute(self, references, prediction, task_data):
        return {"prediction_length": float(len(prediction))}

    def score(self, predictions, references, task_data):
        scores = super().score(predictions, references, task_data)
        scores.instance_scores = [{"prediction_length": [len(prediction)]} for prediction in predictions]
        return scores


# ---------------------------------------------------------------- single-label classification (global, fast CIs)
class _LabelCounts:
    """Label codes of (first reference, prediction) pairs and the counts of the latest resample chunk: the
    classification metrics of one evaluation (f1_micro, f1_macro, precision...) share both."""

    def __init__(self, predictions: List[Any], references: List[List[Any]], metric: Metric):
        from .kernels.classification import _prepare, encode_labels

        gold = _first_reference(references, metric)
        # texts compare by ==, so their codes say which predictions are correct (`_equal`)
        self.all_text = all(type(label) is str for label in gold) and all(type(p) is str for p in predictions)
        if not self.all_text:
            gold = [_hashable(label) for label in gold]
            predictions = [_hashable(prediction) for prediction in predictions]
        encoding = encode_labels(gold, predictions)
        self.correct = encoding.gold == encoding.pred if self.all_text else None
        self.classes = encoding.classes
        self.prepared = _prepare(encoding.gold, encoding.pred, len(encoding.classes), encoding.n_labels)
        # instances with the same (gold, prediction) pair are interchangeable: one jackknife row per pair
        self.keys = encoding.gold.astype("int64") * max(1, encoding.n_labels) + encoding.pred
        self.latest: tuple = (None, False, None)
        self.latest_counted: Any = None

    def counted(self, with_matthews: bool, select: Any) -> Any:
        """The counted form (kernels/counted.py) of a statistic `select(kernel scores, (rows, instances))`."""
        from .kernels.classification import label_scores_of_code_counts, label_code_arrays
        from .kernels.counted import CountedStatistic

        codes, widths = label_code_arrays(self.prepared, with_matthews)

        def scores(counts):
            latest = self.latest_counted  # f1_micro and f1_macro of one resample chunk get the same count arrays
            if latest is not None and len(latest[0]) == len(counts) and all(a is b for a, b in zip(latest[0], counts)):
                computed = latest[1]
            else:
                computed = label_scores_of_code_counts(self.prepared, counts)
                self.latest_counted = (counts, computed)
            return select(computed, (counts[0].shape[0], int(counts[0][0].sum())))

        return CountedStatistic(codes, widths, scores)

    def scores(self, idx: Any, with_matthews: bool) -> Dict[str, Any]:
        from .kernels.classification import _single_label_scores

        latest_idx, latest_matthews, latest_scores = self.latest
        if latest_idx is idx and (latest_matthews or not with_matthews):
            return latest_scores
        scores = _single_label_scores(self.prepared, idx, with_matthews=with_matthews)
        self.latest = (idx, with_matthews, scores)
        return scores


def _label_counts(predictions: List[Any], references: List[List[Any]], metric: Metric) -> _LabelCounts:
    from .base import shared

    return shared(("label_counts", id(predictions), id(references)),
                  lambda: _LabelCounts(predictions, references, metric), keep=(predictions, references))


class LabelIds:
    """The original's label ids of classification metrics: `get_str_id(label)` numbers labels in order of first
    appearance (`str_to_id`, `id_to_str`). A subclass overriding it (say, to merge spellings of a class) has its
    labels scored by the ids it returns, classes named by `id_to_str`."""

    def get_str_id(self, str: Any) -> int:  # noqa: A002 - the original's parameter name
        table = self.__dict__.setdefault("str_to_id", {})
        names = self.__dict__.setdefault("id_to_str", {})
        if str not in table:
            table[str] = len(table)
            names[table[str]] = str
        return table[str]

    def label_ids_overridden(self) -> bool:
        return type(self).get_str_id is not LabelIds.get_str_id

    def original_hooks_overridden(self) -> bool:
        return self.label_ids_overridden()

    def scores_by_label_ids(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> Dict[str, Any]:
        """The metric's global scores with every label replaced by its `get_str_id` (first reference first, then the
        prediction, per instance); per-class scores named by `id_to_str`."""
        self.__dict__["str_to_id"], self.__dict__["id_to_str"] = {}, {}
        gold, predicted = [], []
        for prediction, refs in zip(predictions, _first_reference(references, self)):
            gold.append(self.get_str_id(refs))
            predicted.append(self.get_str_id(prediction))
        return self.scores_of_label_ids(predicted, gold)

    def scores_of_label_ids(self, predicted: List[int], gold: List[int]) -> Dict[str, Any]:
        """The metric's scores of (prediction id, reference id) pairs, per-class scores named by `id_to_str`."""
        np = _np()
        statistic = self.label_statistic(predicted, [[g] for g in gold])
        scores = statistic(np.arange(len(predicted), dtype=np.int64)[None, :])
        names = self.__dict__.get("id_to_str", {})
        result = {}
        for name, values in scores.items():
            head, _, tail = name.rpartition("_")
            if head and tail.isdigit() and int(tail) in names and name != self.main_score:
                name = f"{head}_{names[int(tail)]}"
            result[name] = float(np.asarray(values)[0])
        return result


class LabelPairMetric(LabelIds, GlobalMetric):
    """Scores computed from the (first reference, prediction) label pairs alone, by the classification kernel: the
    metrics of one evaluation share the label codes and resample counts, and a stream merges its pairs' counts
    chunk by chunk (metrics/accumulators.py). Subclasses pick their scores from the kernel's with
    `select_label_scores`."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    def needs_matthews(self) -> bool:
        return False

    def select_label_scores(self, scores: Dict[str, Any], classes: List[Any], whole: bool) -> Dict[str, Any]:
        """This metric's scores from the kernel's ({name: values per resample}); `whole` when the scores cover every
        instance scored (per-class scores are reported then)."""
        raise NotImplementedError(f"{type(self).__name__}.select_label_scores(scores, classes, whole)")

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Any]) -> Dict[str, Any]:
        """The global scores of these instances, labels numbered by `get_str_id` (the path of a metric that
        overrides it)."""
        return self.scores_by_label_ids(predictions, references, task_data)

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        if self.label_ids_overridden():
            return None  # scored per resample through compute, with the subclass's label ids
        return self.label_statistic(predictions, references)

    def label_statistic(self, predictions: List[Any], references: List[List[Any]]) -> Statistic:
        """The vectorised statistic of the (first reference, prediction) label pairs."""
        labels = _label_counts(predictions, references, self)
        full_n = len(predictions)
        with_matthews = self.needs_matthews()

        def statistic(idx):
            scores = labels.scores(idx, with_matthews=with_matthews)
            return self.select_label_scores(scores, labels.classes, idx.shape == (1, full_n))

        statistic.jackknife_keys = labels.keys
        statistic.counted = labels.counted(
            with_matthews, lambda scores, rows: self.select_label_scores(scores, labels.classes, rows == (1, full_n)))
        return statistic

    def reports_instance_class(self) -> bool:
        """Whether an instance reports f1_<its reference class> (the original's macro F1 of an instance alone)."""
        return False

    def score(self, predictions, references, task_data):
        scores = super().score(predictions, references, task_data)
        if self.reports_instance_class() and isinstance(scores.instance_scores, ColumnScores):
            names = [f"f1_{label}" for label in _first_reference(references, self)]
            scores.instance_scores.copies = (self.main_score, names)
        return scores

    def single_instance_scores(self, predictions, references, task_data, statistic):
        np = _np()
        correct = _label_counts(predictions, references, self).correct
        if correct is not None:
            return {self.main_score: correct.astype(np.float64)}
        gold = _first_reference(references, self)
        correct = np.asarray([_equal(p, g) for p, g in zip(predictions, gold)], dtype=np.float64)
        return {self.main_score: correct}


class F1(LabelPairMetric):
    """F1 family over the classes seen in the references (predictions outside them count as wrong).

    Reports `main_score` plus f1_<class> per class (for the micro/macro variants), using per-instance label codes
    so bootstrap resamples are scored with bincounts.
    """

    main_score = "f1_macro"
    average: str = "macro"
    report_per_class: bool = True
    ci_scores = None
    prediction_type = str  # as in the original: one class name per instance
    single_reference_per_prediction = True

    def select_label_scores(self, scores, classes, whole):
        result = {self.main_score: scores[self._kernel_name()]}
        if self.report_per_class and whole:
            per_class = scores["f1_per_class"]
            for position, label in enumerate(classes):
                result[f"f1_{label}"] = per_class[:, position]
        return result

    def _kernel_name(self) -> str:
        return {"micro": "f1_micro", "macro": "f1_macro", "weighted": "f1_weighted"}[self.average]

    def reports_instance_class(self) -> bool:
        return self.report_per_class and self.average == "macro"


# F1Macro/F1Micro are the original's GlobalMetric classes (CIs: settings.num_resamples_for_global_metrics
# resamples); the catalog's metrics.f1_macro / metrics.f1_micro are F1Fast, its map-reduce form, as in the original
class F1Macro(F1):
    main_score = "f1_macro"
    average = "macro"


class F1Micro(F1):
    main_score = "f1_micro"
    average = "micro"
    report_per_class = False


class F1Weighted(F1):
    main_score = "f1_weighted"
    average = "weighted"
    report_per_class = False


class ClassificationScore(LabelPairMetric):
    """One score of the classification kernel (precision/recall micro/macro/weighted, in_classes_support, ...)."""

    main_score = "precision_macro"

    def needs_matthews(self) -> bool:
        return self.main_score == "matthews_correlation"

    def select_label_scores(self, scores, classes, whole):
        return {self.main_score: scores[self.main_score]}

    def single_instance_scores(self, predictions, references, task_data, statistic):
        if self.needs_matthews():
            return GlobalMetric.single_instance_scores(self, predictions, references, task_data, statistic)
        return super().single_instance_scores(predictions, references, task_data, statistic)


class PrecisionMacro(ClassificationScore):
    main_score = "precision_macro"


class PrecisionMicro(ClassificationScore):
    main_score = "precision_micro"


class RecallMacro(ClassificationScore):
    main_score = "recall_macro"


class RecallMicro(ClassificationScore):
    main_score = "recall_micro"


class MatthewsCorrelation(ClassificationScore):

    hf_additional_input_fields: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_additional_input_fields_pass_one_value: Any = InertField(
        default=None, reason='computed here without the HF `evaluate` metric')
    hf_compute_args: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_main_score: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_metric_name: Any = InertField(
        default='matthews_correlation', reason='computed here without the HF `evaluate` metric')
    scale: Any = InertField(default=1.0, reason='computed here without the HF `evaluate` metric')
    scaled_fields: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    main_score = "matthews_correlation"


class F1Binary(GlobalMetric):
    """Binary F1 of the positive class (predictions and references are 0/1 or booleans; above the threshold is
    positive, as the original's `p > threshold`: a prediction of exactly 0.5 is negative),
    with precision and recall, and the same three for the negative class (`*_neg` keys). As in the original system,
    a single instance has no F1 (instance scores are NaN); unlike it, `score_ci_*` is the positive class's interval
    (the original system reports the negative class's there)."""

    main_score = "f1_binary"
    pos_label: Any = 1
    threshold: float = 0.5
    prediction_type = "Union[float, int, bool]"
    ci_scores = ["f1_binary", "precision_binary", "recall_binary"]

    def _binary(self, value: Any) -> int:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, (int, float)):
            return int(not math.isnan(value) and value > self.threshold)
        return int(value == self.pos_label)

    def additive_statistics(self, predictions, references, task_data):
        """Per instance: true positive, false positive, false negative of the positive, then the negative class."""
        np = _np()
        gold = np.asarray([self._binary(reference) for reference in _first_reference(references, self)], dtype=np.int64)
        pred = np.asarray([self._binary(prediction) for prediction in predictions], dtype=np.int64)
        columns = []
        for g, p in ((gold, pred), (1 - gold, 1 - pred)):
            columns += [g & p, (1 - g) & p, g & (1 - p)]
        return np.column_stack(columns) if len(gold) else np.zeros((0, 6), dtype=np.int64)

    def scores_of_totals(self, totals, exact, keys=None):
        np = _np()
        totals = np.asarray(totals, dtype=np.float64)
        result = {}
        for offset, suffix in ((0, ""), (3, "_neg")):
            t, f_p, f_n = totals[:, offset], totals[:, offset + 1], totals[:, offset + 2]
            with np.errstate(divide="ignore", invalid="ignore"):
                precision = np.where(t + f_p > 0, t / np.maximum(t + f_p, 1e-300), 0.0)
                recall = np.where(t + f_n > 0, t / np.maximum(t + f_n, 1e-300), 0.0)
                # as sklearn: 2 tp / (gold positives + predicted positives), bit for bit (CI ties depend on it)
                both = (t + f_n) + (t + f_p)
                f1 = np.where(both > 0, 2 * t / np.maximum(both, 1e-300), 0.0)
            result.update({f"f1_binary{suffix}": f1, f"precision_binary{suffix}": precision,
                           f"recall_binary{suffix}": recall})
        return result

    def fast_statistic(self, predictions, references, task_data):
        from .kernels.bootstrap import resampled_sums

        counts = self.additive_statistics(predictions, references, task_data)
        return lambda idx: self.scores_of_totals(resampled_sums(counts, idx), exact=idx.shape[0] == 1)

    def single_instance_scores(self, predictions, references, task_data, statistic):
        return {self.main_score: _np().full(len(predictions), math.nan)}


class F1MultiLabel(GlobalMetric):
    """Multi-label F1 (micro or macro) over lists of class names; classes are those seen in the references. The
    macro average also reports each class's F1 (`f1_<class>`: globally, and per instance for the classes in the
    instance's references), as the original system does."""

    main_score = "f1_macro"
    average: str = "macro"
    prediction_type = "List[str]"
    single_reference_per_prediction = True  # one list of class names per instance

    def fast_statistic(self, predictions, references, task_data):
        from .kernels.classification import encode_multilabel, multilabel_resampler

        encoding = encode_multilabel(_first_reference(references, self), predictions)
        resampler = multilabel_resampler(encoding, per_class=self.average == "macro")
        key = f"f1_{self.average}"
        main = self.main_score
        per_class = [(f"f1_{label}", column) for column, label in enumerate(encoding.classes)]

        def statistic(idx):
            scores = resampler(idx)
            result = {main: scores[key] if per_class else _np().full(len(idx), math.nan)}  # no class: undefined
            if self.average == "macro":
                result.update((name, scores["f1_per_class"][:, column]) for name, column in per_class)
            return result

        return statistic

    def score_family(self) -> str:
        """The kernel's score this metric averages (f1, precision or recall)."""
        return "f1"

    def reports_per_class(self) -> bool:
        """Does the global score list each class's value (the original's per-class average, F1 macro only)?"""
        return self.average == "macro"

    def additive_statistics(self, predictions, references, task_data):
        """Per instance and label: in the references ("gold"), predicted ("pred"), both ("hit")."""
        from .kernels.classification import _label_set, _sorted_distinct

        np = _np()
        column: Dict[Any, int] = {}
        cells: List[Any] = []
        for row, (gold, prediction) in enumerate(zip(_first_reference(references, self), predictions)):
            gold_set, predicted = _label_set(gold, "references", row), _label_set(prediction, "predictions", row)
            for part, labels in (("gold", gold_set), ("pred", predicted), ("hit", gold_set & predicted)):
                for label in _sorted_distinct(labels, part):  # sorted: the same columns in every process
                    cells.append((row, column.setdefault((part, label), len(column))))
        rows = np.zeros((len(predictions), len(column)), dtype=np.int64)
        if cells:
            positions = np.asarray(cells, dtype=np.int64)
            np.add.at(rows, (positions[:, 0], positions[:, 1]), 1)
        return KeyedStatistics(list(column), rows)

    def scores_of_totals(self, totals, exact, keys=None):
        from .kernels.classification import _sorted_distinct, scores_from_counts

        classes = _sorted_distinct([label for part, label in keys if part == "gold"], "references")
        tp, support, predicted = (keyed_columns(totals, keys, part, classes) for part in ("hit", "gold", "pred"))
        scores = scores_from_counts(tp, support, predicted)
        family = self.score_family()
        # no class in any reference: the score is undefined (NaN), as in the original
        main = scores[f"{family}_{self.average}"] if classes else _np().full(totals.shape[0], math.nan)
        result = {self.main_score: main}
        if self.reports_per_class():
            per_class = scores[f"{family}_per_class"]
            result.update((f"{family}_{label}", per_class[:, column]) for column, label in enumerate(classes))
        return result

    def score(self, predictions, references, task_data):
        """Global scores over all instances; an instance is scored alone, over the classes of its own references."""
        from .kernels.classification import multilabel_scores

        scores = super().score(predictions, references, task_data)
        key = f"f1_{self.average}"
        for index, (prediction, gold) in enumerate(zip(predictions, _first_reference(references, self))):
            # no class in the references: F1 is undefined (NaN), as in the original
            alone = multilabel_scores([gold], [prediction]) if gold else {key: math.nan, "f1_per_class": {}}
            instance = {self.main_score: alone[key]}
            if self.average == "macro":
                instance.update((f"f1_{label}", value) for label, value in alone["f1_per_class"].items())
            scores.instance_scores[index] = instance
        return scores


class F1MicroMultiLabel(F1MultiLabel):
    main_score = "f1_micro"
    average = "micro"


class F1MacroMultiLabel(F1MultiLabel):
    main_score = "f1_macro"
    average = "macro"
