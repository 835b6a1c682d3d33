"""The original's documented judge examples, run as published (its repository checkout, UNITXT_ORIGINAL_REPO) under
both pythons by run_documented_example.py, with offline stand-ins for their engines: the same results.

- examples/standalone_evaluation_llm_as_judge.py: its judge template asks for "[[10]]" or "[[0]]"; the loopback judge
  (judge_rules.py) rates the right answer "[[10]]" and the wrong one "[[0]]", which scores 0.0 (not NaN).
- examples/evaluate_external_rag_results_with_binary_llm_as_judge.py: task-based judges over raw rows (no recipe),
  in mock inference mode; their scores are named after the judge's own engine ("llama_3_3_70b_instruct_rits_...").
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.support.openai_protocol_server import OpenAIProtocolServer

from ..conftest import ORACLE_PYTHON
from .judge_rules import answer

HERE = Path(__file__).resolve().parent
EXAMPLES = Path(os.environ.get("UNITXT_ORIGINAL_REPO", ".")) / "examples"


def run(python, example, folder, **settings):
    output = Path(folder) / f"{Path(str(python)).parent.parent.name}.json"
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore", **settings)
    env.pop("PYTHONPATH", None)
    completed = subprocess.run([str(python), str(HERE / "run_documented_example.py"), str(EXAMPLES / example),
                                str(output)], capture_output=True, text=True, env=env, cwd=folder, timeout=900)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


def test_standalone_judge_example_scores_a_zero_verdict_zero():
    with OpenAIProtocolServer(answer=answer) as server, tempfile.TemporaryDirectory() as folder:
        settings = {"JUDGE_API_URL": server.base_url, "PREDICTIONS": json.dumps(["Austin", "Blue"]),
                    "UNITXT_MOCK_INFERENCE_MODE": "False"}
        theirs = run(ORACLE_PYTHON, "standalone_evaluation_llm_as_judge.py", folder, **settings)
        ours = run(sys.executable, "standalone_evaluation_llm_as_judge.py", folder, **settings)
    assert ours == theirs
    assert ours["instances"] == [1.0, 0.0] and ours["global"]["llm_judge_score"] == 0.5


def test_external_rag_example_names_scores_after_the_judges_engine():
    example = "evaluate_external_rag_results_with_binary_llm_as_judge.py"
    with tempfile.TemporaryDirectory() as folder:
        theirs = run(ORACLE_PYTHON, example, folder, UNITXT_MOCK_INFERENCE_MODE="True")
        ours = run(sys.executable, example, folder, UNITXT_MOCK_INFERENCE_MODE="True")
    assert ours == theirs
    assert "llama_3_3_70b_instruct_rits_faithfulness_judge" in ours["columns"]
