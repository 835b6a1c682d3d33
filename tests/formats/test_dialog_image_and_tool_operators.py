"""Dialog operators, image field operators and augmentors, tokenizer formats, tool operators and the data types of
the original catalog format."""

import base64
import importlib.util
import io

import pytest

from unitxt.artifact import from_serializable
from unitxt.operators.dialog import (
    InterleaveListsToDialogOperator,
    IobExtractor,
    SerializeDialog,
    SerializeOpenAiFormatDialog,
    ToDialog,
)
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.formats import SystemFormat
from unitxt.formats_tokenizer import GraniteDocumentsFormat, HFSystemFormat
from unitxt.operators.images import DecodeImage, HashImage, Oldify, PixelNoise, ToImage, ToRGB
from unitxt.operators.external import FixJsonSchemaOfParameterTypes, ReadFile, WikipediaFetcher, type_name_to_schema
from unitxt.random_utils import InstanceRandom
from unitxt.type_utils import make_checker, to_type

USER_ASSISTANT = SystemFormat(demo_format="User: {source}\nAgent: {target_prefix}{target}\n\n",
                              model_input_format="{demos}User: {source}\nAgent: {target_prefix}")


def test_to_dialog_and_interleave():
    assert ToDialog(field="d").process_value([["q1", "a1"], ["q2", "a2"]]) == [
        {"role": "user", "content": "q1"}, {"role": "agent", "content": "a1"},
        {"role": "user", "content": "q2"}, {"role": "agent", "content": "a2"}]
    dialog = InterleaveListsToDialogOperator(user_turns_field="u", assistant_turns_field="a", to_field="d")
    assert dialog.process_instance({"u": ["q1", "q2"], "a": ["a1"]})["d"] == [["user", "q1"], ["assistant", "a1"],
                                                                             ["user", "q2"]]
    with pytest.raises(UnitxtError, match="one more"):
        dialog.process_instance({"u": ["q1"], "a": ["a1", "a2"]})


def test_serialize_dialog_with_format_layout_context_and_last_response():
    operator = SerializeDialog(field="dialog", to_field="context", format=USER_ASSISTANT, context_field="story",
                               last_response_to_field="completion")
    result = operator.process_instance({"story": "Once.", "dialog": [{"user": "Who?", "system": "Ann"},
                                                                     {"user": "Where?", "system": "Rome"}]})
    assert result["context"] == "Once. Who?\nAgent: Ann\n\nUser: Where?"
    assert result["completion"] == "Rome"
    full = SerializeDialog(field="dialog", format=USER_ASSISTANT).process_instance(
        {"dialog": [{"user": "Hi", "system": "Hello"}]})
    assert full["dialog"] == "Hi\nAgent: Hello"


def test_serialize_openai_format_dialog_merges_and_pairs_turns():
    operator = SerializeOpenAiFormatDialog(field="dialog", to_field="question", format=USER_ASSISTANT,
                                           last_response_to_field="dummy")
    dialog = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"},
              {"role": "assistant", "content": "c"}, {"role": "user", "content": "d"}]
    result = operator.process_instance({"dialog": dialog})
    assert result["question"] == "a b\nAgent: c\n\nUser: d" and result["dummy"] == ""
    with pytest.raises(UnitxtError, match="start with a user turn"):
        operator.process_instance({"dialog": [{"role": "assistant", "content": "x"}]})


def test_iob_extractor():
    operator = IobExtractor(labels=["Person", "Location"], begin_labels=["B-PER", "B-LOC"],
                            inside_labels=["I-PER", "I-LOC"], outside_label="O")
    result = operator.process_instance({"text": "Ann Lee went to New York", "tokens": ["Ann", "Lee", "went", "to",
                                                                                        "New", "York"],
                                        "labels": ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC"]})
    assert result["spans"] == [{"start": 0, "end": 7, "label": "Person", "text": "Ann Lee"},
                               {"start": 16, "end": 24, "label": "Location", "text": "New York"}]


def png_bytes(color=(255, 0, 0), size=(4, 4)):
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def test_image_field_operators():
    from PIL import Image

    decoded = DecodeImage(field="image").process_value(base64.b64encode(png_bytes()).decode())
    assert decoded.size == (4, 4) and decoded.getpixel((0, 0)) == (255, 0, 0)
    wrapped = ToImage(field="image").process_value(decoded)
    assert wrapped["format"] == "PNG" and wrapped["image"] is decoded
    assert ToImage(field="image").process_value(Image.new("L", (2, 2)))["format"] == "JPEG"
    import hashlib

    assert HashImage(field="image").process_value(decoded) == hashlib.md5(decoded.tobytes()).hexdigest()
    gray = {"image": Image.new("L", (2, 2), 7), "format": "PNG"}
    assert ToRGB(field="image").process_value(gray)["image"].getpixel((0, 0)) == (7, 7, 7)


def test_image_augmentors_are_seeded():
    from PIL import Image

    image = Image.new("RGB", (8, 8), (100, 100, 100))
    noisy = PixelNoise(noise_rate=0.5).augment_image(image, InstanceRandom("s"))
    again = PixelNoise(noise_rate=0.5).augment_image(image, InstanceRandom("s"))
    assert noisy.tobytes() == again.tobytes() and noisy.tobytes() != image.tobytes()
    assert PixelNoise(noise_rate=0.0).augment_image(image, InstanceRandom("s")).tobytes() == image.tobytes()
    old = Oldify(noise_strength=0).augment_image(image, InstanceRandom("s"))
    red, green, blue = old.getpixel((4, 4))
    assert red > blue  # the yellow tint
    assert from_serializable({"__type__": "oldify"}).tint_strength == 0.4


def test_tokenizer_formats_load_and_explain_the_missing_package():
    hf_format = from_serializable({"__type__": "hf_system_format", "model_name": "ibm-granite/granite-3.1-2b-instruct"})
    granite = GraniteDocumentsFormat()
    assert isinstance(hf_format, HFSystemFormat) and granite.citations is True
    if importlib.util.find_spec("transformers") is None:
        with pytest.raises(MissingRequirementError, match="pip install transformers"):
            hf_format.process_instance({"source": "hi", "instruction": "", "target_prefix": "", "demos": []})


def test_tool_operators(tmp_path):
    assert type_name_to_schema("List[int]") == {"type": "array", "items": {"type": "integer"}}
    assert type_name_to_schema("str, optional") == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert type_name_to_schema("int, default=3") == {"type": "integer", "default": "3"}
    assert type_name_to_schema("Union[int, str]") == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    tools = [{"name": "f", "parameters": {"type": "dict", "properties": {"x": {"type": "float"}}}}]
    fixed = FixJsonSchemaOfParameterTypes(main_field="tools").process_instance({"tools": tools})
    assert fixed["tools"][0]["parameters"] == {"type": "object", "properties": {"x": {"type": "number"}}}
    path = tmp_path / "t.txt"
    path.write_text("table text", encoding="utf-8")
    assert ReadFile(field="url", to_field="content").process_instance({"url": str(path)})["content"] == "table text"
    fetcher = WikipediaFetcher(field="context")
    if importlib.util.find_spec("wikipediaapi") is None:
        with pytest.raises(MissingRequirementError, match="Wikipedia-API"):
            fetcher.process_value("https://en.wikipedia.org/wiki/Rome")


def test_tool_rag_and_sql_types_are_registered():
    tool = {"name": "f", "description": "d", "parameters": {"type": "object"}}
    assert make_checker(to_type("List[Tool]"))([tool, dict(tool, type="function")])
    assert not make_checker(to_type("Tool"))({"name": "f"})
    assert make_checker(to_type("ToolCall"))({"name": "f", "arguments": {"x": 1}})
    assert make_checker(to_type("RagResponse"))({"answer": "a", "contexts": ["c"], "context_ids": [1],
                                                 "is_answerable": True})
    assert make_checker(to_type("SQLDatabase"))({"db_type": "in_memory", "data": {}})
    assert not make_checker(to_type("SQLDatabase"))({"db_type": "cloud"})
    assert make_checker(to_type("Conversation"))({"id": "1", "dialog": [{"role": "user", "content": "hi"}]})
    assert make_checker(to_type("ToolOutputTurn"))({"role": "tool", "tool_call_id": "1", "name": "f", "content": "x"})
