import json
import os

import pytest

from unitxt import add_to_catalog, get_from_catalog, register_local_catalog
from unitxt.catalog import LocalCatalog, fetch_artifact, get_catalogs
from unitxt.errors import CatalogError, OverrideSyntaxError
from unitxt.operators import Copy, Set
from unitxt.settings_utils import settings
from unitxt.task import Task


def test_name_maps_to_nested_json_path(tmp_path):
    add_to_catalog(Copy(field="a", to_field="b"), "operators.copy.a_to_b", catalog_path=str(tmp_path))
    path = tmp_path / "operators" / "copy" / "a_to_b.json"
    assert json.loads(path.read_text()) == {"__type__": "copy", "field": "a", "to_field": "b"}


def test_tutorial_flow_register_add_get(tmp_path):
    register_local_catalog(str(tmp_path))
    my_task = Task(input_fields={"question": str}, reference_fields={"answer": str}, prediction_type=str,
                   metrics=["metrics.accuracy"])
    add_to_catalog(my_task, "tasks.my_task", catalog_path=str(tmp_path))
    loaded = get_from_catalog("tasks.my_task")
    assert loaded == my_task
    assert loaded.to_dict()["input_fields"] == {"question": "str"}
    artifact, catalog = fetch_artifact("tasks.my_task")
    assert catalog.location == str(tmp_path) and artifact.artifact_name == "tasks.my_task"


def test_default_catalog_used_when_no_path(default_catalog_in_tmp):
    add_to_catalog(Set(fields={"x": 1}), "operators.set_x")
    assert (default_catalog_in_tmp / "operators" / "set_x.json").is_file()
    assert get_from_catalog("operators.set_x").fields == {"x": 1}


def test_refuses_overwrite_unless_asked(tmp_path):
    add_to_catalog(Set(fields={"x": 1}), "ops.s", catalog_path=str(tmp_path))
    with pytest.raises(CatalogError, match="already exists"):
        add_to_catalog(Set(fields={"x": 2}), "ops.s", catalog_path=str(tmp_path))
    assert json.loads((tmp_path / "ops" / "s.json").read_text())["fields"] == {"x": 1}
    add_to_catalog(Set(fields={"x": 2}), "ops.s", catalog_path=str(tmp_path), overwrite=True)
    register_local_catalog(str(tmp_path))
    assert get_from_catalog("ops.s").fields == {"x": 2}
    assert not [name for name in os.listdir(tmp_path / "ops") if name.endswith(".tmp")]


@pytest.mark.parametrize("bad_name", ["../evil", "a/b", "a..b", "/etc/passwd", "a.b/../../c", "", "a b", ".hidden"])
def test_names_can_not_escape_catalog(tmp_path, bad_name):
    inner = tmp_path / "catalog"
    inner.mkdir()
    with pytest.raises((CatalogError, OverrideSyntaxError)):
        add_to_catalog(Set(fields={"x": 1}), bad_name, catalog_path=str(inner))
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written == []


def test_unknown_name_lists_closest_names(temp_catalog):
    add_to_catalog(Set(fields={"x": 1}), "cards.sst2", catalog_path=str(temp_catalog))
    add_to_catalog(Set(fields={"x": 1}), "cards.sst5", catalog_path=str(temp_catalog))
    with pytest.raises(CatalogError) as info:
        get_from_catalog("cards.sts2")
    assert "cards.sst2" in str(info.value) and "not in any catalog" in str(info.value)


def test_last_registered_wins(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    add_to_catalog(Set(fields={"who": "first"}), "ops.who", catalog_path=str(first))
    add_to_catalog(Set(fields={"who": "second"}), "ops.who", catalog_path=str(second))
    register_local_catalog(str(first))
    register_local_catalog(str(second))
    assert get_from_catalog("ops.who").fields == {"who": "second"}
    register_local_catalog(str(first))
    assert get_from_catalog("ops.who").fields == {"who": "first"}


def test_unitxt_catalogs_environment_variable(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    add_to_catalog(Set(fields={"who": "first"}), "ops.who", catalog_path=str(first))
    add_to_catalog(Set(fields={"who": "second"}), "ops.who", catalog_path=str(second))
    add_to_catalog(Set(fields={"only": 1}), "ops.only_first", catalog_path=str(first))
    monkeypatch.setenv("UNITXT_CATALOGS", f"{first}:{second}")
    assert get_from_catalog("ops.who").fields == {"who": "second"}
    assert get_from_catalog("ops.only_first").fields == {"only": 1}
    locations = [catalog.location for catalog in get_catalogs()]
    assert locations.index(str(second)) < locations.index(str(first))


def test_settings_context_for_catalogs(tmp_path):
    add_to_catalog(Set(fields={"x": 5}), "ops.five", catalog_path=str(tmp_path))
    with settings.context(catalogs=str(tmp_path)):
        assert get_from_catalog("ops.five").fields == {"x": 5}
    with pytest.raises(CatalogError):
        get_from_catalog("ops.five")


def test_invalid_json_entry_is_reported(tmp_path):
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "broken.json").write_text("{not json")
    register_local_catalog(str(tmp_path))
    with pytest.raises(CatalogError, match="not valid JSON"):
        get_from_catalog("ops.broken")


def test_local_catalog_lists_names(tmp_path):
    add_to_catalog(Set(fields={"x": 1}), "a.b.c", catalog_path=str(tmp_path))
    add_to_catalog(Set(fields={"x": 1}), "a.d", catalog_path=str(tmp_path))
    assert list(LocalCatalog(str(tmp_path)).names()) == ["a.b.c", "a.d"]


# ---------------------------------------------------------------- saving_and_loading_from_catalog.rst examples
def test_doc_modify_catalog_asset_on_the_fly(tmp_path):
    from unitxt.card import TaskCard

    register_local_catalog(str(tmp_path))
    add_to_catalog(Task(input_fields={"text": str}, reference_fields={"label": str}, metrics=["metrics.f1_micro"]),
                   "tasks.my_task", catalog_path=str(tmp_path))
    card = TaskCard(task="tasks.my_task[metrics=[metrics.accuracy, metrics.f1[reduction=median]]]")
    assert card.task.metrics == ["metrics.accuracy", "metrics.f1[reduction=median]"]
    assert card.to_dict()["task"] == "tasks.my_task[metrics=[metrics.accuracy, metrics.f1[reduction=median]]]"


def test_doc_deprecated_asset_json_logs_warning(tmp_path, caplog):
    import logging

    (tmp_path / "system_prompts").mkdir()
    (tmp_path / "system_prompts" / "boolqa.json").write_text(json.dumps({
        "__type__": "textual_system_prompt",
        "__deprecated_msg__": "This legacy system prompt reflects a task specific instruction, which is best handled "
                              "by the 'instruction' field of the template.",
        "text": "You are an agent in charge of answering a boolean (yes/no) question.",
    }))
    register_local_catalog(str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="unitxt"):
        prompt = get_from_catalog("system_prompts.boolqa")
    assert prompt.text.startswith("You are an agent")
    assert "best handled by the 'instruction' field" in caplog.text


def test_load_data_gives_a_private_copy_and_peek_data_the_cached_entry(tmp_path):
    from unitxt.catalog_store import LocalCatalog, MemoryCatalog

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.json").write_text('{"__type__": "x", "items": [1, 2]}', encoding="utf-8")
    for catalog in (LocalCatalog(str(tmp_path)), MemoryCatalog({"a.b": {"__type__": "x", "items": [1, 2]}})):
        copy = catalog.load_data("a.b")
        copy["items"].append(3)
        assert catalog.load_data("a.b") == {"__type__": "x", "items": [1, 2]}
        assert catalog.peek_data("a.b") is catalog.peek_data("a.b")  # no copy for read-only listing
