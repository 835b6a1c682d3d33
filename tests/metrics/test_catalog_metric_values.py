"""Catalog metrics give the original system's numbers and keys on the same data (issue "Same name, same number");
every expected value is written out from the original system's output on these inputs."""

import math

import pytest

from unitxt.catalog import fetch_artifact


def run(name, predictions, references):
    metric = fetch_artifact(name)[0]
    scores = metric.evaluate(predictions, references)
    return metric.instance_results(scores), scores.global_scores(with_ci=True)


def test_f1_binary_has_negative_class_keys_and_nan_instances():
    instances, scores = run("metrics.f1_binary", [1.0, 0.0, 0.9, 0.2], [[1.0], [1.0], [0.0], [1.0]])
    assert all(math.isnan(row["f1_binary"]) and math.isnan(row["score"]) for row in instances)
    assert scores["f1_binary"] == pytest.approx(0.4) and scores["precision_binary"] == pytest.approx(0.5)
    assert scores["recall_binary"] == pytest.approx(1 / 3)
    assert (scores["f1_binary_neg"], scores["precision_binary_neg"], scores["recall_binary_neg"]) == (0.0, 0.0, 0.0)
    # ours: score_ci_* is the interval of the main (positive-class) score
    assert (scores["score_ci_low"], scores["score_ci_high"]) == (scores["f1_binary_ci_low"], scores["f1_binary_ci_high"])


def test_multi_label_per_class_f1_and_instances_scored_alone():
    predictions, references = [["a"], [""], ["a", "b"]], [[["a"]], [["b"]], [["b"]]]
    instances, scores = run("metrics.f1_macro_multi_label", predictions, references)
    assert [{k: v for k, v in row.items() if k.startswith("f1_")} for row in instances] == [
        {"f1_macro": 1.0, "f1_a": 1.0}, {"f1_macro": 0.0, "f1_b": 0.0}, {"f1_macro": 1.0, "f1_b": 1.0}]
    assert scores["f1_macro"] == pytest.approx(2 / 3)
    assert scores["f1_a"] == pytest.approx(2 / 3) and scores["f1_b"] == pytest.approx(2 / 3)
    instances, scores = run("metrics.f1_micro_multi_label", predictions, references)
    assert [row["f1_micro"] for row in instances] == [1.0, 0.0, 1.0] and scores["f1_micro"] == pytest.approx(2 / 3)
    assert "f1_a" not in scores


def test_empty_multi_label_answer_is_one_empty_item():
    from unitxt.evaluation import post_process_rows

    predictions, _, _ = post_process_rows([""], [{"references": [], "postprocessors": ["processors.to_list_by_comma"]}])
    assert predictions == [[""]]


def test_map_averages_over_retrieved_relevant_ids_and_retrieval_at_k_is_the_match_family():
    predictions, references = [["d1", "d2", "d3"], ["d4", "d1"]], [[["d2", "d9"]], [["d1"]]]
    instances, scores = run("metrics.map", predictions, references)
    assert [row["map"] for row in instances] == [0.5, 0.5] and scores["map"] == 0.5
    instances, scores = run("metrics.retrieval_at_k", predictions, references)
    assert scores["score_name"] == "match_at_1" and scores["score"] == 0.0
    assert instances[0]["precision_at_5"] == pytest.approx(1 / 3) and instances[1]["precision_at_40"] == 0.5
    assert scores["precision_at_3"] == pytest.approx(0.41666666666666663) and scores["recall_at_3"] == 0.75
    assert scores["match_at_3"] == 1.0 and scores["match_at_40"] == 1.0 and scores["recall_at_1"] == 0.0


def test_kendalltau_b_p_value_key():
    _, scores = run("metrics.kendalltau_b", [1.0, 2.0, 3.0, 4.0, 2.0], [[1.0], [3.0], [2.0], [4.0], [1.0]])
    assert "kendalltau_b_p_val" in scores and "kendalltau_b_p_value" not in scores
    _, scores = run("metrics.spearman", [1.0, 2.0, 3.0, 4.0, 2.0], [[1.0], [3.0], [2.0], [4.0], [1.0]])
    assert "spearmanr_p_value" in scores


@pytest.mark.parametrize("seed", range(30))
def test_ndcg_is_per_query_ndcg_of_relevance_scores_as_sklearn(seed):
    import random

    import numpy as np
    from sklearn.metrics import ndcg_score

    rng = random.Random(seed)
    predictions, references, task_data, queries = [], [], [], {}
    for index in range(rng.randint(4, 30)):
        query = f"q{rng.randint(0, 4)}"
        prediction = rng.choice([rng.randint(0, 3), rng.random(), rng.randint(0, 3)])  # integers give ties
        relevance = float(rng.randint(0, 3))
        predictions.append(prediction)
        references.append([relevance])
        task_data.append({"query": query})
        queries.setdefault(query, ([], []))
        queries[query][0].append(float(prediction))
        queries[query][1].append(relevance)
    expected = [ndcg_score([gold], [pred]) for pred, gold in queries.values() if len(gold) > 1]
    metric = fetch_artifact("metrics.ndcg")[0]
    scores = metric.evaluate(predictions, references, task_data)
    value = scores.global_scores(with_ci=False)["nDCG"]
    if expected:
        assert value == pytest.approx(float(np.mean(expected)), abs=1e-12)
    else:
        assert math.isnan(value)
    assert all(math.isnan(row["nDCG"]) for row in metric.instance_results(scores))


def test_ndcg_ranks_non_numeric_predictions_last():
    metric = fetch_artifact("metrics.ndcg")[0]
    data = [{"query": "q"}] * 3
    scores = metric.evaluate(["0.9", "oops", "0.1"], [[3.0], [2.0], [0.0]], data).global_scores(with_ci=False)
    from sklearn.metrics import ndcg_score

    assert scores["nDCG"] == pytest.approx(ndcg_score([[3.0, 2.0, 0.0]], [[1.8, 0.0, 1.0]]))
    one_numeric = metric.evaluate(["x", "y", "0.3"], [[1.0], [2.0], [0.0]], data).global_scores(with_ci=False)
    assert one_numeric["nDCG"] == 0.0
