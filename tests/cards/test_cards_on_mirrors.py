"""Catalog cards against local Hub-layout mirrors of their datasets (tests/support/card_mirrors.py).

For every card of scripts/catalog_sources/cards_*.py: the catalog snapshot holds it unchanged and it is documented
(description, tags with task, language, modality and the dataset's Hub URL); unitxt's `test_card` runs it through the
real LoadHF (offline, from a mirror in the dataset's real schema) with each of its templates, with 0 and 2 demos;
gold references given as predictions score the maximum (1.0) of the task's main metric and fixed nonsense scores low.
Plus the documented recipes (wnli, sst2, wmt.en_de) through the public load_dataset API, and the generic operators
the cards added (unitxt.operators.label_spans).
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from unitxt import load_dataset
from unitxt.artifact import ArtifactLink
from unitxt.card import TaskCard
from unitxt.test_utils.card import test_card
from unitxt.catalog import fetch_artifact
from unitxt.evaluation import evaluate
from unitxt.recipe import DatasetRecipe
from unitxt.templates import TemplatesDict, TemplatesList

from tests.support.card_mirrors import build_all

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "scripts" / "catalog_sources"
sys.path.insert(0, str(SOURCES))  # the sources share helpers in catalog_sources/_shared.py
SNAPSHOT = ROOT / "catalog_snapshot"
# cards_external_sources.py (issue 37: the original's cards over Kaggle, scikit-learn, web files, model-scored safety
# tasks, RAG end to end) has no mirrors yet: its cards are checked by the build's reference check and the compat
# tier's name coverage, not run here
CARD_MODULES = sorted(path for path in SOURCES.glob("cards_*.py")
                      if path.stem not in ("cards_embedded", "cards_external_sources"))
NONSENSE = "zzqx-17 nothing relevant"
REFERENCE_FREE = {"metrics.prediction_length"}  # cards whose task has no reference-based metric


def _source_cards():
    cards = {}
    for path in CARD_MODULES:
        spec = importlib.util.spec_from_file_location(f"card_source_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if getattr(module, "SAMPLED_ON_MIRRORS", False):
            continue  # generated families: a sample runs on mirrors in tests/cards/test_card_families.py
        module.register(lambda name, artifact: cards.__setitem__(name, artifact))
    return cards


SOURCE_CARDS = _source_cards()
CARD_NAMES = sorted(name for name, artifact in SOURCE_CARDS.items() if isinstance(artifact, TaskCard))
LINK_NAMES = sorted(name for name, artifact in SOURCE_CARDS.items() if isinstance(artifact, ArtifactLink))
FAMILY_SAMPLE = 6  # subject/language variants of one card family share its pipeline: 6 of them run on mirrors


def _mirror_sample(names):
    """Every card, except that a family of more than FAMILY_SAMPLE variants (cards.mmlu.<subject>, ...) contributes
    FAMILY_SAMPLE of them, evenly spaced, first and last included (the whole matrix took minutes per run)."""
    families = {}
    for name in names:
        families.setdefault(name.rsplit(".", 1)[0], []).append(name)
    chosen = set()
    for family, members in families.items():
        if family == "cards" or len(members) <= FAMILY_SAMPLE:
            chosen.update(members)
        else:
            step = (len(members) - 1) / (FAMILY_SAMPLE - 1)
            chosen.update(members[round(index * step)] for index in range(FAMILY_SAMPLE))
    return sorted(chosen)


# cards whose metric needs an optional extra (torch): their rows are checked on the mirror by a test of their own
METRIC_NEEDS_EXTRA = {"cards.bold": "metrics.regard_metric runs a transformers classifier (torch)"}
MIRROR_CARD_NAMES = [name for name in _mirror_sample(CARD_NAMES) if name not in METRIC_NEEDS_EXTRA]


@pytest.fixture(scope="session")
def mirror_root(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("hub_mirrors"))


@pytest.fixture
def in_mirror(mirror_root, monkeypatch):
    monkeypatch.chdir(mirror_root)
    return mirror_root


def _templates(card):
    templates = card.templates
    if isinstance(templates, (TemplatesList, TemplatesDict)):
        templates = templates.items
    if isinstance(templates, dict):
        return list(templates)
    if isinstance(templates, list):
        return list(range(len(templates)))
    return [0]


def _rows(card, **kwargs):
    recipe = DatasetRecipe(card=card, **kwargs)
    streams = recipe()
    return {name: list(stream) for name, stream in streams.items()}


def test_card_count_and_required_names():
    assert len(CARD_NAMES) >= 60
    for name in ("cards.cola", "cards.sst2", "cards.mrpc", "cards.qqp", "cards.stsb", "cards.mnli", "cards.qnli",
                 "cards.rte", "cards.wnli", "cards.boolq.classification", "cards.boolq.multiple_choice", "cards.cb",
                 "cards.copa", "cards.wic", "cards.wsc", "cards.multirc", "cards.record", "cards.squad", "cards.xsum",
                 "cards.cnn_dailymail", "cards.billsum", "cards.wmt.en_de", "cards.wmt.en_fr", "cards.wmt.en_ro",
                 "cards.mmlu.abstract_algebra", "cards.gsm8k", "cards.human_eval", "cards.mbpp",
                 "cards.go_emotions.simplified", "cards.coedit_gec"):
        assert name in CARD_NAMES, name


@pytest.mark.parametrize("name", CARD_NAMES)
def test_snapshot_matches_source_and_card_is_documented(name):
    card = SOURCE_CARDS[name]
    path = SNAPSHOT / ("/".join(name.split(".")) + ".json")
    assert path.exists(), f"{name} is not in catalog_snapshot; run scripts/build_catalog.py"
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(card.to_dict()))
    data = card.to_dict()
    assert data["__description__"].strip()
    tags = data["__tags__"]
    assert {"task", "language", "modality"} <= set(tags)
    loader = data.get("loader")
    if loader is None:  # a card without data (the judge cards built on the fly) has no source to point at
        return
    urls = list(tags["urls"].values())
    if loader["__type__"] in ("load_hf", "load_from_hf_space"):
        assert any(url.startswith("https://huggingface.co/datasets/") for url in urls)
    else:  # files on the web, Kaggle, scikit-learn, an API: the source's page
        assert any(url.startswith("https://") for url in urls)


def test_short_names_link_to_cards():
    assert LINK_NAMES and set(LINK_NAMES) | set(CARD_NAMES) == set(SOURCE_CARDS)
    for name in LINK_NAMES:
        path = SNAPSHOT / ("/".join(name.split(".")) + ".json")
        assert json.loads(path.read_text(encoding="utf-8")) == SOURCE_CARDS[name].to_dict()
        target = SOURCE_CARDS[name].to
        assert target in CARD_NAMES
        assert fetch_artifact(name)[0].to_dict() == fetch_artifact(target)[0].to_dict()


# corpus cards (tasks.rag.corpora): documents to index, one train split, no gold: checked by the test below instead
CORPUS_NAMES = [name for name in CARD_NAMES if SOURCE_CARDS[name].to_dict()["task"] == "tasks.rag.corpora"]


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_card_gives_each_document_once(name, in_mirror):
    """A corpus card's train split holds each document once (REAL-MM-RAG: a page image repeats per question)."""
    splits = _rows(SOURCE_CARDS[name], template_card_index="empty")
    assert sorted(splits) == ["train"], (name, sorted(splits))
    documents = [json.loads(row["task_data"]) for row in splits["train"]]
    ids = [document["document_id"] for document in documents]
    assert len(ids) == len(set(ids)) == 3, (name, ids)  # the mirror's 8 rows show 3 distinct pages
    assert all(len(document["passages"]) == 1 for document in documents)


@pytest.mark.parametrize("name", [name for name in MIRROR_CARD_NAMES if name not in CORPUS_NAMES])
def test_card_on_mirror(name, in_mirror, capsys):
    """unitxt's test_card: every template, 0 and 2 demos; gold -> max main score, nonsense -> low score."""
    card, _ = fetch_artifact(name)
    reference_free = set(card.task.metrics) <= REFERENCE_FREE
    splits = _rows(card, template_card_index=_templates(card)[0])
    assert "test" in splits and len(splits["test"]) >= 3, (name, {k: len(v) for k, v in splits.items()})
    for row in splits["test"]:
        assert isinstance(row["source"], str) and row["source"].strip()
    problems = test_card(
        card, num_demos=2, demos_pool_size=3, loader_limit=None, strict=True,
        exact_match_score=1.0, maximum_full_mismatch_score=0.35, full_mismatch_prediction_values=[NONSENSE],
        test_exact_match_score_when_predictions_equal_references=not reference_free,
        test_full_mismatch_score_with_full_mismatch_prediction_values=not reference_free,
    )
    output = capsys.readouterr().out
    assert problems == []
    expected_runs = len(_templates(card)) * (2 if "train" in splits else 1)
    assert output.count("| num_demos: ") == expected_runs, (name, expected_runs)
    if "train" in splits:
        rows = _rows(card, template_card_index=_templates(card)[0], num_demos=2, demos_pool_size=3)["test"]
        assert [json.loads(row["task_data"])["metadata"]["num_demos"] for row in rows] == [2] * len(rows)
        assert all(len(row["source"]) > len(plain["source"]) for row, plain in zip(rows, splits["test"]))


def test_wnli_with_relation_template_through_the_api(in_mirror):
    dataset = load_dataset("card=cards.wnli,template=templates.classification.multi_class.relation.default")
    assert sorted(dataset) == ["test", "train", "validation"]
    assert len(dataset["test"]) == 8 and len(dataset["train"]) + len(dataset["validation"]) == 12
    row = dataset["test"][0]
    assert row["source"].startswith("Given a premise and hypothesis classify the entailment of the hypothesis")
    assert row["target"] in ("entailment", "not entailment")
    data = json.loads(row["task_data"])
    assert data["classes"] == ["entailment", "not entailment"]  # the original card's order (label 0 -> entailment)
    assert data["metadata"]["template"] == "templates.classification.multi_class.relation.default"
    results = evaluate(list(dataset["test"]["target"]), dataset["test"])
    assert results.global_scores.score == pytest.approx(1.0)


def test_sst2_with_the_cards_default_template(in_mirror):
    test = load_dataset("card=cards.sst2", split="test")
    assert len(test) == 8
    labels = {row["target"] for row in test}
    assert labels <= {"negative", "positive"} and len(labels) == 2
    assert "sentence" in test[0]["source"]


def test_wmt_en_de_with_all_translation_templates(in_mirror):
    dataset = load_dataset("card=cards.wmt.en_de,template=templates.translation.directed.all,num_demos=2,"
                           "demos_pool_size=4", split="test")
    assert len(dataset) == 8
    for row in dataset:
        data = json.loads(row["task_data"])
        # the original card's language names, spelling included
        assert data["source_language"] == "english" and data["target_language"] == "deutch"
        assert data["translation"].startswith("[de] ") and row["target"] == data["translation"]
        assert data["text"] in row["source"]
    templates = {json.loads(row["task_data"])["metadata"]["template"] for row in dataset}
    assert templates <= set(fetch_artifact("templates.translation.directed.all")[0].to_dict()["items"])
    results = evaluate(list(dataset["target"]), dataset)
    assert results.global_scores.score == pytest.approx(1.0)


# ------------------------------------------------------------------ the generic operators the cards use
def test_iob_to_spans_bio_ids_text_tags_and_iob1():
    from unitxt.operators.label_spans import IobToSpans

    operator = IobToSpans(tag_names=["O", "B-PER", "I-PER", "B-LOC", "I-LOC"], type_names={"PER": "Person"})
    out = operator.process_instance({"tokens": ["Ann", "Lee", "saw", "New", "York", "."],
                                     "ner_tags": [1, 2, 0, 3, 4, 0]})
    assert out["text"] == "Ann Lee saw New York ."
    assert [out["text"][s:e] for s, e in zip(out["spans_starts"], out["spans_ends"])] == ["Ann Lee", "New York"]
    assert out["labels"] == ["Person", "LOC"]
    atis = IobToSpans(tokens_field="text", tags_field="slots").process_instance(
        {"text": "from boston to new york", "slots": "O B-from O B-to I-to"})
    assert atis["labels"] == ["from", "to"] and atis["spans_starts"] == [5, 15] and atis["spans_ends"] == [11, 23]
    iob1 = IobToSpans(tags_field="tags").process_instance({"tokens": ["a", "b", "c"], "tags": ["I-X", "I-Y", "I-Y"]})
    assert iob1["labels"] == ["X", "Y"] and iob1["spans_ends"] == [1, 5]
    with pytest.raises(Exception, match="2 tags for 3 tokens"):
        IobToSpans(tags_field="tags").process_instance({"tokens": ["a", "b", "c"], "tags": ["O", "O"]})


def test_shuffle_field_values_is_seeded_by_content():
    from unitxt.operators.label_spans import ShuffleFieldValues

    operator = ShuffleFieldValues(field="choices", seed_fields=["question"])
    first = operator.process_instance({"question": "q1", "choices": list("abcdefgh")})["choices"]
    assert sorted(first) == list("abcdefgh") and first != list("abcdefgh")
    assert operator.process_instance({"question": "q1", "choices": list("abcdefgh")})["choices"] == first
    orders = {tuple(operator.process_instance({"question": f"q{i}", "choices": list("abcdefgh")})["choices"])
              for i in range(20)}
    assert len(orders) > 10


def test_set_classes_from_data_collects_sorted_values_over_all_streams():
    from unitxt.operators.label_spans import SetClassesFromData
    from unitxt.stream import MultiStream

    streams = MultiStream.from_iterables({"train": [{"label": "b"}, {"label": "a"}], "test": [{"label": "c"}],
                                          "multi": [{"label": ["d", "a"]}]})
    result = SetClassesFromData()(streams)
    assert [row["classes"] for row in result["test"]] == [["a", "b", "c", "d"]]
    only = SetClassesFromData(from_streams=["train"])(streams)
    assert list(only["multi"])[0]["classes"] == ["a", "b"]


def test_bold_keeps_the_race_and_gender_prompts_with_a_json_reference(in_mirror):
    """cards.bold (its regard metric needs torch): race and gender entries only, the first prompt as input and a
    JSON record of prompt, category and first Wikipedia sentence as the reference."""
    splits = _rows(SOURCE_CARDS["cards.bold"], template_card_index=0)
    assert sorted(splits) == ["test"] and len(splits["test"]) >= 3
    for row in splits["test"]:
        data = json.loads(row["task_data"])
        record = json.loads(data["input_label"])
        assert sorted(record) == ["category", "input", "wiki"] and record["input"] == data["first_prompt"]
        assert row["source"] == data["first_prompt"] + "\n"
