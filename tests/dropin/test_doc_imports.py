"""Every import the documentation shows resolves (tests/dropin/doc_imports.txt, extracted from the spec by
scripts/extract_doc_imports.py), plus the documented-module names of issue 11 — engines and judges included."""

import ast
import importlib
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
# modules the documentation imports from a package it builds in the example itself (not ours)
NOT_OURS = ("unitxt_extension_example",)
# names the documented examples use beyond the spec's own import lines (issue 11)
EXAMPLE_IMPORTS = [
    "from unitxt.artifact import fetch_artifact",
    "from unitxt.catalog import fetch_artifact",
    "from unitxt.splitters import RandomSampler",
    "from unitxt.splitters import FixedIndicesSampler",
    "from unitxt.splitters import CloseTextSampler",
    "from unitxt.splitters import DiverseLabelsSampler",
    "from unitxt.splitters import RenameSplits",
    "from unitxt.eval_utils import evaluate",
    "from unitxt.processors import LiteralEval",
    "from unitxt.templates import NullTemplate",
    "from unitxt.operator import FieldOperator",
    "from unitxt.image_operators import ImageToText",
]


def _lines(name: str):
    return [line.strip() for line in (HERE / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


DOC_IMPORTS = _lines("doc_imports.txt")


def _resolves(statement: str):
    """None when the import statement works, else the error text (fresh module objects are not needed: imports are
    idempotent)."""
    node = ast.parse(statement).body[0]
    try:
        if isinstance(node, ast.ImportFrom):
            module = importlib.import_module(node.module)
            for alias in node.names:
                getattr(module, alias.name)
        else:
            for alias in node.names:
                importlib.import_module(alias.name)
    except (ImportError, AttributeError) as error:
        return f"{type(error).__name__}: {error}"
    return None


def test_the_extracted_list_is_complete_enough():
    assert len(DOC_IMPORTS) >= 50
    assert "from unitxt import load_dataset" in DOC_IMPORTS
    assert "from unitxt.processors import LiteralEval" in DOC_IMPORTS
    assert "from unitxt.serializers import MultiTypeSerializer" in DOC_IMPORTS  # from a parenthesised import list


@pytest.mark.parametrize("statement", [s for s in DOC_IMPORTS + EXAMPLE_IMPORTS
                                       if not s.split()[1].startswith(NOT_OURS)])
def test_documented_import_resolves(statement):
    assert _resolves(statement) is None, f"{statement} -> {_resolves(statement)}"


def test_artifact_and_catalog_import_without_a_circle():
    """`unitxt.artifact` no longer needs `unitxt.catalog`: importing it in a fresh interpreter leaves catalog out."""
    import subprocess

    code = ("import sys, unitxt.artifact as a; assert 'unitxt.catalog' not in sys.modules, 'catalog imported'; "
            "import unitxt.catalog as c; assert c.fetch_artifact is a.fetch_artifact; print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_fetch_artifact_returns_the_artifact_and_its_catalog():
    from unitxt.artifact import fetch_artifact
    from unitxt.catalog import get_default_catalog
    from unitxt.metrics import Accuracy

    metric, catalog = fetch_artifact("metrics.accuracy")
    assert isinstance(metric, Accuracy)
    assert catalog is get_default_catalog()
    given = Accuracy()
    assert fetch_artifact(given) == (given, None)


def test_samplers_from_splitters_are_the_registered_classes():
    from unitxt import samplers, splitters

    for name in ("RandomSampler", "FixedIndicesSampler", "CloseTextSampler", "DiverseLabelsSampler"):
        assert getattr(splitters, name) is getattr(samplers, name)
    assert splitters.FixedIndicesSampler(indices=[1, 0]).to_dict() == {"__type__": "fixed_indices_sampler",
                                                                      "indices": [1, 0]}


def test_literal_eval_reads_literals_and_refuses_code():
    from unitxt.errors import UnitxtError
    from unitxt.processors import LiteralEval

    step = LiteralEval(field="question")
    assert step.process_instance({"question": "['What is 2+2?', 'And 3+3?']"}) == {
        "question": ["What is 2+2?", "And 3+3?"]}
    assert step.process_instance({"question": "{'a': (1, 2.5)}"}) == {"question": {"a": (1, 2.5)}}
    assert step.process_instance({"question": ""}) == {"question": ""}
    with pytest.raises(UnitxtError, match="question"):
        step.process_instance({"question": "__import__('os').getcwd()"})


def test_null_template_renders_nothing():
    from unitxt import produce  # noqa: F401 - the template runs in a real recipe below
    from unitxt.card import TaskCard
    from unitxt.loaders import LoadFromDictionary
    from unitxt.recipe import DatasetRecipe
    from unitxt.task import Task
    from unitxt.templates import NullTemplate

    task = Task(input_fields={"text": str}, reference_fields={}, prediction_type=str,
                metrics=["metrics.prediction_length"])
    card = TaskCard(loader=LoadFromDictionary(data={"test": [{"text": "judge me"}]}), task=task)
    row = list(DatasetRecipe(card=card, template=NullTemplate())()["test"])[0]
    assert (row["source"], row["target"], row["references"], row["postprocessors"]) == ("", "", [], [])
    assert NullTemplate().render({"text": "x"}, {})["source"] == ""


def test_eval_utils_scores_records_per_metric():
    from unitxt.eval_utils import evaluate

    records = [{"prediction": "a b", "references": ["a b"]}, {"prediction": "c", "references": ["d"]},
               {"prediction": "e", "references": ["e"]}]
    results, scores = evaluate(records, ["metrics.accuracy", "metrics.rouge"], compute_conf_intervals=True)
    assert [row["metrics.accuracy"] for row in results] == [1.0, 0.0, 1.0]
    assert [row["metrics.rouge"] for row in results] == [1.0, 0.0, 1.0]
    assert scores["metrics.accuracy"]["score"] == pytest.approx(2 / 3)
    assert scores["metrics.rouge"]["score_name"] == "rougeL"
    accuracy = scores["metrics.accuracy"]
    assert 0.0 <= accuracy["score_ci_low"] <= 2 / 3 <= accuracy["score_ci_high"] <= 1.0
    assert (accuracy["accuracy_ci_low"], accuracy["accuracy_ci_high"]) == (accuracy["score_ci_low"],
                                                                          accuracy["score_ci_high"])
    assert "prediction" in results[0] and "metrics.accuracy" not in records[0]


def test_eval_utils_reads_rag_records_from_a_dataframe():
    import pandas

    from unitxt.eval_utils import evaluate

    frame = pandas.DataFrame([
        {"answer": "Paris is the capital", "contexts": ["Paris is the capital of France"], "question": "q1"},
        {"answer": "Rome rules", "contexts": ["Berlin is large"], "question": "q2"},
    ])
    results, scores = evaluate(frame, ["metrics.rag.faithfulness.token_k_precision"])
    assert list(results["metrics.rag.faithfulness.token_k_precision"]) == [1.0, 0.0]
    # the original's layout: one column per metric, one row per global score
    assert list(scores.columns) == ["metrics.rag.faithfulness.token_k_precision"]
    assert scores.loc["score", "metrics.rag.faithfulness.token_k_precision"] == 0.5
    assert scores["metrics.rag.faithfulness.token_k_precision"]["score_name"] == "precision"
