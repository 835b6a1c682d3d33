"""JSON text of rows: the task fields as JSON (task_data's body, and the instance identity that seeds its random
draws), with one reused C encoder for speed. Shared by the row renderer, the demo pool and the columnar renderer."""

import json
from typing import Any, Dict

from ..errors import UnitxtError

ROW_KEYS = (
    "source",
    "target",
    "references",
    "metrics",
    "postprocessors",
    "task_data",
    "groups",
    "subset",
    "media",
    "data_classification_policy",
)


def encode_json(value: Any) -> str:
    """`value` as compact-separator JSON (", " / ": "), non-ASCII kept, sets and tuples as lists.

    Same text as `JSON_ENCODER.encode(value)`, faster: one C encoder is reused and called directly (no per-call
    `encode`/`iterencode` wrappers), without circular-reference bookkeeping. Circular data then exhausts the
    recursion limit, and is re-encoded by `JSON_ENCODER` to raise its usual "Circular reference detected"."""
    if _C_ENCODER is None:
        return JSON_ENCODER.encode(value)
    if isinstance(value, str):
        return _encode_basestring(value)
    try:
        return "".join(_C_ENCODER(value, 0))
    except RecursionError:
        return JSON_ENCODER.encode(value)


def fields_json(input_fields: Dict[str, Any], reference_fields: Dict[str, Any]) -> str:
    """The task fields as JSON: the body of task_data, and the instance's identity for seeding and demo exclusion.

    The merged dict encoded (input then reference fields). Should the two ever share a name (the task forbids it),
    both are kept, as two concatenated objects' members, so the identity still reflects every field."""
    merged = {**input_fields, **reference_fields}
    if len(merged) == len(input_fields) + len(reference_fields):
        return encode_json(merged)
    inputs = encode_json(input_fields)
    if not reference_fields:
        return inputs
    references = encode_json(reference_fields)
    if not input_fields:
        return references
    return f"{inputs[:-1]}, {references[1:]}"


def task_data_policy(task_data: Any) -> Any:
    """The data-classification policy a row recorded in its task_data metadata (None when it recorded none)."""
    metadata = task_data.get("metadata") if isinstance(task_data, dict) else None
    return metadata.get("data_classification_policy") if isinstance(metadata, dict) else None


def instance_key(instance: Dict[str, Any]) -> str:
    return fields_json(instance["input_fields"], instance["reference_fields"])


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, tuple)):
        return list(value)
    raise UnitxtError(f"task_data value of type {type(value).__name__} is not JSON serialisable.", stage="task_data")


JSON_ENCODER = json.JSONEncoder(ensure_ascii=False, default=_json_default)
_encode_basestring = json.encoder.encode_basestring
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
# what JSONEncoder.iterencode builds per call, built once; markers=None: no shared state (thread safe)
_C_ENCODER = None if _c_make_encoder is None else _c_make_encoder(
    None,
    _json_default,
    _encode_basestring,
    None,  # indent
    JSON_ENCODER.key_separator,
    JSON_ENCODER.item_separator,
    JSON_ENCODER.sort_keys,
    JSON_ENCODER.skipkeys,
    JSON_ENCODER.allow_nan,
)
