#!/usr/bin/env python3
"""Regenerate tests/tiers/compat/programs/doc_recipes.json: the recipes the specification loads - its recipe strings
("card=cards....") and its `load_dataset(card=..., ...)` / `DatasetRecipe(card=..., ...)` calls with literal
arguments - as load_dataset keywords. The spec is not shipped with the repository, so they are extracted here into
committed test data. Run: python scripts/extract_doc_recipes.py [SPEC_DIR] (default /work/shared/spec).
"""

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "tiers" / "compat" / "programs" / "doc_recipes.json"
RECIPE_STRING = re.compile(r"""['"](card=cards\.[^'"]+)['"]""")
CALL = re.compile(r"\b(?:load_dataset|DatasetRecipe)\(")


def _calls(text: str):
    """Literal keyword arguments of each load_dataset/DatasetRecipe call that names a card."""
    for match in CALL.finditer(text):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, min(len(text), match.end() + 2000)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        try:
            call = ast.parse("f" + text[match.end() - 1:end + 1].replace("\n", " "), mode="eval").body
            kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
        except (SyntaxError, ValueError):
            continue
        if isinstance(kwargs.get("card"), str):
            yield kwargs


def extract(spec: Path):
    recipes = []
    for path in sorted(spec.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        for recipe in RECIPE_STRING.findall(text):
            recipes.append({"query": recipe})
        recipes.extend({"kwargs": kwargs} for kwargs in _calls(text))
    unique = []
    for recipe in recipes:
        if recipe not in unique:
            unique.append(recipe)
    return unique


if __name__ == "__main__":
    spec = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/spec")
    OUTPUT.write_text(json.dumps(extract(spec), indent=1) + "\n", encoding="utf-8")
    print(f"{OUTPUT}: {len(extract(spec))} recipes")
