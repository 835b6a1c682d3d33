"""The schema of prepared rows as `datasets` features (the original's `unitxt.schema` and `unitxt.validate`), and
reading serialised rows back: chat sources from their JSON text, task_data from JSON unless kept as text.

The builder stores chat sources as their JSON text (features inferred from the rows, as the original's builder) and
its datasets read them back through `loads_batch`; these are the original's declared schemas, for code that checks
rows or casts datasets with them.
"""

import json
from typing import Any, Dict, List

import datasets

from ..errors import UnitxtError
from ..module_aliases import moved_classes
from ..operators.images import ImageDataString
from ..settings_utils import get_constants, settings


def _strings() -> Any:
    return datasets.Sequence(datasets.Value("string"))


UNITXT_DATASET_SCHEMA = datasets.Features({
    "source": datasets.Value("string"),
    "target": datasets.Value("string"),
    "references": _strings(),
    "metrics": _strings(),
    "groups": _strings(),
    "subset": _strings(),
    "media": {"images": datasets.Sequence(datasets.Image()), "audios": datasets.Sequence(datasets.Audio())},
    "postprocessors": _strings(),
    "task_data": datasets.Value(dtype="string"),
    "data_classification_policy": _strings(),
})

# rows of the inference stream: no target or references; images as the original declares them (an empty struct)
UNITXT_INFERENCE_SCHEMA = datasets.Features({
    "source": datasets.Value("string"),
    "metrics": _strings(),
    "groups": _strings(),
    "subset": _strings(),
    "postprocessors": _strings(),
    "task_data": datasets.Value(dtype="string"),
    "data_classification_policy": _strings(),
    "media": {"images": datasets.Sequence({}), "audios": datasets.Sequence(datasets.Audio())},
})


def get_schema(stream_name: str) -> datasets.Features:
    """The inference schema for the inference stream, the dataset schema for every other stream."""
    return UNITXT_INFERENCE_SCHEMA if stream_name == get_constants().inference_stream else UNITXT_DATASET_SCHEMA


def load_chat_source(chat_str: str) -> List[Dict[str, Any]]:
    """A chat source read from its JSON text; image URLs in content parts become ImageDataString (short repr)."""
    try:
        chat = json.loads(chat_str)
    except (TypeError, ValueError) as error:
        raise UnitxtError(f"A chat source must be the JSON text of a list of messages: {error} in "
                          f"{str(chat_str)[:80]!r}.", field="source") from None
    for turn in chat:
        if isinstance(turn, dict) and isinstance(turn.get("content"), list):
            for part in turn["content"]:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    part["image_url"]["url"] = ImageDataString(part["image_url"]["url"])
    return chat


def _is_chat_text(source: Any) -> bool:
    return isinstance(source, str) and source.startswith(('[{"role":', '[{"content":'))


def loads_instance(instance: Dict[str, Any]) -> Dict[str, Any]:
    """A row with a chat source's JSON text read into messages and, unless settings.task_data_as_text, task_data
    read from JSON (in place; the row is returned)."""
    if "source" in instance and _is_chat_text(instance["source"]):
        instance["source"] = load_chat_source(instance["source"])
    if not settings.task_data_as_text and isinstance(instance.get("task_data"), str):
        instance["task_data"] = json.loads(instance["task_data"])
    return instance


def loads_batch(batch: Dict[str, List[Any]]) -> Dict[str, List[Any]]:
    """loads_instance for a batch of columns: the first row decides whether the column is read (in place)."""
    if "source" in batch and batch["source"] and _is_chat_text(batch["source"][0]):
        batch["source"] = [load_chat_source(source) for source in batch["source"]]
    task_data = batch.get("task_data")
    if not settings.task_data_as_text and task_data and isinstance(task_data[0], str):
        batch["task_data"] = [json.loads(data) for data in task_data]
    return batch


class Validator:
    """Base of the original's row validators (`unitxt.validate`)."""


class StandardSchema(datasets.Features):
    """The original's early standard row schema: source, target, references, metrics and parser."""

    def __init__(self) -> None:
        super().__init__({"source": datasets.Value("string"), "target": datasets.Value("string"),
                          "references": _strings(), "metrics": _strings(), "parser": datasets.Value("string")})


class ValidateStandardSchema:
    """Holds a StandardSchema as its `schema` (one per instance)."""

    def __init__(self) -> None:
        self.schema = StandardSchema()


__getattr__ = moved_classes(__name__)  # the original's artifact classes of unitxt.schema / unitxt.validate, by type
