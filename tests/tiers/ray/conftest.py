"""A real Ray cluster of two nodes on loopback for the tier: `ray start --head` plus a second `ray start --address`
with its own resources, inside the tier's network namespace (enter.sh), stopped at the end by killing exactly the
processes of that namespace (each by its id: nothing else lives there)."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

SECOND_NODE = "unitxt_second_node"  # the custom resource only the second node has
RAY = str(Path(sys.executable).with_name("ray"))


def _only_loopback() -> bool:
    return sorted(os.listdir("/sys/class/net")) == ["lo"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _namespace_processes() -> list:
    """Ids of the processes in this network namespace other than this one and its parents."""
    mine = os.readlink("/proc/self/ns/net")
    keep = {os.getpid(), os.getppid()}
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in keep:
            continue
        try:
            if os.readlink(f"/proc/{entry}/ns/net") == mine:
                found.append(int(entry))
        except OSError:
            continue
    return found


def _stop_cluster() -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _namespace_processes():
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        time.sleep(2)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    """The cluster's address; this process is connected to it as a driver."""
    if not _only_loopback():
        pytest.fail("The ray tier runs in a network namespace with only loopback up: run it with "
                    "`scripts/run_tests --ray` (tests/tiers/ray/enter.sh), as root.")
    import ray

    port = _free_port()
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_ENABLE_UV_RUN_RUNTIME_ENV="0",
               UNITXT_INFERENCE_CACHE_DIR=str(tmp_path_factory.mktemp("inference_cache")))
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=2", "--object-store-memory=500000000",
              "--disable-usage-stats"]
    subprocess.run([RAY, "start", "--head", f"--port={port}", "--include-dashboard=false", *common], env=env,
                   check=True, capture_output=True, timeout=180)
    address = f"127.0.0.1:{port}"
    try:
        subprocess.run([RAY, "start", f"--address={address}", f"--resources={json.dumps({SECOND_NODE: 4})}", *common],
                       env=env, check=True, capture_output=True, timeout=180)
        os.environ["RAY_ADDRESS"] = address
        ray.init(address=address, log_to_driver=False)
        deadline = time.time() + 60
        while len([node for node in ray.nodes() if node["Alive"]]) < 2 and time.time() < deadline:
            time.sleep(0.5)
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop_cluster()
