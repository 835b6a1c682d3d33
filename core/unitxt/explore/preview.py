"""Recipe composition for the explorer: compatible choices, rendered instances (demos marked) and code snippets.

Everything here is plain Python (no UI package), so the page's behaviour is tested without a browser.
"""

import html
import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..catalog import find_in_catalogs
from ..errors import UnitxtError

PREVIEW_LOADER_LIMIT = 300


def _template_names(value: Any) -> List[str]:
    """Catalog names in a card's `templates` value (a templates-list name, a list, or a dict of templates)."""
    if isinstance(value, str):
        data, _ = find_in_catalogs(value.split("[", 1)[0])
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            return _template_names(data["items"])
        return [value]
    if isinstance(value, list):
        return [name for item in value for name in _template_names(item)]
    if isinstance(value, dict) and "__type__" not in value:
        return [name for item in value.values() for name in _template_names(item)]
    return []  # an inline template has no name to offer


def card_templates(card: str) -> List[str]:
    """The templates a card declares (its own list, then its task's default template), without duplicates."""
    data, _ = find_in_catalogs(card)
    names = _template_names(data.get("templates")) if isinstance(data, dict) else []
    task = data.get("task") if isinstance(data, dict) else None
    if isinstance(task, str):
        task_data, _ = find_in_catalogs(task)
        default = task_data.get("default_template") if isinstance(task_data, dict) else None
        if isinstance(default, str):
            names.append(default)
    return list(dict.fromkeys(names))


def recipe_string(card: str, template: Optional[str], format: Optional[str] = None,
                  system_prompt: Optional[str] = None, num_demos: int = 0, demos_pool_size: Optional[int] = None,
                  loader_limit: Optional[int] = PREVIEW_LOADER_LIMIT) -> str:
    """The recipe string of the choices (empty choices are left out)."""
    parts = [f"card={card}"]
    if template:
        parts.append(f"template={template}")
    if format:
        parts.append(f"format={format}")
    if system_prompt:
        parts.append(f"system_prompt={system_prompt}")
    if num_demos:
        parts.append(f"num_demos={int(num_demos)}")
        parts.append(f"demos_pool_size={int(demos_pool_size or max(20, 2 * int(num_demos)))}")
    if loader_limit:
        parts.append(f"loader_limit={int(loader_limit)}")
    return ",".join(parts)


def python_code(recipe: str) -> str:
    return (f"from unitxt import load_dataset\n\n"
            f"dataset = load_dataset({recipe!r}, split=\"test\")  # drop loader_limit for the whole dataset\n"
            f"print(dataset[0][\"source\"])\n")


def hub_code(recipe: str) -> str:
    return (f"import datasets  # datasets < 4 for script mode; no unitxt install needed\n\n"
            f"dataset = datasets.load_dataset(\"unitxt/data\", {recipe!r}, trust_remote_code=True, split=\"test\")\n"
            f"print(dataset[0][\"source\"])\n")


@dataclass
class RenderedInstance:
    source: str
    target: str
    references: List[Any]
    demos: str = ""  # the part of the source the demos added ("" without demos)

    def source_html(self) -> str:
        """The source with the demos part marked."""
        if not self.demos:
            return html.escape(self.source)
        start = self.source.find(self.demos)
        before, after = self.source[:start], self.source[start + len(self.demos):]
        return f'{html.escape(before)}<mark class="demos">{html.escape(self.demos)}</mark>{html.escape(after)}'


@dataclass
class Preview:
    recipe: str
    instances: List[RenderedInstance] = field(default_factory=list)

    @property
    def python_code(self) -> str:
        return python_code(self.recipe)

    @property
    def hub_code(self) -> str:
        return hub_code(self.recipe)

    def instances_html(self) -> str:
        blocks = []
        for number, instance in enumerate(self.instances):
            blocks.append(
                f'<div class="instance" data-index="{number}"><h4>Instance {number}</h4>'
                f'<pre class="source">{instance.source_html()}</pre>'
                f'<p><b>target</b>: <code class="target">{html.escape(instance.target)}</code></p>'
                f'<p><b>references</b>: <code>{html.escape(json.dumps(instance.references, ensure_ascii=False))}</code>'
                "</p></div>")
        return "".join(blocks)


def _text(source: Any) -> str:
    return source if isinstance(source, str) else json.dumps(source, indent=2, ensure_ascii=False)


def _first_rows(recipe: str, count: int) -> List[Dict[str, Any]]:
    from ..rendering.recipe import build_recipe

    streams = build_recipe(recipe)()
    split = "test" if "test" in streams else next(iter(streams))
    return list(itertools.islice(streams[split], count))


def _inserted_part(with_demos: str, without: str) -> str:
    """The text `with_demos` has in place of `without`: between their common prefix (cut back to a line start) and
    their common suffix."""
    prefix = 0
    limit = min(len(with_demos), len(without))
    while prefix < limit and with_demos[prefix] == without[prefix]:
        prefix += 1
    prefix = with_demos.rfind("\n", 0, prefix) + 1
    suffix = 0
    while suffix < limit - prefix and with_demos[-1 - suffix] == without[-1 - suffix]:
        suffix += 1
    return with_demos[prefix:len(with_demos) - suffix]


def _instance_fields(row: Dict[str, Any]) -> Dict[str, Any]:
    """The task fields of a row (its task_data without the recipe's metadata and demos)."""
    data = json.loads(row["task_data"])
    return {name: value for name, value in data.items() if name not in ("metadata", "demos")}


def render(card: str, template: Optional[str], format: Optional[str] = None, system_prompt: Optional[str] = None,
           num_demos: int = 0, demos_pool_size: Optional[int] = None, count: int = 3) -> Preview:
    """Render the first `count` test instances of the composed recipe; a UnitxtError says what is wrong."""
    if not card:
        raise UnitxtError("Pick a card first.")
    recipe = recipe_string(card, template, format, system_prompt, num_demos, demos_pool_size)
    try:
        rows = _first_rows(recipe, count)
        plain = _first_rows(recipe_string(card, template, format, system_prompt), count) if num_demos else []
    except Exception as error:  # noqa: BLE001 - every failure becomes a message on the page
        declared = card_templates(card) if template else []
        hint = ""
        if template and declared and template not in declared:
            hint = (f"'{template}' is not one of the templates of {card} ({', '.join(declared)}), and it does not "
                    "fit the card's task: ")
        raise UnitxtError(f"{hint}{type(error).__name__}: {error}") from error
    instances = []
    for index, row in enumerate(rows):
        source = _text(row["source"])
        demos = ""
        if index < len(plain) and _instance_fields(plain[index]) == _instance_fields(row):
            demos = _inserted_part(source, _text(plain[index]["source"]))
        instances.append(RenderedInstance(source, str(row["target"]), list(row["references"]), demos))
    return Preview(recipe, instances)
