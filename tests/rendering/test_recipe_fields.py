"""Recipe, task, sampler and metric fields of the original catalog format: demos_pool_size=-1 and whole-split demo
pools, train_refiner, Task.requirements, DiverseLabelsSampler.choices, HuggingfaceMetric.scaled_fields."""

import json

import pytest

from unitxt import load_dataset
from unitxt.artifact import from_serializable
from unitxt.errors import RecipeError
from unitxt.metrics.huggingface import HuggingfaceMetric
from unitxt.random_utils import InstanceRandom
from unitxt.samplers import DiverseLabelsSampler
from unitxt.task import Task

from tests.support.recipe_fixtures import register_card, synthetic_rows

RELATION = "templates.classification.multi_class.relation.default"


@pytest.fixture
def card_name(temp_catalog):
    return register_card(temp_catalog)


def shown_premises(row):
    return [line[len("premise: "):] for line in row["source"].splitlines() if line.startswith("premise: ")]


def test_demos_pool_size_minus_one_uses_the_whole_split(card_name):
    dataset = load_dataset(f"card={card_name},template={RELATION},num_demos=2,demos_pool_size=-1")
    assert sorted(dataset) == ["test", "validation"]  # the whole train split went to the pool
    train_texts = {row["sentence1"] for row in synthetic_rows(120, 1)}
    for row in dataset["test"]:
        shown = shown_premises(row)
        assert len(shown) == 3 and set(shown[:2]) <= train_texts
    assert json.loads(dataset["test"][0]["task_data"])["metadata"]["demos_pool_size"] == 120


def test_demos_from_a_named_split_without_pool_size(card_name):
    dataset = load_dataset(f"card={card_name},template={RELATION},num_demos=1,demos_taken_from=validation")
    assert sorted(dataset) == ["test", "train"]
    validation_texts = {row["sentence1"] for row in synthetic_rows(10, 2)}
    assert all(shown_premises(row)[0] in validation_texts for row in dataset["test"])
    kept = load_dataset(f"card={card_name},template={RELATION},num_demos=1,demos_taken_from=validation,"
                        "demos_removed_from_data=False")
    assert len(kept["validation"]) == 10
    with pytest.raises(RecipeError, match="needs demos_pool_size"):
        load_dataset(f"card={card_name},template={RELATION},num_demos=2")
    with pytest.raises(RecipeError, match="-1"):
        load_dataset(f"card={card_name},template={RELATION},num_demos=1,demos_pool_size=-2")


def test_train_refiner_applies_to_the_train_split(card_name):
    refiner = {"__type__": "deterministic_balancer", "fields": ["reference_fields/label"]}
    from unitxt.recipe import DatasetRecipe

    recipe = DatasetRecipe(card=card_name, template=RELATION, train_refiner=from_serializable(refiner))
    streams = recipe()
    train = list(streams["train"])
    labels = [json.loads(row["task_data"])["label"] for row in train]
    assert labels.count("entailment") == labels.count("not entailment")
    assert len(list(streams["test"])) == 40


def test_task_requirements_are_accepted():
    task = from_serializable({"__type__": "task", "input_fields": {"x": "str"}, "reference_fields": {"y": "str"},
                              "metrics": ["metrics.accuracy"], "requirements": ["jsonschema_rs"]})
    assert task.requirements == ["jsonschema_rs"]
    assert isinstance(task, Task)


def test_diverse_labels_sampler_choices_balances_on_the_chosen_labels_present():
    pool = [{"input_fields": {"choices": ["dog", "cat"]}, "reference_fields": {"labels": labels}}
            for labels in (["dog"], ["dog", "cow"], ["cat"], ["dog", "cat"], ["dog"])]
    sampler = DiverseLabelsSampler(choices="choices", labels="labels")
    sampler.set_pool(pool)
    assert sorted(sampler._groups) == ["['cat']", "['dog', 'cat']", "['dog']"]
    assert len(sampler._groups["['dog']"]) == 3  # ["dog", "cow"] counts as ["dog"]: cow is not a choice
    chosen = sampler.sample_indices({}, 3, InstanceRandom("x"), set())
    assert sorted(sampler._label_key(pool[index]) for index in chosen) == ["['cat']", "['dog', 'cat']", "['dog']"]


def test_huggingface_metric_scales_only_scaled_fields():
    metric = HuggingfaceMetric(hf_metric_name="squad", main_score="f1", scale=100.0, scaled_fields=["f1"])
    assert metric.scaled_fields == ["f1"]
    assert from_serializable({"__type__": "huggingface_metric", "hf_metric_name": "m", "main_score": "f1",
                              "scale": 100.0, "scaled_fields": ["f1", "exact_match"]}).scaled_fields == \
        ["f1", "exact_match"]
