"""`inspect eval unitxt/recipe` as users run it: unitxt installed from its wheel in a fresh venv (Inspect prefixes
`unitxt/` to the tasks of an installed package found through its `inspect_ai` entry point), a model served by a
loopback OpenAI-protocol server; the log converts with Every Eval Ever into records its validator accepts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.wheel import venv_with_the_wheel
from tests.support.openai_protocol_server import OpenAIProtocolServer
from tests.tiers.inspect.helpers import PLAIN, answers_by_prompt, assert_metrics_are_unitxt_global_scores, rows_of

EEE = [sys.executable, "-m", "every_eval_ever"]


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A venv with only the unitxt wheel installed; its dependencies (Inspect too) come from this interpreter's
    site-packages through a .pth file (offline)."""
    return venv_with_the_wheel(tmp_path_factory.mktemp("installed"))


def environment(home: Path, **extra: str) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV", "UNITXT"))}
    env.update(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(home / "hf"), NO_COLOR="1",
               INSPECT_LOG_DIR=str(home / "logs"), **extra)
    return env


def inspect_eval(venv: Path, cwd: Path, recipe_option: str, server: OpenAIProtocolServer, *more: str):
    return subprocess.run([str(venv / "bin" / "python"), "-m", "inspect_ai", "eval", "unitxt/recipe", "-T",
                           recipe_option, "--model", "openai-api/loopback/tiny-model", "--display", "plain", *more],
                          capture_output=True, text=True, cwd=str(cwd), timeout=600,
                          env=environment(cwd, LOOPBACK_BASE_URL=server.base_url, LOOPBACK_API_KEY="test-key"))


def read_log(folder: Path):
    from inspect_ai.log import read_eval_log

    (path,) = sorted((folder / "logs").glob("*.eval"))
    return path, read_eval_log(str(path))


def test_inspect_eval_runs_the_installed_task_and_its_log_converts_to_valid_records(venv, tmp_path):
    located = subprocess.run([str(venv / "bin" / "python"), "-c", "import unitxt; print(unitxt.__file__)"],
                             capture_output=True, text=True, cwd=str(tmp_path), env=environment(tmp_path))
    assert located.stdout.strip().startswith(str(venv))
    rows = rows_of(PLAIN, 20)
    answers = answers_by_prompt(rows)
    with OpenAIProtocolServer(answer=lambda request: answers[request["messages"][-1]["content"]]) as server:
        # Inspect splits the -T value at its commas; the task joins the parts back into the recipe
        completed = inspect_eval(venv, tmp_path, f"recipe={PLAIN}", server, "-T", "limit=20")
        assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
        assert server.count == 20
    path, log = read_log(tmp_path)
    assert log.eval.task == "unitxt/recipe"
    assert log.eval.task_args["recipe"] == PLAIN.split(",")
    assert log.eval.dataset.name == "cards.demo.sentiment"
    metrics = assert_metrics_are_unitxt_global_scores(log, rows)
    assert "f1_micro" in completed.stdout

    converted = subprocess.run(EEE + ["convert", "inspect", "--log_path", str(path), "--output_dir", "data"],
                               capture_output=True, text=True, cwd=str(tmp_path), timeout=600)
    assert converted.returncode == 0, converted.stdout[-3000:] + converted.stderr[-3000:]
    (aggregate,) = [p for p in (tmp_path / "data").rglob("*.json")]
    (instances,) = list((tmp_path / "data").rglob("*.jsonl"))
    validated = subprocess.run(EEE + ["validate", "--format", "json", str(aggregate.relative_to(tmp_path)),
                                      str(instances.relative_to(tmp_path))],
                               capture_output=True, text=True, cwd=str(tmp_path), timeout=600)
    assert validated.returncode == 0, validated.stdout[-3000:] + validated.stderr[-3000:]
    reports = json.loads(validated.stdout)
    assert [report["valid"] for report in reports] == [True, True]
    record = json.loads(aggregate.read_text(encoding="utf-8"))
    results = {result["metric_config"]["metric_name"]: result["score_details"]["score"]
               for result in record["evaluation_results"]}
    first = record["evaluation_results"][0]
    assert first["metric_config"]["metric_name"] == "f1_micro"
    assert results["f1_micro"] == metrics["f1_micro"] == log.results.scores[0].metrics["f1_micro"].value
    assert results["f1_micro_ci_low"] == metrics["f1_micro_ci_low"]
    assert first["source_data"]["samples_number"] == 20
    lines = instances.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20 * len(record["evaluation_results"])


def test_a_quoted_recipe_and_an_unknown_card_on_the_command_line(venv, tmp_path):
    with OpenAIProtocolServer(answer=lambda request: "positive") as server:
        quoted = inspect_eval(venv, tmp_path, f"recipe='{PLAIN}'", server, "-T", "limit=3")
        assert quoted.returncode == 0, quoted.stdout[-3000:] + quoted.stderr[-3000:]
        assert server.count == 3
        bad = tmp_path / "bad"
        bad.mkdir()
        unknown = inspect_eval(venv, bad, "recipe=card=cards.demo.no_such_card,template=templates.key_val", server)
        assert server.count == 3  # no model call for the bad recipe
    assert unknown.returncode != 0
    assert "cards.demo.no_such_card" in unknown.stdout + unknown.stderr
    _, log = read_log(tmp_path)
    assert_metrics_are_unitxt_global_scores(log, rows_of(PLAIN, 3))
