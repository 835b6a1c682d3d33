"""The original's evaluation recipes as stream operators (unitxt.metric_utils): MetricRecipe scores rows with their
metrics per subset and group as evaluate() does; PostProcessRecipe keeps raw and processed predictions; the target
prefix of the row's template is removed before post-processing."""

import json

import pytest

from unitxt.metric_utils import DeleteTargetPrefix, InstanceInput, MetricRecipe, PostProcessRecipe


def _row(i, reference, subset, group):
    return {"source": f"Q{i}", "target": reference, "references": [reference], "metrics": ["metrics.accuracy"],
            "postprocessors": ["processors.to_string_stripped"],
            "task_data": json.dumps({"x": i, "metadata": {"template": "templates.empty"}}),
            "groups": [json.dumps({"template": group})], "subset": subset, "data_classification_policy": ["public"]}


ROWS = [_row(0, "a", ["s1"], "t1"), _row(1, "b", ["s1"], "t2"), _row(2, "c", ["s2"], "t1"), _row(3, "a", ["s2"], "t1")]
PREDICTIONS = [" a ", "x", "c", "a"]


def test_metric_recipe_scores_subsets_and_groups_and_restores_raw_values():
    scored = list(MetricRecipe(calc_confidence_intervals=False)(predictions=PREDICTIONS, references=ROWS,
                                                                 split_name="test")["test"])
    scores = scored[0]["score"]
    assert scores["global"] == {"num_of_instances": 4, "score": 0.75, "score_name": "subsets_mean",
                                "subsets_mean": 0.75}  # s1: 1 of 2 right, s2: 2 of 2
    assert scores["subsets"]["s1"]["accuracy"] == 0.5 and scores["subsets"]["s2"]["accuracy"] == 1.0
    assert scores["subsets"]["s1"]["groups"]["template"]["t2"]["accuracy"] == 0.0
    assert [row["score"]["instance"]["accuracy"] for row in scored] == [1.0, 0.0, 1.0, 1.0]
    assert scored[0]["prediction"] == " a " and scored[0]["processed_prediction"] == "a"
    assert scored[0]["task_data"]["source"] == "Q0"


def test_post_process_recipe_and_target_prefix():
    rows = list(PostProcessRecipe()(predictions=PREDICTIONS, references=ROWS)["all_data"])
    assert [row["processed_prediction"] for row in rows] == ["a", "x", "c", "a"]
    assert [row["raw_prediction"] for row in rows] == PREDICTIONS
    template = {"__type__": "input_output_template", "input_format": "{x}", "output_format": "{y}",
                "target_prefix": "Answer {x}:"}
    instance = {"prediction": "  Answer 3:  yes", "task_data": {"x": 3, "metadata": {"template": template}}}
    assert DeleteTargetPrefix().process_instance(instance)["prediction"] == "yes"
    assert InstanceInput(prediction="a", references=["b"]).additional_inputs is None
    with pytest.raises(Exception, match="not valid"):
        list(PostProcessRecipe()(predictions=["a"], references=[["not", "a", "row"]])["all_data"])
