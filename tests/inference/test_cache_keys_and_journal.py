"""The inference cache as a careless user meets it (Hardening III, findings 3 and 11): the key names the answering
server wherever its URL comes from, and a damaged database or entry is reported with its path, set aside, and the
run goes on asking only what was lost. Driven through real engines against loopback OpenAI-protocol servers."""

import glob
import os
import sqlite3

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.inference import OpenAiInferenceEngine

ROWS = [{"source": "first question"}, {"source": "second question"}]


def named(name):
    return lambda request: f"{name} says {request['messages'][-1]['content']}"


def engine(tmp_path, **fields):
    return OpenAiInferenceEngine(model_name="same-model", cache_dir=str(tmp_path / "cache"), **fields)


def test_a_server_given_in_credentials_is_part_of_the_cache_key(tmp_path):
    with OpenAIProtocolServer(answer=named("one")) as one, OpenAIProtocolServer(answer=named("two")) as two:
        first = engine(tmp_path, credentials={"api_key": "k", "api_url": one.base_url}).infer(ROWS)
        second = engine(tmp_path, credentials={"api_key": "k", "api_url": two.base_url}).infer(ROWS)
        again = engine(tmp_path, credentials={"api_key": "k", "api_url": one.base_url}).infer(ROWS)
        assert first == ["one says first question", "one says second question"]
        assert second == ["two says first question", "two says second question"]
        assert again == first and one.count == 2 and two.count == 2  # each server asked once per row


def test_a_server_given_in_the_environment_is_part_of_the_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    with OpenAIProtocolServer(answer=named("one")) as one, OpenAIProtocolServer(answer=named("two")) as two:
        monkeypatch.setenv("OPENAI_API_URL", one.base_url)
        assert engine(tmp_path).infer(ROWS)[0] == "one says first question"
        monkeypatch.setenv("OPENAI_API_URL", two.base_url)
        assert engine(tmp_path).infer(ROWS)[0] == "two says first question"
        assert two.count == 2


def _cache_file(tmp_path):
    return str(tmp_path / "cache" / "inference_cache.sqlite")


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_cache_database_is_set_aside_and_the_run_goes_on(tmp_path, damage):
    path = _cache_file(tmp_path)
    os.makedirs(os.path.dirname(path))
    if damage == "garbage":
        with open(path, "wb") as stream:
            stream.write(b"this is not a database" * 100)
    else:
        connection = sqlite3.connect(path)
        connection.execute("CREATE TABLE answers (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)")
        connection.executemany("INSERT INTO answers VALUES (?, ?, 0)", [(str(i), "x" * 300) for i in range(3000)])
        connection.commit()
        connection.close()
        with open(path, "r+b") as stream:
            stream.truncate(os.path.getsize(path) // 3)
    with OpenAIProtocolServer() as server, pytest.warns(UserWarning) as warned:
        answers = engine(tmp_path, credentials={"api_key": "k", "api_url": server.base_url}).infer(ROWS)
    assert answers == ["echo: first question", "echo: second question"]
    message = " ".join(str(warning.message) for warning in warned)
    assert f"The inference cache {path} is damaged" in message and "moved to" in message
    aside = [name for name in glob.glob(path + ".corrupt-*") if not name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and os.path.getsize(aside[0]) > 0


def test_a_damaged_cache_database_keeps_its_answers_for_the_rerun(tmp_path):
    path = _cache_file(tmp_path)
    os.makedirs(os.path.dirname(path))
    with open(path, "wb") as stream:
        stream.write(b"\x00garbage" * 500)
    with OpenAIProtocolServer() as server:
        fields = {"credentials": {"api_key": "k", "api_url": server.base_url}}
        with pytest.warns(UserWarning, match="damaged"):
            engine(tmp_path, **fields).infer(ROWS)
        engine(tmp_path, **fields).infer(ROWS)
        assert server.count == 2  # the second run came from the new cache


def test_one_damaged_cached_answer_is_dropped_and_asked_again(tmp_path):
    with OpenAIProtocolServer() as server:
        fields = {"credentials": {"api_key": "k", "api_url": server.base_url}}
        first = engine(tmp_path, **fields)
        first.infer(ROWS)
        first._cache().flush()
        connection = sqlite3.connect(_cache_file(tmp_path))
        key = connection.execute("SELECT key FROM answers ORDER BY key LIMIT 1").fetchone()[0]
        connection.execute("UPDATE answers SET value = '{\"prediction\": ' WHERE key = ?", (key,))
        connection.commit()
        connection.close()
        with pytest.warns(UserWarning, match=f"1 damaged answer\\(s\\) in the inference cache {_cache_file(tmp_path)}"):
            answers = engine(tmp_path, **fields).infer(ROWS)
        assert answers == ["echo: first question", "echo: second question"]
        assert server.count == 3  # two first, then only the damaged one again
        engine(tmp_path, **fields).infer(ROWS)
        assert server.count == 3
