"""The Ray integration under faults on the tier's real cluster (Hardening IV): a row that kills every worker it reaches
ends the run naming its block after a bounded number of restarts; an engine Ray can not send and answers Arrow can not
store are UnitxtErrors naming the engine, the block and the column (never its credentials); the cluster's own address
passes the address check and a silent one fails within the deadline."""

import os
import signal
import socket
import threading
import time

import pytest

import unitxt.ray as uray
from unitxt.errors import UnitxtError
from unitxt.inference import MockInferenceEngine, OpenAiInferenceEngine
from unitxt.ray import inference as ray_inference
from unitxt.ray import runtime

SECRET = "sk-RAY-SECRET-5521"


def _rows(count):
    return [{"source": f"input {index}", "references": ["x"]} for index in range(count)]


def test_a_row_that_kills_its_worker_ends_the_run_naming_its_block(cluster):
    class KillerEngine(MockInferenceEngine):
        """Answers like the mock, except that a row saying KILL kills the worker's process."""

        def infer(self, dataset, return_meta_data=False):
            if any("KILL" in row["source"] for row in dataset):
                os.kill(os.getpid(), signal.SIGKILL)
            return super().infer(dataset, return_meta_data=return_meta_data)

    rows = _rows(40)
    rows[25]["source"] = "input 25 KILL"
    start = time.monotonic()
    # the worker holds two blocks at a time (the next one queued): both are named, the killing row is in one
    with pytest.raises(UnitxtError, match=r"The Ray workers answering (block 1 \(rows 10-19\) or )?block 2 "
                                          r"\(rows 20-29\)( or block 3 \(rows 30-39\))? died (\d+) times "
                                          r".*KillerEngine") as raised:
        uray.infer(uray.from_rows(rows, rows_per_block=10), KillerEngine(), concurrency=1, batch_size=10)
    assert f"died {ray_inference.MAX_RESTARTS + 1} times" in str(raised.value)
    assert time.monotonic() - start < 300  # bounded: never restarted forever


def test_an_engine_ray_can_not_send_is_named_without_its_credentials(cluster):
    engine = OpenAiInferenceEngine(model_name="gpt-4o-mini", credentials={"api_key": SECRET,
                                                                          "api_url": "http://127.0.0.1:9/v1"})
    engine.__dict__["lock"] = threading.Lock()  # an open handle: not picklable
    with pytest.raises(UnitxtError) as raised:
        uray.infer(uray.from_rows(_rows(4), rows_per_block=2), engine, concurrency=1)
    assert "The engine OpenAiInferenceEngine can not be sent to the Ray workers" in str(raised.value)
    assert "lock" in str(raised.value) and SECRET not in str(raised.value)


def test_answers_arrow_can_not_store_name_the_block_and_column(cluster):
    class MixedEngine(MockInferenceEngine):
        """A text answer for every row but the third, which gets a dict."""

        def infer(self, dataset, return_meta_data=False):
            return [{"odd": 1} if row["source"] == "input 2" else "text" for row in dataset]

    with pytest.raises(UnitxtError, match=r"The answers of MixedEngine to block 1 \(rows 2-3\) can not be stored "
                                          r"in the 'prediction' column: Arrow"):
        uray.infer(uray.from_rows(_rows(6), rows_per_block=2), MixedEngine(), concurrency=1)


def test_rows_ray_can_not_hold_name_the_column_and_row(cluster):
    with pytest.raises(UnitxtError, match=r"Column 'source' can not go to Ray .*row 1 holds a dict where row 0 "
                                          r"holds a str"):
        uray.from_rows([{"source": "a"}, {"source": {"b": 1}}])


def test_the_cluster_address_passes_and_a_silent_one_fails_in_time(cluster, monkeypatch):
    runtime.check_address(cluster["address"])  # the head's GCS answers as a Ray cluster
    assert uray.connect(cluster["address"]) is not None
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    try:
        monkeypatch.setattr(runtime, "CONNECT_TIMEOUT", 2.0)
        start = time.monotonic()
        with pytest.raises(UnitxtError, match="accepted a connection but did not answer as a Ray cluster within 2s"):
            uray.connect(f"127.0.0.1:{listener.getsockname()[1]}")
        assert time.monotonic() - start < 10
    finally:
        listener.close()
