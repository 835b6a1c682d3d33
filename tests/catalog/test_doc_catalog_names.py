"""The catalog names the documentation (and the original project's docs/examples) uses: benchmarks over the cards'
Hub mirrors (every subset scores the maximum with gold predictions), operators.* post-processors behaving as their
processors.* counterparts, and the judge / table / image cards' rows carrying the documented fields."""

import json

import pytest

from unitxt import evaluate, load_dataset
from unitxt.catalog import fetch_artifact
from unitxt.processors import PostProcess

from tests.support.card_mirrors import build_all
from tests.support.card_mirrors_wikitq import serve_wikitq


@pytest.fixture(scope="module")
def mirror_root(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("doc_mirrors"))


FINQA_FILES = "https://raw.githubusercontent.com/czyssrs/FinQA/"  # cards.fin_qa reads the FinQA repository's files


@pytest.fixture
def in_mirror(mirror_root, monkeypatch):
    """The Hub mirrors, and the FinQA JSON and WikiTQ TSV files served from synthetic copies in their real layout."""
    from unitxt.loaders import hub_and_files

    from tests.support.card_family_files import finqa_records

    monkeypatch.chdir(mirror_root)
    open_text = hub_and_files._open_text  # the FinQA JSON files, then the WikiTQ files (serve_wikitq)

    def local_finqa(url, *args, **kwargs):
        if url.startswith(FINQA_FILES):
            file_name = url.rsplit("/", 1)[-1]
            local = mirror_root / "finqa_files" / file_name
            local.parent.mkdir(exist_ok=True)
            local.write_text(json.dumps(finqa_records(file_name.split(".")[0])), encoding="utf-8")
            url = str(local)
        return open_text(url, *args, **kwargs)

    monkeypatch.setattr(hub_and_files, "_open_text", local_finqa)
    serve_wikitq(monkeypatch)
    return mirror_root



def _leaf_paths(benchmark, prefix=()):
    for name, subset in benchmark.subsets.items():
        if hasattr(subset, "subsets"):
            yield from _leaf_paths(subset, prefix + (name,))
        else:
            yield prefix + (name,)


@pytest.mark.parametrize("name, groups, leaves", [
    ("benchmarks.vision", ["ai2d", "chart_qa", "doc_vqa", "info_vqa"], 4),
    ("benchmarks.llama_vision", ["ai2d", "chart_qa", "doc_vqa", "info_vqa"], 4),
    ("benchmarks.tables_benchmark", ["fin_qa", "qtsumm", "scigen", "tablebench", "wikitq"], 20),
])
def test_benchmark_runs_on_the_mirrors_and_gold_scores_the_maximum(name, groups, leaves, in_mirror):
    benchmark, _ = fetch_artifact(name)
    assert sorted(benchmark.subsets) == groups
    assert len(list(_leaf_paths(benchmark))) == leaves
    # max_samples_per_subset caps a nested benchmark as a whole (its first rows), so nested ones run uncapped
    nested = any(hasattr(subset, "subsets") for subset in benchmark.subsets.values())
    test = load_dataset(name if nested else f"{name}[max_samples_per_subset=3]", split="test")
    paths = {tuple(row["subset"]) for row in test}
    assert len(paths) == leaves and (len(test) >= 3 * leaves if nested else len(test) == 3 * leaves)
    results = evaluate(list(test["target"]), test)
    for path in paths:
        node = results.subsets_scores
        for part in path:
            node = node[part]
        if node["score_name"] == "prediction_length":  # arena-hard prompts: no reference, judged by a model
            continue
        assert node["score"] == pytest.approx(1.0), (path, node["score_name"], node["score"])


def test_bluebench_has_the_original_groups_and_recipes():
    benchmark, _ = fetch_artifact("benchmarks.bluebench")
    assert sorted(benchmark.subsets) == ["bias", "chatbot_abilities", "entity_extraction", "knowledge", "legal",
                                         "news_classification", "product_help", "qa_finance", "rag_general",
                                         "reasoning", "safety", "summarization", "translation"]
    assert len(list(_leaf_paths(benchmark))) == 57
    recipe, _ = fetch_artifact("recipes.bluebench.knowledge.mmlu_pro_law")
    assert recipe.card.loader.filtering_lambda == "lambda x: x['category'] == 'law'"  # as the original's card
    assert (recipe.num_demos, recipe.demos_pool_size, recipe.max_test_instances) == (5, 20, 7)


def test_tables_benchmark_writes_each_layout(in_mirror):
    test = load_dataset("benchmarks.tables_benchmark", split="test")
    sources = {tuple(row["subset"]): row["source"] for row in test}
    assert "| --- |" in sources[("wikitq", "markdown")] or "|---|" in sources[("wikitq", "markdown")]
    json_rows = sources[("wikitq", "json")]
    assert '[{"' in json_rows and "|---|" not in json_rows
    assert "row 1 : " in sources[("fin_qa", "indexed_rows")] and "col : " in sources[("fin_qa", "indexed_rows")]


@pytest.mark.parametrize("name", ["take_first_word", "lower_case", "extract_mt_bench_rating_judgment",
                                  "cast_to_float_return_zero_if_failed", "literal_eval", "scale_0_10_to_0_1"])
def test_operator_names_are_the_bare_post_processors(name):
    operator, _ = fetch_artifact(f"operators.{name}")
    processor, _ = fetch_artifact(f"processors.{name}")
    inner = processor.operator if isinstance(processor, PostProcess) else processor
    assert type(operator) is type(inner) and not isinstance(operator, PostProcess)
    samples = {"take_first_word": ("Paris is nice", "Paris"), "lower_case": ("MiXeD", "mixed"),
               "extract_mt_bench_rating_judgment": ("Rating: [[7]]", 0.7),
               "cast_to_float_return_zero_if_failed": ("oops", 0.0), "literal_eval": ("[1, 'a']", [1, "a"]),
               "scale_0_10_to_0_1": ("8", 0.8)}
    given, expected = samples[name]
    assert operator.process_value(given) == pytest.approx(expected) if isinstance(expected, float) else \
        operator.process_value(given) == expected


def test_strip_operator():
    operator, _ = fetch_artifact("operators.strip")
    assert operator.process_value("  a b \n") == "a b"


def test_docs_mt_bench_rating_card_keeps_first_turn_questions_without_reference(in_mirror):
    """The documentation's own MT-Bench rating card (a Hub export of the GPT-4 single scores; the catalog's card of
    that name reads the MT-Bench Space, tests/judges/test_meta_eval_cards.py)."""
    from unitxt.card import TaskCard
    from unitxt.loaders import LoadHF
    from unitxt.operators import Copy, FilterByCondition, Rename
    from unitxt.processors import LiteralEval
    from unitxt.splitters import RenameSplits

    card = TaskCard(
        loader=LoadHF(path="OfirArviv/mt_bench_single_score_gpt4_judgement", split="train"),
        preprocess_steps=[
            RenameSplits({"train": "test"}),
            FilterByCondition(values={"turn": 1}, condition="eq"),
            FilterByCondition(values={"reference": "[]"}, condition="eq"),
            Rename(field_to_field={"model_input": "question", "score": "rating", "category": "group",
                                   "model_output": "answer"}),
            LiteralEval(field="question"), Copy(field="question/0", to_field="question"),
            LiteralEval(field="answer"), Copy(field="answer/0", to_field="answer"),
        ],
        task="tasks.response_assessment.rating.single_turn",
        templates=["templates.response_assessment.rating.mt_bench_single_turn"],
    )
    test = load_dataset(card=card, template="templates.response_assessment.rating.mt_bench_single_turn",
                        split="test")
    # mirror: 40 rows, turn 2 every 4th row, a reference every 5th row -> 40 - 10 - 8 + 2 = 24
    assert len(test) == 24
    data = json.loads(test[0]["task_data"])
    assert set(data) >= {"question", "answer", "rating"} and not data["question"].startswith("[")
    assert test[0]["target"] == f"[[{data['rating']}]]"
    results = evaluate(list(test["target"]), test)
    assert results.global_scores.score == pytest.approx(1.0)  # spearman of the gold ratings with themselves


def test_hh_rlhf_offers_both_last_replies_and_marks_the_preferred_one(in_mirror):
    test = load_dataset("card=cards.hh_rlhf,template=templates.evaluation.preference.default", split="test")
    rows = [json.loads(row["task_data"]) for row in test]
    assert {data["output_choice"] for data in rows} == {0, 1}  # the two replies in a seeded random order
    for data in rows:
        assert len(data["choices"]) == 2 and "Assistant:" not in "".join(data["choices"])
        assert data["input"].startswith("Human:") and "\n\n" not in data["input"]
        assert (data["input_type"], data["output_type"]) == ("dialog", "response")


def test_image_cards_put_the_image_in_media(in_mirror):
    for card in ("cards.chart_qa", "cards.ai2d", "cards.info_vqa", "cards.doc_vqa.lmms_eval"):
        row = load_dataset(f"card={card},template_card_index=0", split="test")[0]
        image = row["media"]["images"][0]  # stored as a datasets.Image value: {"bytes", "path"}
        assert image["bytes"].startswith(b"\x89PNG\r\n\x1a\n") and image["path"] is None, card
        assert '<img src="media/images/0">' in row["source"], card


def test_a_video_context_puts_every_frame_in_media(in_mirror):
    """SEED-Bench's context is its list of frames (as the original's card: video questions keep all of theirs)."""
    rows = load_dataset("card=cards.seed_bench,template_card_index=1", split="test")
    frames = sorted({len(row["media"]["images"]) for row in rows})
    assert frames == [1, 2]  # image questions have one frame, the mirror's video questions two
    for row in rows:
        images = row["media"]["images"]
        assert all(image["bytes"].startswith(b"\x89PNG") for image in images)
        assert all(f'<img src="media/images/{index}">' in row["source"] for index in range(len(images)))


def test_reference_only_list_processors_and_strip():
    by_comma, _ = fetch_artifact("processors.to_list_by_comma_from_references")
    assert by_comma.process_value_pair("a, b", ["x, y ,z", "w"]) == ("a, b", [["x", "y", "z"], ["w"]])
    bullets, _ = fetch_artifact("processors.to_list_by_hyphen_space_from_references")
    assert bullets.process_value_pair("- a", ["- x\n- y"]) == ("- a", [["x", "y"]])
    strip, _ = fetch_artifact("processors.strip")
    assert strip.process_value("\t yes \n") == "yes"
