#!/usr/bin/env bash
# The browser for the explorer tests: Debian's Chromium and its driver (browser builds downloaded by test tools are
# not available offline).
set -euo pipefail
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver
fi
