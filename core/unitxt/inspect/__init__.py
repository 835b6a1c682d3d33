"""Unitxt inside Inspect AI: a recipe as an Inspect task, scored by the recipe's own metrics.

    from unitxt.inspect import recipe_task
    task = recipe_task("card=cards.wnli,template=templates.classification.multi_class.relation.default,num_demos=2")
    inspect_ai.eval(task, model="openai/gpt-4o-mini")

or from the command line, through the `inspect_ai` entry point this package registers:

    inspect eval unitxt/recipe -T recipe="card=cards.wnli,template=...,num_demos=2" --model <model>

Needs the optional extra (pip install 'unitxt[inspect]'); nothing of Inspect is imported until one of these is used.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "recipe_task": ".task",
    "require_inspect": ".runtime",
    "unitxt_scorer": ".scoring",
    "unitxt_global_scores": ".scoring",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "inspect.")
