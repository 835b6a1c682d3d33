"""`recipe_task`: a unitxt recipe as an Inspect Task (samples, plain generation, the recipe's post-processors and
metrics as the scorer)."""

import json
import re
from typing import Any, Dict, List, Optional, Union

from ..errors import UnitxtError
from .runtime import require_inspect
from .samples import load_rows, row_key, to_samples


def recipe_text(recipe: Union[str, List[Any], tuple]) -> str:
    """The recipe string: Inspect's command line splits a `-T` value at its commas, so a list is joined back."""
    if isinstance(recipe, (list, tuple)):
        return ",".join(str(part) for part in recipe)
    if not isinstance(recipe, str) or not recipe.strip():
        raise UnitxtError(f"The recipe of an Inspect task is a recipe string such as 'card=...,template=...'; got "
                          f"{recipe!r}.", field="recipe", stage="inspect task")
    return recipe


def check_scoring_artifacts(rows: List[Dict[str, Any]]) -> None:
    """Resolve every metric and post-processor the rows name, so an unknown one fails before any model call."""
    from ..evaluation.post_processing import _Resolver

    resolver = _Resolver()
    seen = set()
    for row in rows:
        for kind, field in (("metric", "metrics"), ("postprocessor", "postprocessors")):
            for reference in row.get(field) or []:
                key = (kind, reference if isinstance(reference, str) else json.dumps(reference, sort_keys=True))
                if key not in seen:
                    seen.add(key)
                    resolver.get(reference, kind)


def recipe_task(recipe: Union[str, List[str]], split: str = "test", limit: Optional[int] = None,
                name: Optional[str] = "unitxt_recipe") -> Any:
    """An Inspect Task running a unitxt recipe: one Sample per row of `split` (the first `limit` rows), the model's
    plain generation, and a scorer whose metrics are unitxt's global scores of the recipe (main score first).
    `name` is the task's name in Inspect's logs (None: the registered task's own name, `unitxt/recipe`)."""
    require_inspect()
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.solver import generate

    from .scoring import remember_rows, unitxt_scorer

    recipe = recipe_text(recipe)
    rows = load_rows(recipe, split, limit)
    check_scoring_artifacts(rows)
    remember_rows(row_key(recipe, split, limit), rows)
    card = re.search(r"(?:^|,)\s*card\s*=\s*([\w.\-]+)", recipe)
    dataset = MemoryDataset(to_samples(rows), name=card.group(1) if card else recipe)
    return Task(dataset=dataset, solver=generate(), scorer=unitxt_scorer(recipe=recipe, split=split, limit=limit),
                name=name, metadata={"unitxt_recipe": recipe, "unitxt_split": split})
