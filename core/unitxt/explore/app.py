"""The explorer's Gradio page: a Compose tab (recipe choices -> rendered prompts and code) and a Browse tab
(search the catalog, see an entry's description, tags and JSON). Errors are shown in the page as messages."""

import html
import json
from typing import Any, Dict, List, Optional, Tuple

from ..errors import MissingRequirementError
from .catalog_browser import CatalogIndex
from .preview import card_templates, render

DEFAULT_CARD = "cards.demo.sentiment"
NONE_CHOICE = "(none)"
_CSS = "mark.demos{background:#fff3bf} pre.source{white-space:pre-wrap;border:1px solid #ddd;padding:8px}"


def _gradio() -> Any:
    try:
        import gradio
    except ImportError:
        raise MissingRequirementError("The explorer needs Gradio: pip install 'unitxt[ui]'.") from None
    return gradio


def _optional(value: Optional[str]) -> Optional[str]:
    return None if not value or value == NONE_CHOICE else value


def _error_message(error: BaseException) -> str:
    return f"**Could not render this recipe.** {html.escape(str(error))}"


class Explorer:
    """The page state and callbacks (plain Python, so they are testable without a browser)."""

    def __init__(self) -> None:
        self.index = CatalogIndex()

    def templates_choices(self, card: str, show_all: bool) -> Tuple[List[str], Optional[str]]:
        """Templates offered for a card: its own (compatible) ones, or every template when asked."""
        declared = card_templates(card) if card else []
        if show_all:
            every = [name for name in self.index.names("templates")
                     if self.index.entries[name]["type"] != "templates_list"]
            return declared + [name for name in every if name not in declared], declared[0] if declared else None
        return declared, declared[0] if declared else None

    def compose(self, card: str, template: str, format: str, system_prompt: str, num_demos: float,
                demos_pool_size: float, count: float) -> Tuple[str, str, str, str, str]:
        """(message, instances HTML, recipe, python code, zero-install code)."""
        try:
            preview = render(card, _optional(template), _optional(format), _optional(system_prompt),
                             int(num_demos or 0), int(demos_pool_size or 0) or None, max(1, int(count or 1)))
        except Exception as error:  # noqa: BLE001 - shown in the page, never as a stack trace
            return _error_message(error), "", "", "", ""
        message = f"Rendered {len(preview.instances)} instance(s) of `{card}`."
        return message, preview.instances_html(), preview.recipe, preview.python_code, preview.hub_code

    def search(self, kind: str, query: str) -> List[List[str]]:
        entries = self.index.search(_optional(kind), query or "")
        return [[entry["name"], entry["type"], entry["description"]] for entry in entries]

    def details(self, name: str) -> Tuple[str, str, str]:
        """(description markdown, tags JSON, entry JSON)."""
        if not name:
            return "", "", ""
        try:
            entry = self.index.details(name)
        except Exception as error:  # noqa: BLE001 - shown in the page
            return f"**{html.escape(str(error))}**", "", ""
        description = f"### {entry['name']}\n`{entry['type']}` — {entry['description'] or '(no description)'}"
        return description, json.dumps(entry["tags"], indent=2, ensure_ascii=False), entry["json"]


def build_app(explorer: Optional[Explorer] = None, header_visible: bool = True) -> Any:
    """The Gradio Blocks of the explorer (`header_visible`: the page's title text, the HEADER_VISIBLE page setting)."""
    gr = _gradio()
    explorer = explorer or Explorer()
    cards = explorer.index.names("cards")
    first_card = DEFAULT_CARD if DEFAULT_CARD in cards else (cards[0] if cards else None)
    templates, first_template = explorer.templates_choices(first_card, False) if first_card else ([], None)
    formats = [NONE_CHOICE] + explorer.index.names("formats")
    prompts = [NONE_CHOICE] + explorer.index.names("system_prompts")
    with gr.Blocks(title="Explore Unitxt") as app:
        gr.Markdown("# Explore Unitxt\nPick a card, a template, a format and a number of demos to see the prompts, "
                    "and copy the code that reproduces them.", visible=header_visible)
        with gr.Tab("Compose"):
            with gr.Row():
                card = gr.Dropdown(cards, value=first_card, label="Card", elem_id="card", filterable=True)
                template = gr.Dropdown(templates, value=first_template, label="Template", elem_id="template",
                                       filterable=True)
                show_all = gr.Checkbox(False, label="Show all templates (not only the card's)", elem_id="show_all")
            with gr.Row():
                format_ = gr.Dropdown(formats, value=NONE_CHOICE, label="Format", elem_id="format")
                system_prompt = gr.Dropdown(prompts, value=NONE_CHOICE, label="System prompt", elem_id="system_prompt")
                num_demos = gr.Number(0, label="Demos", minimum=0, maximum=20, precision=0, elem_id="num_demos")
                pool = gr.Number(20, label="Demos pool size", minimum=1, precision=0, elem_id="demos_pool_size")
                count = gr.Number(3, label="Instances", minimum=1, maximum=20, precision=0, elem_id="count")
            message = gr.Markdown(elem_id="message")
            instances = gr.HTML(elem_id="instances")
            recipe = gr.Textbox(label="Recipe", elem_id="recipe", interactive=False)
            python_code = gr.Code(label="Python (unitxt installed)", language="python", elem_id="python_code",
                                  interactive=False)
            hub_code = gr.Code(label="Zero-install (datasets + evaluate only)", language="python", elem_id="hub_code",
                               interactive=False)
        with gr.Tab("Browse"):
            with gr.Row():
                kind = gr.Dropdown([NONE_CHOICE] + explorer.index.kinds(), value="cards", label="Kind",
                                   elem_id="kind")
                query = gr.Textbox(label="Search (name, description, tags)", elem_id="query")
            table = gr.Dataframe(explorer.search("cards", ""), headers=["name", "type", "description"],
                                 interactive=False, elem_id="entries")
            entry = gr.Dropdown(explorer.index.names("cards"), label="Entry", elem_id="entry", filterable=True)
            description = gr.Markdown(elem_id="entry_description")
            tags = gr.Code(label="Tags", language="json", elem_id="entry_tags", interactive=False)
            entry_json = gr.Code(label="JSON", language="json", elem_id="entry_json", interactive=False)

        inputs = [card, template, format_, system_prompt, num_demos, pool, count]
        outputs = [message, instances, recipe, python_code, hub_code]

        def on_card(card_name: str, all_templates: bool):
            choices, value = explorer.templates_choices(card_name, all_templates)
            return gr.Dropdown(choices=choices, value=value)

        def on_show_all(card_name: str, all_templates: bool, current: str):
            choices, value = explorer.templates_choices(card_name, all_templates)
            return gr.Dropdown(choices=choices, value=current if current in choices else value)

        def on_search(kind_name: str, text: str):
            rows = explorer.search(kind_name, text)
            return rows, gr.Dropdown(choices=[row_[0] for row_ in rows], value=None)

        card.change(on_card, [card, show_all], template)
        show_all.change(on_show_all, [card, show_all, template], template)
        for component in inputs:
            component.change(explorer.compose, inputs, outputs)
        app.load(explorer.compose, inputs, outputs)
        kind.change(on_search, [kind, query], [table, entry])
        query.change(on_search, [kind, query], [table, entry])
        entry.change(explorer.details, entry, [description, tags, entry_json])
    return app


def launch(host: str = "127.0.0.1", port: Optional[int] = None, header_visible: bool = True,
           **launch_kwargs: Dict[str, Any]) -> Any:
    """Start the explorer web server (blocking). The page settings come as arguments: this module imports nothing of
    its package, so `unitxt.explore.launch` (which reads `explore.settings`) can import it without an import circle."""
    app = build_app(header_visible=header_visible)
    return app.launch(server_name=host, server_port=port, css=_CSS, **launch_kwargs)
