"""`unitxt.deprecation_utils` (served by general/deprecation.py): warn before the deprecation version, refuse from it."""

import warnings

import pytest

import unitxt.deprecation_utils as deprecation_utils
from unitxt.deprecation_utils import DeprecationError, compare_versions, deprecation, warn_on_call


class _Version:
    def __init__(self, version: str):
        self.version = version


def test_compare_versions_numerically():
    assert compare_versions("2.10", "2.9") == 1
    assert compare_versions("3", "3.0.0") == 0
    assert compare_versions("0.9.9", "1") == -1


def test_warns_before_and_raises_from_the_version(monkeypatch):
    @deprecation("5.2", alternative="fresh_tool")
    def old_tool(x):
        return x * 2

    monkeypatch.setattr(deprecation_utils, "constants", _Version("5.1.9"))
    with pytest.warns(DeprecationWarning, match="fresh_tool"):
        assert old_tool(4) == 8
    monkeypatch.setattr(deprecation_utils, "constants", _Version("5.2.0"))
    with pytest.raises(DeprecationError, match="no longer supported"):
        old_tool(4)


def test_warn_on_call_for_a_class():
    @warn_on_call(FutureWarning, "Widget changes soon")
    class Widget:
        def __init__(self, size):
            self.size = size

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Widget(3).size == 3
    assert caught[-1].category is FutureWarning
