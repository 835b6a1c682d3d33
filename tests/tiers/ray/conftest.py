"""A real Ray cluster of two nodes on loopback for the tier: `ray start --head` plus a second `ray start --address`
with its own resources, inside the tier's network namespace (enter.sh), stopped at the end by killing exactly the
processes of that namespace (each by its id: nothing else lives there)."""

import json
import os
import secrets
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
    return [name for _, name in socket.if_nameindex()] == ["lo"]


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


def _ray_start(arguments: list, env: dict) -> None:
    completed = subprocess.run([RAY, "start", *arguments], env=env, capture_output=True, text=True, timeout=180)
    if completed.returncode:
        raise RuntimeError(f"ray start {' '.join(arguments)} failed:\n{completed.stdout[-2000:]}\n"
                           f"{completed.stderr[-3000:]}")


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    """The cluster's address and the second node's own resource; this process is connected to it as a driver."""
    if not _only_loopback():
        pytest.fail("The ray tier runs in a network namespace with only loopback up: run it with "
                    "`scripts/run_tests --ray` (tests/tiers/ray/enter.sh), as root.")
    # token authentication on, with a token of this run given to every node, driver and command line (set before
    # Ray is imported: it reads them then)
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32), RAY_USAGE_STATS_ENABLED="0")
    import ray

    port = _free_port()
    env = dict(os.environ, UNITXT_INFERENCE_CACHE_DIR=str(tmp_path_factory.mktemp("inference_cache")))
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=2", "--object-store-memory=500000000",
              "--disable-usage-stats"]
    _ray_start(["--head", f"--port={port}", "--include-dashboard=false", *common], env)
    address = f"127.0.0.1:{port}"
    try:
        _ray_start([f"--address={address}", f"--resources={json.dumps({SECOND_NODE: 4})}", *common], env)
        os.environ["RAY_ADDRESS"] = address
        ray.init(address=address, log_to_driver=False)
        deadline = time.time() + 60
        while len([node for node in ray.nodes() if node["Alive"]]) < 2 and time.time() < deadline:
            time.sleep(0.5)
        yield {"address": address, "second_node": SECOND_NODE}
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop_cluster()
