#!/usr/bin/env bash
# Run the tier's pytest in a network namespace of its own with only loopback up: the tier must run offline (Inspect's
# mock model would fetch tiktoken's vocabulary, Every Eval Ever's converter may look names up online); here any such
# attempt fails the test instead of reaching out. Needs root (unshare -n); pip installs happen before.
set -euo pipefail
exec unshare --net -- sh -c 'ip link set lo up && exec "$@"' enter-inspect-tier "$@"
