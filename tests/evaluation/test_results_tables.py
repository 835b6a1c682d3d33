"""Results tables as the original gives them (pandas, optional here): GlobalScores.to_df() indexed by score_name with
score / ci_low / ci_high, InstanceScores.to_df(flatten, columns) and .to_markdown()."""

import math

import pandas
import pytest

from unitxt import create_dataset, evaluate
from unitxt.blocks import InputOutputTemplate, Task


@pytest.fixture(scope="module")
def results():
    task = Task(input_fields={"text": str}, reference_fields={"label": str}, prediction_type=str,
                metrics=["metrics.accuracy"])
    template = InputOutputTemplate(input_format="{text}", output_format="{label}")
    rows = [{"text": f"t{i}", "label": "yes" if i % 3 else "no"} for i in range(12)]
    dataset = create_dataset(task=task, test_set=rows, template=template, split="test")
    return evaluate(["yes"] * 12, dataset)


def test_global_scores_to_df(results):
    frame = results.global_scores.to_df()
    assert isinstance(frame, pandas.DataFrame) and frame.index.name == "score_name"
    assert list(frame.columns) == ["score", "ci_low", "ci_high"]
    assert frame.loc["accuracy", "score"] == pytest.approx(8 / 12)
    assert frame.loc["accuracy", "ci_low"] == results.global_scores["accuracy_ci_low"]
    assert frame.loc["num_of_instances", "score"] == 12 and math.isnan(frame.loc["num_of_instances", "ci_low"])


def test_instance_scores_to_df_and_to_markdown(results):
    frame = results.instance_scores.to_df()
    assert len(frame) == 12 and {"text", "prediction", "accuracy", "score"} <= set(frame.columns)
    assert frame["accuracy"].tolist() == [0.0 if i % 3 == 0 else 1.0 for i in range(12)]
    nested = results.instance_scores.to_df(flatten=False, columns=["prediction", "score"])
    assert nested["score"][0]["instance"]["accuracy"] == 0.0
    table = results.instance_scores.to_markdown(columns=["text", "accuracy"])
    lines = [[cell.strip() for cell in line.split("|")[1:-1]] for line in table.splitlines()]
    assert lines[0] == ["", "text", "accuracy"] and lines[2] == ["0", "t0", "0"] and lines[6] == ["4", "t4", "1"]
    with pytest.raises(KeyError):
        results.instance_scores.to_df(columns=["no_such_column"])
