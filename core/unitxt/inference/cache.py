"""Persistent inference cache: one sqlite file (stdlib) mapping sha256(engine settings + input) to the answer.

Each answer is appended to this process's journal file the moment it arrives (one write call: it survives kill -9)
and committed to sqlite in batches (a sqlite commit per answer would cost ~0.2 ms each); opening the cache replays
the journals of processes that are gone. So an interrupted or killed run keeps everything it got and the rerun only
sends what is missing; a fully cached rerun reads everything with a few `IN (...)` queries.
"""

import hashlib
import json
import os
import sqlite3
import threading
import time
from typing import Any, Dict, List, Optional

from ..general.processes import process_alive

_SCHEMA = "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)"
_OPEN: Dict[str, "InferenceCache"] = {}
_OPEN_LOCK = threading.Lock()


def default_cache_dir() -> str:
    """`inference_cache_dir` setting (UNITXT_INFERENCE_CACHE_DIR), else ~/.cache/unitxt/inference (XDG aware)."""
    from ..settings_utils import settings

    configured = settings.inference_cache_dir
    if configured:
        return os.path.expanduser(str(configured))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "unitxt", "inference")


class InferenceCache:
    """Key-value store of answers; `open(cache_dir)` shares one connection per file within the process."""

    commit_every = 64
    commit_seconds = 1.0

    def __init__(self, path: str):
        self.path = path
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self._lock = threading.Lock()
        self._pending: List[tuple] = []
        self._last_commit = time.monotonic()
        self._journal_fd: Optional[int] = None
        self._journal_path = f"{path}.{os.getpid()}.journal"
        try:
            self._connect()
        except sqlite3.DatabaseError as error:  # not a database, truncated, malformed: set it aside, start afresh
            if not is_damage(error):
                raise
            self._set_aside(error)
            self._connect()
        self._replay_journals()

    def _connect(self) -> None:
        self._connection = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        try:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute("PRAGMA synchronous=NORMAL")
            self._connection.execute(_SCHEMA)
            salvaged, self._salvaged = getattr(self, "_salvaged", []), []
            if salvaged:
                self._connection.executemany("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", salvaged)
            self._connection.commit()
            self._connection.execute("SELECT key, value FROM answers LIMIT 1").fetchall()
        except sqlite3.DatabaseError:
            self._connection.close()
            raise

    def _set_aside(self, error: Exception) -> None:
        """Move a damaged database (and its WAL files) to `<path>.corrupt-<time>`, say so, and reconnect to a new
        one: the run goes on and asks again only what was lost."""
        from ..errors import UnitxtWarning

        try:
            self._connection.close()
        except (AttributeError, sqlite3.Error):
            pass
        aside = f"{self.path}.corrupt-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        for suffix in ("", "-wal", "-shm"):
            try:
                os.replace(self.path + suffix, aside + suffix)
            except OSError:
                pass
        self._salvaged = _readable_rows(aside)
        UnitxtWarning(f"The inference cache {self.path} is damaged ({type(error).__name__}: {error}); it was moved "
                      f"to {aside} and a new cache started with the {len(self._salvaged)} answers still readable; "
                      f"the lost ones are asked again.")

    def _recover(self, error: Exception) -> None:
        """A damaged database found while in use: set it aside and continue with a new one (answers not yet
        committed stay pending and go to the new one); any other database error (e.g. locked) is raised."""
        if not is_damage(error):
            raise error
        self._set_aside(error)
        self._connect()

    # ------------------------------------------------------------------ the journal of answers not yet committed
    def _journal(self, line: bytes) -> None:
        if self._journal_fd is None:
            self._journal_fd = os.open(self._journal_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.write(self._journal_fd, line)

    def _close_journal(self) -> None:
        """At exit: commit what is pending and remove the (then empty) journal."""
        try:
            with self._lock:
                self._commit()
                if self._journal_fd is not None:
                    os.close(self._journal_fd)
                    self._journal_fd = None
                    os.unlink(self._journal_path)
        except (OSError, sqlite3.Error):
            pass

    def _replay_journals(self) -> None:
        """Commit the answers journaled by processes that died before committing them, then drop their journals."""
        import glob

        for journal in glob.glob(glob.escape(self.path) + ".*.journal"):
            pid = journal[len(self.path) + 1:-len(".journal")]
            if journal == self._journal_path:
                if self._journal_fd is not None:  # this process's own, open: it is written to, never replayed
                    continue
            elif not pid.isdigit() or process_alive(int(pid)):
                continue
            try:
                with open(journal, "rb") as stream:
                    lines = stream.read().splitlines()
            except OSError:
                continue
            entries = []
            for line in lines:
                try:
                    key, value, created = json.loads(line)
                    entries.append((str(key), str(value), float(created)))
                except (ValueError, TypeError):  # a line torn by the kill
                    continue
            if entries:
                self._pending.extend(entries)
                self._commit()
            try:
                os.unlink(journal)
            except OSError:
                pass

    def adopt_journals(self) -> None:
        """Commit now what processes that died since the cache was opened had journaled (a worker of a pool whose
        batch may be retried here): none of their answers is asked again."""
        with self._lock:
            self._replay_journals()

    @classmethod
    def open(cls, cache_dir: Optional[str] = None) -> "InferenceCache":
        path = os.path.abspath(os.path.join(cache_dir or default_cache_dir(), "inference_cache.sqlite"))
        with _OPEN_LOCK:
            if path not in _OPEN:
                import atexit

                _OPEN[path] = cls(path)
                atexit.register(_OPEN[path]._close_journal)
            return _OPEN[path]

    @staticmethod
    def make_key(settings_key: str, input_key: str) -> str:
        digest = hashlib.sha256(settings_key.encode("utf-8"))
        digest.update(b"\x00")
        digest.update(input_key.encode("utf-8"))
        return digest.hexdigest()

    def get_many(self, keys: List[str]) -> Dict[int, Dict[str, Any]]:
        """{position in keys: stored answer} for the keys that are cached."""
        positions: Dict[str, List[int]] = {}
        for index, key in enumerate(keys):
            positions.setdefault(key, []).append(index)
        found: Dict[int, Dict[str, Any]] = {}
        unique = list(positions)
        damaged: List[str] = []
        with self._lock:
            try:
                self._commit()
                rows = []
                for start in range(0, len(unique), 500):
                    chunk = unique[start:start + 500]
                    query = f"SELECT key, value FROM answers WHERE key IN ({','.join('?' * len(chunk))})"
                    rows.extend(self._connection.execute(query, chunk))
            except sqlite3.DatabaseError as error:
                self._recover(error)
                return found
            for key, value in rows:
                try:
                    answer = json.loads(value)
                    if not isinstance(answer, dict):
                        raise ValueError(f"a JSON {type(answer).__name__}, not an object")
                except (ValueError, TypeError, RecursionError):
                    damaged.append(key)
                    continue
                for index in positions[key]:
                    found[index] = answer
        if damaged:
            from ..errors import UnitxtWarning

            self.forget(damaged)
            UnitxtWarning(f"{len(damaged)} damaged answer(s) in the inference cache {self.path} were dropped and are "
                          f"asked again.")
        return found

    def put(self, key: str, answer: Dict[str, Any]) -> None:
        entry = (key, json.dumps(answer, ensure_ascii=False), time.time())
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            self._journal(line)
            self._pending.append(entry)
            if len(self._pending) >= self.commit_every or time.monotonic() - self._last_commit > self.commit_seconds:
                self._commit()

    def forget(self, keys: List[str]) -> int:
        """Delete these keys' answers; how many were stored."""
        with self._lock:
            self._commit()
            removed = 0
            unique = sorted(set(keys))
            try:
                for start in range(0, len(unique), 500):
                    chunk = unique[start:start + 500]
                    cursor = self._connection.execute(
                        f"DELETE FROM answers WHERE key IN ({','.join('?' * len(chunk))})", chunk)
                    removed += cursor.rowcount
                self._connection.commit()
            except sqlite3.DatabaseError as error:
                self._recover(error)  # the new database holds none of them
            return removed

    def flush(self) -> None:
        with self._lock:
            self._commit()

    def _commit(self) -> None:
        if self._pending:
            try:
                self._connection.executemany("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", self._pending)
                self._connection.commit()
            except sqlite3.DatabaseError as error:
                self._recover(error)
                self._connection.executemany("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", self._pending)
                self._connection.commit()
            self._pending = []
            if self._journal_fd is not None:
                os.ftruncate(self._journal_fd, 0)  # all of it is in sqlite now
        self._last_commit = time.monotonic()

    def __len__(self) -> int:
        with self._lock:
            self._commit()
            return self._connection.execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def clear(self) -> None:
        with self._lock:
            self._pending = []
            if self._journal_fd is not None:
                os.ftruncate(self._journal_fd, 0)
            self._connection.execute("DELETE FROM answers")
            self._connection.commit()


def _readable_rows(path: str) -> List[tuple]:
    """The rows of a damaged cache database that can still be read (up to the first damaged page)."""
    rows: List[tuple] = []
    try:
        connection = sqlite3.connect(path)
    except sqlite3.Error:
        return rows
    try:
        for key, value, created in connection.execute("SELECT key, value, created FROM answers"):
            rows.append((str(key), str(value), float(created)))
    except (sqlite3.Error, TypeError, ValueError):
        pass
    finally:
        connection.close()
    return rows


def is_damage(error: Exception) -> bool:
    """Whether a sqlite error means a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB), not e.g. a lock."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (11, 26)
    text = str(error).lower()
    return "malformed" in text or "not a database" in text
