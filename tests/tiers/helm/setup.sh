#!/usr/bin/env bash
# crfm-helm 0.5.x without its torch dependencies (requirements.txt installs the others): the offline test model
# simple/model1, its tokenizer and the unitxt scenario and metric run without torch.
set -euo pipefail
"$1" -m pip install -q --no-deps "crfm-helm>=0.5,<0.6"
