"""Issue 29, the rest: catalogs and metrics under hostile input - self-containing metric lists and pipelines, deeply
nested lambdas, temp files of killed catalog writers, and FinQA predictions that try to exhaust memory."""

import json
import os
import subprocess
import time

import pytest

from unitxt import evaluate
from unitxt.catalog_store import write_json_atomically
from unitxt.errors import UnitxtError
from unitxt.loaders import LoadHF
from unitxt.metrics.string_similarity import FinQAEval


@pytest.fixture
def catalog(tmp_path, monkeypatch):
    (tmp_path / "metrics").mkdir()
    monkeypatch.setenv("UNITXT_CATALOGS", str(tmp_path))
    return tmp_path


def _rows(metric):
    return [{"source": "s", "references": ["a"], "postprocessors": [], "task_data": "{}", "metrics": [metric]}]


def test_a_metrics_list_or_pipeline_that_contains_itself_is_a_clear_error(catalog):
    (catalog / "metrics" / "selfie.json").write_text(json.dumps({"__type__": "metrics_list",
                                                                  "items": ["metrics.selfie"]}))
    (catalog / "metrics" / "pipe.json").write_text(json.dumps({"__type__": "metric_pipeline", "main_score": "x",
                                                                "metric": "metrics.pipe"}))
    with pytest.raises(UnitxtError, match="Metrics list 'metrics.selfie' contains itself"):
        evaluate(["a"], _rows("metrics.selfie"))
    with pytest.raises(UnitxtError, match="Metric pipeline metrics.pipe contains itself"):
        evaluate(["a"], _rows("metrics.pipe"))


def test_a_deeply_nested_filtering_lambda_is_a_clear_error():
    with pytest.raises(UnitxtError, match="filtering_lambda is not a valid sandboxed lambda: .*nested too deeply"):
        LoadHF(path="some/dataset", filtering_lambda="lambda x: " + "-" * 4000 + "1")


def test_temp_files_of_killed_writers_are_removed(tmp_path):
    dead = subprocess.Popen(["python3", "-c", "pass"])
    dead.wait()
    orphans = [tmp_path / f".other.json.{dead.pid}-abc.tmp", tmp_path / f".card.json.{dead.pid}-xyz.tmp"]
    mine = tmp_path / f".card.json.{os.getpid()}-live.tmp"  # a write in progress in this process
    for path in orphans + [mine]:
        path.write_text("{}")
    write_json_atomically(tmp_path / "card.json", {"a": 1})
    assert json.loads((tmp_path / "card.json").read_text()) == {"a": 1}
    assert not any(path.exists() for path in orphans) and mine.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["card.json", mine.name])


def test_temp_files_of_a_killed_writer_not_yet_reaped_are_removed(tmp_path):
    """A writer killed but not yet reaped by its parent (a zombie) has ended: its temporary file goes at once."""
    zombie = subprocess.Popen(["sleep", "60"])
    try:
        zombie.kill()
        deadline = time.time() + 10
        while _process_state(zombie.pid) != "Z" and time.time() < deadline:
            time.sleep(0.01)
        assert _process_state(zombie.pid) == "Z"  # killed, still in the process table
        orphan = tmp_path / f".other.json.{zombie.pid}-abc.tmp"
        orphan.write_text("{}")
        write_json_atomically(tmp_path / "card.json", {"a": 1})
        assert sorted(path.name for path in tmp_path.iterdir()) == ["card.json"]
    finally:
        zombie.wait()


def _process_state(pid):
    return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]


@pytest.mark.parametrize("prediction", [
    '[("x" * 10**6) for i in range(10**4)]',
    "10**10**8",
    "'a' * 10**7 + 'b' * 10**7",
    "9**9999 * 9**9999 * 9**9999 * 9**9999 * 9**9999",
])
def test_finqa_predictions_can_not_exhaust_memory_or_time(prediction):
    metric = FinQAEval()
    started = time.monotonic()
    scores = metric.compute(["5"], prediction, {"program_re": "add(2, 3)", "answer": "5", "table": []})
    assert scores["execution_accuracy"] == 0.0 and time.monotonic() - started < 1.0
    assert metric.compute(["5"], "2 + 3", {"program_re": "add(2, 3)", "answer": "5"})["execution_accuracy"] == 1.0


def test_metrics_shared_work_never_returns_a_freed_partitions_result(monkeypatch):
    """Label counts are shared by the metrics of one evaluation, keyed by the ids of the input lists: a partition's
    lists, freed, could lend their ids to the next partition's and return the old counts (silently wrong scores).
    Scores with the shared work equal those computed without it."""
    import contextlib

    import unitxt.evaluation.in_memory as in_memory
    from tests.evaluation.test_columnar_evaluation import random_rows

    predictions, rows = random_rows(300, 5)
    shared = evaluate(predictions, rows)
    monkeypatch.setattr(in_memory, "evaluation_memo", contextlib.nullcontext)
    alone = evaluate(predictions, rows)
    assert shared.global_scores["score"] == alone.global_scores["score"]
    assert shared.subsets_scores == alone.subsets_scores
