"""Catalog listing for the explorer: every entry of every catalog searched, with its type, description and tags."""

import json
from typing import Any, Dict, List, Optional

from ..catalog import find_in_catalogs, get_catalogs

KINDS = ("cards", "tasks", "templates", "formats", "system_prompts", "metrics", "benchmarks", "processors",
         "augmentors", "splitters", "engines")


def _summary(name: str, data: Any) -> Dict[str, Any]:
    data = data if isinstance(data, dict) else {}
    tags = data.get("__tags__") or {}
    return {"name": name, "type": str(data.get("__type__", "")), "description": str(data.get("__description__", "")),
            "tags": tags if isinstance(tags, (dict, list)) else {}}


class CatalogIndex:
    """The names, types, descriptions and tags of all catalog entries (read once; higher-precedence catalogs win)."""

    def __init__(self) -> None:
        self.entries: Dict[str, Dict[str, Any]] = {}
        for catalog in reversed(get_catalogs()):  # lowest precedence first, so later catalogs overwrite
            for name in catalog.names():
                try:
                    self.entries[name] = _summary(name, catalog.peek_data(name))  # read only: no copy
                except Exception as error:  # noqa: BLE001 - a broken entry is listed with its error, not hidden
                    self.entries[name] = {"name": name, "type": "", "description": f"unreadable: {error}", "tags": {}}

    def kinds(self) -> List[str]:
        present = {name.split(".", 1)[0] for name in self.entries}
        return [kind for kind in KINDS if kind in present] + sorted(present - set(KINDS))

    def names(self, kind: Optional[str] = None) -> List[str]:
        return sorted(name for name in self.entries if kind is None or name.split(".", 1)[0] == kind)

    def search(self, kind: Optional[str] = None, query: str = "") -> List[Dict[str, Any]]:
        """Entries of `kind` whose name, description or tags contain every word of `query` (case-insensitive)."""
        words = query.lower().split()
        found = []
        for name in self.names(kind):
            entry = self.entries[name]
            haystack = " ".join([name, entry["description"], json.dumps(entry["tags"])]).lower()
            if all(word in haystack for word in words):
                found.append(entry)
        return found

    def details(self, name: str) -> Dict[str, Any]:
        """Summary plus the entry's JSON text."""
        data, catalog = find_in_catalogs(name)
        return dict(_summary(name, data), json=json.dumps(data, indent=2, ensure_ascii=False),
                    catalog=str(getattr(catalog, "location", catalog)))
