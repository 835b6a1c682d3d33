"""Reading judge verdicts (post-processors of judge templates) and meta-evaluating judges against gold labels.

`ExtractArenaHardNumericalJudgment` maps Arena-Hard verdicts "[[A>>B]]" .. "[[B>>A]]" to 3, 1, 0, -1, -3 (positive:
the first answer is better). `WeightedWinRateCorrelation` turns such verdicts over battles between named models into
each model's win rate, for the judge and for the gold labels, and correlates the two rankings.
"""

import math
from typing import Any, Dict, List


# The verdict post-processors of judge templates live in judgment_processors.py (the original system's numbers for
# the same names); the judges themselves turn an answer with no readable verdict into NaN.
from .judgment_processors import (  # noqa: E402,F401 - re-exported for the judge modules
    ExtractArenaHardNumericalJudgment,
    ExtractHarmRatingJudgement,
    ExtractMtBenchLabelJudgment,
    ExtractSafeUnsafeJudgment,
    ExtractVerbalJudgementBadGood,
    ExtractVerbalJudgment,
)
from ..metrics.ensemble import WeightedWinRateCorrelation  # noqa: E402,F401 - the original's win-rate correlation


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


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan
