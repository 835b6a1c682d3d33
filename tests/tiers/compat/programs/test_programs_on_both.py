"""Programs written the way third-party tools use the original run unchanged on both libraries, with the same output.

Each program (a judge service iterating the judge enums and building criteria from the catalog; a RAG evaluator with
a local catalog and catalog judges called with `[key=value]` overrides) runs under the oracle's python and under ours, against one loopback
OpenAI-protocol judge (judge_rules.py answers by content, never by the prompts' wording), and writes JSON facts and
scores (no prose): the two documents must be equal.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from ..conftest import ORACLE_PYTHON

from .judge_rules import answer

HERE = Path(__file__).resolve().parent
PROGRAMS = ("judge_service.py", "rag_evaluator.py")


def run(python, program, url, folder):
    output = Path(folder) / f"{Path(str(python)).parent.parent.name}_{program}.json"
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore", JUDGE_API_URL=url)
    env.pop("PYTHONPATH", None)
    env.pop("UNITXT_MOCK_INFERENCE_MODE", None)
    completed = subprocess.run([str(python), str(HERE / program), str(output)], capture_output=True, text=True,
                               env=env, cwd=folder, timeout=900)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


@pytest.mark.parametrize("program", PROGRAMS)
def test_same_output_on_both_libraries(program):
    assert ORACLE_PYTHON.exists(), f"{ORACLE_PYTHON} missing: run scripts/run_tests --compat"
    with OpenAIProtocolServer(answer=answer) as server, tempfile.TemporaryDirectory() as folder:
        theirs = run(ORACLE_PYTHON, program, server.base_url, folder)
        ours = run(sys.executable, program, server.base_url, folder)
    assert ours == theirs
    if program == "judge_service.py":  # what the comparison covers, so an empty run cannot pass
        assert ours["catalog"]["judges"]["GPT4o"]["model"] == "gpt-4o-2024-08-06"
        assert [row["selected"] for row in ours["direct"]["answer_relevance"]["instances"]] == ["Excellent", "Bad"]
        assert ours["direct"]["answer_relevance"]["instances"][0]["selection_roles"] == ["user", "assistant", "user"]
        assert ours["pairwise"]["systems"]["alpha"]["selections"] == ["alpha", "alpha"]
    else:
        assert [row[1] for row in ours["grounded"]["instances"]] == ["Yes", "No", "Yes"]
