"""The original's safety prompt-set cards (AttaQ, AttaQ-500, ProvoQ, SimpleSafetyTests, XSTest; their metrics are
model judges, so only the rows are checked) on local Hub mirrors in their datasets' schema (tests/support/card_mirrors_safety.py):
split names, task fields and the rows each card keeps."""

import json

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.recipe import DatasetRecipe

from tests.support.card_mirrors import MIRRORS
from tests.support.card_mirrors_safety import _attaq_500_questions
from tests.support.hub_mirror import make_hub_dataset

REPOS = ["ibm/AttaQ", "IBM/ProvoQ", "Bertievidgen/SimpleSafetyTests", "Paul/XSTest"]


@pytest.fixture(scope="module")
def mirror_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("safety_mirrors")
    for repo in REPOS:
        make_hub_dataset(root, repo, MIRRORS[repo])
    return root


def _task_data(name, monkeypatch, root):
    monkeypatch.chdir(root)
    card, _ = fetch_artifact(name)
    streams = DatasetRecipe(card=card, template_card_index=0 if isinstance(card.templates, list) else "default")()
    return {split: [json.loads(row["task_data"]) for row in rows] for split, rows in streams.items()}


def test_attaq_gives_every_question_as_test_and_attaq_500_keeps_its_selection(mirror_root, monkeypatch):
    source = MIRRORS["ibm/AttaQ"]["default"]["train"]
    every = _task_data("cards.attaq", monkeypatch, mirror_root)
    assert sorted(every) == ["test"]
    assert sorted((row["input"], row["label"]) for row in every["test"]) == \
        sorted((row["input"], row["label"]) for row in source)
    selected = _task_data("cards.attaq_500", monkeypatch, mirror_root)
    assert sorted(row["input"] for row in selected["test"]) == sorted(_attaq_500_questions(6))


@pytest.mark.parametrize("name, repo, split, fields", [
    ("cards.safety.provoq", "IBM/ProvoQ", "test", {"question": str, "stigma": str, "group": str}),
    ("cards.safety.simple_safety_tests", "Bertievidgen/SimpleSafetyTests", "test",
     {"prompt": str, "id": str, "harm_area": str, "category": str}),
    ("cards.safety.xstest", "Paul/XSTest", "train", {"prompt": str, "id": int, "type": str, "label": str}),
])
def test_safety_prompt_card_passes_the_task_fields_of_every_row(name, repo, split, fields, mirror_root, monkeypatch):
    source = MIRRORS[repo]["default"][split]
    rows = _task_data(name, monkeypatch, mirror_root)
    assert sorted(rows) == ["test"] and len(rows["test"]) == len(source)
    expected = sorted(json.dumps({key: row[key] for key in fields}, sort_keys=True) for row in source)
    got = sorted(json.dumps({key: row[key] for key in fields}, sort_keys=True) for row in rows["test"])
    assert got == expected
    assert all(isinstance(row[key], kind) for row in rows["test"] for key, kind in fields.items())
    if name == "cards.safety.xstest":  # the reference is an empty response (the judge reads prompt and response)
        assert {row["response"] for row in rows["test"]} == {""}
