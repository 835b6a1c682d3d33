"""Differential tier: identical inputs through the original unitxt (the oracle) and through ours — every shared
catalog metric and post-processor on 200+ generated instances; metrics equal to 1e-9 (instance and global scores
under the keys both report), every CI bound both report equal to 1e-9, processors equal value by value
(or both refusing)."""

import math
import random
import string

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.errors import UnitxtError
from unitxt.evaluation import post_process_rows

N = 240
CLASSES = ["cat", "dog", "bird", "fish"]
WORDS = ["the", "cat", "sat", "on", "a", "mat", "blue", "sky", "is", "Yes", "no", "true", "False", "7.5", "-3",
         "well-known", "don't", "U.S.", "(B)", "[[7]]", "[1, 2]", "{'a': 1}", '{"k": [1]}', "answer: forty: two",
         "John: PER", "Rome: LOC", ",", ";", ".", "!", "?", "- item", "\n", "  ", "été", "3,000", "0", "1", "nan"]


def rng_for(name):
    return random.Random(sum(map(ord, name)))


def text(rng, low=1, high=8):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def classification(rng):
    return ([rng.choice(CLASSES + ["other"]) for _ in range(N)], [[rng.choice(CLASSES)] for _ in range(N)], None)


def binary(rng):
    gold = [[float(rng.random() < 0.4)] for _ in range(N)]
    return [rng.choice([rng.random(), 0.0, 1.0]) for _ in range(N)], gold, None


def multi_label(rng):
    def subset(empty_ok):
        chosen = [label for label in CLASSES if rng.random() < 0.35]
        return chosen if chosen or empty_ok else [rng.choice(CLASSES)]
    predictions = [subset(True) if rng.random() < 0.9 else [""] for _ in range(N)]
    return predictions, [[subset(False)] for _ in range(N)], None


def regression(rng):
    gold = [rng.gauss(0, 1) for _ in range(N)]
    return [g + rng.gauss(0, 1) for g in gold], [[g] for g in gold], None


def roc(rng):
    gold = [float(rng.random() < 0.5) for _ in range(N)]
    return [g * 0.3 + rng.random() for g in gold], [[g] for g in gold], None


def retrieval(rng):
    ids = [f"d{i}" for i in range(15)]
    predictions = [rng.sample(ids, rng.randint(1, 10)) for _ in range(N)]
    return predictions, [[rng.sample(ids, rng.randint(1, 4))] for _ in range(N)], None


def query_relevance(rng):
    predictions = [rng.choice([str(rng.randint(0, 3)), str(round(rng.random(), 3)), "n/a"]) for _ in range(N)]
    references = [[float(rng.randint(0, 3))] for _ in range(N)]
    return predictions, references, [{"query": f"q{rng.randint(0, 20)}"} for _ in range(N)]


def strings(rng):
    references = [[" ".join(rng.choice(WORDS[:14]) for _ in range(rng.randint(1, 8)))] for _ in range(N)]
    predictions = [ref[0] if rng.random() < 0.2 else " ".join(rng.choice(WORDS[:14]) for _ in range(rng.randint(1, 8)))
                   for ref in references]
    return predictions, references, None


def strings_with_context(rng):
    predictions, references, _ = strings(rng)
    return predictions, references, [{"context": " ".join(rng.choice(WORDS[:14]) for _ in range(12))} for _ in range(N)]


def strings_with_domain(rng):
    predictions, references, _ = strings(rng)
    return predictions, references, [{"domain": rng.choice(["auto", "book", "movie"]),
                                      "type": rng.choice(["human_test", "augmented_test"])} for _ in range(N)]


def strings_with_entities(rng):
    predictions, references, _ = strings(rng)
    return predictions, references, [{"entities": rng.sample(WORDS[:14], 2)} for _ in range(N)]


def word_lists(rng):
    predictions = [[rng.choice(CLASSES) for _ in range(rng.randint(1, 3))] for _ in range(N)]
    return predictions, [[rng.sample(CLASSES, rng.randint(1, 3))] for _ in range(N)], None


def entities(rng):
    spans = ["John", "Rome", "IBM", "Paris", "Ann"]
    labels = ["PER", "LOC", "ORG"]

    def pairs():
        return [[rng.choice(spans), rng.choice(labels)] for _ in range(rng.randint(0, 3))]
    return [pairs() for _ in range(N)], [[pairs()] for _ in range(N)], None


METRICS = {
    "classification": (classification, ["accuracy", "f1_micro", "f1_macro", "f1_weighted", "matthews_correlation",
                                        "string_containment"]),
    "binary": (binary, ["f1_binary", "accuracy_binary", "max_accuracy_binary", "precision_binary", "recall_binary"]),
    "multi_label": (multi_label, ["f1_micro_multi_label", "f1_macro_multi_label", "precision_micro_multi_label",
                                  "precision_macro_multi_label", "recall_micro_multi_label",
                                  "recall_macro_multi_label"]),
    "regression": (regression, ["pearson", "spearman", "kendalltau_b", "mean_squared_error",
                                "root_mean_squared_error"]),
    "roc": (roc, ["roc_auc"]),
    "retrieval": (retrieval, ["mrr", "map", "retrieval_at_k"]),
    "query_relevance": (query_relevance, ["ndcg"]),
    "strings": (strings, ["char_edit_distance", "char_edit_dist_accuracy", "anls", "token_overlap",
                          "prediction_length", "normalized_sacrebleu", "sacrebleu", "bleu", "wer", "squad",
                          "jaccard_index_words", "exact_match_mm"]),
    "strings_with_domain": (strings_with_domain, ["websrc_squad_f1", "relaxed_correctness"]),
    "strings_with_entities": (strings_with_entities, ["string_containment_ratio"]),
    "strings_with_context": (strings_with_context, ["token_overlap_with_context"]),
    "word_lists": (word_lists, ["jaccard_index", "unsorted_list_exact_match"]),
    "entities": (entities, ["ner", "metric_based_ner"]),
}
# (metric, CI key) pairs that differ from the original on purpose (see exceptions.md)
CI_EXCEPTIONS = {(name, key) for name in ("f1_binary", "precision_binary", "recall_binary")
                 for key in ("score_ci_low", "score_ci_high", "f1_binary_neg_ci_low", "f1_binary_neg_ci_high")}
# metrics that report CIs of more scores than the original (its main score's CIs are still checked); exceptions.md
EXTRA_CI_ALLOWED = {"f1_binary", "precision_binary", "recall_binary"}
METRIC_CASES = [(family, name) for family, (_, names) in METRICS.items() for name in names]

PROCESSORS = ["yes_no_to_int", "cast_to_float_return_zero_if_failed", "cast_to_float_return_nan_if_failed",
              "cast_to_float_return_0_5_if_failed", "literal_eval", "first_character", "take_first_word",
              "lower_case_till_punc", "to_list_by_comma", "to_list_by_comma_space", "to_list_by_hyphen_space",
              "load_json", "extract_from_double_brackets", "scale_0_10_to_0_1", "convert_to_boolean",
              "to_span_label_pairs", "extract_mt_bench_rating_judgment", "lower_case", "upper_case",
              "take_first_non_empty_line", "take_last_non_empty_line", "to_string_stripped", "to_string",
              "remove_articles", "remove_punctuations", "fix_whitespace", "capitalize", "get_string_after_colon",
              "substring", "dict_of_lists_to_value_key_pairs", "extract_mt_bench_label_judgment",
              "extract_arena_hard_numerical_judgment", "extract_verbal_judgement_bad_good"]


def same(ours, theirs, where):
    if isinstance(theirs, float) and math.isnan(theirs):
        assert isinstance(ours, float) and math.isnan(ours), f"{where}: {ours!r} != NaN"
    elif isinstance(theirs, (int, float)) and not isinstance(theirs, bool):
        assert isinstance(ours, (int, float)) and abs(ours - theirs) <= 1e-9, f"{where}: {ours!r} != {theirs!r}"
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), f"{where}: {ours!r} != {theirs!r}"
        for index, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{where}[{index}]")
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and set(ours) == set(theirs), f"{where}: {ours!r} != {theirs!r}"
        for key in theirs:
            same(ours[key], theirs[key], f"{where}.{key}")
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


@pytest.fixture(scope="module")
def oracle_metric_results(oracle):
    jobs = []
    for family, name in METRIC_CASES:
        predictions, references, task_data = METRICS[family][0](rng_for(name))
        jobs.append({"kind": "metric", "name": f"metrics.{name}", "predictions": predictions,
                     "references": references, "task_data": task_data, "pairs_as_tuples": family == "entities"})
    return dict(zip(METRIC_CASES, oracle(jobs)))


@pytest.mark.parametrize("family,name", METRIC_CASES)
def test_metric_gives_the_original_numbers(family, name, oracle_metric_results):
    theirs = oracle_metric_results[(family, name)]
    assert "error" not in theirs, theirs.get("error")
    predictions, references, task_data = METRICS[family][0](rng_for(name))
    metric = fetch_artifact(f"metrics.{name}")[0]
    scores = metric.evaluate(predictions, references, task_data)
    instances, global_scores = metric.instance_results(scores), scores.global_scores(with_ci=True)
    assert global_scores["score_name"] == theirs["global"]["score_name"]
    shared = [key for key in theirs["global"] if key in global_scores and "_ci_" not in key
              and key != "num_of_instances"]
    assert theirs["global"]["score_name"] in shared
    for key in shared:
        same(global_scores[key], theirs["global"][key], f"{name} global {key}")
    for index, (ours, original) in enumerate(zip(instances, theirs["instances"])):
        for key in original:
            if key in ours:
                same(ours[key], original[key], f"{name} instance {index} {key}")
    for key in theirs["global"]:  # every CI bound both report: the same resamples, jackknife and BCa interval
        if "_ci_" in key and key in global_scores and (name, key) not in CI_EXCEPTIONS:
            same(global_scores[key], theirs["global"][key], f"{name} global {key}")
    assert not [key for key in global_scores if "_ci_" in key and key not in theirs["global"]
                and (name, key) not in CI_EXCEPTIONS and key.split("_ci_")[0] in theirs["global"]
                and name not in EXTRA_CI_ALLOWED], f"{name}: CIs the original does not report"


def processor_inputs(name):
    rng = rng_for(name)
    values = [text(rng) for _ in range(N)]
    values += ["yes", "no", "Yes", "", "  ", "7", "x", "[[3]]", "- a\n- b", "a,,b", "0", "1", "nan", "1e3"]
    return values


@pytest.fixture(scope="module")
def oracle_processor_results(oracle):
    jobs = [{"kind": "processor", "name": f"processors.{name}", "predictions": processor_inputs(name),
             "references": [[value] for value in processor_inputs(name)]} for name in PROCESSORS]
    return dict(zip(PROCESSORS, oracle(jobs)))


@pytest.mark.parametrize("name", PROCESSORS)
def test_processor_gives_the_original_values(name, oracle_processor_results):
    theirs = oracle_processor_results[name]
    assert "error" not in theirs, theirs.get("error")
    for index, (value, original) in enumerate(zip(processor_inputs(name), theirs["instances"])):
        try:
            predictions, references, _ = post_process_rows(
                [value], [{"references": [value], "postprocessors": [f"processors.{name}"]}])
            ours = {"prediction": predictions[0], "references": references[0]}
        except UnitxtError:
            ours = {"error": "refused"}
        if "error" in original:
            assert "error" in ours, f"{name} {value!r}: the original refuses, we give {ours!r}"
            continue
        assert "error" not in ours, f"{name} {value!r}: we refuse, the original gives {original!r}"
        same(ours, original, f"{name} {value!r}")
