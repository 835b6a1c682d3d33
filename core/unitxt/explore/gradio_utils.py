"""Gradio component updates the original's explorer page wires to its buttons (`unitxt.ui.gradio_utils`): switch tab,
(de)activate or show/hide a component. Each imports Gradio when called (the `unitxt[ui]` extra; else an install
hint)."""

from typing import Any

from .app import _gradio


def go_to_json_tab() -> Any:
    return _gradio().Tabs(selected="json")


def go_to_main_tab() -> Any:
    return _gradio().Tabs(selected="demo")


def go_to_intro_tab() -> Any:
    return _gradio().Tabs(selected="intro")


def activate_button() -> Any:
    return _gradio().Button(interactive=True)


def deactivate_button() -> Any:
    return _gradio().Button(interactive=False)


def make_button_visible() -> Any:
    return _gradio().Button(visible=True)


def make_button_invisible() -> Any:
    return _gradio().Button(visible=False)


def select_checkbox() -> Any:
    return _gradio().Checkbox(value=True)


def deselect_checkbox() -> Any:
    return _gradio().Checkbox(value=False)


def make_txt_visible(value: Any) -> Any:
    return _gradio().Text(visible=True, value=value)


def make_json_visible(value: Any) -> Any:
    return _gradio().Json(visible=True, value=value)


def make_mrk_down_invisible() -> Any:
    return _gradio().Markdown(visible=False)


def make_mrk_down_visible() -> Any:
    return _gradio().Markdown(visible=True)


def make_group_visible() -> Any:
    return _gradio().Group(visible=True)


def make_group_invisible() -> Any:
    return _gradio().Group(visible=False)
