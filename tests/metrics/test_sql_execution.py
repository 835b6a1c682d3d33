"""Text-to-SQL metrics: execution accuracy over in-memory and file SQLite databases, and the sandbox (read-only
file access, no writes/ATTACH/PRAGMA, time budget, row cap)."""

import sqlite3

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError, MissingRequirementError
from unitxt.metrics.sql import SQLExecutionAccuracy, SQLSandboxError, open_database, run_read_only

DB = {"db_type": "in_memory", "data": {"people": {"columns": ["name", "age"],
                                                  "rows": [["ann", 31], ["bob", 25], ["cy", 40]]}}}


def scores(predictions, golds, db=DB, **fields):
    metric = SQLExecutionAccuracy(**fields) if fields else fetch_artifact("metrics.text2sql.execution_accuracy")[0]
    return metric.evaluate(predictions, [[g] for g in golds], [{"db": db}] * len(predictions)).instance_scores


def test_execution_accuracy_compares_result_tables():
    result = scores(
        ["SELECT age, name FROM people", "SELECT name FROM people WHERE age > 30", "Answer: SELECT name FROM people;",
         "SELECT name FROM people ORDER BY age DESC", "SELECT name FROM nowhere", ""],
        ["SELECT name, age FROM people", "SELECT name FROM people", "SELECT name FROM people",
         "SELECT name FROM people ORDER BY age", "SELECT name FROM people", "SELECT name FROM people"])
    assert [r["execution_accuracy"] for r in result] == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    # as the original (1.26.10): a prediction returning part of the gold rows is no subset match; an answer
    # without a query is a predicted error
    assert [r["subset_non_empty_execution_accuracy"] for r in result] == [1, 0, 1, 0, 0, 0]
    assert [r["predicted_error"] for r in result] == [0, 0, 0, 0, 1, 1]
    assert result[5]["error_message"] == "No SQL query found in the prediction."
    assert "no such table" in result[4]["error_message"]
    assert result[0]["non_empty_gold_df"] == 1.0 and result[0]["non_empty_execution_accuracy"] == 1.0


def test_empty_gold_result_is_not_a_non_empty_match():
    result = scores(["SELECT name FROM people WHERE age > 99"], ["SELECT name FROM people WHERE age > 50"])[0]
    assert result["execution_accuracy"] == 1.0 and result["non_empty_execution_accuracy"] == 0.0
    assert result["non_empty_gold_df"] == 0.0


def test_writes_attach_and_pragma_are_refused():
    connection = open_database(DB)
    for query in ("DELETE FROM people", "INSERT INTO people VALUES ('x', 1)", "DROP TABLE people",
                  "ATTACH DATABASE ':memory:' AS other", "PRAGMA table_info(people)", "CREATE TABLE t (a)"):
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            run_read_only(connection, query, timeout=5, max_rows=10)
    assert run_read_only(connection, "SELECT count(*) FROM people", timeout=5, max_rows=10) == [(3,)]
    result = scores(["DELETE FROM people"], ["SELECT name FROM people"])[0]
    assert result["predicted_error"] == 1.0 and "not authorized" in result["error_message"]


def test_time_budget_and_row_cap():
    endless = "SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c)"
    result = scores([endless], ["SELECT 1"], sql_timeout=0.2)[0]
    assert result["predicted_error"] == 1.0
    assert "time budget" in result["error_message"] or "timed out after 0.2" in result["error_message"]
    connection = open_database(DB)
    with pytest.raises(SQLSandboxError, match="more than 2 rows"):
        run_read_only(connection, "SELECT * FROM people", timeout=5, max_rows=2)


def test_file_database_is_opened_read_only(tmp_path):
    path = tmp_path / "shop.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE items (name TEXT, price REAL)")
        connection.executemany("INSERT INTO items VALUES (?, ?)", [("pen", 1.5), ("ink", 3.0)])
    db = {"db_type": "sqlite", "db_path": str(path)}
    result = scores(["SELECT name FROM items WHERE price > 2"], ["SELECT name FROM items WHERE price >= 3"], db=db)
    assert result[0]["execution_accuracy"] == 1.0
    connection = open_database(db)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        connection.execute("INSERT INTO items VALUES ('cup', 2)")  # even without the authorizer
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT count(*) FROM items").fetchone() == (2,)
    with pytest.raises(MetricError, match="not found"):
        open_database({"db_type": "sqlite", "db_path": str(tmp_path / "missing.sqlite")})
    with pytest.raises(MetricError, match="Unsupported db_type"):
        open_database({"db_type": "remote"})


def test_non_execution_accuracy_loads_and_asks_for_its_packages():
    metric = fetch_artifact("metrics.text2sql.non_execution_accuracy")[0]
    assert metric.main_score == "sqlglot_equivalence"
    with pytest.raises(MissingRequirementError, match="pip install sqlglot sqlparse"):
        metric.evaluate(["SELECT 1"], [["SELECT 1"]])
