"""The original's text2sql_utils helpers (unitxt.metrics.sql_queries, served as unitxt.text2sql_utils): text checks,
result-table comparisons, running and comparing queries on a database, the execution cache, and install hints for
the optional SQL parsers. Expected values are the original's outputs on the same inputs."""

import sys

import pandas as pd
import pytest

from unitxt import text2sql_utils as T
from unitxt.errors import MissingRequirementError
from unitxt.text2sql_utils import InMemoryDatabaseConnector

DATA = {"t": {"columns": ["a", "b", "c"], "rows": [[1, "x", 2], [2, "y", 0], [3, "z", 5]]}}


def test_text_checks():
    assert T.sql_exact_match("select a  from t;", "SELECT a FROM t") and not T.sql_exact_match("SELECT a", "SELECT b")
    assert [T.strip_alias(c) for c in ("price AS p", "price p", "price", " x as y ", "COUNT(*) total")] == [
        "price", "price", "price", "x", "COUNT(*)"]
    assert T.extract_sql_from_text("Here:\n```sql\nSELECT 1;\n```") == "SELECT 1;"
    assert T.extract_sql_from_text("Just run: SELECT a FROM t; then done") == "SELECT a FROM t;"
    assert T.extract_sql_from_text("text\nWITH x AS (SELECT 1) SELECT * FROM x") == "WITH x AS (SELECT 1) SELECT * FROM x"
    assert T.extract_sql_from_text("ans: delete from t where 1;") == "delete from t where 1;"
    assert T.extract_sql_from_text("nothing") == ""
    assert "SQLite" in T.ALL_DIALECTS and len(T.ALL_DIALECTS) == 26


def test_result_tables_compare_ignoring_column_names():
    first, swapped = pd.DataFrame([[1, "a"], [2, "b"]]), pd.DataFrame([["b", 2], ["a", 1]])
    narrow, wide = pd.DataFrame([[1], [2]]), pd.DataFrame([[1, "a", 9], [2, "b", 9]])
    assert not T.compare_dfs_ignore_colnames_ordered_rows(first, swapped)
    assert T.compare_dfs_ignore_colnames_unordered_rows(first, swapped)
    assert T.compare_dfs_ignore_colnames_subset(narrow, wide) and not T.compare_dfs_ignore_colnames_subset(
        narrow, pd.DataFrame([]))
    assert T.compare_dfs_bird_eval_logic(first, swapped) == 0 and T.compare_dfs_bird_eval_logic(first, first) == 1
    assert T.compare_result_dfs(first, swapped, "select a order by b") == (0, 0, 0)
    assert T.compare_result_dfs(first, swapped, "select a") == (1, 1, 1)
    assert T.compare_result_dfs(wide, narrow, "select a") == (0, 0, 1)
    # None and NaN cells are compared as text, as the original does
    gaps, moved = pd.DataFrame([[None, 1.5], [2, None]]), pd.DataFrame([[2, None], [None, 1.5]])
    assert [T.compare_dfs_ignore_colnames_ordered_rows(gaps, moved), T.compare_dfs_ignore_colnames_unordered_rows(
        gaps, moved), T.compare_dfs_ignore_colnames_subset(gaps, moved)] == [False, True, True]


def test_queries_run_and_compare_on_a_database():
    connector = InMemoryDatabaseConnector({"db_type": "in_memory", "data": DATA})
    frame, seconds, error = T.run_query("SELECT a FROM t", connector, 5)
    assert frame.to_json() == '{"0":{"0":1,"1":2,"2":3}}' and seconds > 0 and error == ""
    assert T.run_query("  ", connector, 5) == (None, 0.0, "No SQL query found in the prediction.")
    assert T.run_query("SELECT zz FROM t", connector, 5)[2] == "Error executing SQL: no such column: zz"
    swapped = T.get_sql_execution_results("SELECT b, a FROM t", "SELECT a, b FROM t", connector, 5)
    assert (swapped.execution_accuracy, swapped.subset_non_empty_execution_accuracy,
            swapped.execution_accuracy_bird) == (1, 1, 0)
    extra = T.get_sql_execution_results("SELECT a, b FROM t WHERE c > 1", "SELECT a FROM t WHERE c > 1", connector, 5)
    assert (extra.execution_accuracy, extra.non_empty_execution_accuracy,
            extra.subset_non_empty_execution_accuracy) == (0, 0, 1)
    failing = T.get_sql_execution_results("SELECT nope FROM t", "SELECT a FROM t", connector, 5)
    assert (failing.predicted_error, failing.error_message) == (1, "Error executing SQL: no such column: nope")
    broken_gold = T.get_sql_execution_results("SELECT a FROM t", "SELECT nope FROM t", connector, 5)
    assert (broken_gold.gold_error, broken_gold.gold_df_json) == (1, "")
    same = T.get_sql_execution_results("select a from t where c > 100", "SELECT a FROM t WHERE c > 100", connector, 5)
    assert (same.execution_accuracy, same.non_empty_gold_df, same.predicted_df_json) == (1, 0, "{}")


def test_slow_queries_time_out():
    class Slow:
        def execute_query(self, sql):
            import time

            time.sleep(2)
            return [], None

    frame, seconds, error = T.run_query("SELECT 1", Slow(), 0.2)
    assert frame is None and seconds == 0.0 and error.startswith("Timeout: Function execute_query") and "0.200000" in error


def test_cache_keys_and_the_pass_through_cache():
    assert T.generate_cache_key("f", 1, [2, 3], a={"b": 1}) == T.generate_cache_key("f", 1, (2, 3), a={"b": 1})
    assert T.generate_cache_key() == "fca6eb91156619d0d15face3a31ee677"  # the original's keys: caches are shared
    assert T.generate_cache_key("f", 1, [2, 3], a={"b": 1}) == "ee56b2d53a5fca7cbe3ff91e25e7d364"
    cache = T.get_cache()
    assert cache is T.get_cache() and cache.cache is None  # UNITXT_CACHE_LOCATION is not set
    calls = []
    assert [cache.get_or_set("k", lambda: calls.append(1) or 5) for _ in range(2)] == [5, 5] and len(calls) == 2
    twice = cache.memoize()(lambda x: x * 2)
    assert twice(4) == 8


def test_cache_location_needs_diskcache(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "diskcache", None)  # absent (None in sys.modules makes importing it fail)
    monkeypatch.setattr("unitxt.metrics.sql_queries.CACHE_LOCATION", str(tmp_path))
    with pytest.raises(MissingRequirementError, match="pip install diskcache"):
        T.Cache()


def test_sql_parsers_are_optional_with_an_install_hint(monkeypatch):
    for package in ("sqlglot", "sqlparse"):
        monkeypatch.setitem(sys.modules, package, None)  # absent, whether or not this venv has them
    for call, package in ((lambda: T.is_sqlglot_parsable("SELECT 1"), "sqlglot"),
                          (lambda: T.is_sqlparse_parsable("SELECT 1"), "sqlparse"),
                          (lambda: T.replace_select_clause("SELECT a FROM t", "SELECT b FROM t"), "sqlglot"),
                          (lambda: T.sqlparse_queries_equivalent("SELECT a FROM t", "SELECT a FROM t"), "sqlparse")):
        with pytest.raises(MissingRequirementError, match=f"pip install {package}"):
            call()
