"""lm-evaluation-harness's built-in unitxt tasks (lm_eval/tasks/unitxt/*.yaml) run end to end on this library.

Each task is run as a user would, `lm_eval --model dummy --tasks <task> --limit 8`, in a subprocess with the working
directory at local mirrors of the tasks' Hub datasets in their real schemas (tests/support/card_mirrors.py), offline. The
harness imports `unitxt` (this repository, installed editable in the tier's venv), checks its version, calls
`load_dataset(recipe, use_cache=True)`, reads `dataset["test"][0]["metrics"]`, and scores with
`evaluate(predictions, references)[0]["score"]["global"]["score"]`. The dummy model answers "lol" to everything, so
the expected scores are known: 0 for every metric that compares with references, except where noted.
"""

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from tests.support.card_mirrors import build_all  # noqa: E402

HARNESS_TASKS = Path(importlib.util.find_spec("lm_eval").submodule_search_locations[0]) / "tasks" / "unitxt"
TASK_NAMES = sorted(path.stem for path in HARNESS_TASKS.glob("*.yaml"))
MULTIMODAL = {"doc_vqa"}
LAUNCHER = Path(__file__).with_name("run_multimodal_dummy.py")
CLASSIFICATION = {"accuracy": 0.0, "f1_micro": 0.0, "f1_macro": 0.0}
# metric -> expected value for "lol" predictions; None: a number in [0, 1) checked below; "nan": spearman of constant
# predictions is undefined (scipy gives NaN as well); "distance": a mean character edit distance, at least 1 (no
# source sentence is "lol"). The metric lists are the original's tasks' (multi-label adds accuracy, GEC the edit
# distance to the source text, DocVQA scores ANLS).
EXPECTED = {
    "20_newsgroups": CLASSIFICATION, "ag_news": CLASSIFICATION, "argument_topic": CLASSIFICATION,
    "banking77": CLASSIFICATION, "claim_stance_topic": CLASSIFICATION, "dbpedia_14": CLASSIFICATION,
    "ethos_binary": CLASSIFICATION, "financial_tweets": CLASSIFICATION, "law_stack_exchange": CLASSIFICATION,
    "ledgar": CLASSIFICATION, "medical_abstracts": CLASSIFICATION, "yahoo_answers_topics": CLASSIFICATION,
    "unfair_tos": {"f1_micro_multi_label": 0.0, "f1_macro_multi_label": 0.0, "accuracy": 0.0},
    "atis": {"ner": 0.0},
    "cnn_dailymail": {"rouge": 0.0}, "xsum": {"rouge": 0.0}, "doc_vqa": {"anls": 0.0},
    "coedit_gec": {"char_edit_dist_accuracy": None, "rouge": 0.0,
                   "char_edit_distance[reference_field=original_text]": "distance"},
    "stsb": {"spearman": "nan"},
}


# cards that read web files as the original's do (not Hub datasets): this offline tier has no copy of those files, so
# the run must stop at the download, naming the file (serving them here is a follow-up)
READS_WEB_FILES = {"medical_abstracts": "raw.githubusercontent.com/sebischair/Medical-Abstracts-TC-Corpus"}


def test_the_harness_ships_the_19_unitxt_tasks():
    assert TASK_NAMES == sorted(EXPECTED)


@pytest.fixture(scope="session")
def mirror(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("lmeval_hub_mirrors"))


@pytest.fixture(scope="session")
def hf_home(tmp_path_factory):
    return tmp_path_factory.mktemp("lmeval_hf_home")


def _run(task, mirror, hf_home, output):
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(hf_home),
               TOKENIZERS_PARALLELISM="false")
    env.pop("PYTHONPATH", None)  # unitxt comes from the venv (this repository, installed editable)
    bin_dir = Path(sys.executable).parent
    command = ([sys.executable, str(LAUNCHER)] if task in MULTIMODAL else [str(bin_dir / "lm_eval")])
    command += ["--model", "dummy", "--tasks", task, "--limit", "8", "--output_path", str(output)]
    return subprocess.run(command, cwd=mirror, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("task", TASK_NAMES)
def test_task_runs_with_the_dummy_model(task, mirror, hf_home, tmp_path):
    completed = _run(task, mirror, hf_home, tmp_path / "out")
    if task in READS_WEB_FILES:
        assert completed.returncode != 0 and READS_WEB_FILES[task] in completed.stderr, completed.stderr[-3000:]
        return
    assert completed.returncode == 0, completed.stderr[-3000:]
    files = sorted((tmp_path / "out").rglob("results_*.json"))
    assert len(files) == 1, completed.stderr[-2000:]
    results = json.loads(files[0].read_text())["results"][task]
    assert 3 <= results["sample_len"] <= 8
    scores = {key.split(",")[0]: value for key, value in results.items()
              if key.endswith(",none") and "_stderr" not in key}
    assert set(scores) == set(EXPECTED[task]), scores
    for metric, expected in EXPECTED[task].items():
        value = scores[metric]
        assert isinstance(value, float), (metric, value)
        if expected == "nan":
            assert math.isnan(value)
        elif expected is None:
            assert 0.0 <= value < 1.0
        elif expected == "distance":
            assert value >= 1.0, (metric, value)
        else:
            assert value == pytest.approx(expected), (metric, value)
