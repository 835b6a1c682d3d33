"""The original's row schemas (`unitxt.schema`, `unitxt.validate`): the declared features, which one a stream gets,
and reading serialised rows back (chat sources, task_data), as the original does on the same rows."""

import json

import datasets
import pytest

from unitxt.errors import UnitxtError
from unitxt.settings_utils import get_constants, settings


def test_dataset_and_inference_schemas_declare_the_original_features():
    from unitxt.schema import UNITXT_DATASET_SCHEMA, UNITXT_INFERENCE_SCHEMA, get_schema

    assert isinstance(UNITXT_DATASET_SCHEMA, datasets.Features)
    assert list(UNITXT_DATASET_SCHEMA) == ["source", "target", "references", "metrics", "groups", "subset", "media",
                                           "postprocessors", "task_data", "data_classification_policy"]
    assert "target" not in UNITXT_INFERENCE_SCHEMA and "references" not in UNITXT_INFERENCE_SCHEMA
    assert isinstance(UNITXT_DATASET_SCHEMA["media"]["images"].feature, datasets.Image)
    assert UNITXT_DATASET_SCHEMA["references"].feature == datasets.Value("string")
    assert get_schema(get_constants().inference_stream) is UNITXT_INFERENCE_SCHEMA
    assert get_schema("test") is UNITXT_DATASET_SCHEMA
    row = {"source": "Q", "target": "A", "references": ["A"], "metrics": ["metrics.accuracy"], "groups": [],
           "subset": [], "media": {"images": [], "audios": []}, "postprocessors": [], "task_data": "{}",
           "data_classification_policy": ["public"]}
    assert UNITXT_DATASET_SCHEMA.encode_example(row)["references"] == ["A"]


def test_loads_instance_reads_chat_sources_and_keeps_task_data_text_by_default():
    from unitxt.operators.images import ImageDataString
    from unitxt.schema import load_chat_source, loads_instance

    chat = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA"}},
                                         {"type": "text", "text": "hi"}]}]
    loaded = load_chat_source(json.dumps(chat))
    assert loaded == chat and isinstance(loaded[0]["content"][0]["image_url"]["url"], ImageDataString)
    row = loads_instance({"source": '[{"role": "user", "content": "hi"}]', "task_data": '{"a": 1}'})
    assert row == {"source": [{"role": "user", "content": "hi"}], "task_data": '{"a": 1}'}
    assert loads_instance({"source": "plain [text]"})["source"] == "plain [text]"
    with settings.context(task_data_as_text=False):
        assert loads_instance({"source": "x", "task_data": '{"a": 1}'})["task_data"] == {"a": 1}
    with pytest.raises(UnitxtError, match="JSON text of a list of messages"):
        load_chat_source("[{not json")


def test_loads_batch_reads_columns_as_the_first_row_says():
    from unitxt.schema import loads_batch

    batch = loads_batch({"source": ['[{"content": "hi", "role": "user"}]', '[{"role": "a", "content": "b"}]'],
                         "task_data": ['{"a": 1}', "{}"]})
    assert batch == {"source": [[{"content": "hi", "role": "user"}], [{"role": "a", "content": "b"}]],
                     "task_data": ['{"a": 1}', "{}"]}
    assert loads_batch({"target": ["a"]}) == {"target": ["a"]}
    with settings.context(task_data_as_text=False):
        assert loads_batch({"source": ["x"], "task_data": ['{"a": 1}', "{}"]})["task_data"] == [{"a": 1}, {}]


def test_validate_module_standard_schema():
    from unitxt.validate import StandardSchema, ValidateStandardSchema, Validator

    schema = StandardSchema()
    assert isinstance(schema, datasets.Features) and list(schema) == ["source", "target", "references", "metrics",
                                                                      "parser"]
    first, second = ValidateStandardSchema(), ValidateStandardSchema()
    assert first.schema == schema and first.schema is not second.schema
    assert isinstance(Validator(), Validator)


def test_recipe_marker_and_deprecated_recipe_name():
    from unitxt.recipe import Recipe
    from unitxt.standard import BaseRecipe, DatasetRecipe

    assert BaseRecipe is DatasetRecipe and isinstance(Recipe(), Recipe)
