"""A Ray cluster of two nodes on loopback, for the tier and the benchmark: `ray start --head` plus a second
`ray start --address` with its own resource, inside a network namespace with only loopback up (enter.sh); stopped by
killing exactly the processes of that namespace, each by its id (nothing else lives there)."""

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

SECOND_NODE = "unitxt_second_node"  # the custom resource only the second node has
RAY = str(Path(sys.executable).with_name("ray"))


def only_loopback() -> bool:
    """Whether this process's network namespace has no interface but loopback."""
    return [name for _, name in socket.if_nameindex()] == ["lo"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ray_start(arguments: List[str], env: Dict[str, str]) -> None:
    completed = subprocess.run([RAY, "start", *arguments], env=env, capture_output=True, text=True, timeout=180)
    if completed.returncode:
        raise RuntimeError(f"ray start {' '.join(arguments)} failed:\n{completed.stdout[-2000:]}\n"
                           f"{completed.stderr[-3000:]}")


def start_cluster(num_cpus: int = 2, object_store_bytes: int = 500_000_000) -> str:
    """Start the two nodes and connect this process as a driver; returns the head's address. Token authentication
    is on, with a token of this run in the environment (every node, driver and child command line gets it)."""
    if not only_loopback():
        raise RuntimeError("The Ray cluster runs in a network namespace with only loopback up: run through "
                           "tests/tiers/ray/enter.sh (scripts/run_tests --ray), as root.")
    # workers at the driver's priority: Ray starts them at nice 15, which on a machine shared with other work measures
    # that work's load rather than the cluster
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32), RAY_USAGE_STATS_ENABLED="0",
                      RAY_worker_niceness="0")
    import ray  # after the environment is set: Ray reads it when imported

    port = free_port()
    common = ["--node-ip-address=127.0.0.1", f"--num-cpus={num_cpus}", f"--object-store-memory={object_store_bytes}",
              "--disable-usage-stats"]
    env = dict(os.environ)
    ray_start(["--head", f"--port={port}", "--include-dashboard=false", *common], env)
    address = f"127.0.0.1:{port}"
    ray_start([f"--address={address}", f"--resources={json.dumps({SECOND_NODE: 4})}", *common], env)
    os.environ["RAY_ADDRESS"] = address
    ray.init(address=address, log_to_driver=False)
    deadline = time.time() + 60
    while len([node for node in ray.nodes() if node["Alive"]]) < 2 and time.time() < deadline:
        time.sleep(0.5)
    addresses = {node["NodeManagerAddress"] for node in ray.nodes() if node["Alive"]}
    if addresses != {"127.0.0.1"}:
        raise RuntimeError(f"A node of the cluster is not on loopback: {sorted(addresses)}")
    return address


def namespace_processes() -> List[int]:
    """Ids of the processes in this network namespace other than this one and its parent."""
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


def stop_cluster() -> None:
    """Disconnect, then end the cluster's processes (those of this namespace), politely first; forget its address
    (Ray's note of the last cluster started on the machine)."""
    import ray

    if ray.is_initialized():
        ray.shutdown()
    note = Path("/tmp/ray/ray_current_cluster")
    address = os.environ.get("RAY_ADDRESS")
    try:
        if address and note.read_text().strip() == address:
            note.unlink()
    except OSError:
        pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in namespace_processes():
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        time.sleep(2)
