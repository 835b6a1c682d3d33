"""A dataset named by a query (the original's `unitxt.dataset_utils`): `parse` a `key=value,...` recipe query,
`fetch` a catalog artifact with overrides, `get_dataset_artifact` for a query or a catalog name."""

from typing import Any, Dict, Optional

from ..artifact import fetch_artifact
from ..query_parser import parse_key_equals_value_string_to_dict
from .recipe import build_recipe
from ..module_aliases import moved_classes


def parse(query: str) -> Dict[str, Any]:
    """`card=cards.x,num_demos=2` -> {"card": "cards.x", "num_demos": 2}; the empty query is {}."""
    return parse_key_equals_value_string_to_dict(query)


def fetch(artifact_name: str, overwrite_kwargs: Optional[Dict[str, Any]] = None) -> Any:
    """The catalog artifact of that name, with `overwrite_kwargs` applied to a copy."""
    artifact, _ = fetch_artifact(artifact_name)
    return artifact.copy(**overwrite_kwargs) if overwrite_kwargs else artifact


def get_dataset_artifact(dataset: Any, overwrite_kwargs: Optional[Dict[str, Any]] = None) -> Any:
    """The recipe a dataset query or catalog name stands for, with `overwrite_kwargs`."""
    return build_recipe(dataset, **(overwrite_kwargs or {}))


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
