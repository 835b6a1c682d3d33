"""Differential tier: the same recipe with group_by and the same predictions through the original unitxt and ours
give the same rows' groups, score keys, groups_scores (keys, values, numbers), flat instance_scores and the dataset's
task_data."""

import json
import random

from unitxt import create_dataset, evaluate
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

from .test_same_numbers import same

ROWS = [{"text": f"text {i}", "kind": "abc"[i % 3], "label": ["pos", "neg"][(i // 3) % 2]} for i in range(210)]
PREDICTIONS = [random.Random(i).choice(["pos", "neg", "other"]) for i in range(210)]
GROUP_BY = ["label", ["label", "kind"], "kind"]


def test_results_have_the_original_shapes(oracle):
    (theirs,) = oracle([{"kind": "results", "rows": ROWS, "predictions": PREDICTIONS, "group_by": GROUP_BY}])
    assert "error" not in theirs, theirs.get("error")
    task = Task(input_fields={"text": str, "kind": str}, reference_fields={"label": str}, prediction_type=str,
                metrics=["metrics.accuracy"])
    template = InputOutputTemplate(input_format="{text}", output_format="{label}")
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test", group_by=GROUP_BY)
    results = evaluate(PREDICTIONS, dataset)
    assert [row["groups"] for row in results] == theirs["groups_field"]
    assert list(results[0]["score"]) == theirs["score_keys"]
    ours_groups = [[list(key) if isinstance(key, tuple) else key,
                    [[list(value) if isinstance(value, tuple) else value, scores] for value, scores in groups.items()]]
                   for key, groups in results.groups_scores.items()]
    assert [key for key, _ in ours_groups] == [key for key, _ in theirs["groups_scores"]]
    for (key, ours_values), (_, their_values) in zip(ours_groups, theirs["groups_scores"]):
        assert sorted(json.dumps(v) for v, _ in ours_values) == sorted(json.dumps(v) for v, _ in their_values)
        their_by_value = {json.dumps(value): scores for value, scores in their_values}
        for value, scores in ours_values:
            original = their_by_value[json.dumps(value)]
            for name in ("accuracy", "score", "num_of_instances", "score_name"):
                same(scores[name], original[name], f"group {key}={value} {name}")
    for index, (ours, original) in enumerate(zip(results.instance_scores, theirs["instance_scores"])):
        # the original's flat rows hold its resolved post-processor objects; ours keep the names the row lists
        assert ours.pop("postprocessors") == ["processors.to_string_stripped"]
        original.pop("postprocessors")
        same(json.loads(json.dumps(ours)), original, f"instance_scores[{index}]")
    same([json.loads(row["task_data"]) for row in dataset], theirs["task_data"], "task_data")
