"""The Inspect scorer and metric of a recipe: each output post-processed and scored by the recipe's own metrics.

The scorer scores one sample at a time (its instance scores) and keeps in the Score's metadata what the global scores
need: the row, the model's output and the row's position. The metric puts the samples back in row order and runs
`unitxt.evaluate` over all of them, so the task's metrics are unitxt's global scores (with their confidence
intervals), exactly as `unitxt.evaluate` gives them for the same outputs.
"""

import math
from typing import Any, Dict, List, Optional, Sequence

from .runtime import require_inspect

ROW = "unitxt_row"
POSITION = "row_index"
PREDICTION = "prediction"
INSTANCE = "instance_scores"

_ROWS: Dict[str, List[Dict[str, Any]]] = {}  # rows of the tasks made in this process, by the task's row key


def remember_rows(key: str, rows: List[Dict[str, Any]]) -> None:
    """Keep a task's rows for its scorer (the scorer's parameters name them; the log does not carry them twice)."""
    _ROWS[key] = rows


def _rows_for(recipe: str, split: str, limit: Optional[int]) -> List[Dict[str, Any]]:
    from .samples import load_rows, row_key

    key = row_key(recipe, split, limit)
    if key not in _ROWS:  # a scorer re-made from a log in another process (inspect score)
        _ROWS[key] = load_rows(recipe, split, limit)
    return _ROWS[key]


def global_scores(predictions: Sequence[Any], rows: Sequence[Dict[str, Any]]) -> Dict[str, float]:
    """unitxt's global scores of the predictions, the numeric ones, the main score and its interval first."""
    from ..evaluation.in_memory import evaluate

    scores = dict(evaluate(predictions=list(predictions), data=list(rows)).global_scores)
    main = scores.get("score_name")
    ordered = [main, f"{main}_ci_low", f"{main}_ci_high"] if isinstance(main, str) else []
    names = [name for name in ordered if name in scores] + [name for name in scores if name not in ordered]
    return {name: float(scores[name]) for name in names
            if isinstance(scores[name], (int, float)) and not isinstance(scores[name], bool)}


def _sample_value(instance: Dict[str, Any]) -> Any:
    """The Score value: the instance's main score. Inspect leaves samples whose value is a float NaN out of its
    metrics, and the global scores need every row, so a NaN instance score is written as the text "nan"."""
    value = instance.get("score")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return float(value) if math.isfinite(value) else str(float(value))


def _make_metric() -> Any:
    require_inspect()  # the install hint before the decorators are imported
    from inspect_ai.scorer import SampleScore, metric

    @metric(name="unitxt_global_scores", scores="unreduced")
    def unitxt_global_scores() -> Any:
        """unitxt's global scores over all samples, in row order (named as unitxt names them)."""

        def compute(sample_scores: List[SampleScore]) -> Dict[str, float]:
            kept: Dict[int, Any] = {}
            for sample_score in sample_scores:
                metadata = sample_score.score.metadata or {}
                kept.setdefault(int(metadata[POSITION]), metadata)  # the first epoch of each row
            if not kept:
                return {}
            positions = sorted(kept)
            return global_scores([kept[p][PREDICTION] for p in positions], [kept[p][ROW] for p in positions])

        return compute

    return unitxt_global_scores


def _make_scorer() -> Any:
    require_inspect()
    from inspect_ai.scorer import Score, Target, scorer
    from inspect_ai.solver import TaskState

    @scorer(name="unitxt", metrics=[unitxt_global_scores()])
    def unitxt_scorer(recipe: str, split: str = "test", limit: Optional[int] = None) -> Any:
        """Post-process each output with the recipe's post-processors and score it with the recipe's metrics."""
        rows = _rows_for(recipe, split, limit)

        async def score(state: TaskState, target: Target) -> Score:
            from ..evaluation.in_memory import evaluate

            position = int(state.sample_id)
            row = rows[position]
            prediction = state.output.completion
            result = evaluate(predictions=[prediction], data=[row], calc_confidence_intervals=False)[0]
            instance = dict(result["score"]["instance"])
            main = instance.get("score_name")
            return Score(value=_sample_value(instance), answer=str(result["processed_prediction"]),
                         explanation=f"{main} = {instance.get('score')}",
                         metadata={POSITION: position, PREDICTION: prediction, INSTANCE: instance, ROW: row})

        return score

    return unitxt_scorer


_MADE: Dict[str, Any] = {}


def _made(name: str, factory: Any) -> Any:
    if name not in _MADE:
        _MADE[name] = factory()
    return _MADE[name]


def register() -> None:
    """Register the scorer and the metric with Inspect (under this package's name, as logs name them)."""
    _made("metric", _make_metric)
    _made("scorer", _make_scorer)


def unitxt_global_scores() -> Any:
    """The Inspect metric giving unitxt's global scores (registered with Inspect on first use)."""
    return _made("metric", _make_metric)()


def unitxt_scorer(recipe: str, split: str = "test", limit: Optional[int] = None) -> Any:
    """The Inspect scorer of a recipe (registered with Inspect on first use)."""
    return _made("scorer", _make_scorer)(recipe=recipe, split=split, limit=limit)
