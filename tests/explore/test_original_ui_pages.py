"""The original's `unitxt.ui` page modules over the explorer here: load_catalog_data on a small local catalog (the
values unitxt 1.26.10 gives for the same folders), settings, the page callbacks (ui_utils, run, ui_tester), and
launch starting the explorer; the Gradio parts name the `unitxt[ui]` extra when Gradio is absent."""

import csv
import json
import os
import sys

import pytest

import unitxt.ui as ui
import unitxt.ui.load_catalog_data as catalog_data
from unitxt import load_dataset
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.settings_utils import settings
from unitxt.ui import gradio_utils, run, settings as page_settings, ui_tester, ui_utils

CARD, TEMPLATE = "cards.demo.sentiment", "templates.key_val"


def _write(root, name, data):
    path = os.path.join(root, *name.split(".")) + ".json"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(data if isinstance(data, str) else json.dumps(data))


@pytest.fixture
def folders(tmp_path, monkeypatch):
    root, private = str(tmp_path / "catalog"), str(tmp_path / "private")
    _write(root, "tasks.cls", {"__type__": "task", "input_fields": ["text"], "augmentable_inputs": ["text"]})
    _write(root, "tasks.qa", {"__type__": "task", "input_fields": ["q"]})
    _write(root, "templates.cls.a", {"__type__": "input_output_template", "input_format": "{text}"})
    _write(root, "templates.cls.b", {"__type__": "input_output_template", "input_format": "B {text}"})
    _write(root, "templates.cls.all", {"__type__": "templates_list", "items": ["templates.cls.a", "templates.cls.b"]})
    _write(root, "templates.qa.broken", "{not json")
    inline = {"__type__": "input_output_template", "input_format": "inline {text}"}
    _write(root, "cards.one", {"__type__": "task_card", "task": "tasks.cls", "templates": "templates.cls.all"})
    _write(root, "cards.two", {"__type__": "task_card", "task": "tasks.cls[x=1]", "templates": ["templates.cls.a", inline]})
    _write(root, "cards.sub.three", {"__type__": "task_card", "task": "tasks.qa", "templates": {
        "__type__": "templates_dict", "items": {"k": "templates.qa.broken", "own": {"__type__": "t"}, "bad": 5}}})
    _write(root, "cards.four", {"__type__": "task_card", "task": "tasks.qa",
                                "templates": {"x": "templates.cls.b", "y": {"__type__": "t"}, "z": 7}})
    _write(root, "cards.five", {"__type__": "task_card", "task": {"__type__": "task"}, "templates": []})
    _write(root, "cards.six", {"__type__": "task_card", "task": "tasks.qa"})
    _write(root, "formats.f1", {"__type__": "system_format"})
    _write(root, "system_prompts.p1", {"__type__": "textual_system_prompt", "text": "hi"})
    _write(private, "cards.one", {"__type__": "task_card", "task": "tasks.qa", "templates": ["templates.cls.b"]})
    _write(private, "formats.f2", {"__type__": "system_format"})
    for name, value in (("CATALOG_DIR", root), ("UNITXT_DIR", root), ("PRIVATE_DIR", None)):
        monkeypatch.setattr(catalog_data, name, value)
    return root, private


def test_load_cards_data_groups_cards_by_task_with_their_templates(folders):
    root, _ = folders
    cards_data, jsons, formats, system_prompts = catalog_data.load_cards_data()
    assert cards_data == {
        "tasks.cls": {"cards.one": {"templates.cls.a", "templates.cls.b"}, "augmentable_inputs": True,
                      "cards.two": {"templates.cls.a", "templates.tmp.two.default_1"}},
        "tasks.qa": {"cards.sub.three": {"templates.qa.broken", "templates.tmp.sub.three.own"},
                     "augmentable_inputs": False,
                     "cards.four": {"templates.cls.b", "templates.tmp.four.y", "templates.tmp.four.z"}},
    }
    assert (formats, system_prompts) == (["formats.f1"], ["system_prompts.p1"])
    assert jsons["templates.qa.broken"] == {"Error in loading json"}  # the original's marker (a set)
    assert jsons["templates.tmp.four.z"] == 7 and jsons["tasks.qa"]["input_fields"] == ["q"]
    assert sorted(jsons) == ["cards.five", "cards.four", "cards.one", "cards.six", "cards.sub.three", "cards.two",
                             "formats.f1", "system_prompts.p1", "tasks.cls", "tasks.qa", "templates.cls.a",
                             "templates.cls.b", "templates.qa.broken", "templates.tmp.four.y", "templates.tmp.four.z",
                             "templates.tmp.sub.three.own", "templates.tmp.two.default_1"]
    written = sorted(os.path.relpath(os.path.join(folder, name), root)
                     for folder, _, names in os.walk(os.path.join(root, "templates", "tmp")) for name in names)
    assert written == ["templates/tmp/README.txt", "templates/tmp/four/y.json", "templates/tmp/four/z.json",
                       "templates/tmp/sub/three/own.json", "templates/tmp/two/default_1.json"]
    with open(os.path.join(root, "templates", "tmp", "two", "default_1.json")) as file:
        assert json.load(file)["input_format"] == "inline {text}"


def test_a_private_folder_adds_and_overrides_entries(folders, monkeypatch):
    root, private = folders
    monkeypatch.setattr(catalog_data, "PRIVATE_DIR", private)
    cards_data, _, formats, system_prompts = catalog_data.load_cards_data()
    assert cards_data["tasks.qa"]["cards.one"] == {"templates.cls.b"} and "cards.one" not in cards_data["tasks.cls"]
    assert (formats, system_prompts) == (["formats.f1", "formats.f2"], ["system_prompts.p1"])
    assert os.path.relpath(catalog_data.get_file_from_item_name("cards.one"), private) == "cards/one.json"
    assert catalog_data.get_file_from_item_name("nothing.here") == os.path.join(root, "nothing", "here.json")


def test_lookups_and_template_forms(folders):
    assert [catalog_data.check_augmentable("tasks.cls"), catalog_data.check_augmentable("tasks.qa")] == [True, False]
    assert catalog_data.get_catalog_items("formats") == (["formats.f1"], {"formats.f1": {"__type__": "system_format"}})
    names, found = catalog_data.get_templates("templates.cls.all", "cards.x")
    assert names == {"templates.cls.a", "templates.cls.b"} and found["templates.cls.b"]["input_format"] == "B {text}"
    assert catalog_data.get_templates("ab", "cards.x")[0] == {"a", "b"}  # a plain text is read as its characters
    with pytest.raises(TypeError, match="Unsupported template_data type"):
        catalog_data.get_templates(5, "cards.x")


def test_catalog_dirs_come_from_unitxt_catalogs(monkeypatch):
    monkeypatch.setenv("UNITXT_CATALOGS", "/a:/b")
    with pytest.raises(ValueError, match="Expecting a maximum of one catalog in addition to unitxt catalog, found 2"):
        catalog_data.get_catalog_dirs()
    monkeypatch.setenv("UNITXT_CATALOGS", "/some/where")
    assert catalog_data.get_catalog_dirs()[1] == "/some/where"
    monkeypatch.delenv("UNITXT_CATALOGS")
    assert catalog_data.get_catalog_dirs() == (page_settings.CATALOG_DIR, None)
    assert os.path.isfile(os.path.join(page_settings.CATALOG_DIR, "cards", "demo", "sentiment.json"))


def test_page_helpers():
    assert [ui_utils.increase_num(n) for n in (0, 3, 4)] == [1, 4, 0]
    assert [ui_utils.decrease_num(n) for n in (0, 1, 4)] == [4, 0, 3]
    nested = {"a": [1, 2], "b": {"c": "x"}}
    assert ui_utils.unhash_dict(ui_utils.hash_dict(nested)) == nested
    scores = {"score": 0.5, "score_name": "f1", "f1": 0.123456, "label": "x"}
    assert ui_utils.create_dataframe(scores) == [("f1", 0.123), ("label", "x")]
    assert ui_utils.create_dataframe(None) == page_settings.EMPTY_SCORES_FRAME
    assert ui_utils.collect({"test": iter(range(10))}, "test", 2) == [0, 1, 2]  # n + 1, as the original
    args = {}
    ui_utils.safe_add("formats.chat_api", "format", args)
    ui_utils.safe_add(["a"], "system_prompt", args)
    assert args == {"format": "formats.chat_api"}
    command = ui_utils.build_command({"card": CARD, "template": TEMPLATE, "loader_limit": 300}, False)
    assert (f"load_dataset('unitxt/data', 'card={CARD},template={TEMPLATE},max_train_instances=5', split='train', "
            "trust_remote_code=True)") in command and "pipeline" not in command
    assert "from transformers import pipeline" in ui_utils.build_command({"card": CARD}, True)


def test_run_unitxt_shows_the_recipes_instances():
    prompt, target, prediction, instance_scores, global_scores, command = run.run_unitxt(CARD, TEMPLATE, index=2)
    expected = load_dataset(f"card={CARD},template={TEMPLATE},loader_limit=300", split="train")[1]  # train first
    assert expected["source"].replace("\n", "<br>") in prompt and f"<p>{expected['target']}</p>" in target
    assert (prediction, instance_scores, global_scores) == ("", [("", "")], [("", "")])
    assert f"card={CARD},template={TEMPLATE}" in command
    failed = run.run_unitxt(CARD, "templates.qa.open.default")[0]
    assert "Exception:" in failed and "question" in failed
    assert run.run_unitxt_entry("task", None, None)[0] == "Please select Dataset Card and a template"
    assert run.run_unitxt_entry("task", CARD, None)[0] == "Please select a template"


def test_ui_tester_writes_one_row_per_choice(tmp_path, monkeypatch):
    monkeypatch.setattr(ui_utils, "data", {"tasks.classification.multi_class": {
        CARD: {TEMPLATE, "templates.qa.open.default"}, "augmentable_inputs": False}}, raising=False)
    path = str(tmp_path / "ui_tester.csv")
    rows = ui_tester.main(path, shots=(0,))
    assert sorted((row[2], row[5]) for row in rows) == [(TEMPLATE, False), ("templates.qa.open.default", True)]
    with open(path, newline="") as file:
        assert next(csv.reader(file)) == ui_tester.headers


def test_without_gradio_the_page_parts_name_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "gradio", None)
    limit = settings.global_loader_limit
    for call in (lambda: ui.launch(), lambda: ui.launch_without_header(), gradio_utils.activate_button,
                 lambda: ui_utils.conditionally_activate_button("x", None), lambda: run.demo):
        with pytest.raises(MissingRequirementError, match=r"unitxt\[ui\]"):
            call()
    assert settings.global_loader_limit == limit  # nothing changed before the hint


def test_launch_sets_the_page_settings_and_starts_the_explorer(monkeypatch):
    import unitxt.explore.app as app

    started = []
    monkeypatch.setattr(app, "_gradio", lambda: object())
    monkeypatch.setattr(app, "launch", lambda **kwargs: started.append(kwargs["header_visible"]) or "served")
    monkeypatch.setattr(page_settings, "HEADER_VISIBLE", True)
    monkeypatch.setattr(page_settings, "PROMPT_SAMPLE_SIZE", 5)
    with settings.context(global_loader_limit=None, disable_hf_datasets_cache=True):
        assert ui.launch_without_header({"PROMPT_SAMPLE_SIZE": 3}) == "served"
        assert (settings.global_loader_limit, settings.disable_hf_datasets_cache) == (300, False)
    assert started == [False] and page_settings.PROMPT_SAMPLE_SIZE == 3
    with pytest.raises(UnitxtError, match="'NO_SUCH', not a setting of the explorer page"):
        ui.launch({"NO_SUCH": 1})
