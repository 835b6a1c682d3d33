"""What Inspect loads through the `inspect_ai` entry point: the task `unitxt/recipe` and the scorer and metric that
logs name, so `inspect eval unitxt/recipe -T recipe="card=...,template=..."` and `inspect score` find them."""

from typing import Any, List, Optional, Union

from inspect_ai import task

from .scoring import register
from .task import recipe_task

register()


@task(name="recipe")
def recipe(recipe: Union[str, List[str]], split: str = "test", limit: Optional[int] = None) -> Any:
    """A unitxt recipe as an Inspect task: -T recipe="card=...,template=...,num_demos=2" (the commas Inspect splits
    at are joined back), -T split=test, -T limit=100."""
    return recipe_task(recipe, split=split, limit=limit, name=None)
