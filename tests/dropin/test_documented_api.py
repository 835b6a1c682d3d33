"""Drop-in behaviour for code written against the documented API (issue 11): a comparable version, the
load_dataset arguments callers pass (use_cache / disable_cache, recipe string plus keyword arguments), and task
default templates (every catalog task that has a natural default names one, and it renders every card of the task).
"""

import json
import logging
from pathlib import Path

import pytest

import unitxt
from unitxt import load_dataset
from unitxt.card import TaskCard
from unitxt.catalog import fetch_artifact, get_default_catalog
from unitxt.errors import RecipeError
from unitxt.loaders import LoadFromDictionary
from unitxt.recipe import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, Template

from tests.support.card_mirrors import build_all

ROOT = Path(__file__).resolve().parents[2]
# tasks without one natural template: none today (every catalog task names its default)
TASKS_WITHOUT_DEFAULT = {
    "tasks.rag.corpora",  # loads RAG corpora: nothing to render or evaluate
    # the original's targeted sentiment tasks declare 'text' with two types and refuse every instance (no default)
    "tasks.targeted_sentiment_extraction.all_sentiment_classes",
    "tasks.targeted_sentiment_extraction.single_sentiment_class",
}


# ---------------------------------------------------------------- version
def test_version_is_plain_integers_of_the_documented_api_edition():
    parts = unitxt.__version__.split(".")
    assert len(parts) == 3 and all(part.isdigit() for part in parts)
    assert tuple(map(int, parts)) >= (1, 17, 2)  # lm-evaluation-harness's minimum
    assert unitxt.__version__ == "2.0.0"
    from unitxt.version import version

    assert version == unitxt.__version__


# ---------------------------------------------------------------- load_dataset arguments
def _card():
    rows = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(6)]
    task = Task(input_fields={"question": str}, reference_fields={"answer": str}, metrics=["metrics.accuracy"],
                default_template=InputOutputTemplate(input_format="Q: {question}", output_format="{answer}"))
    return TaskCard(loader=LoadFromDictionary(data={"test": rows, "train": rows}), task=task)


@pytest.fixture
def card_in_catalog(temp_catalog):
    from unitxt import add_to_catalog

    add_to_catalog(_card(), "cards.dropin_qa", catalog_path=str(temp_catalog))
    return "cards.dropin_qa"


def test_use_cache_keeps_the_rows_in_the_datasets_cache(card_in_catalog, tmp_path, monkeypatch):
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf")
    recipe = f"card={card_in_catalog},max_test_instances=4"
    cached = load_dataset(recipe, use_cache=True)
    assert sorted(cached) == ["test", "train"] and len(cached["test"]) == 4
    assert cached["test"][0]["source"] == "Q: q0\n" and cached["test"][0]["metrics"] == ["metrics.accuracy"]
    arrow_files = sorted((tmp_path / "hf").rglob("*.arrow"))
    assert arrow_files, "use_cache=True writes the prepared rows to the datasets cache"
    again = load_dataset(recipe, use_cache=True, split="test")
    assert again.to_list() == cached["test"].to_list()
    assert sorted((tmp_path / "hf").rglob("*.arrow")) == arrow_files  # read back, not prepared again
    # the default and disable_cache=True leave the persistent cache alone
    load_dataset(f"card={card_in_catalog},max_test_instances=3")
    load_dataset(f"card={card_in_catalog},max_test_instances=2", use_cache=True, disable_cache=True)
    assert sorted((tmp_path / "hf").rglob("*.arrow")) == arrow_files
    # disable_cache=False is the old spelling of use_cache=True
    load_dataset(f"card={card_in_catalog},max_test_instances=5", disable_cache=False)
    assert len(sorted((tmp_path / "hf").rglob("*.arrow"))) > len(arrow_files)


def test_cache_flags_must_be_booleans(card_in_catalog):
    with pytest.raises(RecipeError, match="use_cache must be True or False"):
        load_dataset(f"card={card_in_catalog}", use_cache="yes")


def test_recipe_string_and_keyword_arguments_combine_and_keywords_win(card_in_catalog, caplog):
    with caplog.at_level(logging.WARNING, logger="unitxt"):
        both = load_dataset(f"card={card_in_catalog},max_test_instances=2", split="test", num_demos=1,
                            demos_pool_size=3)
    assert len(both) == 2 and json.loads(both[0]["task_data"])["metadata"]["num_demos"] == 1
    assert "keyword arguments win" not in caplog.text  # no conflict: nothing to warn about
    with caplog.at_level(logging.WARNING, logger="unitxt"):
        override = load_dataset(f"card={card_in_catalog},max_test_instances=2", split="test", max_test_instances=5)
    assert len(override) == 5
    assert "keyword arguments win: max_test_instances: 2 -> 5" in caplog.text
    only_kwargs = load_dataset(card=card_in_catalog, max_test_instances=3, split="test")
    assert only_kwargs["source"] == ["Q: q0\n", "Q: q1\n", "Q: q2\n"]


# ---------------------------------------------------------------- task default templates
def test_a_recipe_without_template_says_which_argument_is_missing():
    card = _card()
    card = card.copy(task=card.task.copy(default_template=None))
    with pytest.raises(RecipeError, match="Missing argument 'template'") as error:
        list(DatasetRecipe(card=card)()["test"])
    assert error.value.field == "template"


def test_the_task_default_template_is_used_when_none_is_named():
    row = list(DatasetRecipe(card=_card())()["test"])[0]
    assert row["source"] == "Q: q0\n" and row["target"] == "a0"


def _catalog_tasks():
    names = sorted(name for name in get_default_catalog().names() if name.startswith("tasks."))
    tasks = {}
    for name in names:
        artifact, _ = fetch_artifact(name)
        if isinstance(artifact, Task):
            tasks[name] = artifact
    return tasks


CATALOG_TASKS = _catalog_tasks()


def test_every_catalog_task_names_an_existing_default_template():
    assert len(CATALOG_TASKS) >= 30
    for name, task in CATALOG_TASKS.items():
        if name in TASKS_WITHOUT_DEFAULT:
            continue
        raw = json.loads((ROOT / "catalog_snapshot" / (name.replace(".", "/") + ".json")).read_text())
        if raw["__type__"] != "artifact_link":  # a link shares its target's default
            assert isinstance(raw.get("default_template"), str), f"{name} has no default_template"
        assert isinstance(task.default_template, Template), name
    expected = {
        "tasks.classification.multi_class": "templates.classification.multi_class.title",
        "tasks.summarization.abstractive": "templates.summarization.abstractive.full",
        "tasks.regression.two_texts": "templates.regression.two_texts.simple",
        "tasks.grammatical_error_correction": "templates.grammatical_error_correction.simple",
        "tasks.qa.extractive": "templates.qa.extractive",
    }
    for task, template in expected.items():
        raw = json.loads((ROOT / "catalog_snapshot" / (task.replace(".", "/") + ".json")).read_text())
        assert raw["default_template"] == template


def _cards_by_name():
    """The mirrored cards but the corpus cards (tasks.rag.corpora has no template; test_cards checks them)."""
    from tests.cards.test_cards_on_mirrors import CARD_NAMES, CORPUS_NAMES

    return [name for name in CARD_NAMES if name not in CORPUS_NAMES]


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("dropin_mirrors"))


INLINE_TASKS_WITHOUT_DEFAULT_TEMPLATE = {f"cards.{name}" for name in ("qqp", "wsc", "human_eval", "mbpp", "pop_qa", "bold")}


@pytest.mark.parametrize("name", _cards_by_name())
def test_card_loads_with_no_template_and_with_its_task_default(name, mirror, monkeypatch):
    """`load_dataset("card=cards.X")` works with no template, and the task's default template renders the card (a card
    whose inline task has none - the original's qqp, wsc, human_eval, mbpp, pop_qa and bold - renders with its own
    first template)."""
    monkeypatch.chdir(mirror)
    card, _ = fetch_artifact(name)
    default = card.task.default_template
    if default is None:  # only the original's inline tasks, which name no default template
        assert name in INLINE_TASKS_WITHOUT_DEFAULT_TEMPLATE, f"{name}: its task has no default_template"
        default = card.templates[0]
    plain = load_dataset(f"card={name},max_test_instances=3", split="test")
    assert len(plain) == 3 and all(row["source"].strip() for row in plain)
    rows = list(DatasetRecipe(card=card, template=default, max_test_instances=3)()["test"])
    assert len(rows) == 3
    for row in rows:
        assert isinstance(row["source"], str) and row["source"].strip()
        assert isinstance(row["references"], list)


def test_a_split_left_empty_by_the_recipe_loads_as_an_empty_dataset(temp_catalog, tmp_path, monkeypatch):
    """5% of 6 rows is no row: the empty validation split loads (cached or not) instead of failing in `datasets`."""
    import datasets

    from unitxt import add_to_catalog
    from unitxt.splitters import SplitRandomMix

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf")
    card = _card()
    card = card.copy(preprocess_steps=[SplitRandomMix(mix={"train": "train[95%]", "validation": "train[5%]",
                                                           "test": "test"})])
    add_to_catalog(card, "cards.dropin_mixed", catalog_path=str(temp_catalog))
    for use_cache in (False, True):
        dataset = load_dataset("card=cards.dropin_mixed", use_cache=use_cache)
        assert {name: len(split) for name, split in dataset.items()} == {"train": 6, "validation": 0, "test": 6}
        assert dataset["validation"].column_names == dataset["test"].column_names
        assert len(load_dataset("card=cards.dropin_mixed", use_cache=use_cache, split="validation")) == 0


def test_the_hub_metric_scores_rows_with_images(tmp_path_factory):
    """Rows of an image recipe (media.images as datasets.Image values) go through `evaluate.load(<metric>)` as a
    saved Dataset, without unitxt installed, and score as `unitxt.evaluate` does."""
    from unitxt import evaluate

    from tests.support.release_helpers import build_release, last_json, run_zero_install
    from tests.rendering.test_multimodal import TEMPLATE, vqa_card

    release = build_release(tmp_path_factory.mktemp("release") / "hub")
    workdir = tmp_path_factory.mktemp("metric_images")
    dataset = load_dataset(card=vqa_card(), template=TEMPLATE, split="test")
    assert set(dataset[0]["media"]["images"][0]) == {"bytes", "path"}
    # rows are read through loads_batch (a custom transform, as the original's); datasets 3.x saves no custom
    # transform, so the stored rows are saved, as with the original's datasets
    dataset.with_format(None).save_to_disk(str(workdir / "rows"))
    predictions = ["white", "red"]
    expected = evaluate(predictions, dataset).global_scores
    code = ("import json, datasets, evaluate\n"
            "rows = datasets.load_from_disk('rows')\n"
            f"results = evaluate.load({str(release / 'metric')!r}).compute(predictions={predictions!r}, "
            "references=rows)\n"
            "print(json.dumps({'score': results.global_scores['score'], 'n': len(results)}))\n")
    assert last_json(run_zero_install(code, workdir)) == {"score": expected["score"], "n": 2}
    assert expected["score"] == 0.5
