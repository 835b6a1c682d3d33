"""MetricsList: a catalog entry naming a set of metrics (e.g. the recommended lexical metrics for open QA).

A catalog entry must be an artifact, so a recommended set of metrics is stored as this small artifact. Its items
stay catalog names in JSON; `names()` gives them, `metrics()` resolves them. Task and evaluate() take metric names
one by one, so expand the list first: `metrics=MetricsList.expand(["metrics.qa.open.recommended_no_gpu"])`.
"""

from typing import List

from ..artifact import Artifact
from ..errors import MetricError
from .base import Metric


class MetricsList(Artifact):
    """An ordered list of metrics (catalog names, with optional [overrides], or inline metric artifacts)."""

    items: List[Metric]

    def names(self) -> List[str]:
        """The items as given (catalog names stay names; inline metrics are serialised to JSON text)."""
        import json

        raw = self.__dict__["items"]
        return [item if isinstance(item, str) else json.dumps(item.to_dict(), sort_keys=True) for item in raw]

    def metrics(self) -> List[Metric]:
        """The items resolved to metric artifacts."""
        return list(self.items)

    @staticmethod
    def expand(names: List[str], within: tuple = ()) -> List[str]:
        """Replace every name that refers to a MetricsList in the catalog by the list's item names (recursively); a
        list that contains itself is an error."""
        from ..catalog import fetch_artifact

        expanded: List[str] = []
        for name in names:
            artifact = fetch_artifact(name)[0] if isinstance(name, str) and not name.lstrip().startswith("{") else None
            if isinstance(artifact, MetricsList):
                if name in within or len(within) > 32:
                    raise MetricError(f"Metrics list {name!r} contains itself (through "
                                      f"{' -> '.join(within + (name,))}).", artifact=name, field="items")
                expanded.extend(MetricsList.expand(artifact.names(), within + (name,)))
            else:
                expanded.append(name)
        return expanded
