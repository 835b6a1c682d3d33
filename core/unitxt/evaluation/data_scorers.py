"""Kinds of data that `evaluate()` hands to another scorer: an integration package (unitxt.ray) registers the kind it
scores when it is imported, so evaluation never imports the integrations above it."""

from typing import Any, Callable, List, Optional, Tuple

Accepts = Callable[[Any], bool]
Scorer = Callable[..., Any]

_REGISTERED: List[Tuple[str, Accepts, Scorer]] = []


def register_data_scorer(name: str, accepts: Accepts, score: Scorer) -> None:
    """Route data for which `accepts(data)` holds to `score(data, predictions, calc_confidence_intervals,
    chunk_size)`; registering a name again replaces its entry."""
    _REGISTERED[:] = [entry for entry in _REGISTERED if entry[0] != name]
    _REGISTERED.append((name, accepts, score))


def scorer_for(data: Any) -> Optional[Scorer]:
    """The registered scorer of `data`'s kind, or None for the data evaluate() scores itself."""
    for _name, accepts, score in _REGISTERED:
        if accepts(data):
            return score
    return None
