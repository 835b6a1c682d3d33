"""Augmentors: only the task's augmentable inputs change, never other inputs or references; seeded and reproducible;
demo label noise; a list of augmentors is sampled per instance; catalog entries."""

import json
import re

import pytest

from unitxt import load_dataset
from unitxt.augmentors import (
    AugmentCase,
    AugmentPrefixSuffix,
    AugmentTypos,
    AugmentWhitespace,
    DemosLabelNoise,
    NullAugmentor,
    SequentialAugmentor,
)
from unitxt.catalog import fetch_artifact
from unitxt.errors import ArtifactDefinitionError, UnitxtError
from unitxt.random_utils import InstanceRandom
from unitxt.task import Task

from tests.support.recipe_fixtures import register_card, synthetic_rows

RELATION = "templates.classification.multi_class.relation.default"
DEMO = re.compile(r"(#1-\d+)\nhypothesis: [^\n]*\nThe entailment class is ([^\n]+)")
TASK = Task(input_fields={"text": str, "tags": "List[str]", "kind": str, "n": int}, reference_fields={"label": str},
            augmentable_inputs=["text", "tags"])
INSTANCE = {
    "input_fields": {"text": "The quick brown fox jumps over the lazy dog.", "tags": ["red fox", "lazy dog"],
                     "kind": "a sentence about animals", "n": 3},
    "reference_fields": {"label": "the animals sentence"},
    "data_classification_policy": ["public"],
}
TEXT_AUGMENTORS = [
    AugmentWhitespace(),
    AugmentPrefixSuffix(prefixes=[" ", "\n"], suffixes={"\t": 1, "  ": 3}),
    AugmentTypos(probability=0.3),
    AugmentCase(mode="random"),
    AugmentCase(mode="upper"),
]


@pytest.fixture
def card_name(temp_catalog):
    return register_card(temp_catalog)


def _copy(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("augmentor", TEXT_AUGMENTORS,
                         ids=[f"{type(a).__name__}_{i}" for i, a in enumerate(TEXT_AUGMENTORS)])
def test_text_augmentors_touch_only_augmentable_inputs_and_are_reproducible(augmentor):
    original = _copy(INSTANCE)
    first = augmentor.augment_instance(INSTANCE, TASK, InstanceRandom("seed-1"))
    again = augmentor.augment_instance(INSTANCE, TASK, InstanceRandom("seed-1"))
    assert first == again  # same generator state -> same augmentation
    assert INSTANCE == original  # the given instance is not mutated
    assert first["reference_fields"] == INSTANCE["reference_fields"]
    assert first["input_fields"]["kind"] == INSTANCE["input_fields"]["kind"] and first["input_fields"]["n"] == 3
    assert first["input_fields"]["text"] != INSTANCE["input_fields"]["text"]
    assert isinstance(first["input_fields"]["tags"], list) and len(first["input_fields"]["tags"]) == 2
    others = {json.dumps(augmentor.augment_instance(INSTANCE, TASK, InstanceRandom(f"seed-{i}"))["input_fields"])
              for i in range(2, 8)}
    if not (isinstance(augmentor, AugmentCase) and augmentor.mode == "upper"):
        assert len(others) > 1  # different generators give different noise


def test_what_each_text_augmentor_does():
    rng = InstanceRandom("x")
    text = "alpha beta\tgamma  delta"
    spaced = AugmentWhitespace().augment_text(text, rng)
    assert spaced.split() == text.split() and spaced != text
    assert AugmentWhitespace(whitespaces=["_"], max_length=1).augment_text("a b  c", rng) == "a_b_c"
    framed = AugmentPrefixSuffix(prefixes=["<"], prefix_len=2, suffixes=[">"], suffix_len=1,
                                 remove_existing_whitespaces=True).augment_text("  core ", rng)
    assert framed == "<<core>"
    noisy = AugmentTypos(probability=1.0, operations=["replace"], alphabet="z").augment_text("ab 12", rng)
    assert noisy == "zz 12"  # only letters change
    assert AugmentTypos(probability=0.0).augment_text(text, rng) == text
    assert AugmentCase(mode="lower").augment_text("AbC", rng) == "abc"
    assert AugmentCase(mode="title").augment_text("ab cd", rng) == "Ab Cd"
    flipped = AugmentCase(mode="random", probability=1.0).augment_text("AbC d", rng)
    assert flipped == "aBc D"


def test_augmentor_validation_and_misuse():
    with pytest.raises(ArtifactDefinitionError):
        AugmentTypos(operations=["shout"])
    with pytest.raises(ArtifactDefinitionError):
        AugmentCase(mode="sponge")
    with pytest.raises(ArtifactDefinitionError):
        AugmentPrefixSuffix(prefixes=None, suffixes=None)
    no_augmentable = Task(input_fields={"text": str}, reference_fields={"label": str})
    with pytest.raises(UnitxtError, match="augmentable_inputs"):
        AugmentWhitespace().augment_instance(INSTANCE, no_augmentable, InstanceRandom("x"))
    with pytest.raises(UnitxtError, match="not augmentable"):
        AugmentWhitespace(fields=["kind"]).augment_instance(INSTANCE, TASK, InstanceRandom("x"))
    only_tags = AugmentCase(mode="upper", fields=["tags"]).augment_instance(INSTANCE, TASK, InstanceRandom("x"))
    assert only_tags["input_fields"]["tags"] == ["RED FOX", "LAZY DOG"]
    assert only_tags["input_fields"]["text"] == INSTANCE["input_fields"]["text"]
    assert NullAugmentor().augment_instance(INSTANCE, no_augmentable, InstanceRandom("x")) is INSTANCE


def test_augmentor_as_a_plain_operator():
    operator = AugmentCase(mode="upper", fields=["text"])
    assert operator.process_instance({"text": "abc", "other": "x"}) == {"text": "ABC", "other": "x"}
    noisy = AugmentTypos(probability=0.5, fields=["text"])
    assert noisy.process_instance({"text": "abcdefgh"}) == noisy.process_instance({"text": "abcdefgh"})
    with pytest.raises(UnitxtError, match="fields"):
        AugmentCase(mode="upper").process_instance({"text": "abc"})


# ---------------------------------------------------------------- in recipes
def _rows(card_name, **kwargs):
    return list(load_dataset(f"card={card_name},template={RELATION}", split="test", **kwargs))


def test_recipe_augmentor_changes_only_the_augmentable_text(card_name):
    plain = _rows(card_name)
    upper = _rows(card_name, augmentor=AugmentCase(mode="upper"))
    for before, after in zip(plain, upper):
        data = json.loads(before["task_data"])
        expected = before["source"].replace(data["text_a"], data["text_a"].upper()).replace(
            data["text_b"], data["text_b"].upper())
        assert after["source"] == expected
        assert after["target"] == before["target"] and after["references"] == before["references"]
        augmented = json.loads(after["task_data"])
        assert augmented["text_a"] == data["text_a"].upper() and augmented["classes"] == data["classes"]
        assert augmented["label"] == data["label"]


def test_recipe_whitespace_augmentation_from_the_catalog_is_reproducible(card_name):
    plain = _rows(card_name)
    first = _rows(card_name, augmentor="augmentors.augment_whitespace_task_input")
    second = _rows(card_name, augmentor="augmentors.augment_whitespace_task_input")
    assert first == second
    assert sum(a["source"] != b["source"] for a, b in zip(plain, first)) > len(plain) // 2
    for before, after in zip(plain, first):
        assert re.sub(r"\s+", " ", after["source"]) == re.sub(r"\s+", " ", before["source"])
        assert after["target"] == before["target"]
    framed = _rows(card_name, augmentor="augmentors.augment_whitespace_prefix_and_suffix_task_input")
    for before, after in zip(plain, framed):
        assert re.sub(r"\s+", " ", after["source"]).strip() == re.sub(r"\s+", " ", before["source"]).strip()


def test_demos_are_drawn_for_the_augmented_instance(card_name):
    # as the original, the augmentor runs before the demos are sampled: the sampler's generator is seeded by the
    # augmented input fields (so the demos are reproducible, and may differ from the plain recipe's)
    from unitxt.rendering.demo_pool import demo_generator

    kwargs = {"num_demos": 2, "demos_pool_size": 20}
    upper = _rows(card_name, augmentor=AugmentCase(mode="upper"), **kwargs)
    assert upper == _rows(card_name, augmentor=AugmentCase(mode="upper"), **kwargs)
    pool_ids = [f"#1-{row['idx']}" for row in synthetic_rows(120, 1)][:20]
    for row in upper:
        data = json.loads(row["task_data"])
        inputs = {key: data[key] for key in ("text_a", "text_a_type", "text_b", "text_b_type", "classes",
                                              "type_of_relation")}
        drawn = demo_generator({"input_fields": inputs}).sample(range(20), 2)
        assert re.findall(r"#1-\d+", row["source"].upper()) == [pool_ids[index].upper() for index in drawn]


def test_a_list_of_augmentors_is_sampled_per_instance(card_name):
    plain = _rows(card_name)
    mixed = _rows(card_name, augmentor=[NullAugmentor(), AugmentCase(mode="upper")])
    assert mixed == _rows(card_name, augmentor=[NullAugmentor(), AugmentCase(mode="upper")])
    unchanged = sum(a["source"] == b["source"] for a, b in zip(plain, mixed))
    assert 0 < unchanged < len(plain)
    both = _rows(card_name, augmentor=SequentialAugmentor(augmentors=[AugmentCase(mode="upper"),
                                                                     AugmentPrefixSuffix(prefixes=["~"],
                                                                                         prefix_len=1)]))
    data = json.loads(plain[0]["task_data"])
    assert f"~{data['text_a'].upper()}" in both[0]["source"]


def test_demo_label_noise_replaces_demo_labels_only(card_name):
    labels = {f"#1-{row['idx']}": ["not entailment", "entailment"][row["label"]] for row in synthetic_rows(120, 1)}
    kwargs = {"num_demos": 3, "demos_pool_size": 20}
    plain = _rows(card_name, **kwargs)
    noisy = _rows(card_name, augmentor=DemosLabelNoise(probability=1.0), **kwargs)
    assert noisy == _rows(card_name, augmentor=DemosLabelNoise(probability=1.0), **kwargs)
    for before, after in zip(plain, noisy):
        assert after["target"] == before["target"] and after["task_data"] == before["task_data"]
        shown = DEMO.findall(after["source"])
        assert len(shown) == 3
        for demo_id, label in shown:
            assert label != labels[demo_id] and label in ("entailment", "not entailment")
        assert [demo_id for demo_id, _ in DEMO.findall(before["source"])] == [demo_id for demo_id, _ in shown]
        assert all(label == labels[demo_id] for demo_id, label in DEMO.findall(before["source"]))
    assert _rows(card_name, augmentor=DemosLabelNoise(probability=0.0), **kwargs) == plain
    catalog_noise = _rows(card_name, augmentor="augmentors.demos_label_noise", **kwargs)
    changed = sum(a["source"] != b["source"] for a, b in zip(plain, catalog_noise))
    assert 0 < changed < len(plain)


def test_label_noise_needs_classes():
    demos = [{"input_fields": {"text": "t"}, "reference_fields": {"label": "a"}}]
    with pytest.raises(UnitxtError, match="class list"):
        DemosLabelNoise(probability=1.0).augment_demos(demos, {"input_fields": {}}, InstanceRandom("x"))
    noisy = DemosLabelNoise(probability=1.0, classes=["a", "b"]).augment_demos(demos, {}, InstanceRandom("x"))
    assert noisy[0]["reference_fields"]["label"] == "b" and demos[0]["reference_fields"]["label"] == "a"
    multi = [{"input_fields": {}, "reference_fields": {"label": ["a", "a"]}}]
    assert DemosLabelNoise(probability=1.0, classes=["a", "b"]).augment_demos(multi, {}, InstanceRandom("x"))[0][
        "reference_fields"]["label"] == ["b", "b"]


@pytest.mark.parametrize("name", [
    "augmentors.no_augmentation",
    "augmentors.augment_whitespace_task_input",
    "augmentors.augment_whitespace_prefix_and_suffix_task_input",
    "augmentors.augment_typos_task_input",
    "augmentors.augment_random_case_task_input",
    "augmentors.demos_label_noise",
    "augmentors.image.white_noise",
    "augmentors.image.grid_lines",
    "augmentors.image.gray_scale",
])
def test_catalog_augmentors(name):
    augmentor, _ = fetch_artifact(name)
    result = augmentor.augment_instance(INSTANCE, TASK, InstanceRandom("catalog"))
    assert result["reference_fields"] == INSTANCE["reference_fields"]
    assert result["input_fields"]["kind"] == INSTANCE["input_fields"]["kind"]


@pytest.mark.parametrize("augmentor", TEXT_AUGMENTORS + [AugmentTypos(probability=1.0)],
                         ids=lambda a: type(a).__name__)
def test_text_augmentors_keep_media_placeholders(augmentor):
    text = 'Look: <img src="media/images/0"> and <audio src="media/audios/12"> then answer the question'
    instance = {"input_fields": {"text": text, "tags": [], "kind": "k", "n": 1}, "reference_fields": {"label": "x"}}
    for seed in range(5):
        augmented = augmentor.augment_instance(instance, TASK, InstanceRandom(f"p{seed}"))["input_fields"]["text"]
        assert '<img src="media/images/0">' in augmented and '<audio src="media/audios/12">' in augmented
        assert not re.search("[\ue000-\uf8ff]", augmented)
