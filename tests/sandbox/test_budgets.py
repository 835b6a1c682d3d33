"""The expression sandbox bounds the work of one evaluation: output sizes of str()/json.dumps()/sorted()/zip(),
regexes that would backtrack catastrophically, and wall-clock time of comprehensions (issue "Hardening")."""

import re
import time

import pytest

from unitxt import expression_runtime
from unitxt.errors import SandboxError
from unitxt.expressions import evaluate_expression


@pytest.mark.parametrize("expression, message", [
    ("len(str([[0]*10**6]*10**6))", "str() of a value of more than"),
    ("json.dumps([[0]*10**6]*10**6)", "json.dumps() of a value of more than"),
    ("len(list(zip(*[[0]*10**6]*10**6)))", "zip() producing more than"),
    ("sorted([[0]*10**6]*10**6)", "sorted() of a value of more than"),
    ("re.search('(a+)+$', 'a'*40+'b')", "catastrophic backtracking"),
    ("re.sub('(x*)*y', '', 'x'*30)", "catastrophic backtracking"),
])
def test_oversized_or_explosive_work_is_refused_quickly(expression, message):
    start = time.monotonic()
    with pytest.raises(SandboxError, match=re.escape(message)):
        evaluate_expression(expression, {})
    assert time.monotonic() - start < 5


def test_comprehensions_have_a_wall_clock_budget(monkeypatch):
    monkeypatch.setattr(expression_runtime, "MAX_SECONDS", 0.3)
    start = time.monotonic()
    with pytest.raises(SandboxError, match="longer than 0.3 seconds"):
        evaluate_expression("[10**10000 for x in range(10**6)]", {})
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("expression, expected", [
    ("len(str([1, 2, 3]))", 9), ("json.dumps({'a': [1, 2]})", '{"a": [1, 2]}'), ("sorted([3, 1, 2])", [1, 2, 3]),
    ("list(zip([1, 2], [3, 4]))", [(1, 3), (2, 4)]), ("re.sub('a+', 'b', 'caat')", "cbt"),
    ("re.findall('(ab)+', 'ababx')", ["ab"]), ("[x * 2 for x in range(5)]", [0, 2, 4, 6, 8]),
])
def test_ordinary_expressions_still_work(expression, expected):
    assert evaluate_expression(expression, {}) == expected
