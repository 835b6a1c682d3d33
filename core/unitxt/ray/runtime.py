"""Ray itself: imported on first use (with the install hint when missing), connected once, datasets kept in order."""

import re
import socket
import time
from typing import Any, Optional

from ..errors import UnitxtError

INSTALL_HINT = "pip install 'unitxt[ray]'"
CONNECT_TIMEOUT = 15.0  # seconds an address has to answer as a Ray cluster before connect() gives up
# the client preface of HTTP/2 and an empty SETTINGS frame: a Ray head (its GCS, or the Ray Client server, both gRPC)
# answers with a SETTINGS frame of its own
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def require_ray() -> Any:
    """The `ray` module, or a UnitxtError saying how to install it."""
    try:
        import ray
        import ray.data  # noqa: F401 - Ray Data is what the data, model and scoring steps use
    except ImportError as error:
        raise UnitxtError(f"Running on a Ray cluster needs Ray Data, which is not installed ({error}). Install it "
                          f"with: {INSTALL_HINT}") from None
    return ray


def connect(address: Optional[str] = None, **init_options: Any) -> Any:
    """Connect this process to a cluster once: `address` "auto" (the running cluster, or RAY_ADDRESS), "host:port",
    or None (a new cluster of this machine for the process, unless one is connected already). Datasets keep their row
    order."""
    if address and address not in ("auto", "local"):
        check_address(address)
    ray = require_ray()
    if not ray.is_initialized():
        options = {"log_to_driver": False, "include_dashboard": False, **init_options}
        if address:
            options.pop("include_dashboard")
        ray.init(address=address or "local", **options)
    ordered()
    return ray


def check_address(address: str, timeout: Optional[float] = None) -> None:
    """A UnitxtError unless `address` ("host:port" or "ray://host:port") answers as a Ray cluster (gRPC over HTTP/2)
    within `timeout` seconds: Ray itself waits minutes on an address that accepts connections but does not answer."""
    match = re.fullmatch(r"(?:ray://)?\[?([^\[\]/]+?)\]?:(\d{1,5})", address.strip())
    if not match:
        raise UnitxtError(f"The Ray address {address!r} is not 'host:port', 'ray://host:port' or 'auto'.",
                          field="address")
    host, port = match.group(1), int(match.group(2))
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + timeout
    answer = b""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(_HTTP2_PREFACE)
            while len(answer) < 9:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(9 - len(answer))
                if not chunk:
                    break
                answer += chunk
    except socket.timeout:
        raise UnitxtError(f"The Ray address {address} accepted a connection but did not answer as a Ray cluster "
                          f"within {timeout:g}s; is it the head node's GCS port (6379 by default)?",
                          field="address") from None
    except OSError as error:
        raise UnitxtError(f"Can not reach the Ray address {address} ({error.strerror or error}); is the cluster "
                          f"running (ray start --head) and the address right?", field="address") from None
    if len(answer) < 9 or answer[3] != 0x04:
        raise UnitxtError(f"The Ray address {address} does not answer as a Ray cluster (it answered "
                          f"{answer[:40]!r}); give the head node's GCS address (host:6379 by default).",
                          field="address")


def ordered() -> None:
    """Ray Data executes blocks in parallel; preserve_order keeps each step's output in the dataset's row order."""
    import ray.data

    ray.data.DataContext.get_current().execution_options.preserve_order = True


def is_ray_dataset(data: Any) -> bool:
    """Whether `data` is a Ray Dataset (without importing Ray)."""
    return any(cls.__module__.startswith("ray.data") and cls.__name__.endswith("Dataset")
               for cls in type(data).__mro__)
