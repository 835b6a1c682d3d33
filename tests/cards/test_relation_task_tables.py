"""The relation task with the original's field types (issue 37): text_a may be a text, a Table, a Dialog or an
image. A table is verbalised as CSV lines by the templates' default rules (as the original's default serializer), a
text card's chat rows keep text contents, and a card that puts an image in text_a gets content parts. Also the typed
dicts' rule these values go through: the declared keys are checked, other keys are allowed (as the original)."""

import json

from PIL import Image as PILImage

from unitxt import load_dataset
from unitxt.card import TaskCard
from unitxt.catalog import fetch_artifact
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Set
from unitxt.operators.struct_data import ParseCSV
from unitxt.recipe import DatasetRecipe
from unitxt.serializers import default_serialize
from unitxt.type_utils import isoftype
from unitxt.types.definitions import Dialog, Table

RELATION_TASK = "tasks.classification.multi_class.relation"
RELATION_TEMPLATE = "templates.classification.multi_class.relation.default"
FIELDS = {"type_of_relation": "entailment", "text_a_type": "Table", "text_b_type": "Statement",
          "classes": ["refuted", "entailed"]}


def _card(rows, steps=()):
    return TaskCard(loader=LoadFromDictionary(data={"test": rows}), preprocess_steps=[*steps, Set(fields=FIELDS)],
                    task=RELATION_TASK)


def test_relation_task_types_text_a_as_the_original():
    task = fetch_artifact(RELATION_TASK)[0]
    assert task.to_dict()["input_fields"]["text_a"] == "Union[Text, Image, Audio, Table, Dialog]"


def test_tab_fact_style_table_renders_as_csv_lines():
    rows = [{"table_text": "team#points\nriver city, north#12\nharbor#7\n", "statement": "harbor has 7 points",
             "label": "entailed"}]
    card = _card(rows, [ParseCSV(field="table_text", to_field="text_a", separator="#", dtype="str"),
                        Set(fields={"text_b": "harbor has 7 points"})])
    row = load_dataset(DatasetRecipe(card=card, template=RELATION_TEMPLATE), split="test")[0]
    assert json.loads(row["task_data"])["text_a"] == {"header": ["team", "points"],
                                                      "rows": [["river city, north", "12"], ["harbor", "7"]]}
    assert row["source"] == ("Given a Table and Statement classify the entailment of the Statement to one of "
                             "refuted, entailed.\nTable: team,points\n\"river city, north\",12\nharbor,7\n"
                             "Statement: harbor has 7 points\nThe entailment class is ")


def test_text_relation_card_keeps_text_chat_contents():
    card = _card([{"text_a": "The river is wide.", "text_b": "The river is narrow.", "label": "refuted"}])
    recipe = DatasetRecipe(card=card, template=RELATION_TEMPLATE, format="formats.chat_api")
    assert not recipe.produces_media()
    messages = load_dataset(recipe, split="test")[0]["source"]
    assert messages[-1] == {"role": "user", "content": "Table: The river is wide.\nStatement: The river is narrow."}


def test_image_in_text_a_gives_content_parts():
    image = PILImage.new("RGB", (5, 3), "red")
    card = _card([{"text_a": image, "text_b": "The picture is red.", "label": "entailed"}])
    recipe = DatasetRecipe(card=card, template=RELATION_TEMPLATE, format="formats.chat_api")
    assert recipe.produces_media()
    row = load_dataset(recipe, split="test")[0]
    parts = [part for part in row["source"][-1]["content"] if part["type"] == "image_url"]
    assert len(parts) == 1 and parts[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert len(row["media"]["images"]) == 1


def test_default_rules_verbalise_tables_and_dialogs_as_the_original():
    assert default_serialize({"header": ["a", "b"], "rows": [[1, "x, y"], [2, None]]}) == 'a,b\n1,"x, y"\n2,'
    assert default_serialize([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]) == \
        "user: hi\nassistant: yo"
    assert default_serialize({"id": "c1", "dialog": [{"role": "user", "content": "hi"}]}) == "user: hi"
    assert default_serialize({"k": 1}) == '{"k": 1}'  # other dicts: JSON, as before
    assert default_serialize(["a", "b"]) == "a, b"


def test_typed_dicts_allow_keys_beyond_the_declared_ones():
    assert isoftype({"header": ["a"], "rows": [[1]], "name": "csv/1.tsv"}, Table)
    assert not isoftype({"header": ["a"]}, Table)  # a declared key missing
    assert not isoftype({"header": "a", "rows": [[1]]}, Table)  # a declared key of the wrong type
    assert isoftype([{"role": "user", "content": "hi", "name": "ann"}], Dialog)
    assert not isoftype([{"role": "user"}], Dialog)
