"""The original's engine, judge and processor methods that programs call give the same results here: the same calls
run by the oracle (a subprocess of the original package) and by ours, on the same inputs."""

import json
import math
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from .conftest import ORACLE_PYTHON
from .method_calls_probe import calls

PROBE = Path(__file__).with_name("method_calls_probe.py")


INPUTS = {
    "rits_models": ["meta-llama/Llama-3.1-8B-Instruct", "mistralai/mixtral-8x7B-instruct-v0.1",
                    "ibm-granite/granite-3.2-8b-instruct", "meta-llama/llama-3-2-11b-vision-instruct",
                    "byom-team/ibm/granite-3-8b", "deepseek-ai/DeepSeek-V3"],
    "from_end": False,
    "tokens": [{"text": "x", "top_tokens": [{"text": "maybe", "logprob": -0.1}]},
               {"text": "y", "top_tokens": [{"text": " Yes", "logprob": math.log(0.5)},
                                            {"text": "NO.", "logprob": math.log(0.3)},
                                            {"text": "yesterday", "logprob": math.log(0.1)},
                                            {"text": "_yes", "logprob": math.log(0.05)}]},
               {"text": "z", "top_tokens": [{"text": "no", "logprob": -0.01}]}],
    "rows": [{"source": "plain"},
             {"source": "q", "task_data": json.dumps({"__tools__": [{"type": "function",
                                                                    "function": {"name": "f"}}]})},
             {"source": "q", "task_data": {"other": 1}},
             {"source": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
                         {"role": "assistant", "content": "", "tool_calls": [
                             {"id": "1", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}]}]}],
    "results": [{"a": 1, "b": None, "c": [], "d": {}, "e": {"f": None, "g": {}}, "h": [None], "i": 0, "j": False,
                 "k": {"l": {"m": None}}}],
    "context_fields": ["question", ["question", "context"], {"shown": "a/b"}, None, []],
    "criteria_json": json.dumps({"name": "tone", "description": "Polite?", "prediction_field": "answer",
                                 "context_fields": ["question"],
                                 "options": [{"name": "Yes", "description": "polite"},
                                             {"name": "No", "description": "rude"}]}),
    "instance": {"question": "q", "answer": "a"},
}


@pytest.fixture(scope="module")
def original():
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore")
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory() as folder:
        completed = subprocess.run([str(ORACLE_PYTHON), str(PROBE)], input=json.dumps(INPUTS), capture_output=True,
                                   text=True, env=env, cwd=folder, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


KEYS = ["rits_urls", "rits_client_model", "pos_neg", "token_range", "binary", "tools", "messages", "clean",
        "context_fields", "criteria", "plain_criteria", "full_task_name", "task_full_name", "chosen_format",
        "preprocessed"]


@pytest.fixture(scope="module")
def here():
    return calls(json.loads(json.dumps(INPUTS)))


def close(a, b):
    """Equal, numbers to 1e-12 (nested in lists)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b


@pytest.mark.parametrize("key", KEYS)
def test_same_result(original, here, key):
    assert close(here[key], original[key]), f"{key}: ours {here[key]!r}, original {original[key]!r}"


def test_the_calls_cover_every_key(original, here):
    assert sorted(original) == sorted(here) == sorted(KEYS)
