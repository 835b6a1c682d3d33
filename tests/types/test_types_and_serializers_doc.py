"""types_and_serializers.rst end to end: typing types registered by name, built-in types and serializers, recipe
and template serializers (the documented dialog summarisation example with fixed predictions)."""

import json
from typing import Any, Dict, List, Literal, NewType, Optional, TypedDict, Union

import pytest

from unitxt import evaluate, load_dataset
from unitxt.artifact import Artifact
from unitxt.card import TaskCard
from unitxt.data_types import Dialog as BuiltinDialog
from unitxt.data_types import Document, Image, Table as BuiltinTable, mentions_media_type
from unitxt.errors import ArtifactDefinitionError, InstanceTypeError
from unitxt.loaders import LoadFromDictionary
from unitxt.serializers import (
    DialogSerializer as BuiltinDialogSerializer,
)
from unitxt.serializers import (
    DocumentSerializer,
    ImageSerializer,
    ListSerializer,
    MultiDocumentSerializer,
    MultiTypeSerializer,
    NumberSerializer,
    SingleTypeSerializer,
    TableSerializer,
)
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate
from unitxt.type_utils import isoftype, parse_type_string, register_type, type_to_string

DIALOG = [{"role": "user", "content": "What is the time?"}, {"role": "system", "content": "4:13 PM"}]
DOC_SOURCE = "Summarize the following dialog.\nuser: What is the time?\nsystem: 4:13 PM"
TABLE = {"header": ["city", "population"], "rows": [["Paris", 2100000], ["Rome", 2800000]]}


@pytest.fixture(autouse=True)
def restore_registries():
    """The documented classes and types defined by these tests do not outlive them."""
    from unitxt import artifact, type_utils

    artifact.load_builtin_artifact_modules()  # register the library's classes before the snapshot, not inside it
    types, registered = dict(artifact._ARTIFACT_TYPES), dict(type_utils._REGISTERED_TYPES)
    yield
    artifact._ARTIFACT_TYPES.clear()
    artifact._ARTIFACT_TYPES.update(types)
    type_utils._REGISTERED_TYPES.clear()
    type_utils._REGISTERED_TYPES.update(registered)
    type_utils._checker_cache.clear()


@pytest.fixture
def builtin_serializer_names(monkeypatch):
    """Point the serializer type names back at the library classes.

    The documentation (and tests/templates/test_serializers.py) define their own `DialogSerializer` / `TableSerializer`, which
    take over those type names for the whole session; catalog data must resolve to the library classes here.
    """
    from unitxt import artifact

    for cls in (BuiltinDialogSerializer, TableSerializer, ImageSerializer, DocumentSerializer, MultiTypeSerializer):
        monkeypatch.setitem(artifact._ARTIFACT_TYPES, cls._type_name, cls)


# ---------------------------------------------------------------- the documented code, as written
def documented_types():
    """The typing types of the documentation, registered as documented."""
    Text = NewType("Text", str)
    Number = NewType("Number", Union[float, int])

    class Turn(TypedDict):
        role: Literal["system", "user", "agent"]
        content: Text

    Dialog = NewType("Dialog", List[Turn])

    class Table(TypedDict):
        header: List[str]
        rows: List[List[Any]]

    register_type(Text)
    register_type(Number)
    register_type(Turn)
    register_type(Dialog)
    register_type(Table)
    return Text, Number, Turn, Dialog, Table


def documented_dialog_serializer(Dialog):
    class DialogSerializer(SingleTypeSerializer):
        serialized_type = Dialog

        def serialize(self, value: Dialog, instance: Dict[str, Any]) -> str:
            # Convert the Dialog into a string representation, typically combining roles and content
            return "\n".join(f"{turn['role']}: {turn['content']}" for turn in value)

    return DialogSerializer


def test_documented_types_register_and_parse_by_name():
    Text, Number, Turn, Dialog, Table = documented_types()
    assert parse_type_string("Dialog") is Dialog
    assert parse_type_string("List[Turn]") == List[Turn]
    assert parse_type_string("Dict[str, Table]") == Dict[str, Table]
    assert isoftype(DIALOG, parse_type_string("Dialog")) and isoftype(3, parse_type_string("Number"))
    assert isoftype(2.5, Number)
    assert not isoftype([{"role": "robot", "content": "x"}], Dialog)  # Literal roles are enforced
    assert isoftype(TABLE, parse_type_string("Table")) and not isoftype({"header": ["a"]}, Table)  # rows is required
    assert type_to_string(Dialog) == "Dialog" and type_to_string(List[Dialog]) == "List[Dialog]"


def test_doc_dialog_summarization_with_recipe_serializer_and_fixed_predictions():
    _, _, _, Dialog, _ = documented_types()
    DialogSerializer = documented_dialog_serializer(Dialog)

    dialog_summarization_task = Task(
        input_fields={"dialog": Dialog},
        reference_fields={"summary": str},
        prediction_type=str,
        metrics=["metrics.rouge"],
    )
    data = {
        "test": [
            {
                "dialog": [
                    {"role": "user", "content": "What is the time?"},
                    {"role": "system", "content": "4:13 PM"},
                ],
                "summary": "User asked for the time and got an answer.",
            }
        ]
    }
    card = TaskCard(loader=LoadFromDictionary(data=data), task=dialog_summarization_task)
    dataset = load_dataset(
        card=card,
        template=InputOutputTemplate(
            instruction="Summarize the following dialog.",
            input_format="{dialog}",
            output_format="{summary}",
        ),
        serializer=DialogSerializer(),
    )
    source = dataset["test"][0]["source"]
    assert source.rstrip("\n") == DOC_SOURCE  # print() shows exactly the documented text
    # the model is replaced by a fixed prediction
    results = evaluate(predictions=["User asked for the time and got an answer."], data=dataset["test"])
    assert results.global_scores["score_name"] == "rougeL" and results.global_scores["score"] == pytest.approx(1.0)


def test_doc_template_serializer_and_first_match_order():
    serializer = MultiTypeSerializer(
        serializers=[ImageSerializer(), TableSerializer(), BuiltinDialogSerializer(), ListSerializer()]
    )
    template = InputOutputTemplate(
        instruction="Summarize the following dialog.",
        input_format="{dialog}",
        output_format="{summary}",
        serializer=serializer,
    )
    rendered = template.render({"dialog": DIALOG}, {"summary": "s"})
    assert rendered["instruction"] + "\n" + rendered["source"] == DOC_SOURCE
    # a ListSerializer placed before the DialogSerializer serializes the dialog (a Dialog is also a List)
    list_first = MultiTypeSerializer(serializers=[ListSerializer(), BuiltinDialogSerializer()])
    assert list_first.serialize(DIALOG, {}) == '{"role": "user", "content": "What is the time?"}, ' \
                                               '{"role": "system", "content": "4:13 PM"}'


# ---------------------------------------------------------------- built-in types
def test_builtin_types_are_usable_as_task_field_strings():
    task = Task(input_fields={"dialog": "Dialog", "table": "Table", "docs": "List[Document]", "image": "Optional[Image]"},
                reference_fields={"answer": "Text"})
    instance = {"dialog": DIALOG, "table": TABLE, "docs": [{"title": "t", "body": "b"}], "image": None, "answer": "a"}
    assert task.process(dict(instance))["input_fields"]["table"] == TABLE
    with pytest.raises(InstanceTypeError, match="Table"):
        task.process(dict(instance, table={"header": ["a"]}))
    assert "Dialog" in json.dumps(task.to_dict())
    assert Artifact.from_dict(task.to_dict()).to_dict() == task.to_dict()


def test_builtin_names_do_not_replace_user_registrations():
    from unitxt.data_types import register_builtin_types

    class Mine(TypedDict):
        title: str

    register_type(Mine, "Document")
    register_builtin_types()
    assert parse_type_string("Document") is Mine
    register_type(Document)
    assert parse_type_string("Document") is Document


@pytest.mark.parametrize("tp, expected", [
    (Image, True), (List[Image], True), (Optional[Dict[str, Image]], True), ("List[Image]", True),
    (BuiltinDialog, False), (BuiltinTable, False), (str, False), ("Dict[str, int]", False),
])
def test_mentions_media_type(tp, expected):
    assert mentions_media_type(tp) is expected


def test_register_type_for_typing_constructs():
    Score = NewType("Score", float)
    Kind = Literal["a", "b"]

    class Pair(TypedDict):
        left: Score
        right: Union[int, str]

    register_type(Score)
    register_type(Kind, "Kind")
    register_type(Pair)
    assert isoftype(0.5, parse_type_string("Score")) and not isoftype("x", parse_type_string("Score"))
    assert isoftype("a", parse_type_string("Kind")) and not isoftype("c", parse_type_string("Kind"))
    pair = parse_type_string("Pair")
    assert isoftype({"left": 1.0, "right": "r"}, pair) and not isoftype({"left": 1.0, "right": 2.5}, pair)
    assert isoftype({"k": [{"left": 1, "right": 1}]}, parse_type_string("Dict[str, List[Pair]]"))
    assert isoftype([1, "x", None], parse_type_string("List[Any]"))


# ---------------------------------------------------------------- built-in serializers
def test_dialog_serializer_builtin():
    serializer = BuiltinDialogSerializer()
    dialog = DIALOG + [{"role": "assistant", "content": "Thanks"}]
    assert serializer.accepts(dialog) and not serializer.accepts("text") and not serializer.accepts(["a"])
    assert serializer.serialize(DIALOG, {}) == "user: What is the time?\nsystem: 4:13 PM"
    custom = BuiltinDialogSerializer(turn_format="[{role}] {content}", separator=" | ")
    assert custom.serialize(DIALOG, {}) == "[user] What is the time? | [system] 4:13 PM"


@pytest.mark.parametrize("layout, expected", [
    ("markdown", "| city | population |\n|---|---|\n| Paris | 2100000 |\n| Rome | 2800000 |"),
    ("csv", "city,population\nParis,2100000\nRome,2800000"),
    ("json", '[{"city": "Paris", "population": 2100000}, {"city": "Rome", "population": 2800000}]'),
    ("indexed_rows", "col : city | population\nrow 1 : Paris | 2100000\nrow 2 : Rome | 2800000"),
])
def test_table_serializer_layouts(layout, expected):
    serializer = TableSerializer(layout=layout)
    assert serializer.accepts(TABLE) and not serializer.accepts({"header": ["a"]})
    assert serializer.serialize(TABLE, {}) == expected


def test_table_serializer_options_and_validation():
    assert TableSerializer(layout="markdown", max_rows=1).serialize(TABLE, {}).count("\n") == 2
    assert TableSerializer(layout="markdown").serialize({"header": ["a"], "rows": [["x|y"], [None]]}, {}) == "| a |\n|---|\n| x\\|y |\n|  |"
    assert TableSerializer(layout="csv").serialize({"header": ["a"], "rows": [["x,y"]]}, {}) == 'a\n"x,y"'
    assert TableSerializer().layout == "csv"  # the original's only layout
    with pytest.raises(ArtifactDefinitionError, match="layout"):
        TableSerializer(layout="html")


def test_document_and_number_serializers():
    doc = {"title": "T", "body": "B"}
    assert DocumentSerializer().serialize(doc, {}) == "# T\n\nB"
    assert MultiDocumentSerializer().serialize([doc, doc], {}) == "# T\n\nB\n\n# T\n\nB"
    assert MultiDocumentSerializer().accepts([doc]) and not DocumentSerializer().accepts([doc])
    assert NumberSerializer(decimals=1).serialize(0.25, {}) == "0.2"


def test_image_serializer_moves_the_image_to_media():
    pytest.importorskip("PIL")
    from PIL import Image as PILImage

    image = PILImage.new("RGB", (3, 2), "red")
    instance: Dict[str, Any] = {}
    serializer = ImageSerializer()
    assert serializer.accepts(image) and not serializer.accepts("a string") and not serializer.accepts(b"bytes")
    assert serializer.serialize(image, instance) == '<img src="media/images/0">'
    assert serializer.serialize(image, instance) == '<img src="media/images/1">'
    assert instance["media"]["images"][0].startswith("data:image/png;base64,") and instance["media"]["audios"] == []


def test_builtin_serializers_round_trip_through_json(builtin_serializer_names):
    for serializer in (BuiltinDialogSerializer(separator=" / "), TableSerializer(layout="csv", max_rows=3),
                       ImageSerializer(), DocumentSerializer(), MultiTypeSerializer(serializers=[TableSerializer()])):
        data = serializer.to_dict()
        assert "serialized_type" not in data  # the type is the class's, not data
        restored = Artifact.from_dict(data)
        assert restored.to_dict() == data
        for value in (TABLE, DIALOG, [{"title": "t", "body": "b"}], 3):
            if serializer.accepts(value):
                assert restored.serialize(value, {}) == serializer.serialize(value, {})


# ---------------------------------------------------------------- template serializer vs recipe serializer
def _table_card():
    task = Task(input_fields={"table": "Table", "tags": "List[str]"}, reference_fields={"answer": str},
                prediction_type=str, metrics=["metrics.accuracy"])
    data = {"test": [{"table": TABLE, "tags": ["x", "y"], "answer": "Rome"}]}
    return TaskCard(loader=LoadFromDictionary(data=data), task=task)


def test_template_serializer_is_used_and_recipe_serializer_overrides_it():
    template = InputOutputTemplate(
        input_format="{table}\n{tags}", output_format="{answer}",
        serializer=MultiTypeSerializer(serializers=[TableSerializer(layout="csv"), ListSerializer(separator=" & ")]),
    )
    own = load_dataset(card=_table_card(), template=template, split="test")[0]["source"]
    assert own.startswith("city,population\nParis,2100000\nRome,2800000\nx & y")
    overridden = load_dataset(card=_table_card(), template=template, serializer=TableSerializer(layout="json"),
                              split="test")[0]["source"]
    assert overridden.startswith('[{"city": "Paris", "population": 2100000}, {"city": "Rome", "population": 2800000}]\n')
    assert "\nx & y" in overridden  # types the recipe serializer does not take still use the template's serializers
    several = load_dataset(card=_table_card(), template=template, split="test",
                           serializer=[TableSerializer(layout="indexed_rows"), ListSerializer(separator=" + ")])
    assert several[0]["source"].startswith("col : city | population\nrow 1 : Paris | 2100000")
    assert "\nx + y" in several[0]["source"]
    # the template object itself is unchanged
    assert type(template.serializer) is MultiTypeSerializer and len(template.serializer.serializers) == 2


def test_recipe_serializer_given_by_catalog_style_string(temp_catalog, builtin_serializer_names):
    from unitxt import add_to_catalog

    add_to_catalog(TableSerializer(layout="csv"), "serializers.table.csv", catalog_path=str(temp_catalog))
    template = InputOutputTemplate(input_format="{table}", output_format="{answer}")
    row = load_dataset(card=_table_card(), template=template, serializer="serializers.table.csv", split="test")[0]
    assert row["source"].startswith("city,population\n")
