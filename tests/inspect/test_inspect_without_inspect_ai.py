"""What the Inspect integration builds on, without Inspect: importing unitxt.inspect costs nothing and asks for
inspect-ai only when a task is made; the recipe string comes back whole from Inspect's comma split; rows become
plain prompts or chat messages; the global scores are unitxt.evaluate's, main score first."""

import subprocess
import sys
from pathlib import Path

import pytest

from unitxt.errors import UnitxtError
from unitxt.inspect.samples import chat_messages, task_data_of
from unitxt.inspect.scoring import global_scores
from unitxt.inspect.task import check_scoring_artifacts, recipe_text

ROOT = Path(__file__).resolve().parents[2]
BLOCK_INSPECT = ("import sys\n"
                 "class Block:\n"
                 "    def find_spec(self, name, path=None, target=None):\n"
                 "        if name == 'inspect_ai' or name.startswith('inspect_ai.'):\n"
                 "            raise ImportError('No module named ' + repr(name))\n"
                 "sys.meta_path.insert(0, Block())\n")


def run_without_inspect_ai(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK_INSPECT + code], capture_output=True, text=True,
                          cwd=str(ROOT), timeout=300)


def test_import_is_free_and_making_a_task_gives_the_install_hint():
    completed = run_without_inspect_ai(
        "import unitxt.inspect as ui, sys\n"
        "assert 'inspect_ai' not in sys.modules\n"
        "print(sorted(name for name in dir(ui) if not name.startswith('_')))\n"
        "try:\n"
        "    ui.recipe_task('card=cards.demo.sentiment,template=templates.key_val')\n"
        "except Exception as error:\n"
        "    print(type(error).__name__, error)\n")
    assert completed.returncode == 0, completed.stderr[-2000:]
    listed, failure = completed.stdout.strip().splitlines()
    assert "recipe_task" in listed
    assert failure.startswith("MissingRequirementError") and "pip install 'unitxt[inspect]'" in failure


def test_the_default_path_never_imports_inspect_ai():
    completed = run_without_inspect_ai(
        "import sys, unitxt\n"
        "rows = unitxt.load_dataset('card=cards.demo.sentiment,template=templates.key_val', split='test')\n"
        "unitxt.evaluate(['positive'] * 5, rows.select(range(5)))\n"
        "print(sorted(name for name in sys.modules if name.startswith(('inspect_ai', 'unitxt.inspect'))))\n")
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stdout.strip() == "[]"


def test_the_recipe_comes_back_whole_from_inspects_comma_split():
    recipe = "card=cards.demo.sentiment,template=[templates.key_val,templates.classification.multi_class.default]"
    assert recipe_text(recipe.split(",")) == recipe
    assert recipe_text(recipe) == recipe
    for bad in ("", "   ", 7, None):
        with pytest.raises(UnitxtError, match="recipe string"):
            recipe_text(bad)


def test_rows_become_plain_prompts_or_chat_messages():
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "review: fine"}]
    assert chat_messages(messages) == messages
    assert chat_messages('[{"role": "user", "content": [{"type": "text", "text": "hi"}]}]') == [
        {"role": "user", "content": "hi"}]
    assert chat_messages("review: fine\nThe sentiment is ") is None
    assert chat_messages("[1, 2]") is None
    assert task_data_of({"task_data": '{"label": "positive"}'}) == {"label": "positive"}


def test_global_scores_are_unitxt_evaluate_main_score_first():
    import unitxt

    rows = [dict(row) for row in unitxt.load_dataset("card=cards.demo.sentiment,template=templates.key_val",
                                                     split="test").select(range(40))]
    predictions = [row["target"] if index % 3 else "neutral" for index, row in enumerate(rows)]
    scores = global_scores(predictions, rows)
    expected = unitxt.evaluate(predictions, rows).global_scores
    assert list(scores)[:3] == ["f1_micro", "f1_micro_ci_low", "f1_micro_ci_high"]
    assert "score_name" not in scores
    assert scores == {name: value for name, value in expected.items() if isinstance(value, (int, float))}


def test_an_unknown_metric_or_post_processor_is_named_before_scoring():
    row = {"metrics": ["metrics.accuracy", "metrics.no_such_metric"], "postprocessors": []}
    with pytest.raises(UnitxtError, match=r"metrics\.no_such_metric"):
        check_scoring_artifacts([row])
    row = {"metrics": ["metrics.accuracy"], "postprocessors": ["processors.no_such_processor"]}
    with pytest.raises(UnitxtError, match=r"processors\.no_such_processor"):
        check_scoring_artifacts([row])
