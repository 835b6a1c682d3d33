"""Results have the shapes the original system gives them (issue "Same name, same number"): flat instance_scores,
groups keyed by field names with per-instance group values, groups inside benchmark subsets, task_data with demos and
options, nested-benchmark caps, and `demos_sampling_seed`."""

import collections
import json

import pytest

from unitxt import create_dataset, evaluate
from unitxt.benchmark import Benchmark
from unitxt.card import TaskCard
from unitxt.errors import UnitxtError
from unitxt.loaders import LoadFromDictionary
from unitxt.recipe import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, MultipleChoiceTemplate

TASK = Task(input_fields={"text": str, "kind": str}, reference_fields={"label": str}, prediction_type=str,
            metrics=["metrics.accuracy"])
TEMPLATE = InputOutputTemplate(input_format="{text}", output_format="{label}")


def rows_of(tag, count=12):
    return [{"text": f"{tag}{i}", "kind": "ab"[i % 2], "label": ["pos", "neg"][(i // 2) % 2]} for i in range(count)]


def recipe(tag, count=12, **settings):
    loader = LoadFromDictionary(data={"test": rows_of(tag, count)}, data_classification_policy=["public"])
    return DatasetRecipe(card=TaskCard(loader=loader, task=TASK), template=TEMPLATE, **settings)


def test_groups_are_keyed_by_field_names_and_rows_hold_their_values():
    dataset = create_dataset(task=TASK, test_set=rows_of("t"), template=TEMPLATE, split="test",
                             group_by=["label", ["label", "kind"]])
    assert dataset[0]["groups"] == ['{"label": "pos"}', '{"label": "pos", "kind": "a"}']
    results = evaluate(["pos"] * 12, dataset)
    assert list(results.groups_scores) == ["label", ("label", "kind")]
    assert results.groups_scores["label"]["pos"]["accuracy"] == 1.0
    assert results.groups_scores["label"]["neg"]["accuracy"] == 0.0
    assert results.groups_scores[("label", "kind")][("neg", "b")]["num_of_instances"] == 3
    assert list(results[0]["score"]) == ["instance", "global", "groups"]


def test_instance_scores_are_flat_rows():
    dataset = create_dataset(task=TASK, test_set=rows_of("t", 4), template=TEMPLATE, split="test")
    flat = evaluate(["pos", "x", "neg", "neg"], dataset).instance_scores
    assert flat[0]["accuracy"] == 1.0 and flat[1]["accuracy"] == 0.0 and flat[0]["score_name"] == "accuracy"
    assert flat[0]["text"] == "t0" and flat[0]["kind"] == "a" and flat[0]["metadata"]["num_demos"] == 0
    assert flat[1]["prediction"] == "x" and flat[0]["processed_references"] == ["pos"]
    assert "task_data" not in flat[0] and isinstance(flat[0]["score"], float)


def test_group_by_inside_a_benchmark_subset_is_scored_within_the_subset():
    benchmark = Benchmark(subsets={"g": recipe("g", group_by=["kind"]), "p": recipe("p")})
    rows = list(benchmark()["test"])
    results = evaluate(["pos"] * len(rows), rows)
    groups = results.subsets_scores["g"]["groups"]["kind"]
    assert set(groups) == {"a", "b"} and groups["a"]["num_of_instances"] == 6 and groups["a"]["accuracy"] == 0.5
    assert "groups" not in results.subsets_scores["p"]
    assert list(results[0]["score"]) == ["instance", "global", "subsets"]
    assert results.subsets_scores["score"] == pytest.approx(0.5)
    assert "| g/groups" not in results.subsets_scores.summary


def test_nested_benchmark_is_capped_as_a_whole():
    inner = Benchmark(subsets={"i1": recipe("a", 100), "i2": recipe("b", 100), "i3": recipe("c", 100)})
    outer = Benchmark(subsets={"leaf": recipe("l", 100), "nested": inner}, max_samples_per_subset=20)
    counts = collections.Counter(tuple(row["subset"]) for row in outer()["test"])
    assert counts == {("leaf",): 20, ("nested", "i1"): 20}


def test_task_data_has_options_for_multiple_choice_and_the_demos():
    task = Task(input_fields={"question": str, "choices": list}, reference_fields={"answer": int},
                prediction_type=str, metrics=["metrics.accuracy"])
    template = MultipleChoiceTemplate(input_format="{question}\n{choices}", target_field="answer")
    data = [{"question": f"q{i}", "choices": ["a", "b", "c"], "answer": i % 3} for i in range(8)]
    dataset = create_dataset(task=task, test_set=data, train_set=data, template=template, split="test",
                             num_demos=1, demos_pool_size=3, demos_taken_from="train")
    task_data = json.loads(dataset[0]["task_data"])
    assert task_data["options"] == ["A", "B", "C"]
    assert task_data["metadata"]["template"] == template.to_dict() and task_data["metadata"]["num_demos"] == 1
    (demo,) = task_data["demos"]
    assert demo["options"] == ["A", "B", "C"] and set(demo) == {"question", "choices", "answer", "options", "metadata"}
    assert demo["metadata"] == {"data_classification_policy": task_data["metadata"]["data_classification_policy"]}


def test_demos_sampling_seed_is_the_seed():
    settings = dict(num_demos=2, demos_pool_size=6, demos_taken_from="test", demos_removed_from_data=True)
    by_seed = [row["source"] for row in recipe("s", 30, seed=5, **settings)()["test"]]
    by_alias = [row["source"] for row in recipe("s", 30, demos_sampling_seed=5, **settings)()["test"]]
    other = [row["source"] for row in recipe("s", 30, seed=6, **settings)()["test"]]
    assert by_seed == by_alias and by_seed != other
    with pytest.raises(UnitxtError, match="demos_sampling_seed"):
        recipe("s", 30, seed=1, demos_sampling_seed=2)
