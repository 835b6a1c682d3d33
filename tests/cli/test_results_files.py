"""`unitxt-evaluate` and `unitxt-summarize` as careless users run them (Hardening III, findings 9 and 10): results
files are unique and published atomically without following planted links, the output folder and --limit are
checked before any model call, and summarize skips files it cannot read with a warning."""

import argparse
import json
import os
import threading
from datetime import datetime
from pathlib import Path

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.cli import run_files
from unitxt.cli.evaluate import main as evaluate_main
from unitxt.cli.summarize import main as summarize_main

TASK = "card=cards.demo.sentiment,template=templates.key_val"


def arguments(folder: Path, **more) -> argparse.Namespace:
    return argparse.Namespace(output_path=str(folder), output_file_prefix="evaluation_results", model="m", **more)


@pytest.fixture
def same_second(monkeypatch):
    """Every run finishes in the same second."""
    fixed = datetime(2026, 1, 2, 3, 4, 5)
    original = run_files.output_paths
    monkeypatch.setattr(run_files, "output_paths", lambda path, prefix, now=None: original(path, prefix, fixed))
    return "2026-01-02T03-04-05"


def test_runs_finishing_in_the_same_second_never_overwrite_each_other(tmp_path, same_second):
    written = []

    def one_run(index):
        written.append(run_files.write_results(arguments(tmp_path), {"score": index}, {"task": [{"i": index}]}))

    threads = [threading.Thread(target=one_run, args=(index,)) for index in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results = sorted(path.name for path, _ in written)
    assert results == [f"{same_second}-2_evaluation_results.json", f"{same_second}-3_evaluation_results.json",
                       f"{same_second}_evaluation_results.json"]
    scores = sorted(json.loads(path.read_text())["results"]["score"] for path, _ in written)
    assert scores == [0, 1, 2]
    for path, samples in written:  # each samples file pairs with its results file
        assert samples.name == path.name.replace(".json", "_samples.json")
        assert json.loads(samples.read_text())["samples"]["task"][0]["i"] == json.loads(path.read_text())[
            "results"]["score"]
    assert sorted(os.listdir(tmp_path)) == sorted([path.name for path, _ in written] +
                                                  [samples.name for _, samples in written])  # no temporary left


def test_planted_symlinks_are_never_followed(tmp_path, same_second):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    name = f"{same_second}_evaluation_results.json"
    os.symlink(victim, tmp_path / f".{name}.tmp")  # the temporary name earlier versions used
    os.symlink(victim, tmp_path / name)  # and the results name itself
    path, _ = run_files.write_results(arguments(tmp_path), {"score": 1.0}, None)
    assert victim.read_text() == "keep me"
    assert path.name == f"{same_second}-2_evaluation_results.json" and not path.is_symlink()
    assert json.loads(path.read_text())["results"] == {"score": 1.0}


def test_the_output_path_is_checked_before_any_model_call(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with OpenAIProtocolServer() as server:
        code = evaluate_main(["-t", TASK, "-m", "cross_provider", "-a",
                              f"model_name=test-model,base_url={server.base_url},max_tokens=5", "--limit", "2",
                              "-o", str(blocker / "runs"), "-v", "WARNING"])
        assert server.count == 0
    assert code == 1
    error = capsys.readouterr().err
    assert "--output_path" in error and "Cannot write results to" in error and str(blocker / "runs") in error


@pytest.mark.parametrize("value, problem", [("-1", "must be from 1 to"), ("0", "must be from 1 to"),
                                            ("99999999999999999999999", "must be from 1 to"),
                                            ("ten", "must be a whole number")])
def test_an_out_of_range_limit_names_the_flag(tmp_path, capsys, value, problem):
    with pytest.raises(SystemExit) as exited:
        evaluate_main(["-t", TASK, "-m", "cross_provider", "-a", "model_name=x", "--limit", value,
                       "-o", str(tmp_path)])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "argument --limit/-L" in error and problem in error
    assert "islice" not in error


def test_an_evaluation_still_writes_its_files(tmp_path, capsys):
    with OpenAIProtocolServer() as server:
        code = evaluate_main(["-t", TASK, "-m", "cross_provider", "-a",
                              f"model_name=test-model,base_url={server.base_url},max_tokens=5", "--limit", "2",
                              "-o", str(tmp_path), "-v", "WARNING"])
        assert server.count == 2
    assert code == 0
    written = capsys.readouterr().out.split()
    assert len(written) == 1 and json.loads(Path(written[0]).read_text())["results"]["num_of_instances"] == 2


def test_summarize_skips_unreadable_files_with_a_warning(tmp_path, capsys):
    good = {"environment_info": {"timestamp_utc": "2026-01-01T00:00:00Z", "parsed_arguments": {"model": "m"}},
            "results": {"score": 0.5, "score_name": "subsets_mean", TASK: {"score": 0.5, "score_name": "f1"}}}
    (tmp_path / "2026-01-01T00-00-00_evaluation_results.json").write_text(json.dumps(good))
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "latin1.json").write_bytes(b'{"results": {"\xe9": 1}}')
    (tmp_path / "odd_info.json").write_text(json.dumps({"environment_info": [1, 2], "results": {"score": 0.1}}))
    (tmp_path / "list_results.json").write_text(json.dumps({"results": [1]}))
    assert summarize_main([str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "2026-01-01T00-00-00_evaluation_results.json" in captured.out and "0.5000" in captured.out
    assert "odd_info.json" in captured.out  # readable results with an odd environment: listed, model N/A
    for name in ("broken.json", "deep.json", "latin1.json", "list_results.json"):
        assert f"unitxt-summarize: warning: skipping {tmp_path / name}" in captured.err
