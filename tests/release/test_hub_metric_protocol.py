"""The Hub metric follows the evaluate protocol (issue "Structure and packaging", defect 2): `compute` with rows,
`add` one by one, `add_batch` in chunks, and distributed evaluation (`num_process` processes, each adding its shard,
process 0 gathering) all give the scores of one `compute` call — on text and chat rows, without unitxt installed."""

import json
import os
import subprocess
import sys

import pytest

from unitxt import load_dataset

from tests.support.release_helpers import BLOCK_INSTALLED_UNITXT, build_release, last_json, run_zero_install

PROTOCOL_CODE = """
import json, evaluate
rows = json.load(open("rows.json"))
predictions = json.load(open("predictions.json"))
mode, metric_path = {mode!r}, {metric!r}
if mode == "compute":
    results = evaluate.load(metric_path).compute(predictions=predictions, references=rows)
elif mode == "add":
    metric = evaluate.load(metric_path)
    for prediction, row in zip(predictions, rows):
        metric.add(prediction=prediction, reference=row)
    results = metric.compute()
elif mode == "add_batch":
    metric = evaluate.load(metric_path)
    for start in range(0, len(rows), 7):
        metric.add_batch(predictions=predictions[start:start + 7], references=rows[start:start + 7])
    results = metric.compute()
else:  # one process of a distributed evaluation: a contiguous shard, so the gathered order is the original one
    process_id, num_process = {process_id}, {num_process}
    metric = evaluate.load(metric_path, num_process=num_process, process_id=process_id, experiment_id="protocol")
    size = -(-len(rows) // num_process)
    shard = slice(process_id * size, (process_id + 1) * size)
    metric.add_batch(predictions=predictions[shard], references=rows[shard])
    results = metric.compute()
print(json.dumps(None if results is None else {{"global": dict(results.global_scores), "n": len(results),
                                                "first": results[0]["score"]["instance"]}}))
"""


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    return build_release(tmp_path_factory.mktemp("release") / "hub")


@pytest.fixture(scope="module", params=["text", "chat"])
def workdir(request, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp(request.param)
    recipe = "card=cards.demo.sentiment,template=templates.classification.multi_class.default,max_test_instances=40"
    if request.param == "chat":
        recipe += ",format=formats.chat_api"
    rows = load_dataset(recipe, split="test").to_list()
    predictions = [row["target"] if index % 3 else "Neutral." for index, row in enumerate(rows)]
    (tmp_path / "rows.json").write_text(json.dumps(rows))
    (tmp_path / "predictions.json").write_text(json.dumps(predictions))
    return tmp_path


def run_mode(release, workdir, mode, process_id=0, num_process=1):
    code = PROTOCOL_CODE.format(mode=mode, metric=str(release / "metric"), process_id=process_id,
                                num_process=num_process)
    return last_json(run_zero_install(code, workdir))


@pytest.fixture(scope="module")
def expected(release, workdir):
    """One `compute` call's results on the rows: what every other way of adding them must give."""
    results = run_mode(release, workdir, "compute")
    assert results["n"] == 40
    return results


@pytest.mark.parametrize("mode", ["add", "add_batch"])
def test_add_and_add_batch_equal_one_compute(release, workdir, expected, mode):
    assert run_mode(release, workdir, mode) == expected


def test_distributed_evaluation_in_processes_equals_one_compute(release, workdir, expected):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update({"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(workdir / ".hf_home"),
                "PYTHONHASHSEED": "0"})
    processes = [
        subprocess.Popen([sys.executable, "-c", BLOCK_INSTALLED_UNITXT + PROTOCOL_CODE.format(
            mode="distributed", metric=str(release / "metric"), process_id=process_id, num_process=3)],
            cwd=str(workdir), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for process_id in range(3)
    ]
    outputs = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr[-3000:]
        outputs.append(json.loads(stdout.strip().splitlines()[-1]))
    assert outputs[1] is None and outputs[2] is None  # only process 0 gathers and scores
    assert outputs[0] == expected
