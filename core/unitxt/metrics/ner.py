"""Named-entity span F1 over lists of (span_text, entity_type) pairs: micro, macro and per-type scores.

Each instance's prediction is a list of (span, type) pairs and its single reference is the gold list. Matching is
exact on the pair (multiset: a pair listed twice must be predicted twice). Per-instance, per-type TP/FP/FN counts
are computed once; global scores and every bootstrap resample re-sum them (one matrix product per chunk).
"""

from typing import Any, Dict, Optional

from .base import GlobalMetric, Statistic
from ..lazy_imports import numpy_module as _np


class NER(GlobalMetric):
    """Entity-span precision/recall/F1, micro (pooled counts) and macro (mean over gold types), plus f1_<type>.

    Macro averages over the types with gold support; zero denominators give 0 (sklearn's zero_division=0).
    Instance scores are the micro and macro scores of the instance alone.
    """

    main_score = "f1_micro"
    prediction_type = "List[Tuple[str, str]]"
    single_reference_per_prediction = True
    report_per_type: bool = True
    ci_scores = ["f1_micro", "f1_macro"]

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        np = _np()
        from .kernels.bootstrap import resampled_sums
        from .kernels.ner import span_counts, span_scores_from_counts

        counts = span_counts([refs[0] for refs in references], list(predictions))
        stacked = np.concatenate([counts.tp, counts.fp, counts.fn], axis=1)
        n_types = len(counts.types)
        per_type = self.report_per_type

        def statistic(idx):
            sums = resampled_sums(stacked, np.asarray(idx))
            scores = span_scores_from_counts(sums[:, :n_types], sums[:, n_types:2 * n_types], sums[:, 2 * n_types:])
            result = {name: value for name, value in scores.items() if not name.endswith("_per_type")}
            if per_type:
                for column, entity_type in enumerate(counts.types):
                    result[f"f1_{entity_type}"] = scores["f1_per_type"][:, column]
            return result

        statistic.counts = counts
        return statistic

    def single_instance_scores(self, predictions, references, task_data, statistic) -> Dict[str, Any]:
        from .kernels.ner import span_scores_from_counts

        counts = statistic.counts
        scores = span_scores_from_counts(counts.tp, counts.fp, counts.fn)
        return {name: value for name, value in scores.items() if not name.endswith("_per_type")}

    def compute(self, references, predictions, task_data) -> Dict[str, Any]:
        """Global scores of the given instances (micro/macro and f1 per type)."""
        from .kernels.ner import span_f1

        result = span_f1([refs[0] for refs in references], list(predictions))
        per_type = result.pop("f1_per_type")
        result.pop("precision_per_type")
        result.pop("recall_per_type")
        if self.report_per_type:
            result.update({f"f1_{entity_type}": value for entity_type, value in per_type.items()})
        return result
