"""The tier's cluster: two Ray nodes on loopback in the tier's own network namespace (local_cluster.py), started once
for the session and stopped at its end."""

import os

import pytest

from local_cluster import SECOND_NODE, only_loopback, start_cluster, stop_cluster


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    """The cluster's address and the second node's own resource; this process is connected to it as a driver."""
    if not only_loopback():
        pytest.fail("The ray tier runs in a network namespace with only loopback up: run it with "
                    "`scripts/run_tests --ray` (tests/tiers/ray/enter.sh), as root.")
    os.environ["UNITXT_INFERENCE_CACHE_DIR"] = str(tmp_path_factory.mktemp("inference_cache"))
    try:
        address = start_cluster()
        yield {"address": address, "second_node": SECOND_NODE}
    finally:
        stop_cluster()
