"""`unitxt-explore` (the console script of the installed package) starts the explorer, listening on 127.0.0.1 by
default and on the port given."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _outward_address():
    """This machine's non-loopback address, if it has one (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_unitxt_explore_starts_and_answers_on_loopback_only():
    script = Path(sys.executable).parent / "unitxt-explore"
    assert script.exists(), "the console script is installed with the package (setup.cfg entry points)"
    port = _free_port()
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False")
    server = subprocess.Popen([str(script), "--port", str(port)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    page = response.read().decode("utf-8", "replace")
                    assert response.status == 200 and "gradio" in page.lower()
                    break
            except OSError:
                if server.poll() is not None or time.time() > deadline:
                    server.kill()
                    raise AssertionError(f"unitxt-explore did not start:\n{server.stdout.read()}")
                time.sleep(0.5)
        outward = _outward_address()
        if outward is not None:  # the default host is 127.0.0.1: other interfaces get no answer
            with socket.socket() as probe:
                probe.settimeout(2)
                assert probe.connect_ex((outward, port)) != 0
    finally:
        server.terminate()
        server.wait(timeout=30)
