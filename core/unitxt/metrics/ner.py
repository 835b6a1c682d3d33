"""Named-entity span F1 over lists of (span_text, entity_type) pairs: micro, macro and per-type scores.

Each instance's prediction is a list of (span, type) pairs and its single reference is the gold list. Matching is
exact on the pair (multiset: a pair listed twice must be predicted twice). Per-instance, per-type TP/FP/FN counts
are computed once; global scores and every bootstrap resample re-sum them (one matrix product per chunk).
"""

from typing import Any, Dict, List, Optional

from .base import GlobalMetric, KeyedStatistics, Statistic, keyed_columns
from .scores import ColumnScores
from ..lazy_imports import numpy_module as _np


class NER(GlobalMetric):
    """Entity-span precision/recall/F1, micro (pooled counts) and macro (mean over gold types), plus f1_<type>.

    Macro averages over the types with gold support; zero denominators give `zero_division` (0, as sklearn's
    default).
    Instance scores are the micro and macro scores of the instance alone.
    """

    main_score = "f1_micro"
    prediction_type = "List[Tuple[str, str]]"
    single_reference_per_prediction = True
    report_per_type: bool = True
    report_per_group_scores: bool = True  # the original's name of report_per_type; False from either drops f1_<type>
    zero_division: float = 0.0  # the score of a ratio with a zero denominator (the original's CustomF1 field)
    ci_scores = ["f1_micro"]  # as the original: the main score's CI

    # the original's element hooks (its CustomF1's): a subclass overriding one has every entity read through them
    def get_element_group(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        return element[1]

    def get_element_representation(self, element: Any, additional_input: Dict[str, Any]) -> Any:
        return str(element)

    def should_ignore_element(self, element: Any, additional_input: Dict[str, Any]) -> bool:
        return False

    def entity_lists(self, values: List[Any], task_data: List[Dict[str, Any]]) -> List[Any]:
        """Each instance's entities as the span kernel counts them: (span, type) pairs as given, or, when a hook
        above is overridden, (representation, group) of the elements not ignored (a group's elements match by
        representation)."""
        if all(getattr(type(self), name) is getattr(NER, name) for name in _ELEMENT_HOOKS):
            return list(values)
        return [[(self.get_element_representation(element, data), self.get_element_group(element, data))
                 for element in (value if isinstance(value, list) else [value])
                 if not self.should_ignore_element(element, data)] for value, data in zip(values, task_data)]

    def per_type(self) -> bool:
        """Report f1_<type>? Read at scoring time: the original's callers switch it off on a used metric."""
        return self.report_per_type and self.report_per_group_scores

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        np = _np()
        from .kernels.bootstrap import resampled_sums
        from .kernels.ner import span_counts

        counts = span_counts(self.entity_lists([refs[0] for refs in references], task_data),
                             self.entity_lists(predictions, task_data))
        keyed = self._keyed(counts)

        def statistic(idx):
            idx = np.asarray(idx)
            return self.scores_of_totals(resampled_sums(keyed.rows, idx), idx.shape[0] == 1, keyed.keys)

        statistic.counts = counts
        return statistic

    def additive_statistics(self, predictions, references, task_data):
        """Per instance and entity type: true positive, false positive and false negative spans."""
        from .kernels.ner import span_counts

        return self._keyed(span_counts(self.entity_lists([refs[0] for refs in references], task_data),
                                       self.entity_lists(predictions, task_data)))

    @staticmethod
    def _keyed(counts: Any) -> KeyedStatistics:
        keys = [(part, entity_type) for part in ("tp", "fp", "fn") for entity_type in counts.types]
        return KeyedStatistics(keys, _np().concatenate([counts.tp, counts.fp, counts.fn], axis=1))

    def scores_of_totals(self, totals, exact, keys=None):
        from .kernels.ner import _sorted, span_scores_from_counts

        types = _sorted({entity_type for _, entity_type in keys})
        tp, fp, fn = (keyed_columns(totals, keys, part, types) for part in ("tp", "fp", "fn"))
        scores = span_scores_from_counts(tp, fp, fn, self.zero_division)
        result = {name: value for name, value in scores.items() if not name.endswith("_per_type")}
        if self.per_type():  # the types with reference support, as the original reports them
            supported = (tp + fn).sum(axis=0) > 0
            for column, entity_type in enumerate(types):
                if supported[column]:
                    result[f"f1_{entity_type}"] = scores["f1_per_type"][:, column]
        return result

    def single_instance_scores(self, predictions, references, task_data, statistic) -> Dict[str, Any]:
        from .kernels.ner import span_scores_from_counts

        counts = statistic.counts
        scores = span_scores_from_counts(counts.tp, counts.fp, counts.fn, self.zero_division)
        result = {name: value for name, value in scores.items() if not name.endswith("_per_type")}
        present = {}
        if self.per_type():  # f1_<type> of an instance: the types its own reference holds, as the original's
            supported = (counts.tp + counts.fn) > 0
            for column, entity_type in enumerate(counts.types):
                if supported[:, column].any():
                    result[f"f1_{entity_type}"] = scores["f1_per_type"][:, column]
                    present[f"f1_{entity_type}"] = supported[:, column]
        return ColumnScores(result, len(predictions), present=present)

    def compute(self, references, predictions, task_data) -> Dict[str, Any]:
        """Global scores of the given instances (micro/macro and f1 per type)."""
        from .kernels.ner import span_f1

        result = span_f1(self.entity_lists([refs[0] for refs in references], task_data),
                         self.entity_lists(predictions, task_data), self.zero_division)
        per_type = result.pop("f1_per_type")
        result.pop("precision_per_type")
        result.pop("recall_per_type")
        if self.per_type():
            result.update({f"f1_{entity_type}": value for entity_type, value in per_type.items()})
        return result


_ELEMENT_HOOKS = ("get_element_group", "get_element_representation", "should_ignore_element")
