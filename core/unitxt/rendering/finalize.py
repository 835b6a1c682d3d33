"""The original's last recipe step as a stream operator (its `unitxt.schema.FinalizeDataset`) and its schema check
(`unitxt.validate.ValidateSchema`): an instance of the original's internal form (input_fields, reference_fields,
recipe_metadata, demos, ...) becomes a dataset row (source, target, references, metrics, postprocessors, task_data,
groups, subset, media, data_classification_policy). Recipes here build rows in rendering/instance_renderer.py; these
serve pipelines written with the original's operators.
"""

import json
from typing import Any, Dict, List, Optional, Union

from ..artifact import Artifact
from ..dict_utils import dict_get
from ..errors import UnitxtError
from ..operator import InstanceOperator
from ..operators.stream_kinds import InstanceOperatorValidator
from ..settings_utils import get_constants, settings
from .row_json import ROW_KEYS

INFERENCE_ROW_KEYS = ("source", "metrics", "groups", "subset", "postprocessors", "task_data",
                      "data_classification_policy", "media")  # the inference stream's rows: no target, no references


def row_keys(stream_name: Optional[str]) -> tuple:
    """The keys of a row of this stream."""
    return INFERENCE_ROW_KEYS if stream_name == get_constants().inference_stream else ROW_KEYS


class FinalizeDataset(InstanceOperatorValidator):
    """Turns an instance of the original's internal form into a dataset row: task_data from the input (and, but in
    the inference stream, reference) fields with metadata (policy, num_demos, demos_pool_size, template) and the
    demos' task data; `groups` from the `group_by` fields of task_data or its metadata; other keys dropped when
    `remove_unnecessary_fields`; artifacts among metrics and post-processors as JSON."""

    group_by: List[Union[str, List[str]]]
    remove_unnecessary_fields: bool = True

    @staticmethod
    def artifact_to_jsonable(artifact: Artifact) -> Any:
        return artifact.to_dict() if artifact.__id__ is None else artifact.__id__

    def _prepare_media(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        media = instance.setdefault("media", {})
        media.setdefault("images", [])
        media.setdefault("audios", [])
        media["images"] = [image["image"] if isinstance(image, dict) and "image" in image and "format" in image
                           else image for image in media["images"]]
        return instance

    def _get_instance_task_data(self, instance: Dict[str, Any], use_reference_fields: bool = True) -> Dict[str, Any]:
        task_data = {**instance["input_fields"],
                     "metadata": {"data_classification_policy": instance["data_classification_policy"]}}
        if use_reference_fields:
            task_data = {**task_data, **instance["reference_fields"]}
        if "__tools__" in instance:
            task_data["__tools__"] = instance["__tools__"]
        return task_data

    def serialize_instance_fields(self, instance: Dict[str, Any], task_data: Dict[str, Any]) -> Dict[str, Any]:
        if getattr(settings, "task_data_as_text", True):
            instance["task_data"] = json.dumps(task_data)
        if not isinstance(instance["source"], str):
            instance["source"] = json.dumps(instance["source"])
        return instance

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        constants = get_constants()
        task_data = self._get_instance_task_data(instance, stream_name != constants.inference_stream)
        recipe_metadata = instance["recipe_metadata"]
        task_data["metadata"]["num_demos"] = recipe_metadata["num_demos"]
        task_data["metadata"]["demos_pool_size"] = recipe_metadata["demos_pool_size"]
        task_data["metadata"]["template"] = self.artifact_to_jsonable(recipe_metadata["template"])
        if isinstance(task_data.get("criteria"), Artifact):
            task_data["criteria"] = self.artifact_to_jsonable(task_data["criteria"])
        if constants.demos_field in instance:
            task_data[constants.demos_field] = [self._get_instance_task_data(demo)
                                                for demo in instance.pop(constants.demos_field)]
        instance = self.serialize_instance_fields(instance, task_data)
        if self.remove_unnecessary_fields:
            keep = row_keys(stream_name)
            for key in [key for key in instance if key not in keep]:
                del instance[key]
        data = {**task_data, **task_data["metadata"]}
        instance["groups"] = [json.dumps({attribute: dict_get(data, attribute) for attribute in
                                          ([attributes] if isinstance(attributes, str) else attributes)})
                              for attributes in self.group_by]
        instance["subset"] = []
        instance = self._prepare_media(instance)
        for key in ("metrics", "postprocessors"):
            instance[key] = [item.to_json() if isinstance(item, Artifact) else item for item in instance[key]]
        return instance

    def validate(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> None:
        if not isinstance(instance, dict):
            raise UnitxtError(f"Instance should be a dict, got {type(instance)}", artifact=self.artifact_name)
        keys = row_keys(stream_name)
        if not all(key in instance for key in keys):
            raise UnitxtError(f"Instance should have the following keys: {list(keys)}. Instance is: {instance}",
                              artifact=self.artifact_name)


class ValidateSchema(InstanceOperator):
    """Holds the `schema` (datasets.Features) rows are expected to follow; instances pass unchanged.
    `verify_first_instance` checks that an instance has the schema's fields."""

    __abstract__ = True  # built in Python only: a Features schema has no JSON form, so no catalog entry can hold it

    schema: Any = None

    def verify(self) -> None:
        super().verify()
        import datasets

        if not isinstance(self.schema, datasets.Features):
            raise UnitxtError("Schema must be an instance of Features", artifact=self.artifact_name, field="schema")

    def verify_first_instance(self, instance: Dict[str, Any]) -> None:
        for field in self.schema:
            if field not in instance:
                raise UnitxtError(f'Field "{field}" is missing in the first instance', artifact=self.artifact_name,
                                  field=field)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        return instance


__all__ = ["FinalizeDataset", "ValidateSchema", "INFERENCE_ROW_KEYS", "row_keys"]
