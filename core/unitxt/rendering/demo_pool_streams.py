"""The original's demo pool as stream operators (served from `unitxt.standard` / `unitxt.recipe` by name):
CreateDemosPool takes distinct instances of one stream as the pool and puts it in a field of every instance,
AddDemosPool puts a given pool there; SequentialRecipe is a recipe made of steps whose first is a source. Recipes
here draw demos through rendering/demo_pool.py; these serve pipelines written with the original's operators.
"""

import copy
import itertools
import json
import sys
from typing import Any, Dict, Generator, List, Optional

from ..errors import RecipeError
from ..operator import MultiStreamOperator
from ..operators.stream_kinds import SourceSequentialOperator
from ..settings_utils import get_constants
from ..stream import MultiStream, ReusableGenerator


def _set_field(multi_stream: MultiStream, field: str, value: Any) -> MultiStream:
    from ..operators.fields import Set

    return Set(fields={field: value})(multi_stream)


class AddDemosPool(MultiStreamOperator):
    """Puts `demos_pool` in the field `demos_pool_field_name` of every instance."""

    demos_pool: List[Dict[str, Any]]
    demos_pool_field_name: str = get_constants().demos_pool_field

    def process(self, multi_stream: MultiStream) -> MultiStream:
        return _set_field(multi_stream, self.demos_pool_field_name, self.demos_pool)


def _signature(instance: Dict[str, Any]) -> str:
    try:
        return json.dumps(instance["input_fields"], sort_keys=True)
    except TypeError:
        return str(instance["input_fields"])


def _rest_of(first: List[Dict[str, Any]], multi_stream: MultiStream, stream_name: str, start: int) -> Generator:
    yield from first
    yield from itertools.islice(multi_stream[stream_name], start, None)


class CreateDemosPool(MultiStreamOperator):
    """Takes the first `demos_pool_size` instances of stream `from_stream` with distinct input fields as the demos
    pool and puts it in field `to_field` of every instance. With `demos_removed_from_data` the pool's instances leave
    that stream (all of it when the size is sys.maxsize: the stream then serves only as the pool)."""

    from_stream: Optional[str] = None
    demos_pool_size: Optional[int] = None
    demos_removed_from_data: Optional[bool] = None
    to_field: str = get_constants().demos_pool_field

    def process(self, multi_stream: MultiStream) -> MultiStream:
        if self.from_stream not in multi_stream:
            raise RecipeError(f"Input multi-stream is missing a stream named '{self.from_stream}' to take demo "
                              "instances from for the demos_pool.", artifact=self.artifact_name, field="from_stream")
        whole = self.demos_removed_from_data is True and self.demos_pool_size == sys.maxsize
        if whole and len(multi_stream) == 1:
            raise RecipeError(f"The single input stream, '{self.from_stream}' is to be wholly consumed for generating "
                              "demos, and no instance is left to use these demos.", artifact=self.artifact_name,
                              field="demos_pool_size")
        pool: List[Dict[str, Any]] = []
        seen: List[str] = []
        skipped: List[Dict[str, Any]] = []
        scanned = -1
        for scanned, instance in enumerate(multi_stream[self.from_stream]):
            if "input_fields" not in instance:
                raise RecipeError(f"'input_fields' field is missing from '{instance}'.", artifact=self.artifact_name)
            signature = _signature(instance)
            if signature in seen:
                skipped.append(instance)
                continue
            pool.append(instance)
            seen.append(signature)
            if len(pool) >= self.demos_pool_size:
                break
        pool = copy.deepcopy(pool)
        if self.demos_removed_from_data is not True:
            return _set_field(multi_stream, self.to_field, pool)
        if whole:
            kept = MultiStream({name: stream for name, stream in multi_stream.items() if name != self.from_stream})
            return _set_field(kept, self.to_field, pool)
        streams = {
            name: ReusableGenerator(_rest_of, gen_kwargs={
                "first": skipped if name == self.from_stream else [], "multi_stream": multi_stream,
                "stream_name": name, "start": scanned + 1 if name == self.from_stream else 0})
            for name in multi_stream
        }
        return _set_field(MultiStream.from_generators(streams), self.to_field, pool)


class SequentialRecipe(SourceSequentialOperator):
    """A recipe as a list of steps whose first is a source (the original's base of recipes built from steps)."""


__all__ = ["AddDemosPool", "CreateDemosPool", "SequentialRecipe"]
