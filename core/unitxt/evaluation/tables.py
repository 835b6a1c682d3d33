"""Plain-text tables of scores (GitHub markdown, no tabulate) and the field names of group-by keys, shared by the
results' summaries, the paired comparison, the HTML report and the plots."""

import math
from typing import Any, List, Optional


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _format(value: Any, digits: Optional[int]) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if digits is not None:
            text = f"{round(value, digits):.{digits}f}".rstrip("0").rstrip(".")
            return text if text not in ("-0", "") else "0"
        return f"{value:.6g}"
    return str(value)


def markdown_table(headers: List[str], rows: List[List[Any]], digits: Optional[int] = None) -> str:
    """A GitHub-markdown table: numeric columns right-aligned, others left-aligned (rendered without tabulate)."""
    cells = [[_format(value, digits) for value in row] for row in rows]
    numeric = [
        all(_is_number(row[i]) and not (isinstance(row[i], float) and math.isnan(row[i])) for row in rows) and rows != []
        for i in range(len(headers))
    ]
    widths = [max([len(headers[i])] + [len(row[i]) for row in cells]) for i in range(len(headers))]

    def line(values: List[str]) -> str:
        parts = [value.rjust(widths[i]) if numeric[i] else value.ljust(widths[i]) for i, value in enumerate(values)]
        return "| " + " | ".join(parts) + " |"

    separator = "|" + "|".join(
        "-" * (widths[i] + 1) + ":" if numeric[i] else ":" + "-" * (widths[i] + 1) for i in range(len(headers))
    ) + "|"
    return "\n".join([line(headers), separator] + [line(row) for row in cells])


def group_key_fields(key: Any) -> List[str]:
    """The field names of a groups_scores key ("label" or ("label", "num_demos"))."""
    return list(key) if isinstance(key, tuple) else [key]
