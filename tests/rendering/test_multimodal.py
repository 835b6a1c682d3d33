"""Multimodal rows: images in task fields move to row media as data URLs, text refers to them by placeholder, chat
formats emit OpenAI content parts, datasets save to and load from Arrow; image augmentors need Pillow."""

import base64
import io
import json
import sys

import datasets
import pytest

from unitxt import load_dataset
from unitxt.card import TaskCard
from unitxt.data_types import Audio, Image, is_image_value
from unitxt.errors import InstanceTypeError, MissingRequirementError
from unitxt.operators.images import GrayScale, GridLines, ImageToText, WhiteNoise
from unitxt.image_utils import (
    clean_content_parts,
    content_parts,
    decode_image,
    encode_audio,
    encode_image,
    parse_data_url,
    to_content_parts,
)
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Copy
from unitxt.random_utils import InstanceRandom
from unitxt.recipe import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

PIL = pytest.importorskip("PIL")
from PIL import Image as PILImage  # noqa: E402

IMG0 = '<img src="media/images/0">'
IMG1 = '<img src="media/images/1">'


def draw(color, size=(6, 4)):
    """A small image drawn by the test."""
    image = PILImage.new("RGB", size, color)
    image.putpixel((0, 0), (1, 2, 3))
    return image


def png_bytes(color):
    buffer = io.BytesIO()
    draw(color).save(buffer, format="PNG")
    return buffer.getvalue()


def rgb(image):
    """The pixels of a PIL image as a list of (r, g, b) tuples."""
    import numpy as np

    return [tuple(int(v) for v in pixel) for pixel in np.asarray(image.convert("RGB")).reshape(-1, 3)]


def pixels(data_url):
    return rgb(decode_image(data_url))


COLORS = ["red", "green", "blue", "yellow"]


def vqa_task():
    return Task(input_fields={"image": "Image", "question": str}, reference_fields={"answer": str},
                prediction_type=str, metrics=["metrics.accuracy"], augmentable_inputs=["question"])


def vqa_card(image_maker=draw):
    data = {
        "train": [{"image": image_maker(color), "question": f"Color {i}?", "answer": color}
                  for i, color in enumerate(COLORS)],
        "test": [{"image": image_maker("white"), "question": "What color?", "answer": "white"},
                 {"image": image_maker("black"), "question": "Which color?", "answer": "black"}],
    }
    return TaskCard(loader=LoadFromDictionary(data=data), task=vqa_task())


TEMPLATE = InputOutputTemplate(input_format="{image}\n{question}", output_format="{answer}")


# ---------------------------------------------------------------- the Image type and encodings
def test_image_values_in_every_accepted_representation(tmp_path):
    path = tmp_path / "x.png"
    path.write_bytes(png_bytes("red"))
    url = encode_image(draw("red"))
    for value in (draw("red"), png_bytes("red"), {"bytes": png_bytes("red"), "path": None}, {"bytes": None,
                  "path": str(path)}, str(path), url, {"image": draw("red"), "format": "png"}):
        assert isinstance(value, Image) and is_image_value(value)
        encoded = encode_image(value)
        assert encoded.startswith("data:image/png;base64,")
        assert pixels(encoded) == pixels(url)
    for value in ("red.png", "plain text", b"not an image", {"bytes": b"xx"}, 3, None, [draw("red")]):
        assert not isinstance(value, Image)
    with pytest.raises(InstanceTypeError):
        encode_image("plain text")


def test_jpeg_keeps_its_format_and_audio_encodes_as_wav():
    buffer = io.BytesIO()
    draw("red").save(buffer, format="JPEG")
    assert encode_image(buffer.getvalue()).startswith("data:image/jpeg;base64,")
    assert encode_image(PILImage.open(io.BytesIO(buffer.getvalue()))).startswith("data:image/jpeg;base64,")
    clip = {"array": [0.0, 0.5, -0.5, 1.0], "sampling_rate": 8000}
    assert isinstance(clip, Audio)
    mime, data = parse_data_url(encode_audio(clip))
    assert mime == "audio/wav" and data[:4] == b"RIFF" and data[8:12] == b"WAVE"


def test_task_checks_image_fields():
    task = vqa_task()
    assert task.process({"image": draw("red"), "question": "q", "answer": "a"})["input_fields"]["question"] == "q"
    with pytest.raises(InstanceTypeError, match="Image"):
        task.process({"image": "not an image", "question": "q", "answer": "a"})


# ---------------------------------------------------------------- rows: media + placeholders, Arrow round trip
def test_text_rows_move_images_to_media_and_survive_arrow():
    dataset = load_dataset(card=vqa_card(), template=TEMPLATE, split="test")  # saved to Arrow and read back
    row = dataset[0]
    assert row["source"] == f"{IMG0}\nWhat color?\n"
    assert len(row["media"]["images"]) == 1 and row["media"]["audios"] == []
    assert pixels(row["media"]["images"][0]) == rgb(draw("white"))
    task_data = json.loads(row["task_data"])
    # rows keep the image as a data URL in task_data; the saved row's media holds it as datasets.Image stores it
    # ({"bytes", "path"}), which datasets.Image().decode_example reads (as lm-evaluation-harness does)
    assert row["media"]["images"][0] == {"bytes": parse_data_url(task_data["image"])[1], "path": None}
    assert task_data["question"] == "What color?"
    import datasets

    assert rgb(datasets.Image().decode_example(row["media"]["images"][0])) == rgb(draw("white"))
    assert row["references"] == ["white"]


def test_images_given_as_bytes_and_hf_dicts_give_the_same_rows():
    from_pil = load_dataset(card=vqa_card(), template=TEMPLATE, split="test")
    from_bytes = load_dataset(card=vqa_card(png_bytes), template=TEMPLATE, split="test")
    from_dicts = load_dataset(card=vqa_card(lambda c: {"bytes": png_bytes(c), "path": None}), template=TEMPLATE,
                              split="test")
    assert from_pil[0]["source"] == from_bytes[0]["source"] == from_dicts[0]["source"]
    assert pixels(from_pil[1]["media"]["images"][0]) == pixels(from_dicts[1]["media"]["images"][0])


def test_demo_images_are_renumbered_after_the_instance_images():
    dataset = load_dataset(card=vqa_card(), template=TEMPLATE, split="test", num_demos=2, demos_pool_size=4,
                           format="formats.user_agent")
    for row in dataset:
        images = row["media"]["images"]
        assert len(images) == 3
        source = row["source"]
        assert source.count("<img") == 3 and all(f'media/images/{i}"' in source for i in range(3))
        # the query's own image is 0 and sits in the last (query) turn; each demo's image matches its answer
        assert source.rindex(IMG0) > source.rindex("Agent:", 0, len(source) - 8)
        for index in (1, 2):
            after = source.split(f'<img src="media/images/{index}">', 1)[1]
            answer = after.split("Agent: ", 1)[1].split("\n", 1)[0]
            assert answer in COLORS and pixels(images[index]) == rgb(draw(answer))


def test_chat_rows_use_openai_content_parts_and_survive_arrow():
    recipe = DatasetRecipe(card=vqa_card(), template=TEMPLATE, format="formats.chat_api", num_demos=1,
                           demos_pool_size=4)
    assert recipe.produces_chat_source() and recipe.produces_media()
    in_memory = list(recipe()["test"])
    dataset = load_dataset(recipe, split="test")
    assert clean_content_parts(dataset[0]["source"]) == in_memory[0]["source"]
    messages = in_memory[0]["source"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    query = messages[-1]["content"]
    assert query[0] == {"type": "image_url", "image_url": {"url": in_memory[0]["media"]["images"][0]}}
    assert query[1] == {"type": "text", "text": "\nWhat color?"}
    assert messages[1]["content"] == [{"type": "text", "text": in_memory[0]["source"][1]["content"][0]["text"]}]
    assert messages[0]["content"][0]["image_url"]["url"] == in_memory[0]["media"]["images"][1]
    # stored as the messages' JSON text (as the original), so a part keeps only its own keys; read back decoded
    assert dataset[0]["source"] == in_memory[0]["source"]
    assert dataset.features["source"] == datasets.Value("string")
    assert json.loads(dataset.to_dict()["source"][0]) == in_memory[0]["source"]


def test_image_to_text_operator_in_the_card():
    operator = ImageToText(field="image", to_field="context")
    instance = operator.process_instance({"image": draw("red"), "question": "q"})
    assert instance["context"] == IMG0 and instance["media"]["images"][0].startswith("data:image/png")
    with pytest.raises(InstanceTypeError, match="not an image"):
        operator.process_instance({"image": "text"})

    data = {"test": [{"image": draw(color), "question": "What color?", "answers": [color]} for color in COLORS]}
    card = TaskCard(
        loader=LoadFromDictionary(data=data),
        preprocess_steps=[ImageToText(field="image", to_field="context"), Copy(field="question", to_field="q")],
        task=Task(input_fields={"context": str, "question": str}, reference_fields={"answers": "List[str]"},
                  prediction_type=str, metrics=["metrics.accuracy"]),
    )
    template = InputOutputTemplate(input_format="{context}\n{question}", output_format="{answers}")
    recipe = DatasetRecipe(card=card, template=template, format="formats.chat_api")
    assert recipe.produces_media()  # detected from the ImageToText step
    rows = load_dataset(recipe, split="test")
    first = clean_content_parts(rows[0]["source"])
    assert first[0]["content"][0]["type"] == "image_url"
    assert pixels(first[0]["content"][0]["image_url"]["url"]) == rgb(draw("red"))
    text_rows = load_dataset(card=card, template=template, split="test")
    assert text_rows[0]["source"].startswith(IMG0) and len(text_rows[0]["media"]["images"]) == 1


def test_content_parts_helpers():
    media = {"images": ["data:image/png;base64,AAAA"], "audios": [encode_audio(b"RIFF\x00\x00\x00\x00WAVEfmt ")]}
    parts = content_parts(f"a {IMG0} b <audio src=\"media/audios/0\"> c {IMG1}", media)
    assert [part["type"] for part in parts] == ["text", "image_url", "text", "input_audio", "text"]
    assert parts[3]["input_audio"]["format"] == "wav"
    assert parts[-1]["text"] == f" c {IMG1}"  # a placeholder without media stays text
    assert content_parts("plain", None) == [{"type": "text", "text": "plain"}]
    messages = to_content_parts([{"role": "user", "content": IMG0}], media)
    assert messages == [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": media["images"][0]}}]}]


def test_text_only_chat_recipes_keep_string_contents():
    card = TaskCard(loader=LoadFromDictionary(data={"test": [{"question": "q", "answer": "a"}]}),
                    task=Task(input_fields={"question": str}, reference_fields={"answer": str},
                              metrics=["metrics.accuracy"]))
    row = load_dataset(card=card, template=InputOutputTemplate(input_format="{question}", output_format="{answer}"),
                       format="formats.chat_api", split="test")[0]
    assert row["source"] == [{"role": "user", "content": "q"}]


# ---------------------------------------------------------------- image augmentors
@pytest.mark.parametrize("augmentor", [WhiteNoise(std=40.0), GridLines(spacing=2), GrayScale()])
def test_image_augmentors_change_images_reproducibly(augmentor):
    original = encode_image(draw("red", size=(8, 8)))
    instance = {"input_fields": {"image": original, "question": "q"}, "reference_fields": {"answer": "red"},
                "media": {"images": [original], "audios": []}}
    first = augmentor.augment_instance(instance, vqa_task(), InstanceRandom("seed"))
    second = augmentor.augment_instance(instance, vqa_task(), InstanceRandom("seed"))
    assert first == second and instance["input_fields"]["image"] == original  # no mutation
    assert pixels(first["media"]["images"][0]) != pixels(original)
    assert pixels(first["input_fields"]["image"]) != pixels(original)
    assert first["input_fields"]["question"] == "q" and first["reference_fields"] == {"answer": "red"}
    if isinstance(augmentor, GrayScale):
        assert all(r == g == b for r, g, b in pixels(first["media"]["images"][0]))


def test_image_augmentor_in_a_recipe_from_the_catalog():
    plain = load_dataset(card=vqa_card(), template=TEMPLATE, split="test")
    noisy = load_dataset(card=vqa_card(), template=TEMPLATE, split="test", augmentor="augmentors.image.white_noise")
    again = load_dataset(card=vqa_card(), template=TEMPLATE, split="test", augmentor="augmentors.image.white_noise")
    assert noisy[0]["source"] == plain[0]["source"]
    assert noisy[0]["media"]["images"] == again[0]["media"]["images"] != plain[0]["media"]["images"]
    gray = load_dataset(card=vqa_card(), template=TEMPLATE, split="test", augmentor="augmentors.image.gray_scale")
    assert all(r == g == b for r, g, b in pixels(gray[1]["media"]["images"][0]))
    grid = load_dataset(card=vqa_card(), template=TEMPLATE, split="test", augmentor="augmentors.image.grid_lines")
    assert pixels(grid[0]["media"]["images"][0]) != pixels(plain[0]["media"]["images"][0])


def test_image_augmentors_say_pillow_is_needed(monkeypatch):
    url = encode_image(draw("red"))
    for name in [module for module in sys.modules if module == "PIL" or module.startswith("PIL.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "PIL", None)  # `import PIL` now fails as if Pillow were not installed
    instance = {"input_fields": {"question": "q"}, "reference_fields": {}, "media": {"images": [url], "audios": []}}
    with pytest.raises(MissingRequirementError, match="pip install pillow"):
        WhiteNoise().augment_instance(instance, None, InstanceRandom("x"))
    with pytest.raises(MissingRequirementError, match="pip install pillow"):
        decode_image(url)
    # encoding bytes and files needs no Pillow
    assert encode_image(base64.b64decode(url.split(",", 1)[1])) == url


def test_chat_format_used_directly_emits_content_parts():
    from unitxt.formats import ChatAPIFormat

    url = encode_image(draw("red"))
    instance = {"source": f"{IMG0}\nWhat color?", "instruction": "Answer briefly.",
                "media": {"images": [url], "audios": []}}
    messages = ChatAPIFormat().process_instance(instance)["source"]
    assert messages == [
        {"role": "system", "content": [{"type": "text", "text": "Answer briefly."}]},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}},
                                     {"type": "text", "text": "\nWhat color?"}]},
    ]
    assert ChatAPIFormat().process_instance({"source": "hi"})["source"] == [{"role": "user", "content": "hi"}]


def test_undetected_media_in_chat_rows_stays_text(caplog):
    data = {"test": [{"image": draw("red"), "question": "q", "answer": "a"}]}
    card = TaskCard(loader=LoadFromDictionary(data=data),
                    preprocess_steps=[Copy(field="image", to_field="raw")],
                    task=Task(input_fields={"raw": str, "question": str}, reference_fields={"answer": str},
                              metrics=["metrics.accuracy"]))
    card.preprocess_steps.append(_UntaggedImageMover(field="raw"))
    recipe = DatasetRecipe(card=card, template=InputOutputTemplate(input_format="{raw} {question}",
                                                                   output_format="{answer}"),
                           format="formats.chat_api")
    assert not recipe.produces_media()
    row = load_dataset(recipe, split="test")[0]  # the string-content schema still fits
    assert row["source"] == [{"role": "user", "content": f"{IMG0} q"}] and len(row["media"]["images"]) == 1


class _UntaggedImageMover(ImageToText):
    """An ImageToText the schema detection does not know about."""

    produces_media = False


# ---------------------------------------------------------------- multimodality.rst: the DocVQA card on a local mirror
def _doc_vqa_mirror(root):
    """A local folder in the Hub layout of "cmarkea/doc-vqa": images (HF Image feature) with nested QA pairs."""
    import datasets

    features = datasets.Features({
        "id": datasets.Value("string"),
        "image": datasets.Image(),
        "qa": {"en": [{"question": datasets.Value("string"), "answer": datasets.Value("string")}],
               "fr": [{"question": datasets.Value("string"), "answer": datasets.Value("string")}]},
    })
    folder = root / "cmarkea" / "doc-vqa"
    (folder / "data").mkdir(parents=True)
    for split, count in (("train", 20), ("test", 4)):
        rows = {"id": [], "image": [], "qa": []}
        for index in range(count):
            color = COLORS[index % len(COLORS)]
            rows["id"].append(f"{split}-{index}")
            rows["image"].append(draw(color))
            rows["qa"].append({"en": [{"question": "Which color is the page?", "answer": color},
                                      {"question": "How many pixels are dark?", "answer": "one"}],
                               "fr": [{"question": "Quelle couleur ?", "answer": color}]})
        datasets.Dataset.from_dict(rows, features=features).to_parquet(str(folder / "data" / f"{split}.parquet"))
    (folder / "README.md").write_text(
        "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: train\n    path: data/train.parquet\n"
        "  - split: test\n    path: data/test.parquet\n---\n# doc-vqa local mirror\n", encoding="utf-8")


def test_doc_multimodality_card_and_evaluation(tmp_path, monkeypatch):
    import datasets

    _doc_vqa_mirror(tmp_path)
    monkeypatch.chdir(tmp_path)
    # a private datasets cache: other tests mirror "cmarkea/doc-vqa" too, and datasets fingerprints local data files
    # by relative path and modification time only
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf_datasets_cache")

    from unitxt.blocks import LoadHF, Set, TaskCard
    from unitxt.collections_operators import Explode, Wrap
    from unitxt.operators.images import ImageToText
    from unitxt.operators import Copy

    card = TaskCard(
        loader=LoadHF(path="cmarkea/doc-vqa"),
        preprocess_steps=[
            "splitters.small_no_dev",
            Explode(field="qa/en", to_field="pair"),
            Copy(field="pair/question", to_field="question"),
            Copy(field="pair/answer", to_field="answers"),
            Wrap(field="answers", inside="list"),
            Set(fields={"context_type": "image"}),
            ImageToText(field="image", to_field="context"),
        ],
        task="tasks.qa.with_context.abstractive",
        templates="templates.qa.with_context.all",
    )
    from unitxt.api import evaluate, load_dataset

    dataset = load_dataset(
        card=card,
        template="templates.qa.with_context.title",
        format="formats.models.llava_interleave",
        loader_limit=30,
        split="test",
    )
    dataset = dataset.select(range(5))
    first = dataset[0]
    assert IMG0 in first["source"] and first["source"].startswith("<|im_start|>system\n")
    assert pixels(first["media"]["images"][0]) == rgb(draw(COLORS[0]))
    # the model is replaced by fixed predictions
    predictions = [row["references"][0] if index % 2 == 0 else "no idea" for index, row in enumerate(dataset)]
    results = evaluate(predictions=predictions, data=dataset)
    assert results.global_scores["score_name"] == "rougeL"
    assert 0.5 <= results.global_scores["score"] < 1.0
    assert "rougeL" in results.global_scores.summary and len(results.instance_scores) == 5
