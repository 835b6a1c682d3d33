"""Image sources of the card comparison, shared by both sides (the oracle runner imports this file by name from its
folder, so it imports nothing of unitxt): typed in-memory splits, and images compared by their facts."""

import base64
from typing import Any, Dict, List


def typed_split(rows: List[Dict[str, Any]], image_columns: Dict[str, str]):
    """A Dataset of the rows with the image columns as datasets.Image features (base64 cells decoded)."""
    import datasets

    def decoded(value):
        if isinstance(value, list):
            return [decoded(item) for item in value]
        return None if value is None else {"bytes": base64.b64decode(value["bytes"]), "path": value["path"]}

    rows = [{key: decoded(value) if key in image_columns else value for key, value in row.items()} for row in rows]
    table = datasets.Dataset.from_list(rows)
    for column, kind in image_columns.items():
        table = table.cast_column(column, datasets.Sequence(datasets.Image()) if kind == "images" else datasets.Image())
    return table


def image_facts(value: Any) -> Any:
    """A PIL image as comparable facts (mode, size, format, MD5 of its pixel bytes); other values as they are
    (containers walked). The pixels, not an encoder's bytes, say whether two images are the same."""
    import hashlib

    if hasattr(value, "tobytes") and hasattr(value, "mode") and hasattr(value, "size"):
        return {"mode": value.mode, "size": list(value.size), "format": value.format,
                "md5": hashlib.md5(value.tobytes()).hexdigest()}  # noqa: S324 - an id, not security
    if isinstance(value, dict):
        return {key: image_facts(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [image_facts(item) for item in value]
    return value
