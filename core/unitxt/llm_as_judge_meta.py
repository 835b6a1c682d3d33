"""Reading judge verdicts (post-processors of judge templates) and meta-evaluating judges against gold labels.

`ExtractArenaHardNumericalJudgment` maps Arena-Hard verdicts "[[A>>B]]" .. "[[B>>A]]" to 3, 1, 0, -1, -3 (positive:
the first answer is better). `WeightedWinRateCorrelation` turns such verdicts over battles between named models into
each model's win rate, for the judge and for the gold labels, and correlates the two rankings.
"""

import math
import re
from typing import Any, Dict, List

from .errors import MetricError
from .metric_base import GlobalMetric
from .operator import FieldOperator

_ARENA_VERDICTS = {"A>>B": 3.0, "A>B": 1.0, "A=B": 0.0, "B=A": 0.0, "B>A": -1.0, "B>>A": -3.0}


class ExtractArenaHardNumericalJudgment(FieldOperator):
    """The first "[[A>B]]"-style verdict as a number (A>>B 3, A>B 1, A=B 0, B>A -1, B>>A -3); NaN when none."""

    def process_value(self, value: Any) -> Any:
        for match in re.finditer(r"\[\[\s*([AB]\s*(?:>>|>|=)\s*[AB])\s*\]\]", str(value)):
            verdict = re.sub(r"\s", "", match.group(1))
            if verdict in _ARENA_VERDICTS:
                return _ARENA_VERDICTS[verdict]
        return math.nan


class ExtractHarmRatingJudgement(FieldOperator):
    """A harm rating "[[N]]" on a 1-5 scale as (N - 1) / 4 in 0..1; NaN when there is no rating."""

    def process_value(self, value: Any) -> Any:
        match = re.search(r"\[\[\s*(\d+(?:\.\d+)?)\s*\]\]", str(value))
        return (float(match.group(1)) - 1.0) / 4.0 if match else math.nan


class ExtractVerbalJudgment(FieldOperator):
    """A verdict that starts with one of `classes` (ordered worst to best) as its position scaled to 0..1; NaN when
    the answer starts with none of them (an unreadable verdict is never a silent zero)."""

    classes: List[str] = ["not", "somewhat", "mostly", "completely"]

    def process_value(self, value: Any) -> Any:
        text = str(value).strip().lower()
        matches = [index for index, name in enumerate(self.classes) if text.startswith(name.lower())]
        if not matches:
            return math.nan
        best = max(matches, key=lambda index: len(self.classes[index]))  # "very good" over "very"
        return best / (len(self.classes) - 1)


class ExtractVerbalJudgementBadGood(ExtractVerbalJudgment):
    """Verbal verdicts very bad, bad, mediocre, good, very good as 0, .25, .5, .75, 1."""

    classes: List[str] = ["very bad", "bad", "mediocre", "good", "very good"]


class ExtractMtBenchLabelJudgment(FieldOperator):
    """The text inside the first [[...]] of a judge answer (e.g. "A", "tie"); "None" when there is none."""

    def process_value(self, value: Any) -> Any:
        match = re.search(r"\[\[([^\]]+)\]\]", str(value))
        return match.group(1) if match else "None"


class ExtractSafeUnsafeJudgment(FieldOperator):
    """1.0 when the judge answer's first line is "safe" (any case), else 0.0."""

    def process_value(self, value: Any) -> Any:
        lines = str(value).strip().split("\n")
        return 1.0 if lines[0].strip().lower() == "safe" else 0.0


def model_win_rates(judgments: List[float], model_a: List[str], model_b: List[str]) -> Dict[str, float]:
    """Each model's weighted win rate: its battles' verdicts, from its side, scaled to 0..1 and averaged."""
    totals: Dict[str, List[float]] = {}
    for value, first, second in zip(judgments, model_a, model_b):
        if value is None or math.isnan(value):
            continue
        share = (max(-3.0, min(3.0, value)) / 3.0 + 1.0) / 2.0
        totals.setdefault(first, []).append(share)
        totals.setdefault(second, []).append(1.0 - share)
    return {model: sum(values) / len(values) for model, values in totals.items()}


class WeightedWinRateCorrelation(GlobalMetric):
    """Spearman and Kendall tau-b correlation between the models' win rates by the judge (predictions) and by the
    gold verdicts (references); battles name their models in task_data `model_a` / `model_b`."""

    main_score: str = "spearman_corr"
    ci_scores = ["spearman_corr", "kendalltau_corr"]
    process_single_instances: bool = False
    model_a_field: str = "model_a"
    model_b_field: str = "model_b"

    def compute(self, references, predictions, task_data) -> Dict[str, Any]:
        from .correlation_kernels import kendall_tau_b, spearman

        for index, data in enumerate(task_data):
            if self.model_a_field not in data or self.model_b_field not in data:
                raise MetricError(f"Instance {index} needs task_data '{self.model_a_field}' and "
                                  f"'{self.model_b_field}'.",
                                  artifact=self.artifact_name, field=self.model_a_field)
        first = [data[self.model_a_field] for data in task_data]
        second = [data[self.model_b_field] for data in task_data]
        judged = model_win_rates([_float(p) for p in predictions], first, second)
        gold = model_win_rates([_float(refs[0]) if refs else math.nan for refs in references], first, second)
        models = sorted(set(judged) & set(gold))
        if len(models) < 2:
            return {"spearman_corr": math.nan, "kendalltau_corr": math.nan}
        judged_values = [judged[m] for m in models]
        gold_values = [gold[m] for m in models]
        return {"spearman_corr": float(spearman(gold_values, judged_values)),
                "kendalltau_corr": float(kendall_tau_b(gold_values, judged_values))}


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan
