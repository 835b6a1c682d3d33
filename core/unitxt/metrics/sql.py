"""Text-to-SQL metrics: execution accuracy over a SQLite database (stdlib sqlite3), and non-execution equivalence.

sql_execution_accuracy runs the gold and the predicted query through the database's connector and compares their
result tables as the original does (sql_queries.get_sql_execution_results). Queries run sandboxed: a file database is opened
read-only (`mode=ro` URI), an authorizer refuses everything but reading (writes, ATTACH, PRAGMA, DDL), a progress
handler stops a query past `sql_timeout` seconds and at most `max_rows` rows are fetched. The database comes from
task_data `db`: {"db_type": "sqlite"/"local", "db_path": file} or {"db_type": "in_memory", "data": {table:
{"columns": [...], "rows": [[...], ...]}}}.
"""

import sqlite3
import time
from dataclasses import asdict
from typing import Any, Dict, List, Optional, Tuple

from ..errors import MetricError
from .base import InstanceMetric
from .sql_queries import (ALL_DIALECTS, CACHE_LOCATION, MAX_CACHE_SIZE, Cache, SQLExecutionResult,  # noqa: F401
                          SQLNonExecutionMetricResult, collect_clause, compare_dfs_bird_eval_logic,
                          compare_dfs_ignore_colnames_ordered_rows, compare_dfs_ignore_colnames_subset,
                          compare_dfs_ignore_colnames_unordered_rows, compare_result_dfs, extract_select_columns,
                          extract_select_info, extract_sql_from_text, generate_cache_key, get_cache,
                          get_sql_execution_results, is_sqlglot_parsable, is_sqlparse_parsable, replace_select_clause,
                          run_query, sql_exact_match, sqlglot_optimized_equivalence, sqlglot_parsed_queries_equivalent,
                          sqlparse_queries_equivalent, strip_alias)  # the original's text2sql_utils, served from here
from ..module_aliases import moved_classes


class SQLSandboxError(MetricError):
    """A query was refused or stopped by the SQL sandbox."""


_ALLOWED_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", None)
if _RECURSIVE is not None:
    _ALLOWED_ACTIONS.add(_RECURSIVE)


def _read_only_authorizer(action: int, arg1: Any, arg2: Any, db_name: Any, trigger: Any) -> int:
    return sqlite3.SQLITE_OK if action in _ALLOWED_ACTIONS else sqlite3.SQLITE_DENY


def _quote(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def open_database(db: Dict[str, Any]) -> sqlite3.Connection:
    """A connection to the database described by task_data `db`, not yet restricted (see run_read_only)."""
    if not isinstance(db, dict):
        raise MetricError(f"task_data 'db' must be a dict describing the database, got {type(db).__name__}.")
    db_type = db.get("db_type", "sqlite")
    if db_type == "in_memory":
        tables = db.get("data")
        if not isinstance(tables, dict) or not tables:
            raise MetricError("An in_memory database needs 'data': {table: {'columns': [...], 'rows': [...]}}.")
        connection = sqlite3.connect(":memory:")
        for name, table in tables.items():
            columns = list(table["columns"])
            connection.execute(f"CREATE TABLE {_quote(name)} ({', '.join(_quote(c) for c in columns)})")
            placeholders = ", ".join("?" for _ in columns)
            connection.executemany(f"INSERT INTO {_quote(name)} VALUES ({placeholders})",
                                   [list(row) for row in table.get("rows", [])])
        connection.commit()
        return connection
    if db_type in ("sqlite", "local"):
        path = db.get("db_path") or db.get("path")
        if not path:
            raise MetricError(f"A {db_type} database needs 'db_path', the SQLite file to query (read-only).")
        from pathlib import Path

        if not Path(path).is_file():
            raise MetricError(f"SQLite database file not found: {path}.")
        return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    raise MetricError(f"Unsupported db_type {db_type!r}; use 'sqlite' (with db_path) or 'in_memory' (with data). "
                      "Remote databases are not supported.")


def run_read_only(connection: sqlite3.Connection, query: str, timeout: float, max_rows: int) -> List[Tuple[Any, ...]]:
    """Rows of `query` under the sandbox: read-only authorizer, time budget, row cap (SQLSandboxError past them)."""
    deadline = time.monotonic() + timeout
    connection.set_authorizer(_read_only_authorizer)
    connection.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 1000)
    try:
        cursor = connection.execute(query)
        rows = cursor.fetchmany(max_rows + 1)
    except sqlite3.OperationalError as error:
        if "interrupted" in str(error):
            raise SQLSandboxError(f"SQL query exceeded its time budget of {timeout}s.") from None
        raise
    finally:
        connection.set_progress_handler(None, 0)
    if len(rows) > max_rows:
        raise SQLSandboxError(f"SQL query returned more than {max_rows} rows.")
    return rows


def extract_select(prediction: str) -> str:
    """From a model answer: the text from its first SELECT, cut after the first semicolon."""
    if not prediction.startswith("SELECT") and "SELECT" in prediction:
        prediction = prediction[prediction.find("SELECT"):]
    if ";" in prediction:
        prediction = prediction[: prediction.find(";") + 1]
    return prediction


class DatabaseConnector:
    """A database a text-to-SQL task describes (`db` of task_data): its schema as CREATE statements and query
    results as (rows, error message) - the original's `text2sql_utils` interface."""

    sql_timeout: float = 60.0  # the sandbox's time budget of one query (a metric sets its own)
    max_rows: int = 1_000_000

    def __init__(self, db_config: Dict[str, Any]):
        self.db_config = db_config

    def _connect(self) -> sqlite3.Connection:
        return open_database(self.db_config)

    def get_table_schema(self) -> str:
        """One `CREATE TABLE` statement per table (columns typed TEXT, names in backticks), blank-line separated."""
        connection = self._connect()
        try:
            statements = []
            for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY rowid"):
                columns = [row[1] for row in connection.execute(f"PRAGMA table_info({_quote(table)})")]
                statements.append(f"CREATE TABLE `{table}` ({', '.join(f'`{c}` TEXT' for c in columns)});")
            return "\n\n".join(statements)
        finally:
            connection.close()

    def execute_query(self, query: str) -> Tuple[Any, Optional[str]]:
        """(rows, None), or (None, "Error executing SQL: ...") when the query fails; read-only and time-bounded."""
        connection = self._connect()
        try:
            return run_read_only(connection, query, timeout=self.sql_timeout, max_rows=self.max_rows), None
        except (sqlite3.Error, SQLSandboxError) as error:
            return None, f"Error executing SQL: {error}"
        finally:
            connection.close()


class InMemoryDatabaseConnector(DatabaseConnector):
    """Tables given in `db_config["data"]` ({table: {"columns": [...], "rows": [...]}}), built in memory."""

    def __init__(self, db_config: Dict[str, Any]):
        if not isinstance(db_config, dict) or not db_config.get("data"):
            raise MetricError("data is required for InMemoryDatabaseConnector.", field="data")
        super().__init__(dict(db_config, db_type="in_memory"))
        self.tables = db_config["data"]

    def get_table_schema(self, select_tables: Optional[List[str]] = None) -> str:
        """The CREATE statements of all tables, or of `select_tables` only."""
        schema = super().get_table_schema()
        if select_tables is None:
            return schema
        return "\n\n".join(statement for statement in schema.split("\n\n")
                             if any(statement.startswith(f"CREATE TABLE `{table}` ") for table in select_tables))


class LocalSQLiteConnector(DatabaseConnector):
    """A local SQLite file: `db_config["db_path"]`, or the file of `db_id` found by `get_db_file_path`."""

    def __init__(self, db_config: Dict[str, Any]):
        if db_config.get("db_path") or db_config.get("path"):
            self.db_path = db_config.get("db_path") or db_config.get("path")
        else:
            if not db_config.get("db_id"):
                raise MetricError("db_id is required for a local SQLite database (or give db_path).", field="db_id")
            self.db_path = self.get_db_file_path(db_config["db_id"])
        super().__init__(dict(db_config, db_type="sqlite", db_path=self.db_path))
        self.conn = sqlite3.connect(self.db_path)
        self.cursor = self.conn.cursor()

    def get_db_file_path(self, db_id: str) -> str:
        """The one `<db_id>.sqlite` file under the directory UNITXT_TEXT2SQL_DB_DIR (default: the working directory);
        none found: `download_database`."""
        import glob
        import os

        root = os.environ.get("UNITXT_TEXT2SQL_DB_DIR", ".")
        found = glob.glob(os.path.join(root, "**", f"{db_id}.sqlite"), recursive=True)
        if len(found) > 1:
            raise FileExistsError(f"More than one SQLite file matched db_id {db_id!r}: {found}.")
        if not found:
            self.download_database(db_id)
            raise FileNotFoundError(f"No SQLite file for db_id {db_id!r} under {root}.")
        return found[0]

    def download_database(self, db_name: str) -> None:
        raise NotImplementedError(f"Downloading database {db_name!r} is not supported here: place its SQLite file "
                                  "under UNITXT_TEXT2SQL_DB_DIR or give db_path.")


class RemoteDatabaseConnector(DatabaseConnector):
    """A database behind a SQL API: `db_id` is "<api url>,db_id=<database id>"; the key comes from SQL_API_KEY."""

    def __init__(self, db_config: Dict[str, Any]):
        import os

        self.db_config = db_config
        url, _, rest = str(db_config.get("db_id") or "").partition(",")
        self.api_url = url.strip()
        self.database_id = rest.split("db_id=", 1)[-1].strip() if "db_id=" in rest else None
        self.api_key = os.environ.get("SQL_API_KEY")
        if not self.api_url or not self.database_id:
            raise MetricError("A remote database needs db_id '<api url>,db_id=<database id>', got "
                              f"{db_config.get('db_id')!r}.", field="db_id")
        if not self.api_key:
            raise MetricError("A remote database needs the SQL_API_KEY environment variable.", field="db_id")

    def _post(self, endpoint: str, payload: Dict[str, Any]) -> Any:
        import requests

        return requests.post(f"{self.api_url}/{endpoint}", json=payload, timeout=60,
                             headers={"Authorization": f"Bearer {self.api_key}"})

    def get_table_schema(self, select_tables: Optional[List[str]] = None) -> str:
        response = self._post("datasource/schema", {"database_id": self.database_id})
        if response.status_code != 200:
            raise OSError(f"Could not read the schema of {self.database_id!r}: HTTP {response.status_code}.")
        tables = response.json().get("schema", {}).get("tables", [])
        return "".join(f"Table: {table['table_name']} has columns: "
                       f"{[column['column_name'] for column in table.get('columns', [])]}\n"
                       for table in tables if select_tables is None or table["table_name"] in select_tables)

    def execute_query(self, query: str) -> Tuple[Any, Optional[str]]:
        import requests

        try:
            response = self._post("sql", {"database_id": self.database_id, "sql": query})
            if response.status_code != 200:
                return None, f"Error executing SQL: HTTP {response.status_code}"
            return response.json().get("results"), None
        except requests.exceptions.RequestException as error:
            return None, f"Error executing SQL: {error}"


def get_db_connector(db_type: str) -> type:
    """The connector class of a `db_type` ("in_memory", "local"/"sqlite", "remote")."""
    connectors = {"in_memory": InMemoryDatabaseConnector, "local": LocalSQLiteConnector,
                  "sqlite": LocalSQLiteConnector, "remote": RemoteDatabaseConnector}
    if db_type not in connectors:
        raise MetricError(f"Unsupported database type: {db_type}. Supported: {sorted(connectors)}.")
    return connectors[db_type]


class SQLExecutionAccuracy(InstanceMetric):
    """Execution accuracy of predicted SQL (taken from the answer by extract_sql_from_text) against the gold query
    (first reference) on the database of task_data `db`, through its connector's read-only execute_query: exact,
    non-empty, subset and BIRD matches, runtimes and error flags (get_sql_execution_results)."""

    main_score = "non_empty_execution_accuracy"
    reduction_map = {"mean": ["execution_accuracy", "non_empty_execution_accuracy",
                              "subset_non_empty_execution_accuracy", "execution_accuracy_bird", "non_empty_gold_df",
                              "gold_sql_runtime", "predicted_sql_runtime", "pred_to_gold_runtime_ratio", "gold_error",
                              "predicted_error"]}
    ci_scores = ["execution_accuracy", "non_empty_execution_accuracy", "subset_non_empty_execution_accuracy",
                 "execution_accuracy_bird", "gold_sql_runtime", "predicted_sql_runtime"]
    prediction_type = "Any"
    sql_timeout: float = 60.0
    max_rows: int = 100000

    def compute(self, references, prediction, task_data):
        db = (task_data or {}).get("db")
        if not isinstance(db, dict):
            raise MetricError("SQLExecutionAccuracy needs task_data 'db' describing the database.",
                              artifact=self.artifact_name, field="task_data")
        connector = get_db_connector(db.get("db_type"))(db)
        connector.sql_timeout, connector.max_rows = self.sql_timeout, self.max_rows  # the sandbox stops it too
        predicted = extract_sql_from_text(str(prediction or ""))
        return asdict(get_sql_execution_results(predicted, str(references[0]), connector, self.sql_timeout))


def _top_level_select_list(query: str) -> Optional[Tuple[int, int]]:
    """Where the select list of a SELECT query lies (start, end): between its first SELECT keyword and the FROM at
    parenthesis depth 0 outside quotes; None when the query has no such pair."""
    lowered, depth, quote, start = query.lower(), 0, None, None
    index = 0
    while index < len(query):
        char = query[index]
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and (index == 0 or not (lowered[index - 1].isalnum() or lowered[index - 1] == "_")):
            word = lowered[index:index + 6]
            following = lowered[index + 6:index + 7]
            if start is None and word == "select" and not (following.isalnum() or following == "_"):
                start = index + 6
            elif start is not None and lowered[index:index + 4] == "from" and not (
                    lowered[index + 4:index + 5].isalnum() or lowered[index + 4:index + 5] == "_"):
                return start, index
        index += 1
    return None


def with_select_list_of(gold_sql: str, predicted_sql: str) -> str:
    """The predicted query with the gold query's select list (so only its FROM / WHERE / ... logic is compared);
    '' when either is not a SELECT ... FROM query."""
    gold, predicted = _top_level_select_list(gold_sql), _top_level_select_list(predicted_sql)
    if gold is None or predicted is None:
        return ""
    return predicted_sql[:predicted[0]] + gold_sql[gold[0]:gold[1]] + predicted_sql[predicted[1]:]


class SQLExecutionLogicAccuracy(SQLExecutionAccuracy):
    """Execution accuracy of the predicted query's logic: it runs with the gold query's select list in place of its
    own, so a right row set with other columns (or column order) still counts as correct."""

    def compute(self, references, prediction, task_data):
        predicted = extract_select(str(prediction or ""))
        gold_sql = str(references[0]) if references else ""
        revised = with_select_list_of(gold_sql, predicted) if gold_sql and predicted.strip() else ""
        return super().compute(references, revised, task_data)


class SQLNonExecutionAccuracy(InstanceMetric):
    """Equivalence of predicted and gold SQL without running them: exact match after normalisation, and parse
    validity and equivalence by the optional sqlglot and sqlparse packages (required to run this metric)."""

    main_score = "sqlglot_equivalence"
    reduction_map = {"mean": ["sqlglot_validity", "sqlparse_validity", "sqlglot_equivalence",
                              "sqlglot_optimized_equivalence", "sqlparse_equivalence", "sql_exact_match",
                              "sql_syntactic_equivalence"]}
    ci_scores = ["sqlglot_validity", "sqlparse_validity", "sqlglot_equivalence", "sqlglot_optimized_equivalence",
                 "sqlparse_equivalence", "sql_exact_match", "sql_syntactic_equivalence"]
    prediction_type = "Any"
    _requirements_list = {"sqlglot": "SQL parsing for equivalence", "sqlparse": "SQL formatting for equivalence"}

    def compute(self, references, prediction, task_data):
        predicted, gold = extract_sql_from_text(str(prediction or "")), str(references[0])
        glot_ok, parse_ok = is_sqlglot_parsable(predicted), is_sqlparse_parsable(predicted)
        result = {
            "sqlglot_validity": int(glot_ok),
            "sqlparse_validity": int(parse_ok),
            "sqlglot_equivalence": int(glot_ok and sqlglot_parsed_queries_equivalent(predicted, gold)),
            "sqlglot_optimized_equivalence": int(glot_ok and bool(sqlglot_optimized_equivalence(predicted, gold))),
            "sqlparse_equivalence": int(parse_ok and sqlparse_queries_equivalent(predicted, gold)),
            "sql_exact_match": int(sql_exact_match(predicted, gold)),
        }
        result["sql_syntactic_equivalence"] = int(any(result[key] for key in (
            "sqlglot_equivalence", "sqlglot_optimized_equivalence", "sqlparse_equivalence", "sql_exact_match")))
        return result


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
