"""An Image given in a task field declared `Any` (tasks.key_value_extraction's `input`, as the original's
key-value extraction example does) is a media value: the prompt shows it, and task_data - and so every results row
field built from it - stays JSON (the original keeps such rows JSON too; here the image is its data URL)."""

import json

import pytest
from PIL import Image as PILImage

from unitxt.api import create_dataset, evaluate
from unitxt.settings_utils import settings


def _form(color):
    return {"image": PILImage.new("RGB", (8, 6), color), "format": "png"}


def _test_set():
    keys = ["Worker", "LivesIn"]
    return [{"input": _form((255, 255, 255)), "keys": keys, "key_value_pairs_answer": {"Worker": "John"}},
            {"input": _form((0, 0, 0)), "keys": keys, "key_value_pairs_answer": {"LivesIn": "Rome"}}]


@pytest.mark.parametrize("format_name", ["formats.chat_api", "formats.empty"])
def test_image_in_an_any_field_renders_as_media_and_stays_json(format_name):
    dataset = create_dataset(task="tasks.key_value_extraction",
                             template="templates.key_value_extraction.extract_in_json_format",
                             test_set=_test_set(), split="test", format=format_name)
    task_data = json.loads(dataset[0]["task_data"])
    assert task_data["input"].startswith("data:image/png;base64,") and task_data["keys"] == ["Worker", "LivesIn"]
    if format_name == "formats.chat_api":
        parts = [part for message in dataset[0]["source"] for part in message["content"]]
        assert [part["image_url"]["url"] for part in parts if part["type"] == "image_url"] == [task_data["input"]]
    else:
        assert '<img src="media/images/0">' in dataset[0]["source"] and len(dataset[0]["media"]["images"]) == 1
    with settings.context(mock_inference_mode=True):
        results = evaluate(predictions=['{"Worker": "John"}', '{"LivesIn": "Paris"}'], data=dataset)
    rows = results.instance_scores
    task_fields = ["input", "keys", "key_value_pairs_answer", "metadata", "source", "prediction", "references"]
    json.dumps([{name: row[name] for name in task_fields} for row in rows])  # raises if any value is not JSON
    assert rows[0]["input"] == task_data["input"]
    assert [row["accuracy_Worker"] for row in rows if "accuracy_Worker" in row] == [1.0]
