"""Database connectors of text-to-SQL (the original's text2sql_utils interface): in-memory schema selection, local
SQLite files found by db_id, and a remote SQL API whose failures come back as errors."""

import sqlite3
from unittest.mock import MagicMock, patch

import pytest

from unitxt.text2sql_utils import InMemoryDatabaseConnector, LocalSQLiteConnector, RemoteDatabaseConnector

DATA = {"pets": {"columns": ["name", "legs"], "rows": [["cat", 4], ["bird", 2]]},
        "owners": {"columns": ["who"], "rows": [["Ana"]]}}


def test_in_memory_schema_of_selected_tables():
    connector = InMemoryDatabaseConnector({"db_type": "in_memory", "db_id": None, "dbms": None, "data": DATA})
    assert connector.tables is DATA
    assert connector.get_table_schema(select_tables=["owners"]) == "CREATE TABLE `owners` (`who` TEXT);"
    assert connector.execute_query("SELECT name FROM pets WHERE legs > 3") == ([("cat",)], None)


def test_local_sqlite_file_by_db_id(tmp_path, monkeypatch):
    path = tmp_path / "zoo.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x INTEGER)")
        connection.execute("INSERT INTO t VALUES (7)")
    monkeypatch.setenv("UNITXT_TEXT2SQL_DB_DIR", str(tmp_path))
    connector = LocalSQLiteConnector({"db_type": "local", "db_id": "zoo", "dbms": "sqlite", "data": None})
    assert connector.db_path == str(path) and isinstance(connector.cursor, sqlite3.Cursor)
    assert connector.execute_query("SELECT x FROM t") == ([(7,)], None)
    with pytest.raises(ValueError):
        LocalSQLiteConnector({"db_type": "local", "db_id": None, "dbms": "sqlite", "data": None})
    with pytest.raises(NotImplementedError):
        LocalSQLiteConnector({"db_type": "local", "db_id": "absent", "dbms": "sqlite", "data": None})


def test_remote_connector_reads_its_address_and_key(monkeypatch):
    config = {"db_type": "remote", "db_id": "https://sql.example/api,db_id=shop", "dbms": None, "data": None}
    monkeypatch.delenv("SQL_API_KEY", raising=False)
    with pytest.raises(ValueError):
        RemoteDatabaseConnector(config)
    monkeypatch.setenv("SQL_API_KEY", "k")
    connector = RemoteDatabaseConnector(config)
    assert (connector.api_url, connector.database_id, connector.api_key) == ("https://sql.example/api", "shop", "k")
    failing = MagicMock(status_code=503)
    with patch("requests.post", return_value=failing):
        with pytest.raises(OSError):
            connector.get_table_schema()
        assert connector.execute_query("SELECT 1")[0] is None
