"""Differential tier: unitxt.eval_utils.evaluate on the same DataFrame through the original and ours gives the same
tables: per-record results with one column per metric, and the global table with metric names as columns and every
global score (with each score's CI bounds when asked) as rows."""

import math

import pandas
import pytest

from unitxt.eval_utils import evaluate

RECORDS = [{"prediction": float(i % 2), "references": [float((i // 2) % 2)]} for i in range(12)]
METRICS = ["metrics.accuracy", "metrics.spearman", "metrics.f1_micro"]


def _cell(value):
    if hasattr(value, "item"):
        value = value.item()
    return None if isinstance(value, float) and math.isnan(value) else value


@pytest.mark.parametrize("with_ci", [False, True])
def test_eval_utils_tables_match_the_original(oracle, with_ci):
    (theirs,) = oracle([{"kind": "eval_utils", "records": RECORDS, "metric_names": METRICS,
                         "compute_conf_intervals": with_ci}])
    assert "error" not in theirs, theirs.get("error")
    results, global_scores = evaluate(pandas.DataFrame(RECORDS), METRICS, compute_conf_intervals=with_ci)
    assert list(results.columns) == theirs["results_columns"]
    assert list(global_scores.columns) == theirs["global_columns"]
    assert sorted(global_scores.index) == sorted(theirs["global_index"])
    for column in METRICS:
        assert [_cell(value) for value in results[column]] == pytest.approx(theirs["results"][column])
        for row in global_scores.index:
            ours, original = _cell(global_scores.at[row, column]), theirs["global"][column][row]
            if isinstance(original, float):
                assert ours == pytest.approx(original, abs=1e-9), (column, row)
            else:
                assert ours == original, (column, row)
    if with_ci:
        assert {"score_ci_low", "score_ci_high", "accuracy_ci_low", "f1_micro_ci_high"} <= set(global_scores.index)
    scores = global_scores["metrics.accuracy"]
    assert scores["score"] == pytest.approx(0.5) and scores["score_name"] == "accuracy"
