"""Column-wise evaluation: a Dataset (Arrow columns) and a list of rows give identical results, and both equal a
per-instance computation (each row post-processed alone, each partition scored by the metric classes)."""

import json
import random

import datasets
import pyarrow as pa
import pytest
from unitxt import evaluate, get_from_catalog
from unitxt.evaluation_inputs import EvaluationInputs

METRIC_LISTS = [["metrics.accuracy"], ["metrics.f1_micro", "metrics.accuracy"], ["metrics.f1_macro"]]
PROCESSOR_LISTS = [["processors.take_first_word", "processors.lower_case"], [], ["processors.lower_case"]]
LABELS = ["red", "green", "blue", "Red"]


def random_rows(n, seed, subsets=(["a"], ["b", "inner"]), with_groups=False):
    rng = random.Random(seed)
    predictions, rows = [], []
    for index in range(n):
        label = rng.choice(LABELS)
        references = [label] + ([rng.choice(LABELS)] if rng.random() < 0.3 else [])
        guess = rng.choice([label, rng.choice(LABELS), f"{label} because", f"{label.upper()} it is", ""])
        predictions.append(guess)
        rows.append({
            "source": f"input {index}", "target": label, "references": references,
            "metrics": list(rng.choice(METRIC_LISTS)), "postprocessors": list(rng.choice(PROCESSOR_LISTS)),
            "task_data": json.dumps({"label": label, "metadata": {"template": "t", "num_demos": index % 2}}),
            "groups": ['{"num_demos": %d}' % (index % 2)] if with_groups else [],
            "subset": list(rng.choice(subsets)), "media": {"images": [], "audios": []},
            "data_classification_policy": ["public"],
        })
    return predictions, rows


def process_alone(value, names, side):
    """One value through a post-processor list, processor by processor (the per-instance path)."""
    for name in names:
        processor = get_from_catalog(name)  # a field operator (both sides) or a PostProcess naming its sides
        if getattr(processor, "process_prediction" if side == "prediction" else "process_references", True):
            value = processor.apply_value(value) if hasattr(processor, "apply_value") else \
                processor.process_value(value)
    return value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dataset_columns_and_row_lists_give_identical_results(seed):
    predictions, rows = random_rows(400, seed, with_groups=seed == 2, subsets=([],) if seed == 2 else
                                    (["a"], ["b", "inner"]))
    from_rows = evaluate(predictions, rows)
    for data in (datasets.Dataset.from_list(rows), pa.Table.from_pylist(rows)):  # a Ray block is an Arrow table
        from_columns = evaluate(predictions, data)
        assert from_rows.global_scores == from_columns.global_scores
        assert from_rows.subsets_scores == from_columns.subsets_scores
        assert from_rows.groups_scores == from_columns.groups_scores
        assert list(from_rows) == list(from_columns)
        assert from_rows.signature == from_columns.signature


def test_columnar_results_equal_the_per_instance_computation():
    predictions, rows = random_rows(600, 7)
    results = evaluate(predictions, rows)
    expected_predictions = [process_alone(p, row["postprocessors"], "prediction") for p, row in zip(predictions, rows)]
    expected_references = [[process_alone(r, row["postprocessors"], "references") for r in row["references"]]
                           for row in rows]
    assert [instance["processed_prediction"] for instance in results] == expected_predictions
    assert [instance["processed_references"] for instance in results] == expected_references
    for index in (0, 17, 599):
        instance = results[index]["score"]["instance"]
        if "accuracy" in instance:
            assert instance["accuracy"] == float(expected_predictions[index] in expected_references[index])
    for subset in (("a",), ("b", "inner")):
        for metric_list in METRIC_LISTS:
            positions = [i for i, row in enumerate(rows) if tuple(row["subset"]) == subset
                         and row["metrics"] == metric_list]
            if not positions:
                continue
            # each subset holds several metric lists: score the subset's rows of each list alone and compare the
            # list's metrics with a run restricted to those rows
            alone = evaluate([predictions[i] for i in positions], [dict(rows[i], subset=[]) for i in positions])
            for name in metric_list:
                metric = get_from_catalog(name)
                scores = metric.evaluate([expected_predictions[i] for i in positions],
                                         [expected_references[i] for i in positions]).global_scores()
                for key in (metric.main_score, f"{metric.main_score}_ci_low", f"{metric.main_score}_ci_high"):
                    assert alone.global_scores[key] == scores[key]


def test_arrow_codes_keep_empty_lists_apart_from_lists_of_an_empty_string():
    rows = [{"metrics": ["m.a", "m.b"]}, {"metrics": []}, {"metrics": [""]}, {"metrics": ["m.a", "m.b"]},
            {"metrics": ["m.a\x1fm.b"]}]
    dataset = datasets.Dataset.from_list(rows)
    for data in (rows, dataset):
        codes, values = EvaluationInputs(data).codes("metrics")
        assert [values[code] for code in codes] == [row["metrics"] for row in rows]
        assert codes[0] == codes[3] and len(set(codes)) == 4


def test_results_are_read_as_needed_and_cached():
    predictions, rows = random_rows(50, 3)
    results = evaluate(predictions, rows)
    first = results[5]
    first["note"] = "kept"
    assert results[5]["note"] == "kept" and results[-45] is first
    assert results[10:12] == [results[10], results[11]]
    assert len(results.instance_scores) == 50 and results.instance_scores[5]["source"] == "input 5"
    with pytest.raises(IndexError):
        results[50]


def test_classification_metrics_of_one_run_share_label_codes_and_resample_counts(monkeypatch):
    import unitxt.metrics.kernels.classification as kernels

    calls = []
    for name in ("_single_label_scores", "label_scores_of_code_counts"):  # scores of index rows, of code counts
        original = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *a, original=original, **k: calls.append(1) or original(*a, **k))
    predictions, rows = random_rows(300, 4, subsets=([],))
    for row in rows:
        row["metrics"] = ["metrics.f1_micro", "metrics.f1_macro", "metrics.precision_macro"]
    shared_run = evaluate(predictions, rows)
    shared_calls = len(calls)
    calls.clear()
    alone = {name: get_from_catalog(name).evaluate(
        [i["processed_prediction"] for i in shared_run], [i["processed_references"] for i in shared_run]
    ).global_scores() for name in rows[0]["metrics"]}
    # 300 instances x 1000 resamples is one chunk: f1_micro and f1_macro (the original's map-reduce family, 1000
    # resamples) score its code counts once together and precision_macro (a global metric, 100 resamples) once; plus
    # each metric's point score and its jackknife (one leave-one-out count row per distinct code), where scoring each
    # metric alone scores its chunk itself
    assert (shared_calls, len(calls)) == (3 + 2 + 3, 3 * (1 + 1 + 1))
    for name, scores in alone.items():
        main = scores["score_name"]
        for key in (main, f"{main}_ci_low", f"{main}_ci_high"):
            assert shared_run.global_scores[key] == scores[key]


def test_a_generator_of_predictions_over_rows_in_memory_keeps_the_in_memory_path():
    """Only a stream of rows is scored chunk by chunk (tests/evaluation/test_streamed_evaluation.py); predictions may be any
    iterable, and rows in memory keep their per-instance results."""
    predictions, rows = random_rows(300, 5)
    in_memory = evaluate(predictions, rows)
    from_generator = evaluate((p for p in predictions), datasets.Dataset.from_list(rows))
    assert from_generator.global_scores == in_memory.global_scores
    assert from_generator.subsets_scores == in_memory.subsets_scores
    assert [r["score"]["instance"] for r in from_generator] == [r["score"]["instance"] for r in in_memory]
