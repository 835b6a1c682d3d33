"""benchmark.rst: benchmarks of recipes (and of benchmarks), settings propagation, subset paths, per-subset scores
with subsets_mean, catalog round trip and `load_dataset("benchmarks.glue[...]")` (GLUE cards on a local mirror)."""

import json

import pytest

from unitxt import add_to_catalog, evaluate, load_dataset
from unitxt.benchmark import Benchmark
from unitxt.card import TaskCard
from unitxt.errors import RecipeError
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Set
from unitxt.recipe import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

from tests.support.recipe_fixtures import WORDS

GLUE_CLASSES = {
    "cola": ["unacceptable", "acceptable"], "sst2": ["negative", "positive"],
    "mnli": ["entailment", "neutral", "contradiction"], "mrpc": ["not equivalent", "equivalent"],
    "qnli": ["entailment", "not entailment"], "rte": ["entailment", "not entailment"],
    "wnli": ["not entailment", "entailment"],
}
DOC_SUBSETS = ["cola", "mnli", "mrpc", "qnli", "rte", "sst2", "stsb", "wnli"]


def _text(name, split, index, offset=0):
    return " ".join(WORDS[(index * 7 + offset + k) % len(WORDS)] for k in range(6)) + f" ({name}/{split}/{index})"


def small_glue_card(name, rows=8):
    """A tiny in-test card with the task fields of the GLUE card `cards.<name>`."""
    if name == "stsb":
        data = {split: [{"text1": _text(name, split, i), "text2": _text(name, split, i, 3),
                         "attribute_value": float(i % 5)} for i in range(rows)] for split in ("train", "test")}
        return TaskCard(loader=LoadFromDictionary(data=data, data_classification_policy=["public"]),
                        task="tasks.regression.two_texts.similarity")
    classes = GLUE_CLASSES[name]
    if name in ("cola", "sst2"):
        data = {split: [{"text": _text(name, split, i), "label": classes[i % len(classes)]} for i in range(rows)]
                for split in ("train", "test")}
        return TaskCard(loader=LoadFromDictionary(data=data, data_classification_policy=["public"]),
                        preprocess_steps=[Set(fields={"classes": classes, "text_type": "sentence",
                                                      "type_of_class": "label"})],
                        task="tasks.classification.multi_class")
    data = {split: [{"text_a": _text(name, split, i), "text_b": _text(name, split, i, 2),
                     "label": classes[i % len(classes)]} for i in range(rows)] for split in ("train", "test")}
    return TaskCard(loader=LoadFromDictionary(data=data, data_classification_policy=["public"]),
                    preprocess_steps=[Set(fields={"classes": classes, "type_of_relation": "entailment",
                                                  "text_a_type": "premise", "text_b_type": "hypothesis"})],
                    task="tasks.classification.multi_class.relation")


@pytest.fixture
def glue_cards(temp_catalog):
    """cards.cola ... cards.wnli as small in-test cards (the temp catalog takes precedence over the library)."""
    for name in DOC_SUBSETS:
        add_to_catalog(small_glue_card(name), f"cards.{name}", catalog_path=str(temp_catalog), overwrite=True)
    return temp_catalog


def documented_benchmark():
    """The benchmark of the guide, as written."""
    from unitxt.benchmark import Benchmark
    from unitxt.standard import DatasetRecipe

    benchmark = Benchmark(
        format="formats.user_agent",
        max_samples_per_subset=5,
        loader_limit=300,
        subsets={
            "cola": DatasetRecipe(card="cards.cola", template="templates.classification.multi_class.instruction"),
            "mnli": DatasetRecipe(card="cards.mnli", template="templates.classification.multi_class.relation.default"),
            "mrpc": DatasetRecipe(card="cards.mrpc", template="templates.classification.multi_class.relation.default"),
            "qnli": DatasetRecipe(card="cards.qnli", template="templates.classification.multi_class.relation.default"),
            "rte": DatasetRecipe(card="cards.rte", template="templates.classification.multi_class.relation.default"),
            "sst2": DatasetRecipe(card="cards.sst2", template="templates.classification.multi_class.title"),
            "stsb": DatasetRecipe(card="cards.stsb", template="templates.regression.two_texts.title"),
            "wnli": DatasetRecipe(card="cards.wnli", template="templates.classification.multi_class.relation.default"),
        },
    )
    return benchmark


def fixed_predictions(rows):
    """Stand-in for the model: right on even rows, wrong on odd rows."""
    predictions = []
    for index, row in enumerate(rows):
        data = json.loads(row["task_data"])
        if "attribute_value" in data:
            value = data["attribute_value"]
            predictions.append(str(value if index % 3 else 5.0 - value))
        elif index % 2 == 0:
            predictions.append(row["target"])
        else:
            predictions.append(next(c for c in data["classes"] if c != data["label"]))
    return predictions


def test_doc_benchmark_with_fixed_predictions(glue_cards):
    benchmark = documented_benchmark()
    dataset = list(benchmark()["test"])
    assert len(dataset) == 5 * len(DOC_SUBSETS)
    assert [row["subset"] for row in dataset[::5]] == [[name] for name in DOC_SUBSETS]
    assert dataset[0]["source"].startswith("Read the sentence and reply") and "\nAgent: " in dataset[0]["source"]
    results = evaluate(predictions=fixed_predictions(dataset), data=dataset)
    subsets = results.subsets_scores
    summary = subsets.summary
    assert all(f"| {name} " in summary for name in DOC_SUBSETS) and "subsets_mean" in summary
    assert subsets["mnli"]["score_name"] == "f1_micro" and subsets["mnli"]["num_of_instances"] == 5
    assert subsets["mnli"]["score"] == pytest.approx(0.4)  # rows 5..9: the even rows 6 and 8 are right
    assert subsets["stsb"]["score_name"] == "spearmanr"
    mean = sum(subsets[name]["score"] for name in DOC_SUBSETS) / len(DOC_SUBSETS)
    assert subsets["score"] == pytest.approx(mean) and subsets["score_name"] == "subsets_mean"
    assert subsets["score_ci_low"] <= subsets["score"] <= subsets["score_ci_high"]
    assert results.global_scores["score"] == pytest.approx(mean)
    assert results.global_scores["score_name"] == "subsets_mean"


def test_saving_and_loading_the_benchmark_with_overrides(glue_cards):
    add_to_catalog(documented_benchmark(), "benchmarks.glue", catalog_path=str(glue_cards), overwrite=True)
    dataset = load_dataset("benchmarks.glue", split="test")
    assert len(dataset) == 40 and dataset[0]["subset"] == ["cola"]
    chat = load_dataset("benchmarks.glue[format=formats.chat_api,max_samples_per_subset=2]", split="test")
    assert len(chat) == 16 and chat[0]["source"][-1]["role"] == "user"
    llama = load_dataset("benchmarks.glue[format=formats.llama3]", split="test")
    assert llama[0]["source"] != dataset[0]["source"]
    results = evaluate(predictions=fixed_predictions(list(dataset)), data=dataset)  # rows read back from Arrow
    assert set(results.subsets_scores) >= set(DOC_SUBSETS)


def test_library_glue_benchmark_on_a_local_glue_mirror(tmp_path, monkeypatch):
    from tests.support.card_mirrors import MIRRORS
    from tests.support.hub_mirror import make_hub_dataset

    make_hub_dataset(tmp_path, "nyu-mll/glue", MIRRORS["nyu-mll/glue"])
    make_hub_dataset(tmp_path, "stanfordnlp/sst2", MIRRORS["stanfordnlp/sst2"])  # cards.sst2 reads this copy
    monkeypatch.chdir(tmp_path)
    dataset = load_dataset("benchmarks.glue[format=formats.user_agent,max_samples_per_subset=3]", split="test")
    by_subset = {}
    for row in dataset:
        by_subset.setdefault(row["subset"][0], []).append(row)
    assert sorted(by_subset) == sorted(DOC_SUBSETS)
    assert all(len(rows) == 3 for rows in by_subset.values())
    assert by_subset["cola"][0]["source"].startswith("Read the text and reply")  # no text_type (as the original)
    assert "\nAgent: " in by_subset["stsb"][0]["source"]
    results = evaluate(predictions=fixed_predictions(list(dataset)), data=dataset)
    assert results.subsets_scores["score_name"] == "subsets_mean"


# ---------------------------------------------------------------- semantics
def qa_card(prefix, count=6):
    data = {split: [{"question": f"{prefix} {split} {i}?", "answer": f"{prefix}{i}"} for i in range(count)]
            for split in ("train", "test")}
    return TaskCard(loader=LoadFromDictionary(data=data),
                    task=Task(input_fields={"question": str}, reference_fields={"answer": str},
                              prediction_type=str, metrics=["metrics.accuracy"]))


QA = InputOutputTemplate(input_format="{question}", output_format="{answer}")


def test_benchmark_settings_override_subsets_only_when_set():
    own = DatasetRecipe(card=qa_card("a"), template=QA, num_demos=1, demos_pool_size=2, format="formats.user_agent")
    plain = DatasetRecipe(card=qa_card("b"), template=QA)
    kept = list(Benchmark(subsets={"a": own, "b": plain})()["test"])
    assert kept[0]["source"].count("Agent:") == 2  # the subset's own format and demo
    assert "Agent:" not in kept[-1]["source"]
    overridden = list(Benchmark(subsets={"a": own, "b": plain}, format="formats.chat_api", num_demos=2,
                                demos_pool_size=3, loader_limit=5)()["test"])
    assert len(overridden) == 2 * 5  # loader_limit=5 reached each subset (the demo pool comes from train)
    first = overridden[0]["source"]
    assert [message["role"] for message in first] == ["user", "assistant"] * 2 + ["user"]
    assert own.num_demos == 1 and own.__dict__["format"] == "formats.user_agent"  # the subset itself is unchanged


def test_nested_benchmarks_paths_and_means():
    inner = Benchmark(subsets={"x": DatasetRecipe(card=qa_card("x"), template=QA),
                               "y": DatasetRecipe(card=qa_card("y"), template=QA)})
    outer = Benchmark(subsets={"inner": inner, "z": DatasetRecipe(card=qa_card("z"), template=QA)},
                      max_samples_per_subset=8)  # caps the nested benchmark as a whole (its first 8 rows)
    streams = outer()
    assert sorted(streams) == ["test", "train"]
    rows = list(streams["test"])
    assert [row["subset"] for row in rows] == [["inner", "x"]] * 6 + [["inner", "y"]] * 2 + [["z"]] * 6
    predictions = [row["target"] if row["subset"][-1] != "y" else "wrong" for row in rows]
    scores = evaluate(predictions=predictions, data=rows).subsets_scores
    assert scores["inner"]["x"]["score"] == 1.0 and scores["inner"]["y"]["score"] == 0.0
    assert scores["inner"]["score"] == 0.5 and scores["inner"]["score_name"] == "subsets_mean"
    assert scores["z"]["score"] == 1.0 and scores["score"] == pytest.approx(0.75)
    assert "inner/x" in scores.summary


def test_max_total_samples_is_shared_fairly():
    tiny = DatasetRecipe(card=qa_card("t", count=1), template=QA)
    big = DatasetRecipe(card=qa_card("b", count=6), template=QA)
    nested = Benchmark(subsets={"p": DatasetRecipe(card=qa_card("p"), template=QA),
                                "q": DatasetRecipe(card=qa_card("q"), template=QA)})
    benchmark = Benchmark(subsets={"tiny": tiny, "big": big, "nested": nested}, max_total_samples=9)
    rows = list(benchmark()["test"])
    counts = {}
    for row in rows:
        counts["/".join(row["subset"])] = counts.get("/".join(row["subset"]), 0) + 1
    assert len(rows) == 9 and counts == {"tiny": 1, "big": 4, "nested/p": 2, "nested/q": 2}
    assert list(benchmark()["test"]) == rows  # streams are re-iterable and deterministic


def test_benchmark_round_trips_and_validates():
    benchmark = Benchmark(subsets={"a": DatasetRecipe(card="cards.not_loaded_yet", template="templates.x")},
                          format="formats.user_agent", max_samples_per_subset=3)
    data = benchmark.to_dict()  # catalog names are not fetched before they are needed
    assert data["subsets"]["a"]["card"] == "cards.not_loaded_yet"
    assert Benchmark.from_dict(data).to_dict() == data
    with pytest.raises(RecipeError, match="at least one subset"):
        Benchmark(subsets={})
    with pytest.raises(RecipeError):
        Benchmark(subsets={"a": DatasetRecipe(card=qa_card("a"), template=QA)}, max_samples_per_subset=-1)
    mixed = Benchmark(subsets={"chat": DatasetRecipe(card=qa_card("a"), template=QA, format="formats.chat_api"),
                               "text": DatasetRecipe(card=qa_card("b"), template=QA)})
    with pytest.raises(RecipeError, match="mix chat formats"):
        load_dataset(mixed)
    needs_pool = Benchmark(subsets={"a": DatasetRecipe(card=qa_card("a"), template=QA)}, num_demos=2)
    with pytest.raises(RecipeError, match="demos_pool_size"):
        needs_pool()


def test_benchmark_rows_load_through_the_dataset_builder():
    benchmark = Benchmark(subsets={"a": DatasetRecipe(card=qa_card("a"), template=QA),
                                   "b": DatasetRecipe(card=qa_card("b"), template=QA)}, max_samples_per_subset=2)
    dataset = load_dataset(benchmark)
    assert sorted(dataset) == ["test", "train"]
    assert dataset["test"]["subset"] == [["a"], ["a"], ["b"], ["b"]]
    assert dataset["test"][2]["references"] == ["b0"]


def test_benchmark_mixing_image_and_text_subsets_in_chat_uses_content_parts_everywhere():
    pytest.importorskip("PIL")
    from PIL import Image as PILImage

    data = {"test": [{"image": PILImage.new("RGB", (2, 2), color), "question": "Color?", "answer": color}
                     for color in ("red", "blue")]}
    vqa = TaskCard(loader=LoadFromDictionary(data=data),
                   task=Task(input_fields={"image": "Image", "question": str}, reference_fields={"answer": str},
                             prediction_type=str, metrics=["metrics.accuracy"]))
    benchmark = Benchmark(format="formats.chat_api", subsets={
        "vqa": DatasetRecipe(card=vqa, template=InputOutputTemplate(input_format="{image} {question}",
                                                                    output_format="{answer}")),
        "qa": DatasetRecipe(card=qa_card("q", count=2), template=QA),
    })
    assert benchmark.produces_chat_source() and benchmark.produces_media()
    dataset = load_dataset(benchmark, split="test")
    assert [row["subset"] for row in dataset] == [["vqa"], ["vqa"], ["qa"], ["qa"]]
    assert dataset[0]["source"][0]["content"][0]["type"] == "image_url"
    assert dataset[2]["source"][0]["content"][0]["text"] == "q test 0?"
