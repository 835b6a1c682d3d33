"""Reproducibility signature of an evaluation (sacrebleu's idea for whole evaluations).

One short string names everything that decides the numbers besides the predictions: the library and `datasets`
versions, the content of the catalogs in use, the recipe(s) the rows came from, the rows themselves, the metrics with
their settings, and the bootstrap settings. Two evaluations of the same predictions with the same signature give
identical numbers.
"""

import hashlib
import json
from typing import Any, Dict, Iterable, List, Sequence, Tuple

from ..settings_utils import settings
from ..version import version

_RECIPE_KEYS = ("template", "num_demos", "demos_pool_size")
_ROW_KEYS = ("source", "references", "task_data", "metrics", "postprocessors", "subset", "groups")


def _digest(parts: Iterable[str], length: int = 10) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()[:length]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def catalogs_digest() -> str:
    """Hash of every entry (name and JSON content) of every catalog searched, in lookup order."""
    from ..catalog import get_catalogs

    def parts():
        for catalog in get_catalogs():
            for name in sorted(catalog.names()):
                yield name
                yield _canonical(catalog.load_data(name))

    return _digest(parts())


def datasets_version() -> str:
    """The installed `datasets` version, read from package metadata (no import of datasets)."""
    from importlib import metadata

    try:
        return metadata.version("datasets")
    except metadata.PackageNotFoundError:
        return "none"


def _parsed(task_data: str) -> Any:
    try:
        return json.loads(task_data)
    except ValueError as error:
        from ..errors import MetricError

        raise MetricError(f"task_data of an instance is not valid JSON ({str(error)[:120]}): {task_data[:80]!r}.",
                          field="task_data") from None


def _recipe_description(data: Any) -> Any:
    metadata = data.get("metadata") if isinstance(data, dict) else None
    if isinstance(metadata, dict):
        return ",".join(f"{key}={metadata[key]}" for key in _RECIPE_KEYS if key in metadata)
    return None


def recipe_descriptions(task_data: Sequence[Any]) -> List[str]:
    """The distinct recipe settings recorded in the rows' metadata, canonical (sorted keys), sorted."""
    return sorted({description for description in map(_recipe_description, task_data) if description is not None})


def _row_parts(rows: Iterable[Dict[str, Any]]) -> Iterable[str]:
    return (_canonical([row.get(key) for key in _ROW_KEYS]) for row in rows)


def rows_digest(rows: Sequence[Dict[str, Any]]) -> str:
    """Hash of the model inputs and everything the evaluation reads from each row."""
    return _digest(_row_parts(rows))


class StreamSignature:
    """The signature of an evaluation read chunk by chunk. Its data hash covers the same row fields as
    `rows_digest`, hashed column by column per chunk (one JSON encoding per column, not per row); recipe settings are
    parsed once per distinct metadata text."""

    def __init__(self):
        self.hasher = hashlib.sha256()
        self.recipes: set = set()
        self.metadata_seen: Dict[str, Any] = {}

    def add(self, columns: Dict[str, List[Any]]) -> None:
        """Add a chunk given as {row field: values}; task_data values are JSON texts or dicts."""
        self.add_part(*self.chunk_part(columns))

    def chunk_part(self, columns: Dict[str, List[Any]]) -> Tuple[bytes, set]:
        """A chunk's share of the signature (its digest, its recipes), computed wherever the chunk is scored."""
        hasher, recipes = hashlib.sha256(), set()
        for key in _ROW_KEYS:
            hasher.update(_canonical(columns[key]).encode("utf-8", "surrogatepass"))
            hasher.update(b"\0")
        for data in columns["task_data"]:
            description = self._description(data)
            if description is not None:
                recipes.add(description)
        return hasher.digest(), recipes

    def add_part(self, digest: bytes, recipes: set) -> None:
        """Add the next chunk's share (the data hash chains the chunks' digests in stream order)."""
        self.hasher.update(digest)
        self.recipes.update(recipes)

    def _description(self, data: Any) -> Any:
        if not isinstance(data, str):
            return _recipe_description(data)
        start = data.rfind('"metadata": ')
        tail = data[start:] if start >= 0 else None
        if tail is not None and tail not in self.metadata_seen:
            try:  # parses only when "metadata" is the last key of the top-level object (else: "Extra data")
                self.metadata_seen[tail] = _recipe_description(json.loads("{" + tail))
            except ValueError:
                tail = None
        return self.metadata_seen[tail] if tail is not None else _recipe_description(_parsed(data))

    def signature(self, metrics: Sequence[Any], with_ci: bool, chunk_size: int) -> str:
        """Resamples are Poisson-weighted and drawn chunk by chunk: the field says so (CIs differ from in-memory)."""
        return _signature_fields(sorted(self.recipes), self.hasher.hexdigest()[:10], metrics, with_ci,
                                 f"(poisson,chunk={chunk_size})")


def metrics_description(metrics: Sequence[Any]) -> str:
    """Metric names in use, then a hash of their full settings (so an override changes the signature)."""
    names = sorted({metric.artifact_name or type(metric).__name__ for metric in metrics})
    settings_digest = _digest(sorted(_canonical(metric.to_dict()) for metric in metrics), length=8)
    return f"{'+'.join(names)}#{settings_digest}"


def build_signature(rows: Sequence[Dict[str, Any]], task_data: Sequence[Any], metrics: Sequence[Any],
                    with_ci: bool) -> str:
    """The signature string: `key:value` fields joined by `|`."""
    return _signature_fields(recipe_descriptions(task_data), rows_digest(rows), metrics, with_ci)


def _signature_fields(recipes: List[str], data_digest: str, metrics: Sequence[Any], with_ci: bool,
                      bootstrap: str = "") -> str:
    resamples = sorted({int(metric.resolved_n_resamples()) for metric in metrics}) if with_ci else [0]
    confidence = sorted({float(metric.confidence_level) for metric in metrics}) if with_ci else []
    fields = [
        f"unitxt:{version}",
        f"datasets:{datasets_version()}",
        f"catalog:{catalogs_digest()}",
        f"recipe:{';'.join(recipes) or 'none'}",
        f"data:{data_digest}",
        f"metrics:{metrics_description(metrics)}",
        f"resamples:{','.join(map(str, resamples))}{bootstrap if with_ci else ''}",
        f"confidence:{','.join(map(str, confidence)) or 'none'}",
        f"seed:{int(settings.seed)}",
    ]
    return "|".join(fields)
