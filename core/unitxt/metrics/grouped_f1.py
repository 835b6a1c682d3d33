"""Grouped F1 metrics with approximate matching: fuzzy_ner, metric_based_ner and kpa (key point analysis).

Elements (entity (text, type) pairs, or KPA's key points) are grouped (by entity type / key point). Per instance and
group, precision counts (matched predictions, predictions) and recall counts (matched references, references) are
computed once; global scores and bootstrap resamples re-sum them. Groups seen in the references are scored
(f1_<group>, macro averages); predicted groups absent from the references only lower precision
(`in_classes_support` is the share of predictions in reference groups). Zero denominators give `zero_division`.
"""

import ast
import difflib
import inspect
import math
from collections import Counter
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import MetricError
from .base import GlobalMetric, Metric, Statistic
from .scores import ColumnScores
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField


Element = Tuple[str, str]


def _grouped(elements: List[Element]) -> Dict[str, Counter]:
    groups: Dict[str, Counter] = {}
    for text, group in elements:
        groups.setdefault(group, Counter())[text] += 1
    return groups


def exact_ratio(actual: Counter, total: Counter, matcher: Optional[Callable] = None) -> Tuple[int, int]:
    """(matched, size) of `actual`: each distinct element matches up to its count in `total`."""
    if matcher is None:
        return sum(min(count, total[key]) for key, count in actual.items()), sum(actual.values())
    matched = 0
    for key, count in actual.items():
        best = matcher(key, list(total))
        matched += min(count, total[best]) if best is not None else 0
    return matched, sum(actual.values())


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def fuzzy_ratio(a: str, b: str) -> int:
    """fuzz.ratio: round(100 * similarity) of difflib's SequenceMatcher (fuzzywuzzy's pure-Python ratio)."""
    return int(round(100 * difflib.SequenceMatcher(None, a, b).ratio()))


class _GroupedF1(GlobalMetric):
    """Base of the grouped F1 family (see the module docstring); subclasses say what the elements are."""

    __abstract__ = True
    main_score = "f1_micro"
    single_reference_per_prediction = True
    zero_division: float = 0.0
    report_per_group_scores: bool = True
    groups: Optional[List[str]] = None
    ci_scores = ["f1_micro"]  # as the original's CustomF1: the main score's CI only

    def elements(self, value: Any, task_data: Dict[str, Any]) -> List[Element]:
        raise NotImplementedError(f"{type(self).__name__}.elements() is not implemented")

    def matcher(self, groups_of_instances: List[Tuple[Dict[str, Counter], Dict[str, Counter]]]):
        """A function (key, candidate keys) -> best candidate or None; None means exact matching."""
        return None

    def group_ratio(self, actual: Counter, total: Counter, matcher: Optional[Callable]) -> Tuple[int, int]:
        """(matched, size) of one group's `actual` elements against the `total` ones."""
        return exact_ratio(actual, total, matcher)

    def _counts(self, predictions, references, task_data):
        np = _np()
        grouped = [(_grouped(self.elements(refs[0], data)), _grouped(self.elements(pred, data)))
                   for pred, refs, data in zip(predictions, references, task_data)]
        matcher = self.matcher(grouped)
        names = sorted({g for gold, pred in grouped for g in list(gold) + list(pred)}, key=str)
        column = {name: i for i, name in enumerate(names)}
        counts = np.zeros((len(grouped), len(names), 4), dtype=np.float64)  # pn, pd, rn, rd
        for row, (gold, pred) in enumerate(grouped):
            for group in set(gold) | set(pred):
                gold_group, pred_group = gold.get(group, Counter()), pred.get(group, Counter())
                pn, pd = self.group_ratio(pred_group, gold_group, matcher)
                rn, rd = self.group_ratio(gold_group, pred_group, matcher)
                counts[row, column[group]] = (pn, pd, rn, rd)
        return names, counts

    def _scores(self, sums: Any, names: List[str], per_group: bool) -> Dict[str, Any]:
        """Scores of summed counts (r, G, 4) -> {name: (r,)}."""
        np = _np()
        zero = self.zero_division
        pn, pd, rn, rd = (sums[..., k] for k in range(4))

        def ratio(numerator, denominator):
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where((numerator == 0) & (denominator == 0), zero, numerator / np.where(denominator == 0,
                                                                                                    1, denominator))

        precision, recall = ratio(pn, pd), ratio(rn, rd)
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = np.where(precision + recall > 0, 2 * precision * recall / np.where(precision + recall > 0,
                                                                                   precision + recall, 1), zero)
        known = rd > 0 if self.groups is None else np.isin(np.asarray(names, dtype=object), self.groups)[None, :] & (
            (pd + rd) > 0)
        n_known = known.sum(axis=1)

        def macro(values):
            return np.where(n_known > 0, np.where(known, values, 0).sum(axis=1) / np.maximum(n_known, 1), zero)

        totals = [x.sum(axis=1) for x in (pn, pd, rn, rd)]
        micro_p, micro_r = ratio(totals[0], totals[1]), ratio(totals[2], totals[3])
        with np.errstate(invalid="ignore", divide="ignore"):
            micro_f1 = np.where(micro_p + micro_r > 0, 2 * micro_p * micro_r / np.where(micro_p + micro_r > 0,
                                                                                     micro_p + micro_r, 1), zero)
        unknown = np.where(known, 0, pd).sum(axis=1)
        result = {
            "f1_macro": macro(f1), "recall_macro": macro(recall), "precision_macro": macro(precision),
            "in_classes_support": np.where(totals[1] > 0, 1.0 - unknown / np.where(totals[1] > 0, totals[1], 1), 1.0),
            "f1_micro": micro_f1, "recall_micro": micro_r, "precision_micro": micro_p,
        }
        if per_group and self.report_per_group_scores:
            for position, name in enumerate(names):
                if known[0, position]:
                    result[f"f1_{name}"] = f1[:, position]
        return result

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        np = _np()
        names, counts = self._counts(predictions, references, task_data)
        n = len(predictions)

        def statistic(idx):
            idx = np.asarray(idx)
            if not names:
                return {key: np.full(idx.shape[0], self.zero_division) for key in
                        ("f1_micro", "f1_macro", "recall_micro", "precision_micro", "recall_macro",
                         "precision_macro", "in_classes_support")}
            sums = counts[idx].sum(axis=1)
            return self._scores(sums, names, per_group=idx.shape == (1, n))

        statistic.parts = (names, counts)
        return statistic

    def score(self, predictions, references, task_data):
        """As the original: an instance's scores name only the groups present in that instance."""
        scores = super().score(predictions, references, task_data)
        if self.process_single_instances and len(predictions):
            scores.instance_scores = [{name: value for name, value in row.items()
                                       if not (name.startswith("f1_") and _is_nan(value))}
                                      for row in scores.instance_scores]
        return scores

    def single_instance_scores(self, predictions, references, task_data, statistic):
        np = _np()
        names, counts = statistic.parts
        rows = [self._scores(counts[i][None], names, per_group=True) if names else {} for i in range(len(counts))]
        keys = sorted({k for row in rows for k in row})
        columns = {key: np.asarray([row[key][0] if key in row else math.nan for row in rows]) for key in keys}
        # an instance holds f1_<group> only of the groups its own reference has, as the original's
        present = {key: np.asarray([key in row for row in rows]) for key in keys}
        return ColumnScores(columns, len(rows), present=present)


class CustomF1(_GroupedF1):
    """The original's base of grouped F1 metrics: a subclass says how an element of a prediction or reference list
    is grouped (`get_element_group`) and compared (`get_element_representation`), and may ignore some
    (`should_ignore_element`) or change the matching of one group (`calculate_groups_ratio(actual, total)` ->
    (matched, size)); `groups` fixes the scored groups (default: those of the references)."""

    __abstract__ = True
    prediction_type = Any
    ci_scores = None  # the main score's CI, as the original's CustomF1

    def get_element_group(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.get_element_group(element, additional_input)")

    def get_element_representation(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.get_element_representation(element, additional_input)")

    def should_ignore_element(self, element: Any, additional_input: Dict[str, Any]) -> bool:
        return False

    def elements(self, value: Any, task_data: Dict[str, Any]) -> List[Element]:
        values = value if isinstance(value, list) else [value]
        return [(self.get_element_representation(element, task_data), self.get_element_group(element, task_data))
                for element in values if not self.should_ignore_element(element, task_data)]

    def calculate_groups_ratio(self, actual_group: Counter, total_group: Counter) -> Tuple[int, int]:
        return exact_ratio(actual_group, total_group)

    def group_ratio(self, actual: Counter, total: Counter, matcher: Optional[Callable]) -> Tuple[int, int]:
        return self.calculate_groups_ratio(actual, total)

    # the original's scoring steps; a subclass overriding one of them is scored through `compute` (per resample)
    def group_elements(self, elements_list: Any, additional_input: Dict[str, Any]) -> Dict[Any, Counter]:
        """{group: Counter of element representations} of one prediction or reference (ignored elements start no
        group)."""
        values = elements_list if isinstance(elements_list, list) else [elements_list]
        groups = {self.get_element_group(element, additional_input) for element in values
                  if not self.should_ignore_element(element, additional_input)}
        return {group: Counter(self.get_element_representation(element, additional_input) for element in values
                               if self.get_element_group(element, additional_input) == group) for group in groups}

    def get_groups(self, elements: List[Any], task_data: List[Dict[str, Any]]) -> set:
        """The groups of the (not ignored) elements of the given references."""
        groups = set()
        for values, additional_input in zip(elements, task_data):
            for element in values if isinstance(values, list) else [values]:
                if not self.should_ignore_element(element, additional_input):
                    groups.add(self.get_element_group(element, additional_input))
        return groups

    def precision(self, pn: float, pd: float, rn: float, rd: float) -> float:
        return self.zero_division if pn == 0 and pd == 0 else pn / pd

    def recall(self, pn: float, pd: float, rn: float, rd: float) -> float:
        return self.zero_division if rn == 0 and rd == 0 else rn / rd

    def f1(self, pn: float, pd: float, rn: float, rd: float) -> float:
        precision, recall = self.precision(pn, pd, rn, rd), self.recall(pn, pd, rn, rd)
        return 2 * precision * recall / (precision + recall) if precision + recall else self.zero_division

    def add_micro_scores(self, rd_total: float, rn_total: float, pd_total: float, pn_total: float,
                         result: Dict[str, Any]) -> None:
        counts = (pn_total, pd_total, rn_total, rd_total)
        result["f1_micro"], result["recall_micro"] = self.f1(*counts), self.recall(*counts)
        result["precision_micro"] = self.precision(*counts)

    def add_in_class_support_scores(self, num_of_unknown_class_predictions: float, pd_total: float,
                                    result: Dict[str, Any]) -> None:
        result["in_classes_support"] = 1.0 if pd_total == 0 else 1.0 - num_of_unknown_class_predictions / pd_total

    def add_macro_scores(self, f1_result: Dict[str, float], recall_result: Dict[str, float],
                         precision_result: Dict[str, float], result: Dict[str, Any]) -> None:
        for name, values in (("f1_macro", f1_result), ("recall_macro", recall_result),
                             ("precision_macro", precision_result)):
            result[name] = sum(values.values()) / len(values) if values else self.zero_division

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]) -> Dict[str, Any]:
        """Global scores of the instances through the steps above (the path of a subclass overriding one)."""
        gold = [refs[0] for refs in references]
        groups = self.get_groups(gold, task_data) if self.groups is None else self.groups
        totals: Dict[Any, List[float]] = {}
        for reference, prediction, additional_input in zip(gold, predictions, task_data):
            gold_groups = self.group_elements(reference, additional_input)
            predicted_groups = self.group_elements(prediction, additional_input)
            for group in set(gold_groups) | set(predicted_groups):
                gold_group, predicted_group = gold_groups.get(group, Counter()), predicted_groups.get(group, Counter())
                counts = (*self.calculate_groups_ratio(predicted_group, gold_group),
                          *self.calculate_groups_ratio(gold_group, predicted_group))
                row = totals.setdefault(group, [0, 0, 0, 0])
                for position, value in enumerate(counts):
                    row[position] += value
        f1s, recalls, precisions, unknown = {}, {}, {}, 0
        for group, counts in totals.items():
            if group in groups:
                f1s[f"f1_{group}"], recalls[f"recall_{group}"] = self.f1(*counts), self.recall(*counts)
                precisions[f"precision_{group}"] = self.precision(*counts)
            else:
                unknown += counts[1]
        pn_total, pd_total, rn_total, rd_total = (sum(counts[k] for counts in totals.values()) for k in range(4))
        result: Dict[str, Any] = dict(f1s)
        self.add_macro_scores(f1s, recalls, precisions, result)
        self.add_in_class_support_scores(unknown, pd_total, result)
        self.add_micro_scores(rd_total, rn_total, pd_total, pn_total, result)
        if not self.report_per_group_scores:
            for group in groups:
                result.pop(f"f1_{group}", None)
        return result

    def original_hooks_overridden(self) -> bool:
        return any(getattr(type(self), name) is not getattr(CustomF1, name) for name in _CUSTOM_F1_STEPS)

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        if self.original_hooks_overridden():
            return None
        return super().fast_statistic(predictions, references, task_data)

    def single_instance_scores(self, predictions, references, task_data, statistic):
        if not hasattr(statistic, "parts"):
            return GlobalMetric.single_instance_scores(self, predictions, references, task_data, statistic)
        return super().single_instance_scores(predictions, references, task_data, statistic)


_CUSTOM_F1_STEPS = ("group_elements", "get_groups", "precision", "recall", "f1", "add_micro_scores",
                    "add_in_class_support_scores", "add_macro_scores")


class CustomF1Fuzzy(CustomF1):
    """CustomF1 whose elements (representations written as "(text, group)" tuples) match the element of the same
    group with the highest `score(text, other text)` of at least `min_score_for_match` (the last of equal best).
    A subclass defines `score(val1, val2)` as in the original; it is kept as `element_score`, since `score` here
    scores the metric."""

    __abstract__ = True
    min_score_for_match: float

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("score")
        if own is not None and list(inspect.signature(own).parameters)[1:] != ["predictions", "references",
                                                                                "task_data"]:
            cls.element_score = own
            cls.score = _GroupedF1.score

    def element_score(self, val1: Any, val2: Any) -> float:
        raise NotImplementedError(f"{type(self).__name__}.score(val1, val2)")

    def calculate_groups_ratio(self, actual_group: Counter, total_group: Counter) -> Tuple[int, int]:
        matched = []
        for actual_key in actual_group:
            best_score, best_key = self.min_score_for_match, None
            actual = ast.literal_eval(actual_key)
            for total_key in total_group:
                total = ast.literal_eval(total_key)
                if actual[1] == total[1]:
                    value = self.element_score(actual[0], total[0])
                    if value >= best_score:
                        best_score, best_key = value, total_key
            matched.append(min(actual_group[actual_key], total_group[best_key]) if best_key is not None else 0)
        return sum(matched), sum(actual_group.values())


class _EntityPairHooks:
    """The original's element hooks of its fuzzy NER metrics: an entity's group is its type (`element[1]`), its
    representation `str(element)`; the text compared is the representation's first item."""

    def get_element_group(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        return element[1]

    def get_element_representation(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        return str(element)

    def elements(self, value, task_data):
        if type(self).get_element_representation is _EntityPairHooks.get_element_representation and \
                type(self).get_element_group is _EntityPairHooks.get_element_group:
            return [(str(pair[0]), str(pair[1])) for pair in value]
        return [(_text_of(self.get_element_representation(pair, task_data)),
                 str(self.get_element_group(pair, task_data))) for pair in value]


def _text_of(representation: Any) -> str:
    """The entity text of a representation: the first item of a tuple written as text ("('Paris', 'LOC')")."""
    if isinstance(representation, str) and representation.startswith("("):
        try:
            parsed = ast.literal_eval(representation)
        except (ValueError, SyntaxError):
            return representation
        if isinstance(parsed, tuple) and parsed:
            return str(parsed[0])
    return str(representation)


class FuzzyNer(_EntityPairHooks, _GroupedF1):
    """NER F1 over (entity text, type) pairs where a predicted entity matches the reference entity of the same type
    with the highest fuzz ratio above `fuzz_ratio` (0-100)."""

    min_score_for_match: Any = InertField(
        default=0.750001, reason="fuzzy matching uses this metric's own threshold here")

    prediction_type = "List[Tuple[str, str]]"
    fuzz_ratio: int = 75

    def matcher(self, groups_of_instances):
        threshold = self.fuzz_ratio

        def best(key, candidates):
            best_key, best_score = None, threshold
            for candidate in candidates:
                score = fuzzy_ratio(key, candidate)
                if score > best_score:
                    best_key, best_score = candidate, score
            return best_key

        return best


class MetricBasedNer(_EntityPairHooks, _GroupedF1):
    """NER F1 where entity texts of the same type match when `metric` (any metric over a string prediction and
    string references, default exact match) scores the pair at least `min_score_for_match`."""

    prediction_type = "List[Tuple[str, str]]"
    metric: Metric = "metrics.accuracy"
    min_score_for_match: float = 0.75
    n_resamples = 0

    def prepare(self) -> None:
        super().prepare()
        if isinstance(self.metric, str):
            from ..catalog import fetch_artifact

            self.metric = fetch_artifact(self.metric)[0]

    def matcher(self, groups_of_instances):
        pairs = sorted({(p, g) for gold, pred in groups_of_instances for group in set(gold) & set(pred)
                        for p in pred[group] for g in gold[group]} | {(g, p) for gold, pred in groups_of_instances
                                                                     for group in set(gold) & set(pred)
                                                                     for p in pred[group] for g in gold[group]})
        similarity: Dict[Tuple[str, str], float] = {}
        if pairs:
            # as the original, the compared entity is also the task_data's ground_truth / reference (judges read it)
            scored = self.metric.evaluate([a for a, _ in pairs], [[b] for _, b in pairs],
                                          [{"ground_truth": b, "reference": b} for _, b in pairs])
            main = self.metric.main_score
            for pair, instance in zip(pairs, scored.instance_scores):
                value = instance.get(main, math.nan)
                similarity[pair] = float(value[0] if isinstance(value, list) else value)
        threshold = self.min_score_for_match

        def best(key, candidates):
            best_key, best_score = None, -math.inf
            for candidate in candidates:
                score = similarity.get((key, candidate), math.nan)
                if score >= threshold and score > best_score:
                    best_key, best_score = candidate, score
            return best_key

        return best


class KPA(CustomF1):
    """Key point analysis: the prediction (a key point name or "none") and the reference stand for task_data
    `keypoint`; "none" is ignored. F1 per key point, micro and macro."""

    prediction_type = str
    ci_scores = ["f1_micro"]

    def get_element_group(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        if "keypoint" not in additional_input:
            raise MetricError("KPA needs task_data field 'keypoint'.", artifact=self.artifact_name, field="task_data")
        return str(additional_input["keypoint"])

    def get_element_representation(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        return self.get_element_group(element, additional_input)

    def should_ignore_element(self, element: Any, additional_input: Dict[str, Any]) -> bool:
        return str(element) == "none"
