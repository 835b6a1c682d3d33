"""The original's FinalizeDataset and ValidateSchema (its unitxt.schema / unitxt.validate classes, defined in
rendering/finalize.py): an instance of the original's internal form becomes a dataset row as the original writes it."""

import json

import pytest

from unitxt.artifact import fetch_artifact
from unitxt.rendering.finalize import FinalizeDataset, ValidateSchema
from unitxt.rendering.row_json import ROW_KEYS
from unitxt.stream import MultiStream

TEMPLATE = fetch_artifact("templates.empty")[0]


def _instance(i):
    return {"source": f"Q{i}", "target": "a", "references": ["a"], "metrics": ["metrics.accuracy"],
            "postprocessors": ["processors.to_string_stripped"], "input_fields": {"q": i},
            "reference_fields": {"ans": "a"}, "data_classification_policy": ["public"], "extra": 1,
            "recipe_metadata": {"num_demos": 0, "demos_pool_size": 0, "template": TEMPLATE},
            "demos": [{"input_fields": {"q": 9}, "reference_fields": {"ans": "b"},
                       "data_classification_policy": ["public"]}]}


def test_finalize_dataset_writes_rows_with_task_data_and_groups():
    operator = FinalizeDataset(group_by=["template", ["num_demos", "q"]])
    row = list(operator(MultiStream.from_iterables({"test": [_instance(0)]}))["test"])[0]
    assert set(row) == set(ROW_KEYS)
    assert row["groups"] == ['{"template": "templates.empty"}', '{"num_demos": 0, "q": 0}']
    assert json.loads(row["task_data"]) == {
        "q": 0, "ans": "a", "metadata": {"data_classification_policy": ["public"], "num_demos": 0,
                                         "demos_pool_size": 0, "template": "templates.empty"},
        "demos": [{"q": 9, "ans": "b", "metadata": {"data_classification_policy": ["public"]}}]}
    assert row["media"] == {"images": [], "audios": []} and row["subset"] == []


def test_finalize_dataset_keeps_other_fields_on_request_and_checks_the_first_row():
    kept = list(FinalizeDataset(group_by=[], remove_unnecessary_fields=False)(
        MultiStream.from_iterables({"test": [_instance(1)]}))["test"])[0]
    assert kept["extra"] == 1 and "recipe_metadata" in kept
    with pytest.raises(Exception, match="is empty"):
        list(FinalizeDataset(group_by=[])(MultiStream.from_iterables({"test": []}))["test"])


def test_validate_schema_needs_features():
    import datasets

    validator = ValidateSchema(schema=datasets.Features({"source": datasets.Value("string")}))
    assert validator.process_instance({"source": "x"}) == {"source": "x"}
    with pytest.raises(Exception, match='"source" is missing'):
        validator.verify_first_instance({})
    with pytest.raises(Exception, match="Features"):
        ValidateSchema(schema={"source": "string"})
