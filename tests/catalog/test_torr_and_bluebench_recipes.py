"""Recipes and benchmarks of issue 28: TORR recipes produce on a mirrored table card, BlueBench / TORR structure."""

import pytest

from unitxt.catalog import fetch_artifact

from tests.support.card_mirrors import build_all
from tests.support.card_mirrors_wikitq import serve_wikitq


@pytest.fixture(scope="module")
def mirror_root(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("torr_mirrors"))


def test_torr_benchmark_has_ten_cards_seven_layouts_five_perturbations():
    benchmark, _ = fetch_artifact("benchmarks.torr")
    assert len(benchmark.subsets) == 10
    wikitq = fetch_artifact("recipes.torr.wikitq.json.shuffle_rows_augmentation_1_demos")[0]
    assert (wikitq.num_demos, wikitq.loader_limit, wikitq.demos_pool_size) == (1, 10000, -1)
    assert len(wikitq.augmentor) == 1 and type(wikitq.augmentor[0]).__name__ == "ShuffleTableRows"
    csv = fetch_artifact("recipes.torr.fin_qa.csv.no_augmentation_5_demos")[0]
    assert csv.serializer is None and csv.augmentor is None


@pytest.mark.parametrize("layout, marker", [("markdown", "|"), ("json", "{"), ("html", "<table")])
def test_torr_recipe_produces_on_the_mirror(mirror_root, monkeypatch, layout, marker):
    from unitxt import load_dataset

    monkeypatch.chdir(mirror_root)
    serve_wikitq(monkeypatch)  # cards.wikitq reads the WikiTableQuestions repository's files
    name = f"recipes.torr.wikitq.{layout}.transpose_augmentation_1_demos"
    rows = load_dataset(f"{name}[demos_pool_size=5,loader_limit=40]", split="test")
    assert len(rows) > 0 and marker in rows[0]["source"]
