"""Retrieval metric classes (mrr, map, ndcg, recall/precision/ndcg at k) and the NER span-F1 metric against
straightforward reference implementations written here (and sklearn's ndcg_score where it applies)."""

import math
import random
from collections import Counter

import numpy as np
import pytest

from unitxt.metrics.kernels.bootstrap import percentile_interval, resample_indices
from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.ner import NER
from unitxt.metrics.retrieval import RetrievalAtK
from unitxt.settings_utils import settings

from tests.support.metric_cases import assert_close

IDS = [f"doc{i}" for i in range(15)]


def metric(name):
    return fetch_artifact(name)[0]


# ---------------------------------------------------------------- retrieval reference
def dedupe(ranked):
    seen, out = set(), []
    for item in ranked:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def ref_scores(gold_lists, ranked, ks=(1, 3, 5, 10, 20, 40)):
    gold = set(g for lst in gold_lists for g in lst)
    ranked = dedupe(ranked)
    hits = [item in gold for item in ranked]
    rr = next((1.0 / (i + 1) for i, hit in enumerate(hits) if hit), 0.0)
    ap, found = 0.0, 0
    for i, hit in enumerate(hits):
        if hit:
            found += 1
            ap += found / (i + 1)
    out = {"mrr": rr, "map_trec": ap / len(gold) if gold else 0.0, "map": ap / found if found else 0.0}

    def ndcg(k):
        top = hits if k is None else hits[:k]
        dcg = sum(1.0 / math.log2(i + 2) for i, hit in enumerate(top) if hit)
        ideal = sum(1.0 / math.log2(i + 2) for i in range(len(gold) if k is None else min(k, len(gold))))
        return dcg / ideal if ideal else 0.0

    out["ndcg"] = ndcg(None)
    for k in ks:
        out[f"recall_at_{k}"] = sum(hits[:k]) / len(gold) if gold else 0.0
        out[f"precision_at_{k}"] = sum(hits[:k]) / k
        out[f"ndcg_at_{k}"] = ndcg(k)
        out[f"match_at_{k}"] = float(any(hits[:k]))
        out[f"precision_over_retrieved_at_{k}"] = sum(hits[:k]) / len(hits[:k]) if hits[:k] else 0.0
    return out


def random_retrieval(seed):
    rng = random.Random(seed)
    predictions, references = [], []
    for _ in range(rng.randint(2, 8)):
        ranked = [rng.choice(IDS) for _ in range(rng.randint(0, 12))]  # duplicates possible
        gold = rng.sample(IDS, rng.randint(0 if rng.random() < 0.05 else 1, 4))
        references.append([gold] if rng.random() < 0.8 else [gold[:1], gold[1:]])  # pooled gold lists
        predictions.append(ranked)
    return predictions, references


KS = (1, 3, 5, 10, 20, 40)


@pytest.mark.parametrize("name,expected_names", [  # {score the metric reports: the reference's score name}
    ("metrics.mrr", {"mrr": "mrr"}),
    ("metrics.map", {"map": "map"}),
    ("metrics.map_trec", {"map": "map_trec"}),
    ("metrics.ndcg_of_ranked_ids", {"ndcg": "ndcg"}),
    ("metrics.retrieval_at_k_ndcg", {f"{m}_at_{k}": f"{m}_at_{k}" for m in ("recall", "precision", "ndcg")
                                     for k in (1, 3, 5, 10)}),
    ("metrics.retrieval_at_k", {**{f"{m}_at_{k}": f"{m}_at_{k}" for m in ("recall", "match") for k in KS},
                                **{f"precision_at_{k}": f"precision_over_retrieved_at_{k}" for k in KS}}),
    ("metrics.recall_at_5", {name: name for name in ("recall_at_5", "precision_at_5", "ndcg_at_5")}),
    ("metrics.precision_at_1", {name: name for name in ("recall_at_1", "precision_at_1", "ndcg_at_1")}),
])
def test_retrieval_metric_matches_reference_on_200_random_corpora(name, expected_names):
    metric_ = metric(name)
    for seed in range(200):
        predictions, references = random_retrieval(seed)
        result = metric_.evaluate(predictions, references)
        instances, global_scores = metric_.instance_results(result), result.global_scores(with_ci=False)
        expected = [ref_scores(refs, ranked) for ranked, refs in zip(predictions, references)]
        for score, reference_name in expected_names.items():
            for index, row in enumerate(instances):
                assert_close(row[score], expected[index][reference_name], what=f"{name} seed {seed} {index} {score}")
            assert_close(global_scores[score], float(np.mean([e[reference_name] for e in expected])),
                         what=f"{name} {score}")
        assert global_scores["score_name"] == metric_.main_score
        assert set(instances[0]) == set(expected_names) | {"score", "score_name"}


def test_ndcg_equals_sklearn_when_the_ranking_covers_all_ids():
    from sklearn.metrics import ndcg_score

    ndcg = metric("metrics.ndcg_of_ranked_ids")
    rng = random.Random(0)
    for _ in range(200):
        ranked = rng.sample(IDS, len(IDS))
        gold = rng.sample(IDS, rng.randint(1, 5))
        ours = ndcg.evaluate([ranked], [[gold]]).global_scores(with_ci=False)["ndcg"]
        y_true = [[1.0 if doc in gold else 0.0 for doc in IDS]]
        y_score = [[len(IDS) - ranked.index(doc) for doc in IDS]]
        assert_close(ours, float(ndcg_score(y_true, y_score)))


def test_retrieval_cis_and_configuration():
    predictions, references = [], []
    for seed in range(8):
        p, r = random_retrieval(seed)
        predictions += p
        references += r
    at_k = RetrievalAtK(k_list=[2, 4], main_score="precision_at_2", n_resamples=100,
                        measures=["recall", "precision", "ndcg"], precision_over_retrieved=False)
    scores = at_k.evaluate(predictions, references).global_scores()
    assert scores == at_k.evaluate(predictions, references).global_scores()
    for name in ("recall_at_2", "recall_at_4", "precision_at_2", "precision_at_4", "ndcg_at_2", "ndcg_at_4"):
        assert scores[f"{name}_ci_low"] <= scores[name] <= scores[f"{name}_ci_high"]
    assert scores["score"] == scores["precision_at_2"]
    assert RetrievalAtK(k_list=[2]).main_score == "match_at_2"  # the original's default main score
    with pytest.raises(MetricError, match="main_score"):
        RetrievalAtK(k_list=[2], main_score="recall_at_5")
    with pytest.raises(MetricError, match="k_list"):
        RetrievalAtK(k_list=[0], main_score="recall_at_0")
    with pytest.raises(MetricError, match=r"expects Union\[List\[str\], List\[int\]\]"):
        metric("metrics.mrr").evaluate(["doc1"], [[["doc1"]]])


# ---------------------------------------------------------------- NER reference
TYPES = ["PER", "LOC", "ORG", "MISC"]
SPANS = ["John", "Paris", "IBM", "New York", "Mary", "the UN", "Berlin", "Acme"]


def ref_ner(golds, preds):
    tp, fp, fn = Counter(), Counter(), Counter()
    for gold, pred in zip(golds, preds):
        g, p = Counter(map(tuple, gold)), Counter(map(tuple, pred))
        hits = g & p
        for (_, t), c in hits.items():
            tp[t] += c
        for (_, t), c in (p - hits).items():
            fp[t] += c
        for (_, t), c in (g - hits).items():
            fn[t] += c

    def div(a, b):
        return a / b if b else 0.0

    types = set(tp) | set(fp) | set(fn)
    out = {}
    total_tp, total_fp, total_fn = sum(tp.values()), sum(fp.values()), sum(fn.values())
    out["precision_micro"] = div(total_tp, total_tp + total_fp)
    out["recall_micro"] = div(total_tp, total_tp + total_fn)
    out["f1_micro"] = div(2 * total_tp, 2 * total_tp + total_fp + total_fn)
    supported = [t for t in types if tp[t] + fn[t] > 0]
    out["precision_macro"] = div(sum(div(tp[t], tp[t] + fp[t]) for t in supported), len(supported))
    out["recall_macro"] = div(sum(div(tp[t], tp[t] + fn[t]) for t in supported), len(supported))
    out["f1_macro"] = div(sum(div(2 * tp[t], 2 * tp[t] + fp[t] + fn[t]) for t in supported), len(supported))
    for t in types:
        out[f"f1_{t}"] = div(2 * tp[t], 2 * tp[t] + fp[t] + fn[t])
    return out


def random_ner(seed):
    rng = random.Random(seed)
    predictions, references = [], []
    for _ in range(rng.randint(1, 8)):
        gold = [[rng.choice(SPANS), rng.choice(TYPES)] for _ in range(rng.randint(0, 4))]
        pred = []
        for span, entity_type in gold:
            roll = rng.random()
            if roll < 0.6:
                pred.append((span, entity_type))
            elif roll < 0.8:
                pred.append((span, rng.choice(TYPES)))
        pred += [(rng.choice(SPANS), rng.choice(TYPES)) for _ in range(rng.randint(0, 2))]
        if pred and rng.random() < 0.1:
            pred.append(pred[0])  # a duplicate prediction
        rng.shuffle(pred)
        predictions.append(pred)
        references.append([gold])
    return predictions, references


def test_ner_matches_reference_on_250_random_corpora():
    ner = metric("metrics.ner")
    for seed in range(250):
        predictions, references = random_ner(seed)
        result = ner.evaluate(predictions, references)
        global_scores = result.global_scores(with_ci=False)
        expected = ref_ner([r[0] for r in references], predictions)
        gold_types = {entity_type for r in references for _, entity_type in r[0]}  # f1_<type> of reference types
        expected = {k: v for k, v in expected.items() if k in ("f1_micro", "f1_macro") or not k.startswith("f1_")
                    or k[3:] in gold_types}
        per_type = {k for k in global_scores if k.startswith("f1_") and k not in ("f1_micro", "f1_macro")}
        assert per_type == {k for k in expected if k.startswith("f1_") and k not in ("f1_micro", "f1_macro")}
        for name, value in expected.items():
            assert_close(global_scores[name], value, what=f"seed {seed} {name}")
        for index, row in enumerate(ner.instance_results(result)):
            single = ref_ner([references[index][0]], [predictions[index]])
            for name in ("f1_micro", "precision_micro", "recall_micro", "f1_macro"):
                assert_close(row[name], single[name], what=f"seed {seed} instance {index} {name}")


def test_ner_ci_equals_reference_on_every_resample():
    predictions, references = [], []
    for seed in range(6):
        p, r = random_ner(seed)
        predictions += p
        references += r
    ner = NER(n_resamples=150, ci_method="percentile")  # BCa: tests/metrics/test_ci_procedure.py
    scores = ner.evaluate(predictions, references).global_scores()
    golds = [r[0] for r in references]
    for name in ("f1_micro",):  # the original's CI: the main score's
        values = [ref_ner([golds[i] for i in row], [predictions[i] for i in row])[name]
                  for idx in resample_indices(len(predictions), 150, seed=settings.seed) for row in idx]
        low, high = percentile_interval(values)
        assert_close(scores[f"{name}_ci_low"], low)
        assert_close(scores[f"{name}_ci_high"], high)
    assert scores == ner.evaluate(predictions, references).global_scores()
    assert_close(ner.compute(references, predictions, [{}] * len(predictions))["f1_micro"], scores["f1_micro"])


def test_ner_input_checks():
    ner = metric("metrics.ner")
    with pytest.raises(MetricError, match="expects"):
        ner.evaluate(["John: PER"], [[[("John", "PER")]]])
    with pytest.raises(MetricError, match="Expecting a list with a single reference per prediction"):
        ner.evaluate([[("John", "PER")]], [[[("John", "PER")], []]])
    no_types = ner.evaluate([[], []], [[[]], [[]]]).global_scores(with_ci=False)
    assert no_types["f1_micro"] == 0.0 and no_types["f1_macro"] == 0.0
