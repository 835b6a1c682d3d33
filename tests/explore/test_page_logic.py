"""The explorer's page logic without a browser: compatible templates, rendering with demos marked, code snippets,
messages instead of stack traces, catalog search (the browser-driven tests are in tests/tiers/ui)."""

import sys

import pytest

from unitxt import load_dataset
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.explore.app import Explorer, build_app
from unitxt.explore.catalog_browser import CatalogIndex
from unitxt.explore.preview import card_templates, recipe_string, render

CARD = "cards.demo.sentiment"


def test_card_templates_are_the_cards_own():
    # the card's own templates, then its task's default template
    assert card_templates(CARD) == ["templates.classification.multi_class.default", "templates.key_val",
                                    "templates.classification.multi_class.title"]
    assert card_templates("cards.wnli")[0].startswith("templates.classification.multi_class.relation.")


def test_recipe_string_leaves_out_empty_choices():
    assert recipe_string(CARD, "templates.key_val", None, None, 0, None, None) == (
        "card=cards.demo.sentiment,template=templates.key_val")
    assert recipe_string(CARD, "t", "formats.chat_api", "system_prompts.empty", 3) == (
        "card=cards.demo.sentiment,template=t,format=formats.chat_api,system_prompt=system_prompts.empty,"
        "num_demos=3,demos_pool_size=20,loader_limit=300")


def test_render_equals_load_dataset_and_marks_the_demos():
    preview = render(CARD, "templates.classification.multi_class.default", num_demos=2, count=2)
    expected = load_dataset(preview.recipe, split="test")
    assert [instance.source for instance in preview.instances] == expected[:2]["source"]
    assert [instance.target for instance in preview.instances] == expected[:2]["target"]
    first = preview.instances[0]
    assert first.demos.count("The sentiment is") == 2 and first.demos.startswith("review: ")
    assert first.source.replace(first.demos, "") == load_dataset(
        recipe_string(CARD, "templates.classification.multi_class.default"), split="test")[0]["source"]
    assert '<mark class="demos">review: ' in preview.instances_html()
    assert repr(preview.recipe) in preview.python_code and '"unitxt/data"' in preview.hub_code


def test_incompatible_template_is_explained():
    with pytest.raises(UnitxtError) as caught:
        render(CARD, "templates.qa.open.default")
    text = str(caught.value)
    assert "is not one of the templates of cards.demo.sentiment" in text and "'question'" in text


def test_compose_returns_messages_not_exceptions():
    explorer = Explorer()
    message, instances, recipe, python_code, hub_code = explorer.compose(
        CARD, "templates.key_val", "(none)", "(none)", 1, 20, 2)
    assert message == "Rendered 2 instance(s) of `cards.demo.sentiment`." and instances.count('class="instance"') == 2
    assert recipe == "card=cards.demo.sentiment,template=templates.key_val,num_demos=1,demos_pool_size=20,loader_limit=300"
    message, instances, recipe, _, _ = explorer.compose("cards.no_such_card", None, None, None, 0, 20, 1)
    assert message.startswith("**Could not render this recipe.**") and "cards.no_such_card" in message
    assert (instances, recipe) == ("", "")
    choices, first = explorer.templates_choices(CARD, True)
    assert choices[:3] == card_templates(CARD) and "templates.qa.open.default" in choices and first == choices[0]
    assert all(explorer.index.entries[name]["type"] != "templates_list" for name in choices)


def test_catalog_search_and_details():
    index = CatalogIndex()
    assert {"cards", "templates", "formats", "metrics"} <= set(index.kinds())
    found = [entry["name"] for entry in index.search("cards", "written for unitxt")]
    assert found == [CARD]
    details = index.details(CARD)
    assert details["type"] == "task_card" and '"loader"' in details["json"] and details["tags"]["task"] == "classification"
    rows = Explorer().search("metrics", "accuracy")
    assert any(row[:2] == ["metrics.accuracy", "accuracy"] for row in rows)
    assert all(row[0].startswith("metrics.") for row in rows)


def test_build_app_without_gradio_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "gradio", None)
    with pytest.raises(MissingRequirementError, match=r"unitxt\[ui\]"):
        build_app()
