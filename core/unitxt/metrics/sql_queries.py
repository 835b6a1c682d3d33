"""Comparing SQL queries and their results (the original's `unitxt.text2sql_utils` helpers, served from metrics.sql).

Text checks run on the standard library (exact match after normalisation, alias stripping, finding the SQL in a model
answer); parsing and equivalence use the optional sqlglot / sqlparse packages, imported when called (an install hint
otherwise). Result tables are pandas DataFrames (`run_query` makes them; pandas is optional too) compared ignoring
column names. `Cache` keeps execution results on disk with the optional diskcache package when UNITXT_CACHE_LOCATION
is set, and is a pass-through otherwise.
"""

import functools
import hashlib
import json
import os
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Optional, Tuple

import numpy as np

from ..errors import MissingRequirementError
from ..logging_utils import get_logger

CACHE_LOCATION = os.getenv("UNITXT_CACHE_LOCATION")  # a directory: execution results are cached there (diskcache)
MAX_CACHE_SIZE = os.getenv("MAX_CACHE_SIZE", 10 * 1024**3)  # bytes (10 GB unless MAX_CACHE_SIZE says otherwise)
CLAUSE_KEYWORDS = ("FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT")  # where a SELECT list or a clause ends
ALL_DIALECTS = ["Athena", "BigQuery", "ClickHouse", "Databricks", "Doris", "Drill", "Druid", "DuckDB", "Hive",
                "Materialize", "MySQL", "Oracle", "Postgres", "Presto", "PRQL", "Redshift", "RisingWave", "Snowflake",
                "Spark", "Spark2", "SQLite", "StarRocks", "Tableau", "Teradata", "Trino", "TSQL"]  # sqlglot's dialects


def _optional(module: str, package: str, purpose: str) -> Any:
    """An optional package's module, or MissingRequirementError with how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingRequirementError(f"{purpose} needs the '{package}' package: pip install {package}",
                                      stage="text2sql") from None


# ---------------------------------------------------------------- result records
@dataclass
class SQLNonExecutionMetricResult:
    """Scores of comparing a predicted query with the gold one without running them (1/0 each)."""

    sqlglot_validity: int
    sqlparse_validity: int
    sqlglot_equivalence: int
    sqlglot_optimized_equivalence: int
    sqlparse_equivalence: int
    sql_exact_match: int
    sql_syntactic_equivalence: int  # any of the equivalences above


@dataclass
class SQLExecutionResult:
    """Scores and details of running a predicted and a gold query and comparing their result tables."""

    execution_accuracy: int
    non_empty_execution_accuracy: int
    subset_non_empty_execution_accuracy: int
    execution_accuracy_bird: int
    non_empty_gold_df: int
    gold_sql_runtime: float
    predicted_sql_runtime: float
    pred_to_gold_runtime_ratio: float
    gold_error: int
    predicted_error: int
    gold_df_json: str
    predicted_df_json: str
    error_message: str


# ---------------------------------------------------------------- text checks (standard library)
def sql_exact_match(sql1: str, sql2: str) -> bool:
    """Equal after trimming, dropping trailing semicolons, collapsing whitespace and upper-casing."""
    def normalized(sql: str) -> str:
        return re.sub(r"\s+", " ", sql.strip().rstrip(";")).upper()

    return normalized(sql1) == normalized(sql2)


def strip_alias(col: str) -> str:
    """A select-list item without its alias ("price AS p" and "price p" give "price")."""
    col = col.strip()
    position = col.upper().find(" AS ")
    if position >= 0:
        return col[:position].strip()
    words = col.split()
    return " ".join(words[:-1]) if len(words) > 1 else col


def extract_sql_from_text(text: str) -> str:
    """The first SQL query of a model answer: a ```sql fenced block, else a statement starting a line (or after a
    colon) up to its semicolon, else from such a start to the end; "" when there is none."""
    fenced = re.search(r"```sql\s+(.*?)```", text, re.IGNORECASE | re.DOTALL)
    if fenced:
        return fenced.group(1).strip()
    for body in (r".*?;", r".*"):  # up to the first semicolon, else to the end
        found = re.search(rf"(?:^|\n|:\s*)((?:SELECT|INSERT|UPDATE|DELETE|WITH)\s+{body})", text,
                          re.IGNORECASE | re.DOTALL)
        if found:
            return found.group(1).strip()
    return ""


# ---------------------------------------------------------------- parsing checks (sqlglot / sqlparse)
def is_sqlglot_parsable(sql: str, db_type: str = "sqlite") -> bool:
    """Whether sqlglot parses the query in the dialect `db_type` (db2 is read as postgres)."""
    sqlglot = _optional("sqlglot", "sqlglot", "is_sqlglot_parsable")
    if not sql.strip():
        return False
    try:
        sqlglot.parse(sql, read="postgres" if db_type == "db2" else db_type)
        return True
    except Exception as error:  # noqa: BLE001 - any parse failure means "not parsable"
        get_logger().debug(f"SQL query could not parse: {error}")
        return False


def is_sqlparse_parsable(sql: str) -> bool:
    """Whether sqlparse reads the query without an error token."""
    sqlparse = _optional("sqlparse", "sqlparse", "is_sqlparse_parsable")
    from sqlparse.tokens import Error

    if not sql.strip():
        return False
    try:
        return not any(token.ttype == Error for statement in sqlparse.parse(sql) for token in statement.tokens)
    except Exception as error:  # noqa: BLE001
        get_logger().debug(f"SQL query could not parse: {error}")
        return False


def sqlglot_optimized_equivalence(expected: str, generated: str) -> int:
    """1 when sqlglot's optimizer turns both (lower-cased) queries into trees with no difference, else 0."""
    sqlglot = _optional("sqlglot", "sqlglot", "sqlglot_optimized_equivalence")
    from sqlglot.optimizer import optimize

    try:
        trees = [optimize(sqlglot.parse_one(query.lower()).sql(pretty=True)) for query in (expected, generated)]
        changes = [edit for edit in sqlglot.diff(*trees) if type(edit).__name__ != "Keep"]
        return 1 if not changes else 0
    except Exception as error:  # noqa: BLE001 - unparsable or unoptimizable queries are not equivalent
        get_logger().debug(f"Error parsing SQL for comparison: {error}")
        return False


def sqlglot_parsed_queries_equivalent(sql1: str, sql2: str, dialect: str = "") -> bool:
    """Both parse as SELECTs with the same select items (aliases ignored, any order) and the same from, where, group,
    having and order clauses, as sqlglot normalises them."""
    sqlglot = _optional("sqlglot", "sqlglot", "sqlglot_parsed_queries_equivalent")
    select = sqlglot.exp.Select
    try:
        trees = [sqlglot.parse_one(sql, read=dialect) for sql in (sql1, sql2)]
    except Exception:  # noqa: BLE001
        return False
    if not all(isinstance(tree, select) for tree in trees):
        return False

    def items(tree: Any) -> FrozenSet[str]:
        unaliased = [item.copy() for item in tree.expressions]
        for item in unaliased:
            item.set("alias", None)
        return frozenset(item.sql(dialect=dialect, normalize=True) for item in unaliased)

    def clause(tree: Any, key: str) -> str:
        part = tree.args.get(key)
        return part.sql(dialect=dialect, normalize=True) if part else ""

    return items(trees[0]) == items(trees[1]) and all(
        clause(trees[0], key) == clause(trees[1], key) for key in ("from", "where", "group", "having", "order"))


def extract_select_columns(statement: Any) -> FrozenSet[str]:
    """The select items (aliases stripped) of a sqlparse statement."""
    _optional("sqlparse", "sqlparse", "extract_select_columns")
    from sqlparse.sql import Identifier, IdentifierList
    from sqlparse.tokens import DML, Keyword

    columns, in_select = [], False
    for token in statement.tokens:
        if token.ttype is DML and token.value.upper() == "SELECT":
            in_select = True
        elif in_select:
            if token.ttype is Keyword and token.value.upper() in CLAUSE_KEYWORDS:
                break
            if isinstance(token, IdentifierList):
                columns += [strip_alias(identifier.value) for identifier in token.get_identifiers()]
            elif isinstance(token, Identifier) or token.value.strip():
                columns.append(strip_alias(token.value.strip()))
    return frozenset(columns)


def collect_clause(statement: Any, clause_keyword: str) -> str:
    """The text of a sqlparse statement's clause that starts with `clause_keyword` (e.g. "WHERE"), up to the next
    clause keyword; "" when it has none."""
    _optional("sqlparse", "sqlparse", "collect_clause")
    from sqlparse.tokens import Keyword

    collected, inside = [], False
    for token in statement.tokens:
        if token.ttype is Keyword:
            keyword = token.value.upper()
            if keyword.startswith(clause_keyword):
                inside = True
                continue
            if inside and keyword in CLAUSE_KEYWORDS:
                break
        if inside:
            collected.append(token.value)
    return " ".join(collected).strip()


def extract_select_info(sql: str) -> Optional[Dict[str, Any]]:
    """{"columns", "from", "where", "group", "having", "order"} of a single SELECT statement (None otherwise)."""
    sqlparse = _optional("sqlparse", "sqlparse", "extract_select_info")
    from sqlparse.tokens import DML

    statements = sqlparse.parse(sql)
    if len(statements) != 1:
        return None
    statement = statements[0]
    if not any(token.ttype is DML and token.value.upper() == "SELECT" for token in statement.tokens):
        return None
    info: Dict[str, Any] = {"columns": extract_select_columns(statement) or frozenset()}
    for key in ("from", "where", "group", "having", "order"):
        info[key] = collect_clause(statement, key.upper())
    return info


def sqlparse_queries_equivalent(sql1: str, sql2: str) -> bool:
    """Both are single SELECTs with the same select items and the same clauses (ignoring spaces and case)."""
    try:
        first, second = extract_select_info(sql1), extract_select_info(sql2)
        if not first or not second or first["columns"] != second["columns"]:
            return False
        return all(first[key].replace(" ", "").upper() == second[key].replace(" ", "").upper()
                   for key in ("from", "where", "group", "having", "order"))
    except MissingRequirementError:
        raise
    except Exception as error:  # noqa: BLE001
        get_logger().debug(f"Error parsing SQL query for comparison: {error}")
        return False


def replace_select_clause(source_query: str, target_query: str, dialect: str = "postgres") -> str:
    """`target_query` with the select list of `source_query` (both must be SELECTs; ValueError otherwise)."""
    sqlglot = _optional("sqlglot", "sqlglot", "replace_select_clause")
    dialect = dialect or "postgres"
    source, target = (sqlglot.parse_one(query, read=dialect) for query in (source_query, target_query))
    if not isinstance(source, sqlglot.exp.Select) or not isinstance(target, sqlglot.exp.Select):
        raise ValueError("Both queries must be valid SELECT statements.")
    target.set("expressions", source.expressions)
    return target.sql(dialect=dialect)


# ---------------------------------------------------------------- result tables (pandas DataFrames)
def _cells_as_text(df: Any) -> np.ndarray:
    return df.values.astype(str)


def compare_dfs_ignore_colnames_ordered_rows(df1: Any, df2: Any) -> bool:
    """Same shape, and row i of each holds the same values (as text, in any column order)."""
    if df1.shape != df2.shape:
        return False
    return bool(np.array_equal(np.sort(_cells_as_text(df1), axis=1), np.sort(_cells_as_text(df2), axis=1)))


def compare_dfs_ignore_colnames_unordered_rows(df1: Any, df2: Any) -> bool:
    """Same shape, and the same values (as text) once each row and then each column is sorted."""
    if df1.shape != df2.shape:
        return False
    def canonical(df: Any) -> np.ndarray:
        return np.sort(np.sort(_cells_as_text(df), axis=1), axis=0)

    return bool(np.array_equal(canonical(df1), canonical(df2)))


def compare_dfs_ignore_colnames_subset(df1: Any, df2: Any, ignore_row_order: bool = True) -> bool:
    """Whether each row of the table with fewer columns is a sub-multiset (values as text) of the same row of the
    other; both non-empty with as many rows. With `ignore_row_order` every column of both is sorted first (an
    approximation: it may accept tables that are not subsets)."""
    if df1.empty or df2.empty or len(df1) != len(df2):
        return False
    narrow, wide = (df1, df2) if df1.shape[1] <= df2.shape[1] else (df2, df1)
    if ignore_row_order:
        narrow, wide = ((table.astype(str).apply(lambda column: column.sort_values(ignore_index=True)))
                        for table in (narrow, wide))
    for small, big in zip(narrow.values, wide.values):
        have = Counter(str(value) for value in big)
        if any(count > have.get(value, 0) for value, count in Counter(str(value) for value in small).items()):
            return False
    return True


def compare_dfs_bird_eval_logic(df1: Any, df2: Any) -> int:
    """1 when both tables hold the same set of rows (values as text), as BIRD's evaluation compares results."""
    return int({tuple(row) for row in _cells_as_text(df1)} == {tuple(row) for row in _cells_as_text(df2)})


def compare_result_dfs(gold_df: Any, pred_df: Any, gold_sql: str) -> Tuple[int, int, int]:
    """(match, non-empty match, subset match) of a predicted result table with the gold one, column names ignored;
    rows compared in order only when the gold query has ORDER BY."""
    ordered = "ORDER BY" in gold_sql.upper()
    compare = compare_dfs_ignore_colnames_ordered_rows if ordered else compare_dfs_ignore_colnames_unordered_rows
    match = int(compare(pred_df, gold_df))
    if gold_df.empty or pred_df.empty:
        return match, 0, 0
    return match, match, int(compare_dfs_ignore_colnames_subset(gold_df, pred_df, ignore_row_order=not ordered))


def run_query(sql: str, connector: Any, sql_timeout: float) -> Tuple[Any, float, str]:
    """(result DataFrame or None, seconds it took, error message or "") of running `sql` with the connector's
    execute_query, given at most `sql_timeout` seconds."""
    pandas = _optional("pandas", "pandas", "run_query")
    if not sql.strip():
        return None, 0.0, "No SQL query found in the prediction."
    outcome: Dict[str, Any] = {}

    def execute() -> None:
        try:
            outcome["value"] = connector.execute_query(sql)
        except Exception as error:  # noqa: BLE001 - reported as the query's error
            outcome["error"] = error

    start = time.perf_counter()
    worker = threading.Thread(target=execute, daemon=True)
    worker.start()
    worker.join(sql_timeout)
    if worker.is_alive():
        return None, 0.0, (f"Timeout: Function execute_query (args=({sql!r},)) (kwargs={{}}) timed out after "
                           f"{float(sql_timeout):f} seconds.\n")
    duration = time.perf_counter() - start
    if "error" in outcome:
        return None, 0.0, f"Error: {outcome['error']}"
    try:
        result, error = outcome["value"]
    except (TypeError, ValueError) as problem:
        return None, 0.0, f"Error: {problem}"
    if isinstance(result, dict) and "results" in result:
        result = result["results"]
    if error:
        return None, duration, error
    return pandas.DataFrame(result), duration, ""


def _execution_result(gold_df: Any, gold_runtime: float, **scores: Any) -> SQLExecutionResult:
    defaults = dict(execution_accuracy=0, non_empty_execution_accuracy=0, subset_non_empty_execution_accuracy=0,
                    execution_accuracy_bird=0, non_empty_gold_df=0, gold_sql_runtime=gold_runtime,
                    predicted_sql_runtime=0, pred_to_gold_runtime_ratio=0, gold_error=0, predicted_error=0,
                    gold_df_json="" if gold_df is None else gold_df.to_json(), predicted_df_json="", error_message="")
    return SQLExecutionResult(**{**defaults, **scores})


def get_sql_execution_results(predicted_sql: str, gold_sql: str, connector: Any,
                              sql_timeout: float) -> SQLExecutionResult:
    """Run the gold query, then (unless the prediction is the same text or sqlglot-equivalent) the predicted one, and
    compare their results: exact, non-empty, subset and BIRD matches, runtimes and errors."""
    gold_df, gold_runtime, gold_message = run_query(gold_sql, connector, sql_timeout)
    if gold_message:
        return _execution_result(None, gold_runtime, gold_error=1, error_message=gold_message)
    non_empty = int(not gold_df.empty)
    as_gold = dict(execution_accuracy=1, non_empty_execution_accuracy=non_empty, execution_accuracy_bird=1,
                   subset_non_empty_execution_accuracy=non_empty, non_empty_gold_df=non_empty,
                   predicted_df_json=gold_df.to_json())
    if predicted_sql.strip().lower() == gold_sql.strip().lower():
        return _execution_result(gold_df, gold_runtime, **as_gold)
    try:
        if sqlglot_optimized_equivalence(gold_sql, predicted_sql):
            return _execution_result(gold_df, gold_runtime, **as_gold)
    except Exception as error:  # noqa: BLE001 - without sqlglot, the queries are run and compared
        get_logger().info(f"Could not check SQL equivalence: {error}")
    pred_df, pred_runtime, pred_message = run_query(predicted_sql, connector, sql_timeout)
    timing = dict(non_empty_gold_df=non_empty, predicted_sql_runtime=pred_runtime,
                  pred_to_gold_runtime_ratio=pred_runtime / gold_runtime if gold_runtime > 0 else 0,
                  error_message=pred_message)
    if pred_df is None:
        return _execution_result(gold_df, gold_runtime, predicted_error=int(bool(pred_message)), **timing)
    match, non_empty_match, subset_match = compare_result_dfs(gold_df, pred_df, gold_sql)
    return _execution_result(gold_df, gold_runtime, execution_accuracy=match,
                             non_empty_execution_accuracy=non_empty_match,
                             subset_non_empty_execution_accuracy=subset_match,
                             execution_accuracy_bird=compare_dfs_bird_eval_logic(gold_df, pred_df),
                             predicted_df_json=pred_df.to_json(), **timing)


# ---------------------------------------------------------------- the execution cache
def generate_cache_key(*args: Any, **kwargs: Any) -> str:
    """A stable key for call arguments: the MD5 of their sorted JSON (unserialisable values by str, else repr)."""
    try:
        serialized = json.dumps({"args": args, "kwargs": kwargs}, sort_keys=True, default=str)
    except TypeError:
        serialized = repr((args, kwargs))
    return hashlib.md5(serialized.encode()).hexdigest()


def _worth_keeping(result: Any) -> bool:
    """Empty results and (None, error) pairs are recomputed next time rather than cached."""
    return bool(result) and not (isinstance(result, tuple) and len(result) == 2 and result[0] is None)


class Cache:
    """Results of expensive calls (SQL executions) kept on disk in CACHE_LOCATION with diskcache, up to
    MAX_CACHE_SIZE bytes; without CACHE_LOCATION every call computes (`cache` is None)."""

    def __init__(self) -> None:
        self.cache = None
        if CACHE_LOCATION:
            diskcache = _optional("diskcache", "diskcache", "UNITXT_CACHE_LOCATION (the text2sql execution cache)")
            os.makedirs(CACHE_LOCATION, exist_ok=True)
            self.cache = diskcache.Cache(CACHE_LOCATION, size_limit=int(MAX_CACHE_SIZE))
            get_logger().info(f"Caching enabled at {CACHE_LOCATION}")

    def _lookup(self, key: str, refresh: bool) -> Tuple[bool, Any]:
        if refresh and key in self.cache:
            del self.cache[key]
        if key in self.cache:
            get_logger().info(f"Cache hit for key: {key}")
            return True, self.cache[key]
        return False, None

    def get_or_set(self, key: str, compute_fn: Callable[[], Any], no_cache: bool = False,
                   refresh: bool = False) -> Any:
        """The cached value of `key`, else `compute_fn()` (kept unless empty or an error pair)."""
        if self.cache is None or no_cache:
            return compute_fn()
        hit, value = self._lookup(key, refresh)
        if hit:
            return value
        value = compute_fn()
        if _worth_keeping(value):
            self.cache[key] = value
        return value

    async def async_get_or_set(self, key: str, compute_fn: Callable[[], Any], no_cache: bool = False,
                               refresh: bool = False) -> Any:
        """get_or_set for a coroutine function (its result is always kept)."""
        if self.cache is None or no_cache:
            return await compute_fn()
        hit, value = self._lookup(key, refresh)
        if not hit:
            value = await compute_fn()
            self.cache[key] = value
        return value

    def memoize(self, key_func: Callable[..., str] = generate_cache_key, no_cache: bool = False,
                refresh: bool = False) -> Callable[[Callable], Callable]:
        """A decorator caching a function's results by `key_func(function name, *args, **kwargs)`."""
        def decorator(func: Callable) -> Callable:
            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                if self.cache is None or no_cache:
                    return func(*args, **kwargs)
                key = key_func(func.__name__, *args, **kwargs)
                hit, value = self._lookup(key, refresh)
                if not hit:
                    value = self.cache[key] = func(*args, **kwargs)
                return value

            return wrapper

        return decorator

    def async_memoize(self, key_func: Callable[..., str] = generate_cache_key, no_cache: bool = False,
                      refresh: bool = False) -> Callable[[Callable], Callable]:
        """memoize for coroutine functions."""
        def decorator(func: Callable) -> Callable:
            @functools.wraps(func)
            async def wrapper(*args: Any, **kwargs: Any) -> Any:
                if self.cache is None or no_cache:
                    return await func(*args, **kwargs)
                key = key_func(func.__name__, *args, **kwargs)
                hit, value = self._lookup(key, refresh)
                if not hit:
                    value = self.cache[key] = await func(*args, **kwargs)
                return value

            return wrapper

        return decorator


_cache_instance: Optional[Cache] = None


def get_cache() -> Cache:
    """The process's one Cache (made on first use)."""
    global _cache_instance
    if _cache_instance is None:
        _cache_instance = Cache()
    return _cache_instance
