"""Result pictures with matplotlib (optional extra `unitxt[report]`): `results.plot(path)`.

One figure: global scores with CI error bars, one panel per `group_by` key and one for subsets (main score with its
CI per group/subset), and the confusion matrix of single-label classification.
"""

import math
from typing import Any, List, Optional, Sequence, Tuple

from ..errors import MissingRequirementError
from .html_report import _global_rows, _subset_rows, confusion_matrix
from .tables import group_key_fields


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise MissingRequirementError(
            "results.plot() needs matplotlib: pip install 'unitxt[report]' (or pip install matplotlib). "
            "results.to_html() works without it.") from None
    return pyplot


def _bars(axis: Any, title: str, rows: Sequence[Tuple[str, Any]]) -> None:
    """Horizontal bars of scores with CI whiskers (NaN CIs drawn without whiskers)."""
    labels = [label for label, _ in rows]
    scores = [float(entry.get("score", math.nan)) for _, entry in rows]
    errors: List[List[float]] = [[], []]
    for score, (_, entry) in zip(scores, rows):
        low, high = entry.get("score_ci_low"), entry.get("score_ci_high")
        valid = isinstance(low, (int, float)) and isinstance(high, (int, float)) and not (
            math.isnan(low) or math.isnan(high))
        errors[0].append(max(0.0, score - low) if valid else 0.0)
        errors[1].append(max(0.0, high - score) if valid else 0.0)
    positions = list(range(len(rows)))
    axis.barh(positions, scores, xerr=errors, color="#4c78a8", ecolor="#222", capsize=3)
    axis.set_yticks(positions)
    axis.set_yticklabels(labels)
    axis.invert_yaxis()
    axis.set_title(title)
    axis.set_xlim(0, max([1.0] + [s for s in scores if not math.isnan(s)]))


def plot_results(results: Any, path: Optional[str] = None) -> Any:
    """Draw the results; save to `path` (format from its extension) when given; return the matplotlib Figure."""
    pyplot = _pyplot()
    panels: List[Tuple[str, Any]] = [("Global scores (95% CI)", _global_rows(results.global_scores))]
    for key, groups in results.groups_scores.items():
        rows = [(", ".join(map(str, value)) if isinstance(value, tuple) else str(value), scores)
                for value, scores in groups.items()]
        panels.append((f"By {', '.join(group_key_fields(key))}", rows))
    if results.subsets_scores:
        panels.append(("Subsets", _subset_rows(results.subsets_scores)))
    matrix = confusion_matrix(results)
    count = len(panels) + (matrix is not None)
    figure, axes = pyplot.subplots(count, 1, figsize=(8, 3.2 * count), squeeze=False)
    for axis, (title, rows) in zip(axes[:, 0], panels):
        _bars(axis, title, rows)
    if matrix is not None:
        labels, counts = matrix
        axis = axes[-1, 0]
        image = axis.imshow(counts, cmap="Blues")
        axis.set_xticks(range(len(labels)))
        axis.set_xticklabels(labels, rotation=45, ha="right")
        axis.set_yticks(range(len(counts)))
        axis.set_yticklabels(labels[: len(counts)])
        axis.set_xlabel("prediction")
        axis.set_ylabel("reference")
        axis.set_title("Confusion matrix")
        for row, values in enumerate(counts):
            for column, value in enumerate(values):
                axis.text(column, row, str(value), ha="center", va="center", fontsize=8)
        figure.colorbar(image, ax=axis)
    figure.tight_layout()
    if path is not None:
        figure.savefig(path)
    return figure
