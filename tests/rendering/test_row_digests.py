"""A fixed set of recipes gives the same rows, byte for byte, as when the digests were recorded (issue 48).

Speed work on sampling and rendering must not move a single demo or character: each recipe below (catalog cards on
local Hub mirrors and synthetic cards; relation, multiple-choice and generation templates; text and chat formats;
every sampler kind, fixed and varying numbers of demos, recipe and global seeds) is rendered by `load_dataset` and by
iterating the recipe's streams, and each row key's column is hashed. The digests are in row_digests.json beside this
file (recorded on main at cb4e33f6, before the sampler work). A chat `source` is hashed as its decoded messages, so
storing it as JSON text or as a list of messages gives the same digest. When rows are meant to change, `record()`
rewrites the file (see its docstring).
"""

import hashlib
import json
import random
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

from unitxt import load_dataset
from unitxt.card import TaskCard
from unitxt.catalog import fetch_artifact
from unitxt.loaders import LoadFromDictionary
from unitxt.recipe import ROW_KEYS, DatasetRecipe
from unitxt.samplers import CloseTextSampler, DiverseLabelsSampler, FixedIndicesSampler, RandomSampler
from unitxt.settings_utils import settings
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, MultipleChoiceTemplate, TemplatesList

from tests.support.card_mirrors import MIRRORS
from tests.support.hub_mirror import make_hub_dataset

DIGESTS = Path(__file__).with_name("row_digests.json")
WORDS = "river city stone market teacher garden winter music paper engine forest signal harbor bridge letter".split()


def _text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def _relation_rows(count: int, seed: int) -> List[Dict[str, Any]]:
    rng = random.Random(seed)
    return [{"premise": _text(rng, 5, 12), "hypothesis": _text(rng, 3, 6),
             "label": rng.choice(["entailment", "not entailment"])} for _ in range(count)]


def _relation_card(templates: Any = None) -> TaskCard:
    from unitxt.operators import Rename, Set

    template = InputOutputTemplate(
        instruction="Classify the {type_of_relation} of the {text_b_type} to one of {classes}.",
        input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
        target_prefix="The {type_of_relation} class is ",
        output_format="{label}",
    )
    return TaskCard(
        loader=LoadFromDictionary(data={"train": _relation_rows(60, 1), "test": _relation_rows(40, 2)}),
        preprocess_steps=[
            Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
            Set(fields={"text_a_type": "premise", "text_b_type": "hypothesis", "type_of_relation": "entailment",
                        "classes": ["entailment", "not entailment"]}),
        ],
        task=Task(input_fields={"text_a": str, "text_a_type": str, "text_b": str, "text_b_type": str,
                                "classes": "List[str]", "type_of_relation": str},
                  reference_fields={"label": str}, prediction_type=str, metrics=["metrics.accuracy"]),
        templates=templates if templates is not None else [template],
    )


def _choice_rows(count: int, seed: int) -> List[Dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        choices = rng.sample(WORDS, 4)
        rows.append({"question": _text(rng, 4, 9) + "?", "choices": choices, "answer": rng.randrange(4)})
    return rows


def _choice_card() -> TaskCard:
    return TaskCard(
        loader=LoadFromDictionary(data={"train": _choice_rows(50, 3), "test": _choice_rows(30, 4)}),
        task=Task(input_fields={"question": str, "choices": "List[str]"}, reference_fields={"answer": int},
                  prediction_type=str, metrics=["metrics.accuracy"]),
        templates=[MultipleChoiceTemplate(input_format="{question}\nAnswers:\n{choices}\nAnswer:",
                                          target_field="answer", choices_separator="\n",
                                          target_prefix=" ", postprocessors=["processors.first_character"])],
    )


def _labels_card() -> TaskCard:
    """Multi-label rows for the DiverseLabelsSampler (choices among the inputs, gold labels among the references)."""
    def rows(count, seed):
        rng = random.Random(seed)
        return [{"text": _text(rng, 4, 9), "choices": ["red", "green", "blue"],
                 "labels": sorted(rng.sample(["red", "green", "blue"], rng.randint(0, 2)))} for _ in range(count)]

    return TaskCard(
        loader=LoadFromDictionary(data={"train": rows(40, 5), "test": rows(25, 6)}),
        task=Task(input_fields={"text": str, "choices": "List[str]"}, reference_fields={"labels": "List[str]"},
                  prediction_type="List[str]", metrics=["metrics.accuracy"]),
        templates=[InputOutputTemplate(input_format="{text} ({choices})", output_format="{labels}")],
    )


def _two_templates_card() -> TaskCard:
    first = InputOutputTemplate(input_format="Premise: {text_a}\nHypothesis: {text_b}", output_format="{label}")
    second = InputOutputTemplate(input_format="{text_b}? {text_a}", output_format="{label}",
                                 target_prefix="Answer: ")
    return _relation_card(TemplatesList(items=[first, second]))


def _mirror_recipes() -> Dict[str, Callable[[], DatasetRecipe]]:
    def wnli():
        card, _ = fetch_artifact("cards.wnli")
        return DatasetRecipe(card=card, template="templates.classification.multi_class.relation.default",
                             num_demos=2, demos_pool_size=5)

    def arc_chat():
        card, _ = fetch_artifact("cards.ai2_arc.arc_challenge")
        return DatasetRecipe(card=card, template="templates.qa.multiple_choice.with_topic.lm_eval_harness",
                             format="formats.chat_api", num_demos=2, demos_pool_size=6)

    def arc_text():
        card, _ = fetch_artifact("cards.ai2_arc.arc_challenge")
        return DatasetRecipe(card=card, template="templates.qa.multiple_choice.with_topic.mmlu",
                             format="formats.llama3_instruct", num_demos=1, demos_pool_size=6,
                             system_prompt="system_prompts.models.llama2")

    return {"wnli_relation_2_demos": wnli, "arc_multiple_choice_chat_api": arc_chat,
            "arc_multiple_choice_llama3": arc_text}


RECIPES: Dict[str, Callable[[], DatasetRecipe]] = {
    "relation_no_demos": lambda: DatasetRecipe(card=_relation_card()),
    "relation_random_5_of_30": lambda: DatasetRecipe(card=_relation_card(), num_demos=5, demos_pool_size=30),
    "relation_random_seeded": lambda: DatasetRecipe(card=_relation_card(), num_demos=3, demos_pool_size=20, seed=7),
    "relation_varying_counts_two_templates": lambda: DatasetRecipe(
        card=_two_templates_card(), template_card_index=[0, 1], num_demos=[0, 1, 3], demos_pool_size=25),
    "relation_chat_api": lambda: DatasetRecipe(card=_relation_card(), num_demos=2, demos_pool_size=10,
                                               format="formats.chat_api"),
    "relation_fixed_indices": lambda: DatasetRecipe(card=_relation_card(), num_demos=3, demos_pool_size=10,
                                                    sampler=FixedIndicesSampler(indices=[4, 0, 7, 2])),
    "relation_close_text": lambda: DatasetRecipe(card=_relation_card(), num_demos=2, demos_pool_size=15,
                                                 sampler=CloseTextSampler(field="text_b")),
    "relation_random_sampler_llama3": lambda: DatasetRecipe(card=_relation_card(), num_demos=4, demos_pool_size=60,
                                                            sampler=RandomSampler(), format="formats.llama3_instruct"),
    "multiple_choice_random": lambda: DatasetRecipe(card=_choice_card(), num_demos=3, demos_pool_size=20),
    "labels_diverse": lambda: DatasetRecipe(card=_labels_card(), num_demos=3, demos_pool_size=30,
                                            sampler=DiverseLabelsSampler()),
    **_mirror_recipes(),
}
GLOBAL_SEED_RECIPES = {"relation_random_global_seed_1234": 1234, "multiple_choice_global_seed_99": 99}


@pytest.fixture(scope="module")
def mirrors(tmp_path_factory):
    root = tmp_path_factory.mktemp("digest_mirrors")
    for repo in ("nyu-mll/glue", "allenai/ai2_arc"):
        make_hub_dataset(root, repo, MIRRORS[repo])
    return root


def _canonical(row: Dict[str, Any]) -> Dict[str, Any]:
    """The row with a chat source (messages as a list, or as their JSON text) as the decoded messages."""
    source = row.get("source")
    if isinstance(source, str) and source.startswith('[{"') and source.endswith("}]"):
        try:
            decoded = json.loads(source)
        except ValueError:
            decoded = None
        if isinstance(decoded, list) and all(isinstance(m, dict) and "role" in m for m in decoded):
            row = {**row, "source": decoded}
    return row


def _digests(splits: Dict[str, Any]) -> Dict[str, str]:
    """Per split and row key: SHA-256 of the JSON lines of that key's values."""
    result = {}
    for name in sorted(splits):
        rows = [_canonical(dict(row)) for row in splits[name]]
        result[f"{name}/count"] = str(len(rows))
        for key in ROW_KEYS:
            text = "\n".join(json.dumps(row.get(key), sort_keys=True, ensure_ascii=False) for row in rows)
            result[f"{name}/{key}"] = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
    return result


def _recipe(name: str) -> DatasetRecipe:
    if name in GLOBAL_SEED_RECIPES:
        base = "relation_random_5_of_30" if name.startswith("relation") else "multiple_choice_random"
        return RECIPES[base]()
    return RECIPES[name]()


def digests_of(name: str) -> Dict[str, Dict[str, str]]:
    """{"load_dataset": ..., "streams": ...} digests of the recipe `name`."""
    with settings.context(seed=GLOBAL_SEED_RECIPES.get(name, settings.seed)):
        dataset = load_dataset(_recipe(name))
        streams = _recipe(name)()
        return {"load_dataset": _digests({split: list(dataset[split]) for split in dataset}),
                "streams": _digests({split: list(streams[split]) for split in streams})}


ALL_NAMES = sorted([*RECIPES, *GLOBAL_SEED_RECIPES])


def test_the_digest_file_covers_exactly_the_recipes():
    assert sorted(json.loads(DIGESTS.read_text(encoding="utf-8"))) == ALL_NAMES


@pytest.mark.parametrize("name", ALL_NAMES)
def test_recipe_rows_are_byte_identical_to_the_recorded_digest(name, mirrors, monkeypatch):
    monkeypatch.chdir(mirrors)
    stored = json.loads(DIGESTS.read_text(encoding="utf-8"))[name]
    found = digests_of(name)
    assert found["load_dataset"] == found["streams"], name  # the Arrow builder writes the rows the streams give
    changed = sorted(key for key in stored if found["load_dataset"].get(key) != stored[key])
    assert not changed, f"{name}: rows changed in {changed}"
    assert int(stored["test/count"]) >= 6


def record() -> None:
    """Rewrite row_digests.json from this checkout (only when rows are meant to change: say which and why in the
    commit). Run: PYTHONPATH=core python -m tests.rendering.test_row_digests --record"""
    import os
    import tempfile

    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    root = Path(tempfile.mkdtemp(prefix="digest_mirrors"))
    for repo in ("nyu-mll/glue", "allenai/ai2_arc"):
        make_hub_dataset(root, repo, MIRRORS[repo])
    here = os.getcwd()
    os.chdir(root)
    try:
        digests = {name: digests_of(name)["load_dataset"] for name in ALL_NAMES}
    finally:
        os.chdir(here)
    DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--record"]:
        record()
