"""Servers a test starts as child processes on loopback: a free port, and waiting until the server answers."""

import socket
import subprocess
import time
import urllib.request
from typing import Callable, Optional


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(process: subprocess.Popen, url: str, what: str, timeout: float,
                       accept: Optional[Callable[[int, bytes], bool]] = None, poll: float = 0.5) -> bytes:
    """The body of the first answer to GET `url` that `accept(status, body)` takes (default: status 200); the
    process is killed and its output shown when it exits or `timeout` seconds pass first."""
    accept = accept or (lambda status, _body: status == 200)
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                body = response.read()
                if accept(response.status, body):
                    return body
        except OSError:
            pass
        if process.poll() is not None or time.time() > deadline:
            process.kill()
            output = process.stdout.read() if process.stdout else ""
            raise AssertionError(f"{what} did not start:\n{output}")
        time.sleep(poll)
