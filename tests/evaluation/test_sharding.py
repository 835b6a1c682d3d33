"""Sharded runs on the existing engines: a recipe's dataset split over ranks with `datasets`' own tools keeps every
row exactly once, deterministically, and the shards' predictions scored together equal the unsharded evaluation."""

import json

import pytest
from datasets import concatenate_datasets
from datasets.distributed import split_dataset_by_node

from unitxt import evaluate, load_dataset

RECIPE = "card=cards.demo.sentiment,num_demos=2,demos_pool_size=30,max_test_instances=203"
WORLD = 4


def key(row):
    return json.dumps([row["source"], row["task_data"]], sort_keys=True)


@pytest.fixture(scope="module")
def dataset():
    return load_dataset(RECIPE, split="test")


def test_ranks_of_a_map_style_dataset_partition_the_rows(dataset):
    shards = [split_dataset_by_node(dataset, rank=rank, world_size=WORLD) for rank in range(WORLD)]
    assert [len(shard) for shard in shards] == [51, 51, 51, 50]
    assert [key(row) for row in concatenate_datasets(shards)] == [key(row) for row in dataset]
    again = [split_dataset_by_node(dataset, rank=rank, world_size=WORLD) for rank in range(WORLD)]
    assert [shard.to_list() for shard in again] == [shard.to_list() for shard in shards]


def test_shard_method_gives_disjoint_complete_shards(dataset):
    shards = [dataset.shard(num_shards=WORLD, index=index, contiguous=False) for index in range(WORLD)]
    keys = [key(row) for shard in shards for row in shard]
    assert len(keys) == len(set(keys)) == len(dataset) and set(keys) == {key(row) for row in dataset}


def test_ranks_of_a_streamed_dataset_partition_the_rows(dataset):
    streamed = load_dataset(RECIPE, split="test", streaming=True)
    shards = [list(split_dataset_by_node(streamed, rank=rank, world_size=WORLD)) for rank in range(WORLD)]
    keys = [key(row) for shard in shards for row in shard]
    assert sorted(keys) == sorted(key(row) for row in dataset) and len(set(keys)) == len(dataset)


def test_shard_predictions_scored_together_equal_the_whole_run(dataset):
    def model(row):  # deterministic per row, wherever the row is processed
        return "neutral" if len(row["source"]) % 4 == 0 else row["target"]

    whole = evaluate([model(row) for row in dataset], dataset)
    shards = [split_dataset_by_node(dataset, rank=rank, world_size=WORLD) for rank in range(WORLD)]
    per_rank = [[model(row) for row in shard] for shard in shards]  # each rank runs its own shard
    gathered = evaluate([p for predictions in per_rank for p in predictions], concatenate_datasets(shards))
    assert dict(gathered.global_scores) == dict(whole.global_scores)
    assert whole.global_scores["num_of_instances"] == 203 and 0.5 < whole.global_scores["accuracy"] < 1.0
