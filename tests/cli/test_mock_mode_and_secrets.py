"""Both evaluation commands (`unitxt-evaluate` and the original-style `unitxt.evaluate_cli` steps) under mock mode
left in the environment, with API keys in --model_args, and with results files that can not be written, are planted
with links, or are written twice in one second (Hardening IV, findings 2 and 6)."""

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from unittest import mock

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt import evaluate_cli as steps
from unitxt.cli import run_files
from unitxt.cli.evaluate import main as evaluate_main
from unitxt.evaluation.results import SubsetsScores

TASK = "card=cards.demo.sentiment,template=templates.key_val"
SECRET = "sk-SECRET-4f1c9a77"


def _results_files(folder: Path):
    return sorted(path for path in folder.glob("*.json"))


@pytest.mark.parametrize("value", ["yes", "1", "true", "on"])
def test_unitxt_evaluate_marks_a_mock_run(tmp_path, capsys, monkeypatch, value):
    monkeypatch.setenv("UNITXT_MOCK_INFERENCE_MODE", value)
    with OpenAIProtocolServer() as server:
        base_url = server.base_url
        code = evaluate_main(["-t", TASK, "-m", "cross_provider", "-a",
                              f"model_name=real-model,base_url={base_url},api_key={SECRET},max_tokens=5",
                              "--limit", "2", "-o", str(tmp_path), "-v", "ERROR"])
        assert server.count == 0  # mock mode sends nothing
    assert code == 0
    captured = capsys.readouterr()
    assert "unitxt-evaluate: warning: UNITXT_MOCK_INFERENCE_MODE is on: real-model@" in captured.err
    assert "NOT called" in captured.err
    [path] = _results_files(tmp_path)
    info = json.loads(path.read_text())["environment_info"]
    assert info["mock_inference_mode"] is True
    assert info["parsed_arguments"]["model"] == f"mock(real-model@{base_url})"
    assert SECRET not in path.read_text()


def test_evaluate_cli_steps_mark_a_mock_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("UNITXT_MOCK_INFERENCE_MODE", "on")
    monkeypatch.setattr(sys, "argv", ["evaluate_cli", "-a", json.dumps({"credentials": {"api_key": SECRET}})])
    steps.main(["-t", TASK, "-m", "cross_provider", "-a",
                json.dumps({"model_name": "llama-3-8b-instruct", "max_tokens": 5,
                            "credentials": {"api_key": SECRET}}),
                "-L", "2", "-o", str(tmp_path), "--log_samples", "-v", "INFO"])
    log = capsys.readouterr().err
    assert "WARNING - UNITXT_MOCK_INFERENCE_MODE is on: llama_3_8b_instruct_watsonx is NOT called" in log
    assert SECRET not in log and "'credentials': '***'" in log
    results, samples = _results_files(tmp_path)[0], _results_files(tmp_path)[1]
    assert samples.name.endswith("_samples.json")
    for path in (results, samples):
        text = path.read_text()
        assert SECRET not in text
        info = json.loads(text)["environment_info"]
        assert info["mock_inference_mode"] is True
        assert info["parsed_arguments"]["model"] == "mock(llama_3_8b_instruct_watsonx)"
        assert info["parsed_arguments"]["model_args"]["credentials"] == "***"
        assert info["command_line_invocation"][-1] == json.dumps({"credentials": {"api_key": "***"}})


def test_a_real_run_is_not_marked_and_its_key_is_not_written(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("UNITXT_MOCK_INFERENCE_MODE", raising=False)
    monkeypatch.setattr(sys, "argv", ["unitxt-evaluate", "-a", f"api_key={SECRET}"])
    with OpenAIProtocolServer() as server:
        code = evaluate_main(["-t", TASK, "-m", "cross_provider", "-a",
                              f"model_name=real-model,base_url={server.base_url},api_key={SECRET},max_tokens=5",
                              "--limit", "2", "-o", str(tmp_path), "-v", "INFO"])
        assert server.count == 2 and server.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert code == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err and SECRET not in captured.err
    [path] = _results_files(tmp_path)
    content = json.loads(path.read_text())
    assert "mock_inference_mode" not in content["environment_info"]
    assert content["environment_info"]["parsed_arguments"]["model_args"]["api_key"] == "***"
    assert content["environment_info"]["command_line_invocation"] == ["unitxt-evaluate", "-a", "api_key=***"]
    assert SECRET not in path.read_text()


STEP_NAMES = ["cli_load_dataset", "initialize_inference_engine", "run_inference", "run_evaluation"]


def _scored():
    results = mock.Mock()
    results.subsets_scores = SubsetsScores({"score": 0.5, "score_name": "subsets_mean"})
    results.instance_scores = []
    return results


def test_evaluate_cli_steps_exit_1_when_the_results_can_not_be_written(tmp_path, capsys):
    folder = tmp_path / "runs"

    def scored_then_folder_gone(predictions, dataset):
        folder.rmdir()
        folder.write_text("a file where the results folder was")
        return _scored()

    with mock.patch.multiple(steps, **{name: mock.DEFAULT for name in STEP_NAMES}) as patched:
        patched["run_evaluation"].side_effect = scored_then_folder_gone
        with pytest.raises(SystemExit) as stopped:
            steps.main(["-t", TASK, "-m", "cross_provider", "-a", "model_name=m", "-o", str(folder), "-v", "INFO"])
    assert stopped.value.code == 1
    log = capsys.readouterr().err
    assert f"UnitxtError: [field '--output_path'] Cannot write the results to {folder} (" in log
    assert "finished successfully" not in log


@pytest.fixture
def one_second(monkeypatch):
    """Every clock the commands read says 2026-01-02 03:04:05."""
    fixed = datetime(2026, 1, 2, 3, 4, 5)

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return fixed

        @classmethod
        def utcnow(cls):
            return fixed

    original = run_files.output_paths
    monkeypatch.setattr(run_files, "output_paths", lambda path, prefix, now=None: original(path, prefix, fixed))
    monkeypatch.setattr(steps, "datetime", Frozen)
    return "2026-01-02T03-04-05"


def test_evaluate_cli_steps_never_overwrite_nor_follow_links(tmp_path, one_second):
    args = steps.setup_parser().parse_args(["-t", TASK, "-o", str(tmp_path), "--output_file_prefix", "r"])
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, tmp_path / f"{one_second}_r.json")
    for _ in range(2):
        steps.process_and_save_results(args, _scored(), str(tmp_path / "r.json"), str(tmp_path / "r_samples.json"))
    assert victim.read_text() == "keep me"
    written = sorted(path.name for path in tmp_path.glob("*_r.json") if not path.is_symlink())
    assert written == [f"{one_second}-2_r.json", f"{one_second}-3_r.json"]
    assert all(json.loads((tmp_path / name).read_text())["results"]["score"] == 0.5 for name in written)
