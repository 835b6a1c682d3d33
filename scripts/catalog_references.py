"""Build-time check of the catalog's references (used by build_catalog.py): every catalog name an entry mentions -
as a field value, inside a recipe string `card=cards.x,template=...`, or as an override's value - is an entry of the
catalog (directly or through a link), and every `name[key=value]` override names a field of the referenced artifact.
A dangling reference or an unknown override key fails the build, so no shipped entry points at nothing."""

import re
from typing import Any, Dict, Iterator, List, Tuple

from unitxt.artifact import ArtifactLink, get_artifact_class
from unitxt.errors import UnitxtError
from unitxt.query_parser import is_assignment_string, parse_artifact_query, parse_assignments

# the catalog's top-level kinds: a string starting with one of them and a dot is read as a reference
KINDS = ("augmentors", "benchmarks", "cards", "engines", "formats", "metrics", "operators", "processors", "recipes",
         "serializers", "splitters", "system_prompts", "tasks", "templates")
REFERENCE = re.compile(r"^(?:" + "|".join(KINDS) + r")\.[A-Za-z0-9_\-.]+(?:\[.*\])?$", re.DOTALL)
NOT_REFERENCES = ("__description__", "__tags__", "__deprecated_msg__", "__title__")


def _strings(value: Any, path: str) -> Iterator[Tuple[str, str]]:
    """(path, string) for every string value in a serialised entry, skipping its descriptive keys."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_REFERENCES:
                yield from _strings(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")


def _queries(text: str) -> Iterator[str]:
    """The artifact queries a string holds: itself, or the values of a `key=value,...` recipe string."""
    text = text.strip()
    if REFERENCE.match(text):
        yield text
    elif "=" in text and "," in text or text.startswith(("card=", "template=", "metrics=")):
        if not is_assignment_string(text):
            return
        try:
            assignments = parse_assignments(text)
        except UnitxtError:
            return
        for value in assignments.values():
            for _, item in _strings(value if isinstance(value, (list, dict)) else str(value), ""):
                yield from _queries(item)


def problems(entries: Dict[str, Dict[str, Any]]) -> List[str]:
    """Every dangling reference and unknown override key in the entries (catalog name -> serialised artifact)."""
    found: List[str] = []
    for name, data in entries.items():
        for path, text in _strings(data, ""):
            for query in _queries(text):
                problem = _check(query, entries)
                if problem:
                    found.append(f"{name} ({path}): {problem}")
    return found


def _check(query: str, entries: Dict[str, Dict[str, Any]], depth: int = 0) -> str:
    try:
        target, overrides = parse_artifact_query(query)
    except UnitxtError as error:
        return f"'{query}' is not a valid artifact query ({error})"
    data = entries.get(target)
    while data is not None and data.get("__type__") == ArtifactLink._type_name and depth < 20:
        target = data.get("to") or data.get("artifact_linked_to")
        data, depth = entries.get(target), depth + 1
    if data is None:
        return f"'{query}' names no catalog entry"
    if overrides:
        try:
            get_artifact_class(data["__type__"]).coerce_overrides(overrides, artifact_name=target)
        except UnitxtError as error:
            return f"'{query}': {str(error).splitlines()[0]}"
        for _, text in _strings(overrides, ""):
            for inner in _queries(text):
                problem = _check(inner, entries, depth + 1)
                if problem:
                    return problem
    return ""
