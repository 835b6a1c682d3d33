"""`unitxt-explore` (the console script of the installed package) starts the explorer, listening on 127.0.0.1 by
default and on the port given."""

import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.support.local_processes import free_port, wait_until_serving


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
    port = free_port()
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False")
    server = subprocess.Popen([str(script), "--port", str(port)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        page = wait_until_serving(server, f"http://127.0.0.1:{port}/", "unitxt-explore", timeout=120)
        assert "gradio" in page.decode("utf-8", "replace").lower()
        outward = _outward_address()
        if outward is not None:  # the default host is 127.0.0.1: other interfaces get no answer
            with socket.socket() as probe:
                probe.settimeout(2)
                assert probe.connect_ex((outward, port)) != 0
    finally:
        server.terminate()
        server.wait(timeout=30)
