"""Columnar rendering (unitxt.batch_render) gives the bytes of the per-instance renderer.

Every catalog card (variants of a large family sampled as in test_cards) x its first and last template, with 0 demos
(and 2 with the first template), on the local Hub mirrors (tests/support/card_mirrors.py): the rows of
`InstanceRenderer.render` one at a time (iterating the split) equal the column batches the Arrow builder writes
(`iter_columns`), value for value and as Arrow tables. Synthetic recipes cover what the catalog cards do not: several
templates and demo counts per recipe, demos equal to the instance (exclusions), other samplers, group_by, chat formats
and custom system prompts (which fall back to the per-instance path), and load_dataset end to end.
"""

import hashlib
import json

import pyarrow
import pytest

from unitxt import load_dataset
from unitxt.card import TaskCard
from unitxt.catalog import fetch_artifact
from unitxt.dataset_builder import row_features
from unitxt.format_utils import FormatValueError
from unitxt.formats import ChatAPIFormat, SystemFormat
from unitxt.loaders import LoadFromDictionary
from unitxt.recipe import ROW_KEYS, DatasetRecipe
from unitxt.samplers import DiverseLabelsSampler, FixedIndicesSampler
from unitxt.system_prompts import TextualSystemPrompt
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, MultipleChoiceTemplate

from tests.support.card_mirrors import build_all
from tests.cards.test_cards_on_mirrors import CORPUS_NAMES, MIRROR_CARD_NAMES, _templates

BATCH = 5  # small batches: every split spans several of them


@pytest.fixture(scope="module")
def mirrors(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("hub_mirrors"))


def _columns_of(stream, batch_size=BATCH):
    columns = {key: [] for key in ROW_KEYS}
    for batch in stream.iter_columns(batch_size):
        assert list(batch) == list(ROW_KEYS)
        assert len({len(column) for column in batch.values()}) == 1
        for key in ROW_KEYS:
            columns[key].extend(batch[key])
    return columns


def assert_same_rows(recipe):
    """Per split: rows one at a time == column batches, as Python values and as Arrow tables."""
    streams = recipe()
    schema = row_features(recipe.produces_chat_source(), recipe.produces_chat_source() and recipe.produces_media())
    schema = schema.arrow_schema
    counts = {}
    for name in streams:
        rows = list(streams[name])
        columns = _columns_of(streams[name])
        for key in ROW_KEYS:
            assert columns[key] == [row[key] for row in rows], (name, key)
        by_rows = pyarrow.Table.from_pylist(rows, schema=schema)
        by_columns = pyarrow.Table.from_arrays(
            [pyarrow.array(columns[key], type=schema.field(key).type) for key in schema.names], schema=schema)
        assert by_columns.equals(by_rows), name
        counts[name] = len(rows)
    return counts


# corpus cards (a train split of documents, no test split) are checked in test_cards
@pytest.mark.parametrize("name", [name for name in MIRROR_CARD_NAMES if name not in CORPUS_NAMES])
def test_every_card_template_and_demo_count_renders_the_same_in_batches(name, mirrors, monkeypatch):
    monkeypatch.chdir(mirrors)
    card, _ = fetch_artifact(name)
    templates = _templates(card)
    # the first and the last template of each card (templates of one card share its pipeline; every template is
    # rendered per instance by test_cards), demos with the first only: the whole matrix took minutes
    for template in dict.fromkeys([templates[0], templates[-1]]):
        plain = assert_same_rows(DatasetRecipe(card=card, template_card_index=template))
        assert plain.get("test", 0) >= 3, (name, plain)
        if "train" in plain and template == templates[0]:  # as test_card: demos need a train split to take from
            with_demos = assert_same_rows(
                DatasetRecipe(card=card, template_card_index=template, num_demos=2, demos_pool_size=3))
            assert with_demos["train"] == plain["train"] - 3  # the pool left the train split


# ---------------------------------------------------------------- synthetic recipes


def _task():
    return Task(input_fields={"text": str, "classes": "List[str]"}, reference_fields={"label": str},
                prediction_type=str, metrics=["metrics.accuracy"])


def _rows(count, seed):
    labels = ["yes", "no", "maybe"]
    return [{"text": f"sentence {index * seed % 17} about item {index % 5}", "classes": labels,
             "label": labels[(index * seed) % 3]} for index in range(count)]


def _card(train, test, templates):
    return TaskCard(loader=LoadFromDictionary(data={"train": train, "test": test}), task=_task(), templates=templates)


TEMPLATES = [
    InputOutputTemplate(input_format="Text: {text}", output_format="{label}", instruction="Pick one of {classes}.",
                        target_prefix="Answer: "),
    InputOutputTemplate(input_format="{text} ({classes})?", output_format="{label}", postprocessors=[
        "processors.take_first_word", "processors.lower_case"]),
]


def test_several_templates_demo_counts_and_demos_equal_to_the_instance():
    train = _rows(30, 7)
    # the test rows repeat train rows, and demos are not removed from train: exclusions happen on both splits
    recipe = DatasetRecipe(card=_card(train, train[:20] + _rows(25, 3), TEMPLATES),
                           template=TEMPLATES, num_demos=[0, 1, 3], demos_pool_size=10, demos_removed_from_data=False,
                           group_by=["label", ["template", "num_demos"]])
    counts = assert_same_rows(recipe)
    assert counts == {"train": 30, "test": 45}
    rows = list(recipe()["test"])
    metadata = [json.loads(row["task_data"])["metadata"] for row in rows]
    assert {item["num_demos"] for item in metadata} == {0, 1, 3}
    assert len({json.dumps(item["template"], sort_keys=True) for item in metadata}) == 2


def test_more_draws_than_one_block_and_other_samplers():
    train, test = _rows(40, 5), _rows(30, 11)
    diverse = DiverseLabelsSampler(choices=None, labels="label")
    for sampler in (None, FixedIndicesSampler(indices=[4, 0, 2, 7, 1, 3, 5, 6, 8]), diverse):
        recipe = DatasetRecipe(card=_card(train, test, TEMPLATES), template=TEMPLATES, num_demos=[6, 7],
                               demos_pool_size=12, sampler=sampler)  # 2 + 7 draws: past the first 8-word block
        assert assert_same_rows(recipe) == {"train": 28, "test": 30}


def test_chat_format_system_prompt_and_multiple_choice_fall_back_to_the_same_rows():
    task = Task(input_fields={"question": str, "choices": "List[str]"}, reference_fields={"answer": int},
                prediction_type=str, metrics=["metrics.accuracy"])
    template = MultipleChoiceTemplate(input_format="{question}\n{choices}", target_field="answer",
                                      choices_field="choices", target_prefix="Answer: ")
    data = [{"question": f"Which {index}?", "choices": ["red", "green", "blue"], "answer": index % 3}
            for index in range(12)]
    card = TaskCard(loader=LoadFromDictionary(data={"train": data, "test": data[:6]}), task=task, templates=[template])
    for extra in ({"format": ChatAPIFormat()}, {"system_prompt": TextualSystemPrompt(text="Be brief.")},
                  {"format": SystemFormat(demo_format="Q: {source}\nA: {target}\n\n")},
                  {"format": SystemFormat(format_args={"who": "Tutor"}, model_input_format="{who}\\N{demos}{source}")},
                  {"format": SystemFormat(model_input_format="{instruction}{demos}{source:>40}\\N{target_prefix}")}):
        recipe = DatasetRecipe(card=card, template=template, num_demos=2, demos_pool_size=4, **extra)
        assert assert_same_rows(recipe) == {"train": 8, "test": 6}


def test_a_value_the_format_refuses_raises_the_same_error_in_batches():
    recipe = DatasetRecipe(card=_card(_rows(10, 7), _rows(6, 3), TEMPLATES), template=TEMPLATES[0],
                           format=SystemFormat(model_input_format="{source:.2f}"))
    stream = recipe()["test"]
    with pytest.raises(FormatValueError) as one_at_a_time:
        list(stream)
    with pytest.raises(FormatValueError) as in_batches:
        list(stream.iter_columns(4))
    assert str(in_batches.value) == str(one_at_a_time.value)
    assert "model_input_format" in str(in_batches.value)


def test_load_dataset_rows_are_the_per_instance_rows_and_pinned():
    train, test = _rows(30, 7), _rows(50, 13)

    def make():
        return DatasetRecipe(card=_card(train, test, TEMPLATES), template=TEMPLATES, num_demos=[0, 2],
                             demos_pool_size=8)

    dataset = load_dataset(make())
    expected = {name: list(stream) for name, stream in make()().items()}
    assert sorted(dataset) == ["test", "train"]
    for name, rows in expected.items():
        assert dataset[name].to_list() == rows
        assert dataset[name].info.splits[name].num_examples == len(rows)
    assert load_dataset(make(), split="test").to_list() == expected["test"]
    assert load_dataset(make(), split="test[:3]").to_list() == expected["test"][:3]  # through the Arrow cache
    # the rows' bytes are fixed across runs, machines and Python versions (recorded from the per-instance renderer)
    digest = hashlib.sha256(json.dumps(expected, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
    assert digest == PINNED_DIGEST


PINNED_DIGEST = "4a1426a27fa3b85bca5d13dfce161a54dad63c69adcc20809ffeed7a80667928"  # s9-36b: the original's demos + metadata order


def test_multimodal_rows_text_and_chat_content_parts_are_the_same_in_batches():
    from tests.rendering.test_multimodal import TEMPLATE as VQA_TEMPLATE
    from tests.rendering.test_multimodal import vqa_card

    for format_name in ("formats.chat_api", None):
        recipe = DatasetRecipe(card=vqa_card(), template=VQA_TEMPLATE, format=format_name, num_demos=1,
                               demos_pool_size=4)
        assert assert_same_rows(recipe) == {"train": 0, "test": 2}  # the 4 train rows are the pool
        assert next(iter(recipe()["test"]))["media"]["images"]  # the rows do carry images


def test_rows_of_the_general_path_and_rows_with_a_subset_take_their_place_among_the_batch_rows():
    """A batch holding rows `render` makes (an instance with its own media) and rows naming a subset: the columns
    that hold one value for the other rows (metrics, media, subset, ...) carry those rows' own values in place."""
    from tests.rendering.test_multimodal import draw
    from unitxt.image_utils import encode_image

    test = [dict(row, subset=[], media=None) for row in _rows(23, 3)]  # no subset, no media: rows of the batch path
    for position in (2, 7, 21):
        test[position]["subset"] = ["part", str(position)]
    test[5]["media"] = {"images": [encode_image(draw("red"))], "audios": []}
    for templates, group_by in ((TEMPLATES[0], []), (TEMPLATES, ["label"])):
        def make():
            return DatasetRecipe(card=_card(_rows(12, 7), test, TEMPLATES), template=templates, num_demos=2,
                                 demos_pool_size=6, group_by=group_by)

        assert assert_same_rows(make()) == {"train": 6, "test": 23}
        rows = list(make()()["test"])
        assert [row["subset"] for row in rows if row["subset"]] == [["part", "2"], ["part", "7"], ["part", "21"]]
        assert rows[5]["media"]["images"] and not rows[4]["media"]["images"]
        assert load_dataset(make(), split="test").to_list() == rows  # Arrow columns built from the batches
