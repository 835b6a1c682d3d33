"""Verdict reader for the meta-evaluation of pairwise judges (Arena-Hard style): the judge writes a verdict such as
[[A>B]], the gold is a signed preference (possibly the rounded mean of two games, hence +-2), so one reader maps both
to the same integer scale."""

import re
from typing import Any

from .operator import FieldOperator

_VERDICT = re.compile(r"\[\[\s*([AB<>=]+|[+-]?\d+)\s*\]\]")


class ExtractArenaHardPreference(FieldOperator):
    """The last [[...]] of the text as a preference for answer A: A>>B 3, A>B 1, A=B 0, B>A -1, B>>A -3, or a signed
    integer written in the brackets (the gold of the two-game mean can be +-2); 0 when there is no verdict."""

    _SCORES = {"A>>B": 3, "A>B": 1, "A=B": 0, "B>A": -1, "B>>A": -3}

    def process_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        found = _VERDICT.findall(str(value))
        if not found:
            return 0
        verdict = found[-1]
        if verdict in self._SCORES:
            return self._SCORES[verdict]
        try:
            return int(verdict)
        except ValueError:
            return 0


__all__ = ["ExtractArenaHardPreference"]
