"""The console scripts as users run them: the wheel installed in a fresh venv (no system site-packages), the commands
started as subprocesses outside the repository, a model served by a loopback OpenAI-protocol server.

The venv is built once per module. Its dependencies (datasets, evaluate, numpy...) are those of the interpreter
running the tests, made visible by a .pth file rather than downloaded (tests run offline); `pip check` proves the
wheel's declared requirements are met by them. scripts/check_install does the same with a real `pip install`.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.support.wheel import venv_with_the_wheel

from tests.support.openai_protocol_server import OpenAIProtocolServer

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ("unitxt-evaluate", "unitxt-summarize", "unitxt-explore", "unitxt-metrics-service")
TASK_A = "card=cards.demo.sentiment,template=templates.key_val"
TASK_B = "card=cards.demo.sentiment,template=templates.classification.multi_class.default,num_demos=1,demos_pool_size=5"
STAMPED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_evaluation_results(_samples)?\.json$")


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    return venv_with_the_wheel(tmp_path_factory.mktemp("installed"))


def environment(home: Path) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV", "UNITXT"))}
    env.update(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(home / "hf"), NO_COLOR="1")
    return env


def run(venv: Path, command, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv / "bin" / command[0]), *command[1:]], capture_output=True, text=True,
                          cwd=str(cwd), env=environment(cwd), timeout=timeout)


def test_the_wheel_installs_the_console_scripts_and_its_requirements_are_met(venv, tmp_path):
    located = run(venv, ["python", "-c", "import unitxt, sys; print(unitxt.__file__); print(sys.prefix)"], tmp_path)
    package_file, prefix = located.stdout.split()
    assert package_file.startswith(str(venv)) and prefix == str(venv)
    checked = run(venv, ["python", "-m", "pip", "check"], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for script in SCRIPTS:
        helped = run(venv, [script, "--help"], tmp_path, timeout=120)
        assert helped.returncode == 0, (script, helped.stderr[-2000:])
        assert helped.stdout.startswith(f"usage: {script}") and "example:" in helped.stdout, script


@pytest.fixture(scope="module")
def evaluation_run(venv, tmp_path_factory):
    """unitxt-evaluate over two recipes, --limit 6 --log_samples, the model always answering 'negative'."""
    folder = tmp_path_factory.mktemp("run")
    with OpenAIProtocolServer(answer=lambda request: "negative") as server:
        completed = run(venv, ["unitxt-evaluate", "--tasks", f"{TASK_A}+{TASK_B}", "--model", "cross_provider",
                               "--model_args", f"model_name=test-model,base_url={server.base_url},max_tokens=8",
                               "--limit", "6", "--log_samples", "--output_path", "runs", "-v", "WARNING"], folder)
        requests = server.count
    assert completed.returncode == 0, completed.stderr[-4000:]
    return folder, completed, requests


def test_evaluate_writes_the_results_and_samples_files_in_the_original_layout(evaluation_run):
    folder, completed, requests = evaluation_run
    files = sorted((folder / "runs").iterdir())
    assert [path.name for path in files if STAMPED.match(path.name)] == [path.name for path in files]
    results_file, samples_file = files
    assert samples_file.name == results_file.name.replace(".json", "_samples.json")
    assert completed.stdout.split() == [f"runs/{results_file.name}", f"runs/{samples_file.name}"]
    assert requests == 12  # 6 instances of each recipe, one request each

    content = json.loads(results_file.read_text())
    info = content["environment_info"]
    assert set(info) >= {"timestamp_utc", "command_line_invocation", "parsed_arguments", "unitxt_version",
                         "unitxt_commit_hash", "python_version", "system", "installed_packages"}
    assert info["unitxt_version"] == "2.0.0" and info["installed_packages"]["unitxt"] == "2.0.0"
    assert info["parsed_arguments"]["limit"] == 6 and info["parsed_arguments"]["tasks"] == [TASK_A, TASK_B]
    assert info["parsed_arguments"]["model"].startswith("test-model@http://127.0.0.1:")
    assert info["command_line_invocation"][0].endswith("unitxt-evaluate")

    samples = json.loads(samples_file.read_text())
    assert samples["environment_info"] == info and list(samples["samples"]) == [TASK_A, TASK_B]
    results = content["results"]
    for task in (TASK_A, TASK_B):
        rows = samples["samples"][task]
        assert len(rows) == 6 and all(row["prediction"] == "negative" for row in rows)
        assert all("postprocessors" not in row and row["subset"] == [task] for row in rows)
        expected = sum(row["processed_references"] == ["negative"] for row in rows) / 6
        assert results[task]["accuracy"] == pytest.approx(expected)
        assert results[task]["num_of_instances"] == 6 and results[task]["score_name"] == "f1_micro"
        assert [row["accuracy"] for row in rows] == [float(row["processed_references"] == ["negative"])
                                                    for row in rows]
    assert results["score_name"] == "subsets_mean" and results["num_of_instances"] == 12
    assert results["score"] == pytest.approx((results[TASK_A]["score"] + results[TASK_B]["score"]) / 2)


def test_summarize_reads_the_results_files(venv, evaluation_run):
    folder, _, _ = evaluation_run
    completed = run(venv, ["unitxt-summarize", "runs"], folder)
    assert completed.returncode == 0, completed.stderr
    results_file = sorted((folder / "runs").glob("*_evaluation_results.json"))[0]
    results = json.loads(results_file.read_text())["results"]
    lines = completed.stdout.splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["run", "model", "task", "score_name", "score", "ci"]
    body = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    assert [row[2] for row in body] == [TASK_A, TASK_B, "(mean over tasks)"]
    for row, scores in zip(body, (results[TASK_A], results[TASK_B], results)):
        assert row[0] == results_file.name and row[3] == scores["score_name"]
        assert row[4] == f"{scores['score']:.4f}"
        assert row[5] == f"[{scores['score_ci_low']:.4f}, {scores['score_ci_high']:.4f}]"
    missing = run(venv, ["unitxt-summarize", "no_such_folder"], folder)
    assert missing.returncode == 1 and missing.stderr.strip() == "unitxt-summarize: error: no such folder: no_such_folder"


def test_python_dash_m_unitxt_is_the_same_command_and_fails_with_one_line(venv, tmp_path):
    with OpenAIProtocolServer(answer=lambda request: "positive") as server:
        model_args = f"model_name=test-model,base_url={server.base_url}"
        completed = run(venv, ["python", "-m", "unitxt", "-t", TASK_A, "-m", "cross_provider", "-a", model_args,
                               "-L", "3", "-o", "out", "--output_file_prefix", "mine", "-v", "ERROR"], tmp_path)
        assert completed.returncode == 0, completed.stderr[-3000:]
        (written,) = (tmp_path / "out").iterdir()
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_mine\.json$", written.name)
        assert json.loads(written.read_text())["results"][TASK_A]["num_of_instances"] == 3
        failed = run(venv, ["unitxt-evaluate", "-t", "card=cards.no_such_card", "-m", "cross_provider", "-a",
                            model_args, "-v", "CRITICAL"], tmp_path)
    assert failed.returncode == 1
    (line,) = failed.stderr.strip().splitlines()
    assert line.startswith("unitxt-evaluate: error:") and "'cards.no_such_card' is not in any catalog" in line
    no_model = run(venv, ["unitxt-evaluate", "-t", TASK_A, "-m", "cross_provider", "-v", "CRITICAL"], tmp_path)
    assert no_model.returncode == 1
    assert no_model.stderr.strip() == ("unitxt-evaluate: error: ValueError: Argument 'model_name' is required in "
                                       "--model_args when --model is 'cross_provider'")
