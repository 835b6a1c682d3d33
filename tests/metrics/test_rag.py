"""Lexical RAG metrics, MetricsList catalog entries, the metric catalog's metadata, and InstanceMetric reductions."""

import math
import random
import re
import string
from collections import Counter

import numpy as np
import pytest

from unitxt import evaluate
from unitxt.catalog import fetch_artifact, get_default_catalog
from unitxt.errors import MetricError
from unitxt.metrics.base import InstanceMetric, Metric
from unitxt.metrics.lists import MetricsList
from unitxt.metrics.rag import ContextCorrectnessMRR, TokenKPrecision, TokenRecall
from unitxt.metrics.string_match import TokenOverlap

from tests.support.metric_cases import assert_close, make_row, random_text, random_text_corpus

IDS = [f"c{i}" for i in range(12)]


def normalize(text):
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def common(a, b):
    return sum((Counter(a) & Counter(b)).values())


def ref_k_precision(answer, contexts):
    tokens = normalize(answer).split()
    context_tokens = normalize(" ".join(contexts)).split()
    return common(tokens, context_tokens) / len(tokens) if tokens and common(tokens, context_tokens) else 0.0


def ref_recall(answer, golds):
    tokens = normalize(answer).split()
    best = 0.0
    for gold in golds:
        gold_tokens = normalize(gold).split()
        if gold_tokens and common(tokens, gold_tokens):
            best = max(best, common(tokens, gold_tokens) / len(gold_tokens))
    return best


def ref_rr(gold, ranked):
    for rank, item in enumerate(dict.fromkeys(ranked), 1):
        if item in gold:
            return 1.0 / rank
    return 0.0


def random_rag(seed):
    rng = random.Random(seed)
    predictions, references, task_data = [], [], []
    for _ in range(rng.randint(2, 6)):
        contexts = [random_text(rng) for _ in range(rng.randint(1, 3))]
        source = rng.choice(contexts)
        words = source.split(" ")
        answer = " ".join(w for w in words if rng.random() < 0.7) + (" " + random_text(rng, 3) if rng.random() < 0.5 else "")
        golds = [random_text(rng, 6) if rng.random() < 0.4 else " ".join(words[: rng.randint(1, 6)])
                 for _ in range(rng.randint(1, 2))]
        data = {
            "question": "q?",
            "contexts": contexts,
            "contexts_id": rng.sample(IDS, rng.randint(0, 5)),
            "reference_answers": golds,
            "reference_context_ids": rng.sample(IDS, rng.randint(1, 2)),
        }
        predictions.append(answer)
        references.append(golds)
        task_data.append(data)
    return predictions, references, task_data


def _token_overlap(predictions, references, score):
    scores = TokenOverlap().evaluate(predictions, references, [{} for _ in predictions])
    return [row[score] for row in TokenOverlap().instance_results(scores)]


def test_rag_pipelines_score_their_fields_on_200_random_cases():
    # the original's layouts: answers against task_data contexts / reference answers (token overlap precision /
    # recall), and the record's own context_ids against its ground_truths_context_ids (reciprocal rank)
    faithfulness = fetch_artifact("metrics.rag.faithfulness.token_k_precision")[0]
    correctness = fetch_artifact("metrics.rag.answer_correctness.token_recall")[0]
    context = fetch_artifact("metrics.rag.context_correctness.mrr")[0]
    for seed in range(200):
        predictions, references, task_data = random_rag(seed)
        cases = [
            (faithfulness, "precision", _token_overlap(predictions, [d["contexts"] for d in task_data], "precision")),
            (correctness, "recall", _token_overlap(predictions, [d["reference_answers"] for d in task_data], "recall")),
        ]
        for metric, main, expected in cases:
            scores = metric.evaluate(predictions, references, task_data)
            for index, row in enumerate(metric.instance_results(scores)):
                assert_close(row[main], expected[index], what=f"seed {seed} {main} {index}")
                assert row["score_name"] == main
            assert_close(scores.global_scores(with_ci=False)[main], float(np.mean(expected)))
        records = [{"context_ids": d["contexts_id"], "ground_truths_context_ids": d["reference_context_ids"]}
                   for d in task_data]
        rows = list(context.process(iter(records)))
        expected = [ref_rr(d["reference_context_ids"], d["contexts_id"]) for d in task_data]
        for row, value in zip(rows, expected):
            assert_close(row["score"]["instance"]["mrr"], value, what=f"seed {seed} mrr")
            assert row["score"]["instance"]["score_name"] == "mrr"
        assert_close(rows[0]["score"]["global"]["score"], float(np.mean(expected)))


def test_rag_metrics_read_a_rag_response_dict_and_fall_back_to_references():
    response = {"answer": "The cat sat on the mat", "contexts": ["a cat sat", "on a mat"], "contexts_id": ["c3", "c1"]}
    f = TokenKPrecision().evaluate([response], [["x"]], [{}]).global_scores(with_ci=False)
    assert f["faithfulness"] == pytest.approx(1.0)  # cat sat on mat (articles dropped)
    r = TokenRecall().evaluate([response], [["cat on a sofa"]], [{}]).global_scores(with_ci=False)
    assert r["answer_correctness"] == pytest.approx(2 / 3)  # references used: no reference_answers in task_data
    m = ContextCorrectnessMRR().evaluate([response], [[["c1"]]], [{}]).global_scores(with_ci=False)
    assert m["context_correctness"] == pytest.approx(0.5)
    ranked = ContextCorrectnessMRR().evaluate([["c9", "c1"]], [[["c9"]]], [{}]).global_scores(with_ci=False)
    assert ranked["context_correctness"] == 1.0
    with pytest.raises(MetricError, match="contexts"):
        TokenKPrecision().evaluate(["an answer"], [["x"]], [{"question": "q"}])
    with pytest.raises(MetricError, match="gold context ids"):
        ContextCorrectnessMRR().evaluate(["an answer"], [["an answer"]], [{"contexts_id": ["c1"]}])
    custom = TokenKPrecision(contexts_field="passages").evaluate(["x y"], [["q"]], [{"passages": "x z"}])
    assert custom.global_scores(with_ci=False)["faithfulness"] == 0.5


def test_rag_metrics_through_evaluate():
    predictions, references, task_data = [], [], []
    for seed in range(30):
        p, r, d = random_rag(seed)
        predictions += p
        references += r
        task_data += d
    names = ["metrics.rag.response_generation.faithfulness.token_k_precision",
             "metrics.rag.response_generation.answer_correctness.token_recall"]
    rows = [make_row(refs[0], refs, names, [], data) for refs, data in zip(references, task_data)]
    results = evaluate(predictions, rows)
    expected = {
        "faithfulness_token_k_precision_precision":
            _token_overlap(predictions, [d["contexts"] for d in task_data], "precision"),
        "answer_correctness_token_recall_recall":
            _token_overlap(predictions, [d["reference_answers"] for d in task_data], "recall"),
    }
    for name, values in expected.items():
        assert_close(results.global_scores[name], float(np.mean(values)))
        assert f"{name}_ci_low" in results.global_scores
        for result, value in zip(results, values):
            assert_close(result["score"]["instance"][name], value)
    assert results.global_scores["score_name"] == "faithfulness_token_k_precision_precision"


# ---------------------------------------------------------------- MetricsList
def test_recommended_no_gpu_list_expands_in_evaluate():
    recommended = fetch_artifact("metrics.qa.open.recommended_no_gpu")[0]
    assert isinstance(recommended, MetricsList)
    assert recommended.names() == ["metrics.rouge"]  # as the original's list
    assert all(isinstance(m, Metric) for m in recommended.metrics())
    expanded = MetricsList.expand(["metrics.qa.open.recommended_no_gpu", "metrics.exact_match"])
    assert expanded == recommended.names() + ["metrics.exact_match"]
    predictions, references = random_text_corpus(3)
    # evaluate() expands a MetricsList name in the rows' metrics into its items, in order
    listed = evaluate(predictions, [make_row(r[0], r, ["metrics.qa.open.recommended_no_gpu", "metrics.exact_match"], [])
                                    for r in references])
    results = evaluate(predictions, [make_row(r[0], r, expanded, []) for r in references])
    assert dict(listed.global_scores) == dict(results.global_scores)
    assert listed.global_scores["score_name"] == "rougeL"
    for name in ("rougeL", "exact_match", "rouge1"):
        assert name in results.global_scores
    inline = MetricsList(items=[TokenOverlap(normalize=False)])
    assert MetricsList.from_dict(inline.to_dict()).metrics()[0].normalize is False


def test_every_metric_catalog_entry_has_description_tags_and_loads():
    catalog = get_default_catalog()
    names = [name for name in catalog.names() if name.startswith("metrics.")]
    assert len(names) >= 50
    for name in names:
        data = catalog.load_data(name)
        assert data.get("__description__"), name
        artifact = fetch_artifact(name)[0]
        if data.get("__tags__", {}).get("kind") == "criteria":  # judge criteria live under metrics.llm_as_judge.*
            from unitxt.llm_as_judge_constants import Criteria

            assert name.startswith("metrics.llm_as_judge.") and isinstance(artifact, Criteria), name
            continue
        assert data.get("__tags__", {}).get("kind") == "metric", name
        assert isinstance(artifact, (Metric, MetricsList)), name
    wanted = ["rouge", "bleu", "sacrebleu", "normalized_sacrebleu", "chrf", "spearman", "pearson", "kendalltau_b",
              "roc_auc", "token_overlap", "squad", "char_edit_distance", "char_edit_dist_accuracy", "wer", "anls",
              "exact_match", "ner", "mrr", "map", "ndcg", "retrieval_at_k", "recall_at_5", "precision_at_5",
              "rag.faithfulness.token_k_precision", "rag.answer_correctness.token_recall",
              "rag.context_correctness.mrr", "qa.open.recommended_no_gpu", "string_containment"]
    assert {f"metrics.{name}" for name in wanted} <= set(names)


# ---------------------------------------------------------------- reductions through InstanceMetric
class Values(InstanceMetric):
    """Test metric: the prediction itself is the instance score (NaN allowed)."""

    main_score = "value"
    prediction_type = float

    def compute(self, references, prediction, task_data):
        return {"value": prediction, "double": 2 * prediction}


@pytest.mark.parametrize("reduction", ["mean", "median", "max", "min"])
def test_single_reduction_keeps_the_score_name(reduction):
    rng = random.Random(reduction)
    for _ in range(50):
        values = [rng.choice([rng.random(), math.nan if rng.random() < 0.2 else 0.5]) for _ in range(rng.randint(2, 9))]
        if all(math.isnan(v) for v in values):
            values[0] = 0.25
        metric = Values(reduction_map={reduction: ["value", "double"]}, n_resamples=50)
        scores = metric.evaluate(values, [[0.0]] * len(values)).global_scores()
        array = np.asarray(values)
        function = {"mean": np.nanmean, "median": np.nanmedian, "max": np.nanmax, "min": np.nanmin}[reduction]
        assert_close(scores["value"], float(function(array)))
        assert_close(scores["double"], float(function(2 * array)))
        present = array[~np.isnan(array)]
        # no CI when every instance value is equal (the original's rule for instance metrics)
        assert scores["score"] == scores["value"] and ("value_ci_low" in scores) == bool((present != present[0]).any())


def test_several_reductions_name_non_mean_scores_with_a_suffix():
    predictions, references = random_text_corpus(21, max_instances=12)
    metric = TokenOverlap(reduction_map={"mean": ["f1"], "median": ["f1", "recall"], "max": ["f1"]},
                          ci_scores=["f1", "f1_median"])
    scores = metric.evaluate(predictions, references)
    global_scores = scores.global_scores()
    f1 = np.asarray([row["f1"] for row in scores.instance_scores])
    recall = np.asarray([row["recall"] for row in scores.instance_scores])
    assert_close(global_scores["f1"], float(f1.mean()))
    assert_close(global_scores["f1_median"], float(np.median(f1)))
    assert_close(global_scores["recall_median"], float(np.median(recall)))
    assert_close(global_scores["f1_max"], float(f1.max()))
    assert "f1_median_ci_low" in global_scores and "f1_max_ci_low" not in global_scores
    with pytest.raises(MetricError, match="Unknown reduction"):
        TokenOverlap(reduction_map={"mode": ["f1"]})
