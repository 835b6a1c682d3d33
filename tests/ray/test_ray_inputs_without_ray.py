"""What the Ray integration checks before Ray is involved: rows Arrow (so Ray) can not hold are a UnitxtError naming
the column and the row, and an address that does not answer as a Ray cluster fails within the deadline (a silent
server, an HTTP server, a closed port), against real servers on 127.0.0.1."""

import http.server
import socket
import threading
import time

import pytest

from unitxt.errors import UnitxtError
from unitxt.ray import runtime
from unitxt.ray.data import rows_table


@pytest.mark.parametrize("rows, message", [
    ([{"a": "x"}, {"a": {"b": 1}}], r"Column 'a' can not go to Ray .*row 1 holds a dict where row 0 holds a str"),
    ([{"a": 1}, {"a": object()}], r"Column 'a' can not go to Ray .*row 1 holds a object .* Arrow can not store"),
    ([{"q": "ok", "big": 1}, {"q": "ok", "big": 2 ** 70}], r"Column 'big' can not go to Ray .*row 1 holds a int"),
    ([{"a": 1}, 5], r"Row 1 is a int, not a dict of column values"),
])
def test_rows_arrow_can_not_hold_name_the_column_and_row(rows, message):
    with pytest.raises(UnitxtError, match=message):
        rows_table(rows)
    assert rows_table([{"a": 1}, {"a": None}]).num_rows == 2


@pytest.fixture
def silent_server():
    """Accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    threading.Thread(target=accept, daemon=True).start()
    yield f"127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    for connection in accepted:
        connection.close()
    listener.close()


def test_a_silent_address_fails_within_the_deadline(silent_server, monkeypatch):
    monkeypatch.setattr(runtime, "CONNECT_TIMEOUT", 1.0)
    start = time.monotonic()
    with pytest.raises(UnitxtError, match=rf"Ray address {silent_server} accepted a connection but did not answer "
                                          r"as a Ray cluster within 1s"):
        runtime.connect(silent_server)
    assert time.monotonic() - start < 5


def test_an_http_server_and_a_closed_port_are_not_clusters():
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(UnitxtError, match=r"does not answer as a Ray cluster \(it answered b'"):
            runtime.connect(f"127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(UnitxtError, match=rf"Can not reach the Ray address ray://127.0.0.1:{port} \(Connection refused\)"):
        runtime.connect(f"ray://127.0.0.1:{port}")
    with pytest.raises(UnitxtError, match=r"is not 'host:port', 'ray://host:port' or 'auto'"):
        runtime.connect("no port here")
