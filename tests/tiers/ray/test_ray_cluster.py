"""Recipe -> model -> scores on a real two-node Ray cluster (conftest.py), against the loopback OpenAI-protocol server:
the same rows, answers and scores as one process, a worker killed mid-run losing nothing, the command line's --ray."""

import contextlib
import glob
import json
import os
import sqlite3
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import unitxt
import unitxt.ray as uray
from unitxt import evaluate
from unitxt.evaluation.streamed import evaluate_in_chunks
from unitxt.inference import OpenAiInferenceEngine

from tests.support.openai_protocol_server import OpenAIProtocolServer
from tests.evaluation.test_columnar_evaluation import random_rows
from tests.evaluation.test_streamed_evaluation import assert_same_points

RECIPE = "card=cards.demo.sentiment,template=templates.key_val"


def flat(scores):
    return json.loads(json.dumps(scores, default=str))


def with_predictions(rows, predictions):
    return [dict(row, prediction=prediction) for row, prediction in zip(rows, predictions)]


def test_the_cluster_is_two_nodes_on_loopback(cluster):
    import ray

    nodes = [node for node in ray.nodes() if node["Alive"]]
    assert len(nodes) == 2
    assert {node["NodeManagerAddress"] for node in nodes} == {"127.0.0.1"}
    second_node = cluster["second_node"]
    second = [node["NodeID"] for node in nodes if node["Resources"].get(second_node)]
    assert len(second) == 1
    placed = ray.remote(resources={second_node: 1})(lambda: ray.get_runtime_context().get_node_id())
    assert ray.get(placed.remote()) == second[0]


def test_a_recipe_as_a_ray_dataset_has_its_rows_once_in_order(cluster):
    expected = unitxt.load_dataset(RECIPE, split="test").to_list()
    for rows_per_block in (3, 7, 10_000):
        dataset = uray.load_dataset(RECIPE, split="test", rows_per_block=rows_per_block)
        assert dataset.take_all() == expected
        assert dataset.num_blocks() == -(-len(expected) // rows_per_block)


@pytest.mark.parametrize("seed, options", [(0, {}), (1, {"with_groups": True, "subsets": ([],)}), (2, {})])
@pytest.mark.parametrize("rows_per_block", [1000, 173, 2500])
def test_scores_equal_one_process_whatever_the_blocks(cluster, seed, options, rows_per_block):
    predictions, rows = random_rows(2400, seed, **options)
    streamed = evaluate_in_chunks(predictions, rows, chunk_size=500)
    in_memory = evaluate(predictions, rows)
    dataset = uray.from_rows(with_predictions(rows, predictions), rows_per_block=rows_per_block)
    if rows_per_block == 173:  # blocks reshaped by a map on the cluster: the chunks stay rows 0-499, 500-999...
        dataset = dataset.map_batches(lambda batch: batch, batch_size=211)
    on_ray = evaluate(predictions="prediction", data=dataset, chunk_size=500)
    assert len(on_ray) == 2400
    for part in ("global_scores", "subsets_scores", "groups_scores"):
        assert flat(getattr(on_ray, part)) == flat(getattr(streamed, part)), part  # CIs included, to the bit
        assert_same_points(getattr(on_ray, part), getattr(in_memory, part))
    assert on_ray.signature == streamed.signature


def engine_for(server, cache_dir, parallel=8):
    return OpenAiInferenceEngine(model_name="test-model", max_tokens=16, num_parallel_requests=parallel,
                                 credentials={"api_key": "k", "api_url": server.base_url}, cache_dir=str(cache_dir))


def test_an_engine_as_an_actor_pool_answers_every_row_in_order(cluster, tmp_path):
    rows = [dict(row) for row in unitxt.load_dataset(RECIPE, split="test").to_list()[:300] * 2]
    for index, row in enumerate(rows):
        row["source"] = f"{row['source']} #{index}"
    with OpenAIProtocolServer(latency=0.01) as server:
        answered = uray.infer(uray.from_rows(rows, rows_per_block=50), engine_for(server, tmp_path), concurrency=2,
                              batch_size=16)
        predictions = [row["prediction"] for row in answered.take_all()]
        assert predictions == [f"echo: {row['source']}" for row in rows]
        assert server.count == len(rows)
        assert 8 < server.max_in_flight <= 16  # two actors, each with its own 8 requests in flight
        again = uray.infer(uray.from_rows(rows, rows_per_block=50), engine_for(server, tmp_path), concurrency=2)
        assert [row["prediction"] for row in again.take_all()] == predictions
        assert server.count == len(rows)  # answered from the cache the workers share


def actor_processes():
    """Ids of the model actors' processes (Ray names an actor's process ray::EngineActor in its command line)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if command.startswith(b"ray::EngineActor"):
                found.append(int(entry))
    return found


def journal_prompts(journal):
    """{prompt ("input i"): when its answer was received} of a worker's journal (a line torn by a kill was not
    received whole)."""
    prompts = {}
    try:
        lines = Path(journal).read_bytes().splitlines()
    except OSError:  # replayed into the database and removed meanwhile
        return prompts
    for line in lines:
        try:
            _, value, created = json.loads(line)
            prompts[prompt_of(value)] = float(created)
        except (ValueError, TypeError, KeyError):
            continue
    return prompts


def prompt_of(stored_answer):
    """The prompt of a stored answer: each scripted answer ends with its row's number ("... #i")."""
    return f"input {json.loads(stored_answer)['prediction'].rsplit('#', 1)[1]}"


def received_answers(database):
    """{prompt: when its answer was received} for the answers the workers hold: in a journal or committed to the
    cache. The journals are read first: an answer reaches the database before its journal is emptied, so none is
    missed."""
    prompts = {}
    for journal in glob.glob(glob.escape(database) + ".*.journal"):
        prompts.update(journal_prompts(journal))
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as connection:
        for value, created in connection.execute("SELECT value, created FROM answers"):
            prompts.setdefault(prompt_of(value), created)
    return prompts


def test_a_worker_killed_mid_run_loses_no_answer_and_changes_no_score(cluster, tmp_path):
    predictions, rows = random_rows(600, 3, subsets=([],))
    # each answer unique (it names its row), never empty (an empty answer is not a completion)
    predictions = [f"{prediction or 'none'} #{index}" for index, prediction in enumerate(predictions)]
    database = str(tmp_path / "inference_cache.sqlite")

    def answer(request):
        text = request["messages"][-1]["content"] if "messages" in request else request["prompt"]
        return predictions[int(text.split()[-1])]  # row i's source is "input i": answer its scripted prediction

    expected = evaluate_in_chunks(predictions, rows, chunk_size=200)
    killed = {}
    with OpenAIProtocolServer(answer=answer, latency=0.05) as server:
        def kill_one():
            """Mid-run, kill -9 an actor holding answers of the batch it works on (its journal: received, not yet
            committed), so Ray retries that batch; then note every answer the workers had received."""
            while not killed and not done.is_set():
                time.sleep(0.002)
                if server.count < 200:
                    continue
                for pid in actor_processes():
                    held = set(journal_prompts(f"{database}.{pid}.journal"))
                    if held:
                        moment, clock = time.monotonic(), time.time()
                        os.kill(pid, signal.SIGKILL)
                        # before any retry can ask again: what was received before the kill, by its receipt time
                        received = received_answers(database)
                        killed.update(time=moment, pid=pid, held=held,
                                      received={text for text, when in received.items() if when < clock})
                        break

        done = threading.Event()
        killer = threading.Thread(target=kill_one)
        killer.start()
        try:
            answered = uray.infer(uray.from_rows(rows, rows_per_block=100), engine_for(server, tmp_path),
                                  concurrency=2, batch_size=50).materialize()
        finally:
            done.set()
            killer.join()
        results = evaluate(predictions="prediction", data=answered, chunk_size=200)
        asked = [(moment, request["messages"][-1]["content"])
                 for moment, request in zip(server.arrivals, server.requests)]
    assert killed, "no actor was ever seen holding answers of its batch"
    assert killed["pid"] not in actor_processes()
    assert [row["prediction"] for row in answered.take_all()] == predictions
    received, held = killed["received"], killed["held"]
    assert held <= received and len(received) >= 100
    asked_after = [text for moment, text in asked if moment > killed["time"]]
    assert len(asked_after) >= 50  # killed mid-run
    times_asked = {}
    for _, text in asked:
        times_asked[text] = times_asked.get(text, 0) + 1
    assert set(times_asked) == {f"input {index}" for index in range(len(rows))}
    # exactly (no timing): every prompt whose answer a worker had received before the kill was asked once...
    assert {text: times_asked[text] for text in received if times_asked[text] != 1} == {}
    # ...and a prompt asked twice was one whose answer no worker had received (in flight on the victim, its answer
    # lost with the process), asked once more by Ray's retry of the victim's batch
    twice = {text: count for text, count in times_asked.items() if count > 1}
    assert {text: count for text, count in twice.items() if count > 2 or text in received} == {}
    assert flat(results.global_scores) == flat(expected.global_scores)


@pytest.mark.parametrize("module", ["unitxt", "unitxt.evaluate_cli"])
def test_the_command_line_runs_the_job_on_the_cluster(cluster, tmp_path, module):
    """`unitxt-evaluate` (python -m unitxt) and the original's command module (python -m unitxt.evaluate_cli, its
    step functions) with --ray: the job runs on the cluster and writes the results file of a run in this process."""
    command = [sys.executable, "-m", module, "--tasks", RECIPE, "--model", "cross_provider", "--split", "test",
               "--verbosity", "INFO"]
    outputs = {}
    with OpenAIProtocolServer() as server:
        if module == "unitxt":  # unitxt-evaluate takes any OpenAI-compatible server's base_url
            model_args = f"model_name=test-model,base_url={server.base_url},max_tokens=16,api_key=k"
        else:  # the original's engine step builds a CrossProviderInferenceEngine: the server as its open-ai provider
            model_args = json.dumps({"model_name": "test-model", "max_tokens": 16, "provider": "open-ai",
                                     "credentials": {"api_key": "k", "api_url": server.base_url}})
        for mode, extra in (("local", []), ("ray", ["--ray", "auto"])):
            folder = tmp_path / mode
            completed = subprocess.run(command + ["--model_args", model_args, "-o", str(folder)] + extra,
                                       capture_output=True, text=True, timeout=600,
                                       env=dict(os.environ, UNITXT_INFERENCE_CACHE_DIR=str(tmp_path / f"c{mode}")))
            assert completed.returncode == 0, completed.stderr[-3000:]
            assert ("Ray evaluation of" in completed.stderr) == (mode == "ray"), completed.stderr[-3000:]
            (path,) = folder.glob("*_evaluation_results.json")
            outputs[mode] = json.loads(path.read_text())
        assert server.count == 2 * len(unitxt.load_dataset(RECIPE, split="test"))  # each run asked every row
    local, on_ray = outputs["local"]["results"], outputs["ray"]["results"]
    assert set(outputs["local"]) == set(outputs["ray"]) == {"environment_info", "results"}
    assert set(local) == set(on_ray)
    compared = 0
    for subset, scores in local.items():
        if isinstance(scores, dict):
            assert set(scores) == set(on_ray[subset]), subset
            for name, value in scores.items():
                if "ci_" not in name:
                    assert on_ray[subset][name] == pytest.approx(value, abs=1e-9) if isinstance(value, float) \
                        else on_ray[subset][name] == value, (subset, name)
                    compared += 1
    assert compared >= 5
