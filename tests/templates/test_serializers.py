"""Serializers, including the examples of types_and_serializers.rst."""

from typing import Any, Dict, List, Literal, NewType, TypedDict

import pytest

from unitxt.artifact import Artifact
from unitxt.errors import ArtifactDefinitionError
from unitxt.serializers import (
    DefaultSerializer,
    ListSerializer,
    MultiTypeSerializer,
    NumberSerializer,
    Serializer,
    SingleTypeSerializer,
    default_serialize,
    serialize_value,
)
from unitxt.templates import InputOutputTemplate
from unitxt.type_utils import register_type

# ---------------------------------------------------------------- the documented custom types
Text = NewType("Text", str)


class Turn(TypedDict):
    role: Literal["system", "user", "agent"]
    content: Text


Dialog = NewType("Dialog", List[Turn])


class Table(TypedDict):
    header: List[str]
    rows: List[List[Any]]


for _type in (Text, Turn, Dialog, Table):
    register_type(_type)


# Named apart from the library's DialogSerializer / TableSerializer: a class defined here would take over their
# artifact type names for the whole test session.
class DocDialogSerializer(SingleTypeSerializer):
    serialized_type = Dialog

    def serialize(self, value: Dialog, instance: Dict[str, Any]) -> str:
        return "\n".join(f"{turn['role']}: {turn['content']}" for turn in value)


class DocTableSerializer(SingleTypeSerializer):
    serialized_type = Table

    def serialize(self, value: Table, instance: Dict[str, Any]) -> str:
        lines = [" | ".join(value["header"])] + [" | ".join(map(str, row)) for row in value["rows"]]
        return "\n".join(lines)


DIALOG = [{"role": "user", "content": "What is the time?"}, {"role": "system", "content": "4:13 PM"}]


# ---------------------------------------------------------------- default rules
@pytest.mark.parametrize(
    "value, expected",
    [
        ("text", "text"),
        (3, "3"),
        (0.5, "0.5"),
        (True, "True"),
        (["happy", "angry"], "happy, angry"),
        ([1, 2.5, "x"], "1, 2.5, x"),
        (("a", "b"), "a, b"),
        ({"a": 1, "b": ["é"]}, '{"a": 1, "b": ["é"]}'),
        ([], ""),
    ],
)
def test_default_serializer(value, expected):
    assert default_serialize(value) == expected


@pytest.mark.parametrize("value", ["text", 3, 0.5, ["happy", "angry"], {"key": "value"}])
def test_default_serializer_class_uses_str_as_the_original(value):
    assert DefaultSerializer().serialize(value, {}) == str(value)


def test_single_type_serializer_accepts_only_its_type():
    serializer = DocDialogSerializer()
    assert serializer.accepts(DIALOG)
    assert not serializer.accepts("text")
    assert not serializer.accepts([{"role": "robot", "content": "x"}])  # Literal role
    assert serializer.serialize(DIALOG, {}) == "user: What is the time?\nsystem: 4:13 PM"


def test_single_type_serializer_needs_a_type_and_accepts_type_strings():
    with pytest.raises(ArtifactDefinitionError, match="serialized_type"):
        SingleTypeSerializer()
    by_name = SingleTypeSerializer("List[int]")
    assert by_name.accepts([1, 2]) and not by_name.accepts(["a"])
    assert by_name.serialize([1, 2], {}) == "1, 2"
    with pytest.raises(ArtifactDefinitionError):
        SingleTypeSerializer(serialized_type="NoSuchType")


def test_list_serializer():
    assert ListSerializer().accepts(["a"]) and ListSerializer().accepts(("a",))
    assert not ListSerializer().accepts("a")
    assert ListSerializer().serialize(["a", 1], {}) == "a, 1"
    assert ListSerializer(separator=" | ").serialize(["a", "b"], {}) == "a | b"


def test_number_serializer():
    serializer = NumberSerializer()
    assert serializer.accepts(3) and serializer.accepts(2.5)
    assert not serializer.accepts(True) and not serializer.accepts("3")
    assert serializer.serialize(3, {}) == "3"
    assert serializer.serialize(2.5, {}) == "2.5"
    assert NumberSerializer(decimals=2).serialize(0.5, {}) == "0.50"
    assert NumberSerializer(decimals=2).serialize(7, {}) == "7"


def test_multi_type_serializer_first_match_wins():
    dialog_first = MultiTypeSerializer(serializers=[DocDialogSerializer(), ListSerializer(separator=" ; ")])
    assert dialog_first.serialize(DIALOG, {}) == "user: What is the time?\nsystem: 4:13 PM"
    assert dialog_first.serialize(["a", "b"], {}) == "a ; b"
    list_first = MultiTypeSerializer(serializers=[ListSerializer(separator=" ; "), DocDialogSerializer()])
    assert list_first.serialize(["a", "b"], {}) == "a ; b"
    assert list_first.serialize(DIALOG, {}).startswith('{"role": "user"')  # the list serializer took the dialog


def test_multi_type_serializer_falls_back_to_default_rules():
    serializer = MultiTypeSerializer(serializers=[DocDialogSerializer()])
    assert serializer.serialize(4, {}) == "4"
    assert serializer.serialize({"k": "v"}, {}) == "{'k': 'v'}"  # called directly: str(value), as the original
    assert not serializer.accepts({"k": "v"})
    assert serialize_value(serializer, {"k": "v"}, {}) == '{"k": "v"}'  # what a template does: the default rules


def test_serialize_value_falls_back_when_not_accepted():
    assert serialize_value(DocDialogSerializer(), "plain", {}) == "plain"
    assert serialize_value(None, [1, 2], {}) == "1, 2"
    assert serialize_value(NumberSerializer(decimals=1), 0.25, {}) == "0.2"


def test_serializer_receives_the_instance():
    class Recording(Serializer):
        def serialize(self, value, instance):
            instance.setdefault("seen", []).append(value)
            return f"<{value}>"

    template = InputOutputTemplate(input_format="{x}", output_format="", serializer=Recording())
    instance = {"input_fields": {"x": "v"}, "reference_fields": {}}
    template.process(instance)
    assert instance["source"] == "<v>" and instance["seen"] == ["v"]


# ---------------------------------------------------------------- types_and_serializers.rst
def test_doc_dialog_serializer_in_template():
    template = InputOutputTemplate(
        instruction="Summarize the following dialog.",
        input_format="{dialog}",
        output_format="{summary}",
        serializer=DocDialogSerializer(),
    )
    rendered = template.render({"dialog": DIALOG}, {"summary": "User asked for the time and got an answer."})
    assert rendered["instruction"] == "Summarize the following dialog."
    assert rendered["source"] == "user: What is the time?\nsystem: 4:13 PM"
    assert rendered["target"] == "User asked for the time and got an answer."


def test_doc_multi_type_serializer_in_template():
    serializer = MultiTypeSerializer(serializers=[DocTableSerializer(), DocDialogSerializer(), ListSerializer()])
    template = InputOutputTemplate(
        instruction="Summarize the following dialog.",
        input_format="{dialog}\n{table}\n{tags}",
        output_format="{summary}",
        serializer=serializer,
    )
    table = {"header": ["a", "b"], "rows": [[1, 2]]}
    rendered = template.render({"dialog": DIALOG, "table": table, "tags": ["x", "y"]}, {"summary": "s"})
    assert rendered["source"] == "user: What is the time?\nsystem: 4:13 PM\na | b\n1 | 2\nx, y"


# ---------------------------------------------------------------- JSON round trip
@pytest.mark.parametrize(
    "serializer",
    [
        DefaultSerializer(),
        ListSerializer(),
        ListSerializer(separator="; "),
        NumberSerializer(decimals=3),
        SingleTypeSerializer(serialized_type="List[str]"),
        SingleTypeSerializer(serialized_type=List[int]),
        DocDialogSerializer(),
        MultiTypeSerializer(serializers=[DocDialogSerializer(), ListSerializer(), NumberSerializer()]),
    ],
)
def test_round_trip(serializer):
    data = serializer.to_dict()
    restored = Artifact.from_dict(data)
    assert type(restored) is type(serializer)
    assert restored == serializer
    assert Artifact.from_json(serializer.to_json()) == serializer
    for value in (["a", "b"], DIALOG, 2.5):
        assert serialize_value(restored, value, {}) == serialize_value(serializer, value, {})
