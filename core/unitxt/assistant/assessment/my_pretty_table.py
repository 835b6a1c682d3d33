"""A plain-text table for the logger (the original's `print_generic_table`): fixed-width columns, cells wrapped."""

import textwrap
from typing import Any, Dict, Iterable, List, Optional

from ...logging_utils import get_logger

logger = get_logger()


def table_lines(headers: Iterable[str], data: List[Dict[str, Any]],
                col_widths: Optional[Dict[str, int]] = None) -> List[str]:
    """The lines print_generic_table logs: a rule, the header row, a rule, then each row (its cells wrapped to their
    column width, one line per wrapped line) followed by a rule."""
    headers = list(headers)
    widths = col_widths if col_widths is not None else {header: 20 for header in headers}
    rule = "=" * (sum(widths.values()) + len(widths) * 3 + 2)

    def line(cells: List[str]) -> str:
        return "| " + " | ".join(f"{cell:<{widths[header]}}" for header, cell in zip(headers, cells)) + " |"

    lines = [rule, line(headers), rule]
    for row in data:
        wrapped = [textwrap.fill(str(row[header]), width=widths[header]).split("\n") for header in headers]
        height = max(len(cell) for cell in wrapped)
        lines += [line([cell[i] if i < len(cell) else "" for cell in wrapped]) for i in range(height)]
        lines.append(rule)
    return lines


def print_generic_table(headers: list, data: List, col_widths: Optional[dict] = None) -> None:
    """Log a table of `data` (dicts keyed by the headers) at info level; every column 20 wide unless `col_widths`
    ({header: width}) says otherwise."""
    for text in table_lines(headers, data, col_widths):
        logger.info(text)
