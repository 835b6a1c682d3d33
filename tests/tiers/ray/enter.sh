#!/usr/bin/env bash
# Run the command (the tier's pytest) in a network namespace of its own with only loopback up: a Ray node binds the
# machine's network interface even when told 127.0.0.1; here there is none, so every node is 127.0.0.1 and nothing the
# cluster does can leave the machine. Needs root (unshare -n); pip installs happen before (no network inside).
set -euo pipefail
exec unshare --net -- sh -c 'ip link set lo up && exec "$@"' enter-ray-tier "$@"
