"""Streamed evaluation: rows and predictions read chunk by chunk into mergeable metric states give the in-memory
path's point estimates (to 1e-9), Poisson-bootstrap CIs that agree with the in-memory bootstrap, and state whose size
does not grow with the stream."""

import json
import math
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import datasets
import numpy as np
import pytest

from tests.evaluation.test_columnar_evaluation import random_rows
from unitxt import compare, evaluate, get_from_catalog, load_dataset
from unitxt.errors import UnitxtError
from unitxt.metrics.accumulators import WHOLE, MetricAccumulator
from unitxt.metrics.kernels.bootstrap import resampled_mean
from unitxt.metrics.kernels.poisson_bootstrap import poisson_weights, weighted_totals
from unitxt.post_processing import LazyTaskData


def flat(scores, prefix=""):
    out = {}
    for name, value in scores.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{name}/"))
        else:
            out[f"{prefix}{name}"] = value
    return out


def is_interval(name):
    return name.endswith(("_ci_low", "_ci_high"))


def assert_same_points(streamed, in_memory):
    """Same score names (CIs included) and every point estimate within 1e-9."""
    streamed, in_memory = flat(streamed), flat(in_memory)
    assert set(streamed) == set(in_memory)
    for name, value in in_memory.items():
        if is_interval(name):
            continue
        if isinstance(value, float):
            assert streamed[name] == pytest.approx(value, abs=1e-9, nan_ok=True), name
        else:
            assert streamed[name] == value, name


INPUTS = {
    "iterable dataset": lambda p, rows: (iter(p), datasets.Dataset.from_list(rows).to_iterable_dataset(), {}),
    "generators": lambda p, rows: ((x for x in p), (row for row in rows), {"chunk_size": 97}),
    "list in chunks": lambda p, rows: (p, rows, {"chunk_size": 250}),
    "dataset in chunks": lambda p, rows: (p, datasets.Dataset.from_list(rows), {"chunk_size": 333}),
}


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("seed, options", [(0, {}), (1, {"with_groups": True}),
                                           (2, {"with_groups": True, "subsets": ([],)})])
def test_point_estimates_equal_the_in_memory_path(kind, seed, options):
    predictions, rows = random_rows(1200, seed, **options)
    in_memory = evaluate(predictions, rows)
    stream_predictions, stream_rows, kwargs = INPUTS[kind](predictions, rows)
    streamed = evaluate(stream_predictions, stream_rows, **kwargs)
    assert len(streamed) == 1200
    assert_same_points(streamed.global_scores, in_memory.global_scores)
    assert_same_points(streamed.subsets_scores, in_memory.subsets_scores)
    assert_same_points(streamed.groups_scores, in_memory.groups_scores)
    assert "poisson" in streamed.signature and streamed.signature.split("|")[:4] == in_memory.signature.split("|")[:4]


def plain_row(index, references, metrics, task_data=None):
    """A unitxt row with no post-processors, groups or subset."""
    return {"source": f"input {index}", "references": references, "metrics": metrics, "postprocessors": [],
            "task_data": json.dumps(task_data or {"metadata": {"template": "t"}}), "groups": [], "subset": [],
            "data_classification_policy": ["public"]}


def assert_stream_matches_memory(predictions, rows, chunk_size):
    """Evaluate the data streamed and in memory, assert their point estimates agree, return both results."""
    in_memory = evaluate(predictions, rows)
    streamed = evaluate(iter(predictions), iter(rows), chunk_size=chunk_size)
    assert_same_points(streamed.global_scores, in_memory.global_scores)
    return streamed, in_memory


def text_rows(n, seed, metrics):
    rng = random.Random(seed)
    words = "the cat sat on a mat with red hat and blue bat".split()
    predictions, rows = [], []
    for index in range(n):
        reference = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        predictions.append(" ".join(rng.choice(words) for _ in range(rng.randint(0, 8))))
        rows.append(plain_row(index, [reference], metrics))
    return predictions, rows


def test_continuous_instance_scores_merge_by_sums():
    """ROUGE and token F1 scores are continuous (a weight per instance and resample is drawn): same points."""
    predictions, rows = text_rows(900, 3, ["metrics.rouge", "metrics.token_overlap"])
    streamed, in_memory = assert_stream_matches_memory(predictions, rows, 128)
    assert streamed.global_scores["rougeL"] == pytest.approx(in_memory.global_scores["rougeL"], abs=1e-12)


@pytest.mark.parametrize("metric", ["metrics.bleu", "metrics.sacrebleu", "metrics.normalized_sacrebleu",
                                    "metrics.chrf", "metrics.chrf_plus_plus"])
def test_corpus_scores_merge_by_summed_statistics(metric):
    """Corpus BLEU and chrF are scores of summed per-instance statistics: the totals merge over chunks, and the
    reported parts (counts, totals, precisions, lengths) are those of the same totals."""
    predictions, rows = text_rows(500, 4, [metric])
    streamed, _ = assert_stream_matches_memory(predictions, rows, 64)
    if metric == "metrics.sacrebleu":  # the parts: n-gram matches and totals of the whole stream
        assert len(streamed.global_scores["counts"]) == 4 and streamed.global_scores["sys_len"] > 500


def numeric_rows(n, seed, metrics):
    rng = random.Random(seed)
    predictions, rows = [], []
    for index in range(n):
        gold = rng.uniform(0, 5)
        predictions.append(float("nan") if index % 17 == 0 else gold + rng.gauss(0, 1))
        rows.append(plain_row(index, [gold], metrics))
    return predictions, rows


def test_squared_errors_merge_by_sums_and_counts():
    predictions, rows = numeric_rows(600, 5, ["metrics.mean_squared_error", "metrics.root_mean_squared_error"])
    streamed, _ = assert_stream_matches_memory(predictions, rows, 100)
    finite = [(p - row["references"][0]) ** 2 for p, row in zip(predictions, rows) if not math.isnan(p)]
    assert streamed.global_scores["mean_squared_error"] == pytest.approx(sum(finite) / len(finite), abs=1e-9)


def test_binary_f1_and_word_error_rate_merge_by_summed_counts():
    rng = random.Random(9)
    predictions, rows = numeric_rows(500, 7, ["metrics.f1_binary", "metrics.precision_binary"])
    for prediction_index, row in enumerate(rows):
        row["references"] = [float(rng.random() < 0.4)]
        predictions[prediction_index] = rng.random()
    assert_stream_matches_memory(predictions, rows, 90)
    predictions, rows = text_rows(400, 8, ["metrics.wer"])
    assert_stream_matches_memory(predictions, rows, 90)


def label_list_rows(n, seed, metrics, entities=False):
    rng = random.Random(seed)
    labels = ["sports", "politics", "tech", "arts", "food"] + ([] if entities else ["only_predicted"])
    predictions, rows = [], []
    for index in range(n):
        def pick():
            chosen = sorted(rng.sample(labels[:5], rng.randint(0, 3)))
            return [(f"span{rng.randint(0, 3)}", label) for label in chosen] if entities else chosen
        gold = pick()
        guess = gold if rng.random() < 0.5 else pick()
        if not entities and rng.random() < 0.1:
            guess = guess + ["only_predicted"]
        predictions.append(guess)
        rows.append(plain_row(index, [gold], metrics))
    return predictions, rows


@pytest.mark.parametrize("metrics, entities", [
    (["metrics.f1_macro_multi_label", "metrics.f1_micro_multi_label"], False),
    (["metrics.precision_macro_multi_label", "metrics.recall_micro_multi_label"], False),
    (["metrics.ner"], True),
])
def test_multi_label_and_entity_f1_merge_counts_keyed_by_label(metrics, entities):
    """Labels and entity types first seen in later chunks get their own columns; per-class scores and macro averages
    cover the labels of the whole stream (a label only ever predicted is no class)."""
    predictions, rows = label_list_rows(600, 10, metrics, entities)
    streamed, _ = assert_stream_matches_memory(predictions, rows, 50)
    per_class = {name for name in streamed.global_scores if name.startswith(("f1_", "precision_", "recall_"))
                 and name.split("_", 1)[1] in ("sports", "politics", "tech", "arts", "food", "only_predicted")}
    if metrics[0] == "metrics.f1_macro_multi_label" or entities:
        assert {name.split("_", 1)[1] for name in per_class} == {"sports", "politics", "tech", "arts", "food"}
    else:  # precision/recall averages are one number, as the original's
        assert per_class == set()


def test_key_value_extraction_relaxed_correctness_and_websrc_merge_by_sums():
    """Key-value extraction learns its reference keys over the whole stream: a key predicted in an early chunk and
    first seen in a reference later is scored, not counted as illegal."""
    rng = random.Random(11)
    keys = ["name", "city", "zip", "phone"]
    predictions, rows = [], []
    for index in range(400):
        gold_keys = keys[:2] if index < 200 else keys  # "zip" and "phone" reach the references in later chunks
        gold = {key: rng.choice(["a", "b"]) for key in gold_keys if rng.random() < 0.8}
        guess = {key: rng.choice(["a", "b"]) for key in keys + ["extra"] if rng.random() < 0.6}
        predictions.append(guess)
        rows.append(plain_row(index, [gold], ["metrics.key_value_extraction.accuracy"]))
    streamed, _ = assert_stream_matches_memory(predictions, rows, 60)
    assert "accuracy_zip" in streamed.global_scores and "accuracy_extra" not in streamed.global_scores
    predictions, rows = text_rows(300, 12, ["metrics.relaxed_correctness", "metrics.websrc_squad_f1"])
    for index, row in enumerate(rows):
        row["task_data"] = json.dumps({"type": "human_test" if index % 4 else "augmented", "metadata": {}})
    assert_stream_matches_memory(predictions, rows, 60)


def test_metric_pipelines_stream_through_their_inner_metric():
    """A MetricPipeline's preprocess steps run per chunk; its inner metric merges; its postprocess steps and prefix
    apply to the merged scores. With two subsets, the subsets mean's CI resamples the inner main score."""
    predictions, rows = text_rows(300, 9, ["metrics.token_overlap_with_context"])
    for index, row in enumerate(rows):
        row["task_data"] = json.dumps({"context": f"the cat sat {index % 7}", "metadata": {"template": "t"}})
        row["subset"] = ["first"] if index % 3 else ["second"]
    streamed, in_memory = assert_stream_matches_memory(predictions, rows, 70)
    assert streamed.global_scores["first"]["f1_overlap_with_context"] == pytest.approx(
        in_memory.global_scores["first"]["f1"], abs=1e-12)
    assert in_memory.global_scores["subsets_mean_ci_low"] < in_memory.global_scores["subsets_mean"]


def test_pearson_merges_by_moment_sums_with_its_p_value_and_dropped_pairs():
    predictions, rows = numeric_rows(500, 15, ["metrics.pearson"])
    streamed, in_memory = assert_stream_matches_memory(predictions, rows, 80)
    scores = streamed.global_scores
    assert scores["pearsonr_dropped_pairs"] == 30 and scores["num_of_instances"] == 470
    assert 0 < scores["pearsonr_p_value"] < 1e-6 and scores["pearsonr_ci_low"] < scores["pearsonr"]
    constant = [3.0] * 40
    _, constant_rows = numeric_rows(40, 16, ["metrics.pearson"])
    streamed, _ = assert_stream_matches_memory(constant, constant_rows, 15)
    assert math.isnan(streamed.global_scores["pearsonr"])
    rng = random.Random(17)  # values far from 0 for their spread: moments are summed about round shifts
    far = [1e5 + rng.gauss(0, 1) for _ in range(3000)]
    far_rows = [plain_row(index, [value + rng.gauss(0, 1)], ["metrics.pearson"]) for index, value in enumerate(far)]
    streamed, _ = assert_stream_matches_memory(far, far_rows, 700)
    assert 0.6 < streamed.global_scores["pearsonr"] < 0.8


def test_metrics_without_an_additive_form_keep_their_inputs_and_give_identical_numbers():
    """Rank correlations do not merge: their processed inputs are kept and scored at the end exactly as in memory,
    CIs, p-values and dropped pairs included (the same bootstrap draws)."""
    predictions, rows = numeric_rows(400, 6, ["metrics.spearman"])
    for index, row in enumerate(rows):
        row["groups"] = ['{"parity": %d}' % (index % 2)]
    in_memory = evaluate(predictions, rows)
    streamed = evaluate(iter(predictions), iter(rows), chunk_size=64)
    assert dict(streamed.global_scores) == dict(in_memory.global_scores)
    assert streamed.global_scores["spearmanr_dropped_pairs"] == 24
    assert streamed.groups_scores == in_memory.groups_scores and set(streamed.groups_scores["parity"]) == {0, 1}


def test_cis_agree_with_the_in_memory_bootstrap_and_the_binomial_interval():
    predictions, rows = random_rows(20000, 5, subsets=([],))
    for row in rows:
        row["metrics"] = ["metrics.accuracy", "metrics.f1_micro", "metrics.f1_macro"]
    in_memory = evaluate(predictions, rows).global_scores
    streamed = evaluate(iter(predictions), iter(rows), chunk_size=2000).global_scores
    for name in ("accuracy", "f1_micro", "f1_macro"):
        width = in_memory[f"{name}_ci_high"] - in_memory[f"{name}_ci_low"]
        for side in ("low", "high"):
            assert abs(streamed[f"{name}_ci_{side}"] - in_memory[f"{name}_ci_{side}"]) < 0.15 * width, name
    p = streamed["accuracy"]
    binomial_width = 2 * 1.959964 * math.sqrt(p * (1 - p) / 20000)
    assert streamed["accuracy_ci_high"] - streamed["accuracy_ci_low"] == pytest.approx(binomial_width, rel=0.1)


def test_the_same_chunking_repeats_exactly_and_other_chunkings_keep_the_points():
    predictions, rows = random_rows(700, 6, with_groups=True, subsets=([],))
    first = evaluate(iter(predictions), iter(rows), chunk_size=100)
    again = evaluate(iter(predictions), iter(rows), chunk_size=100)
    other = evaluate(iter(predictions), iter(rows), chunk_size=33)
    assert flat(first.global_scores) == flat(again.global_scores)
    assert flat(first.subsets_scores) == flat(again.subsets_scores)
    assert first.signature == again.signature != other.signature
    assert first.global_scores.summary.endswith(f"Signature: {first.signature}") and "poisson" in first.signature
    restored = pickle.loads(pickle.dumps(first))
    assert restored.global_scores == first.global_scores and restored.signature == first.signature
    assert len(restored) == 700 and restored.groups_scores == first.groups_scores
    assert_same_points(other.global_scores, first.global_scores)


def test_a_streamed_recipe_scores_as_the_loaded_split():
    recipe = "card=cards.demo.sentiment,num_demos=1,demos_pool_size=20,max_test_instances=150"

    def model(row):
        return "negative" if len(row["source"]) % 3 == 0 else row["target"]

    loaded = load_dataset(recipe, split="test")
    streamed_rows = load_dataset(recipe, split="test", streaming=True)
    in_memory = evaluate([model(row) for row in loaded], loaded)
    streamed = evaluate((model(row) for row in streamed_rows), streamed_rows)
    assert streamed.global_scores["num_of_instances"] == 150
    assert_same_points(streamed.global_scores, in_memory.global_scores)


@pytest.mark.parametrize("metric_name", ["metrics.accuracy", "metrics.f1_macro", "metrics.matthews_correlation"])
def test_state_does_not_grow_with_the_stream(metric_name):
    metric = get_from_catalog(metric_name)
    rng = random.Random(0)

    def state_bytes(chunks):
        accumulator = MetricAccumulator(metric, "test", with_ci=True)
        for _ in range(chunks):
            golds = [rng.choice("abcde") for _ in range(500)]
            guesses = [gold if rng.random() < 0.6 else rng.choice("abcdef") for gold in golds]
            accumulator.add(guesses, [[gold] for gold in golds], LazyTaskData([None] * 500), {WHOLE: None})
        assert accumulator.kind in ("mean", "labels") and accumulator.count() == 500 * chunks
        return sum(array.nbytes for state in accumulator.state.states.values() for array in _arrays(state))

    assert state_bytes(2) == state_bytes(40) > 0


def _arrays(state):
    for value in vars(state).values():
        if isinstance(value, np.ndarray):
            yield value
        elif isinstance(value, dict):
            yield from (item for item in value.values() if isinstance(item, np.ndarray))


def test_poisson_weights_have_mean_and_variance_one():
    weights = poisson_weights(np.random.default_rng(0), 1000, 10000).astype(np.float64)
    assert weights.mean() == pytest.approx(1.0, abs=2e-3) and weights.var() == pytest.approx(1.0, abs=3e-3)
    assert (weights == 0).mean() == pytest.approx(math.exp(-1), abs=2e-3)


def test_weighted_totals_of_equal_rows_and_distinct_rows_have_the_poisson_moments():
    rng = np.random.default_rng(1)
    few = np.repeat([[0.0], [1.0]], [300, 700], axis=0)  # two distinct rows: one Poisson(count) per row
    many = rng.random((1000, 1))  # distinct rows: a weight per instance
    for values in (few, many):
        totals = weighted_totals(rng, 4000, values)[:, 0]
        assert totals.mean() == pytest.approx(values.sum(), rel=0.01)
        assert totals.var() == pytest.approx((values ** 2).sum(), rel=0.08)  # Var(sum w v) = sum v^2


def test_nan_instance_scores_are_left_out_of_means_as_in_memory():
    from unitxt.metrics.accumulators import _MeanState, _ratio

    values = np.array([1.0, np.nan, 0.5, np.nan, 0.25])
    state = _MeanState(200, np.random.default_rng(0))
    state.add({"score": values[:2]})
    state.add({"score": values[2:]})
    mean = _ratio(state.sums["score"], state.counts["score"])
    assert mean == pytest.approx(resampled_mean(values, np.arange(5)[None, :])[0], abs=1e-15)
    assert state.counts["score"] == 3 and state.resampled["score"].shape == (200, 2)
    empty = _MeanState(0, None)
    empty.add({"score": np.array([np.nan, np.nan])})
    assert math.isnan(_ratio(empty.sums["score"], empty.counts["score"]))


def test_a_group_that_ended_before_new_labels_or_score_names_appeared_is_scored_as_in_memory():
    """Group "early" has all its rows in the first chunk; label "late" first appears after it: its counts are
    widened, not misread (single-label F1 and Matthews, multi-label F1)."""
    rows, predictions = [], []
    for index in range(120):
        late = index >= 50
        gold = "late" if late and index % 2 else ["a", "b"][index % 2]
        predictions.append(gold if index % 3 else "b")
        rows.append(plain_row(index, [gold], ["metrics.f1_macro", "metrics.matthews_correlation"]))
        rows[-1]["groups"] = ['{"phase": "%s"}' % ("late" if late else "early")]
    in_memory = evaluate(predictions, rows)
    streamed = evaluate(iter(predictions), iter(rows), chunk_size=50)
    assert_same_points(streamed.groups_scores, in_memory.groups_scores)
    assert "f1_late" in streamed.global_scores and "f1_late" not in streamed.groups_scores["phase"]["early"]


def test_mismatched_counts_bad_chunk_sizes_and_instance_access_are_clear_errors():
    predictions, rows = random_rows(50, 8)
    short = evaluate(iter(predictions[:49]), iter(rows), chunk_size=20)  # the leading 49 rows, as in memory
    assert short.global_scores["num_of_instances"] == 49
    assert short.global_scores["score"] == evaluate(predictions[:49], rows[:49]).global_scores["score"]
    with pytest.raises(UnitxtError, match="Got 51 predictions for 50 instances"):
        evaluate(iter(predictions + ["x"]), iter(rows), chunk_size=20)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(UnitxtError, match="chunk_size must be a positive number of rows"):
            evaluate(predictions, rows, chunk_size=bad)
    results = evaluate(iter(predictions), iter(rows))
    for read in (lambda: results[0], lambda: list(results), lambda: results.instance_scores, results.to_html):
        with pytest.raises(UnitxtError, match="keeps scores, not instances"):
            read()
    with pytest.raises(UnitxtError, match="comes from a streamed evaluation"):
        compare(results, evaluate(predictions, rows))
    with pytest.raises(UnitxtError, match="expected a dict"):
        evaluate(iter(["a"]), iter(["not a row"]))


def test_streamed_intervals_do_not_depend_on_the_process_hash_seed():
    """Label and key columns follow first appearance and sorted sets, never set order: the Poisson draws, and so
    the intervals, are the same in every process."""
    script = (
        "import json, sys; sys.path.insert(0, '.')\n"
        "from tests.evaluation.test_streamed_evaluation import label_list_rows, flat\n"
        "from tests.evaluation.test_columnar_evaluation import random_rows\n"
        "from unitxt import evaluate\n"
        "p, r = random_rows(600, 3, with_groups=True)\n"
        "a = flat(dict(evaluate(iter(p), iter(r), chunk_size=150).global_scores))\n"
        "p, r = label_list_rows(300, 4, ['metrics.f1_macro_multi_label'])\n"
        "b = flat(dict(evaluate(iter(p), iter(r), chunk_size=70).global_scores))\n"
        "print(json.dumps([a, b], sort_keys=True, default=str))\n"
    )
    outputs = []
    for seed in ("1", "2"):
        environment = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                              cwd=Path(__file__).resolve().parents[2], check=True)
        outputs.append(done.stdout.strip().splitlines()[-1])
    assert outputs[0] == outputs[1] and "f1_macro_ci_low" in outputs[0]


def test_a_pipeline_keeping_its_inner_main_score_gets_a_subsets_mean_interval():
    """main_score "score" keeps the inner metric's main score under the name "score" (score_name "score", as the
    original): the subsets mean's CI resamples that score (in memory this raised KeyError 'score' before)."""
    pipeline = json.dumps({"__type__": "metric_pipeline", "metric": "metrics.token_overlap"})
    predictions, rows = text_rows(120, 13, [pipeline])
    for index, row in enumerate(rows):
        row["subset"] = ["a" if index % 2 else "b"]
    streamed, in_memory = assert_stream_matches_memory(predictions, rows, 50)
    for results in (in_memory, streamed):
        scores = results.global_scores
        assert scores["score_name"] == "subsets_mean" and scores["a"]["score_name"] == "score"
        assert scores["a"]["score"] == scores["a"]["f1"]
        assert scores["subsets_mean_ci_low"] < scores["subsets_mean"] < scores["subsets_mean_ci_high"]


def test_invalid_task_data_json_in_a_stream_is_a_clear_error():
    predictions, rows = text_rows(30, 14, ["metrics.rouge"])
    rows[17]["task_data"] = '{"metadata": {"template": "t"'
    with pytest.raises(UnitxtError, match="task_data of an instance is not valid JSON"):
        evaluate(iter(predictions), iter(rows), chunk_size=10)


def test_without_confidence_intervals_no_resamples_are_drawn_and_the_numbers_are_the_same():
    predictions, rows = random_rows(400, 18, with_groups=True)
    in_memory = evaluate(predictions, rows, calc_confidence_intervals=False)
    streamed = evaluate(iter(predictions), iter(rows), calc_confidence_intervals=False, chunk_size=90)
    assert_same_points(streamed.global_scores, in_memory.global_scores)
    assert not [name for name in flat(dict(streamed.global_scores)) if is_interval(name)]
    assert "resamples:0|" in streamed.signature
