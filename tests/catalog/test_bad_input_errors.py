"""Bad input ends in a clear UnitxtError, never a stray exception or a silent score (issue "Hardening")."""

import json
import os
import stat
import time

import pytest

from unitxt import add_to_catalog, evaluate
from unitxt.catalog import LocalCatalog, get_from_catalog, write_json_atomically
from unitxt.errors import UnitxtError
from unitxt.metrics import Accuracy


def row(label="pos"):
    return {"source": "s", "target": label, "references": [label], "metrics": ["metrics.accuracy"],
            "postprocessors": [], "task_data": json.dumps({"label": label}), "groups": [], "subset": [],
            "media": {"images": [], "audios": []}, "data_classification_policy": ["public"]}


def test_catalog_name_with_a_final_newline_is_refused(temp_catalog):
    with pytest.raises(UnitxtError, match="Invalid catalog name"):
        add_to_catalog(Accuracy(), "cards.x\n", catalog_path=str(temp_catalog))
    assert not any(temp_catalog.rglob("*x*"))


@pytest.mark.parametrize("name", ["a" * 256, "cards." + "b" * 256])
def test_over_long_catalog_names_are_a_unitxt_error(name):
    with pytest.raises(UnitxtError, match="at most 200 bytes"):
        get_from_catalog(name)


def test_invalid_utf8_deep_numbers_and_list_types_in_catalog_files(temp_catalog):
    (temp_catalog / "bad_bytes.json").write_bytes(b'{"__type__": "accuracy", "x": "\\xff\xff"}')
    (temp_catalog / "big_number.json").write_text('{"__type__": "accuracy", "n": ' + "9" * 5000 + "}")
    (temp_catalog / "list_type.json").write_text('{"__type__": ["os.system"]}')
    for name, message in (("bad_bytes", "not UTF-8"), ("big_number", "not valid JSON"),
                          ("list_type", "__type__ must be a string")):
        with pytest.raises(UnitxtError, match=message):
            get_from_catalog(name)


def test_symlinked_folder_cannot_lead_writes_or_reads_outside_the_catalog(temp_catalog, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.json").write_text('{"__type__": "accuracy"}')
    os.symlink(outside, temp_catalog / "linkdir")
    with pytest.raises(UnitxtError, match="escapes the catalog"):
        add_to_catalog(Accuracy(), "linkdir.y", catalog_path=str(temp_catalog), overwrite=True)
    assert sorted(path.name for path in outside.iterdir()) == ["x.json"]
    with pytest.raises(UnitxtError, match="escapes the catalog"):
        get_from_catalog("linkdir.x")


def test_overwrite_keeps_the_file_mode_and_new_files_follow_the_umask(temp_catalog):
    path = LocalCatalog(str(temp_catalog)).save(Accuracy(), "metrics.mine")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    os.chmod(path, 0o640)
    add_to_catalog(Accuracy(), "metrics.mine", catalog_path=str(temp_catalog), overwrite=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_stale_temp_files_of_a_killed_writer_are_removed_on_the_next_write(tmp_path):
    target = tmp_path / "entry.json"
    stale = tmp_path / ".entry.json.abc123.tmp"
    fresh = tmp_path / ".entry.json.def456.tmp"  # maybe a concurrent writer: kept
    stale.write_text("partial")
    fresh.write_text("partial")
    old = time.time() - 7200
    os.utime(stale, (old, old))
    write_json_atomically(target, {"a": 1})
    assert json.loads(target.read_text()) == {"a": 1}
    assert not stale.exists() and fresh.exists()


def test_a_string_reference_is_an_error_not_a_list_of_characters():
    with pytest.raises(UnitxtError, match="wrap a single reference in a list"):
        get_from_catalog("metrics.accuracy").evaluate(["a"], ["abc"])
    scores = get_from_catalog("metrics.accuracy").evaluate(["a"], [["abc"]]).global_scores(with_ci=False)
    assert scores["accuracy"] == 0.0


@pytest.mark.parametrize("predictions", ["pos", {"a": 1}, 5])
def test_evaluate_needs_a_list_of_predictions(predictions):
    with pytest.raises(UnitxtError, match="one prediction per instance"):
        evaluate(predictions, [row()])


def test_evaluate_without_predictions_scores_empty_predictions_as_the_original():
    results = evaluate(data=[row(), row("neg")])
    assert results.global_scores["accuracy"] == 0.0 and results.global_scores["num_of_instances"] == 2
    with pytest.raises(UnitxtError, match="Specify 'dataset' in evaluate"):
        evaluate(["pos"])


def test_empty_evaluation_warns(caplog):
    with caplog.at_level("WARNING", logger="unitxt"):
        results = evaluate([], [])
    assert "no instances" in caplog.text and len(results) == 0


def test_one_metric_name_as_a_string_is_a_one_item_list_and_a_recipe_says_what_it_expects():
    rows = [dict(row("pos"), metrics="metrics.accuracy", postprocessors="processors.lower_case")]
    results = evaluate(["POS"], rows)
    assert results.global_scores["accuracy"] == 1.0 and results.global_scores["num_of_instances"] == 1
    bad = [dict(row("pos"), metrics='["metrics.accuracy"')]
    with pytest.raises(UnitxtError, match="expected a JSON list of names"):
        evaluate(["pos"], bad)
    from unitxt.recipe import DatasetRecipe

    with pytest.raises(UnitxtError, match="'metrics' of DatasetRecipe expects Optional"):
        DatasetRecipe(card="cards.demo.sentiment", template="templates.key_val", metrics="metrics.f1_micro")


def test_correlations_count_and_report_dropped_non_finite_pairs(caplog):
    from scipy.stats import spearmanr

    metric = get_from_catalog("metrics.spearman")
    with caplog.at_level("WARNING", logger="unitxt"):
        scores = metric.evaluate([float("inf"), 1.0, 2.5, 2.0, float("nan")],
                                 [[1.0], [2.0], [3.0], [4.0], [5.0]]).global_scores(with_ci=False)
    assert scores["num_of_instances"] == 3 and scores["spearmanr_dropped_pairs"] == 2
    assert scores["spearmanr"] == pytest.approx(spearmanr([1.0, 2.5, 2.0], [2.0, 3.0, 4.0]).statistic)
    assert "2 of 5 prediction/reference pairs" in caplog.text
    clean = metric.evaluate([1.0, 2.0, 3.0], [[1.0], [3.0], [2.0]]).global_scores(with_ci=False)
    assert "spearmanr_dropped_pairs" not in clean and clean["num_of_instances"] == 3


def test_deep_nesting_is_a_clear_error_at_the_documented_limit():
    from unitxt.artifact import MAX_DATA_NESTING, from_serializable
    from unitxt.query_parser import MAX_NESTING, parse_assignments

    with pytest.raises(UnitxtError, match=f"deeper than {MAX_NESTING}"):
        parse_assignments("a=" + "[" * 992 + "]" * 992)
    assert parse_assignments("a=" + "[" * MAX_NESTING + "]" * MAX_NESTING)["a"] is not None
    with pytest.raises(UnitxtError, match=f"deeper than {MAX_NESTING}"):
        from unitxt import load_dataset

        load_dataset("card=cards.demo.sentiment,metrics=" + "[" * 1000 + "]" * 1000)
    nested = {"__type__": "accuracy"}
    for _ in range(500):
        nested = {"__type__": "sequential_operator", "steps": [nested]}
    with pytest.raises(UnitxtError, match=f"deeper than {MAX_DATA_NESTING} levels"):
        from_serializable(nested)


@pytest.mark.parametrize("type_name", ["loader", "operator", "template", "metric", "instance_operator"])
def test_abstract_base_types_are_refused_at_load_naming_concrete_ones(type_name):
    from unitxt.artifact import from_serializable

    with pytest.raises(UnitxtError, match="abstract base .* use a concrete type, e.g. [a-z_]+"):
        from_serializable({"__type__": type_name})


def test_lone_surrogates_in_a_recipe_are_a_unitxt_error():
    from unitxt import load_dataset

    with pytest.raises(UnitxtError, match="'split' holds text that is not valid Unicode"):
        load_dataset("card=cards.demo.sentiment,template=templates.key_val", split="\ud800")
    with pytest.raises(UnitxtError, match="'recipe' holds text that is not valid Unicode"):
        load_dataset("card=cards.demo.sentiment\udfff")


def test_long_artifact_link_chains_stop_with_a_clear_error(temp_catalog):
    from unitxt.catalog import MAX_LINK_CHAIN

    for index in range(1000):
        (temp_catalog / f"link{index}.json").write_text(json.dumps({"__type__": "artifact_link", "to": f"link{index + 1}"}))
    (temp_catalog / "link1000.json").write_text('{"__type__": "accuracy"}')
    with pytest.raises(UnitxtError, match=f"More than {MAX_LINK_CHAIN} artifact links in a row from 'link0'"):
        get_from_catalog("link0")
    assert type(get_from_catalog(f"link{1000 - MAX_LINK_CHAIN}")).__name__ == "Accuracy"


@pytest.mark.parametrize("spec", [">2147483647", "<20001", ".999999f", "0>99999"])
def test_format_spec_widths_are_capped(spec):
    from unitxt.format_utils import MAX_FORMAT_WIDTH
    from unitxt.templates import InputOutputTemplate

    with pytest.raises(UnitxtError, match=f"width or precision above {MAX_FORMAT_WIDTH}"):
        InputOutputTemplate(input_format="{text:" + spec + "}", output_format="{label}")
    template = InputOutputTemplate(input_format="{text:>12}", output_format="{label}")
    assert template.render({"text": "ab"}, {"label": "x"})["source"] == " " * 10 + "ab"


def test_a_row_with_bad_json_task_data_is_a_unitxt_error_when_read():
    rows = [dict(row("pos"), task_data='{"label": "pos"'), row("neg")]
    with pytest.raises(UnitxtError, match="task_data of instance 0 is not valid JSON"):
        evaluate(["pos", "neg"], [dict(r, groups=['["label"]']) for r in rows])


@pytest.mark.parametrize("field, text, message", [
    ("metrics", "[bad json", "Cannot read the list"),
    ("postprocessors", '["processors.lower_case"', "Cannot read the list"),
    ("postprocessors", "{bad", "Cannot read the inline post-processor"),
    ("metrics", '{"__type__": ', "Cannot read the inline metric"),
])
def test_a_row_with_bad_json_in_its_metric_or_processor_list_is_a_unitxt_error(field, text, message):
    rows = [dict(row("pos"), **{field: text}), row("neg")]
    with pytest.raises(UnitxtError, match=message):
        evaluate(["pos", "neg"], rows)


def test_non_text_predictions_are_counted_in_a_warning(caplog):
    predictions = [True, b"pos", {"a": 1}, float("nan"), 5, ["pos"], "pos"]
    with caplog.at_level("WARNING", logger="unitxt"):
        results = evaluate(predictions, [row("pos") for _ in predictions])
    assert "6 of 7 predictions are not text (bool: 1, bytes: 1, dict: 1, float: 1, int: 1, list: 1)" in caplog.text
    assert results.global_scores["accuracy"] == pytest.approx(1 / 7)
    caplog.clear()
    numeric = [dict(row("1"), references=[1.0], metrics=["metrics.spearman"]) for _ in range(3)]
    with caplog.at_level("WARNING", logger="unitxt"):
        evaluate([1.0, 2.0, 3.0], [dict(r, references=[float(i)]) for i, r in enumerate(numeric)])
    assert "not text" not in caplog.text


def test_long_texts_show_rouge_l_progress_and_score_as_rouge_score(capsys):
    import random

    from rouge_score import rouge_scorer

    from unitxt.metrics.kernels.rouge import LONG_TEXT_CHARACTERS, rouge_instance_scores

    rng = random.Random(0)
    words = [f"w{i}" for i in range(300)]
    prediction = " ".join(rng.choice(words) for _ in range(LONG_TEXT_CHARACTERS // 4))
    reference = " ".join(rng.choice(words) for _ in range(LONG_TEXT_CHARACTERS // 4))
    scores = rouge_instance_scores([prediction], [[reference]], ("rouge1", "rouge2", "rougeL"))
    assert "ROUGE-L on long texts" in capsys.readouterr().err
    expected = rouge_scorer.RougeScorer(["rouge1", "rouge2"]).score(reference, prediction)
    assert scores["rouge1"][0] == pytest.approx(expected["rouge1"].fmeasure, abs=1e-12)
    assert scores["rouge2"][0] == pytest.approx(expected["rouge2"].fmeasure, abs=1e-12)
    rouge_instance_scores(["short text"], [["a short text"]], ("rougeL",))
    assert "ROUGE-L on long texts" not in capsys.readouterr().err
