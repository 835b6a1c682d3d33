"""Every catalog metric that scores a generic dataset here gives the same point estimates streamed (chunks of 20) as in
memory: text, numeric, binary and label-list data are tried for each; a metric that cannot score one of them in
memory (it needs a model, a judge's server, other fields) is not tried streamed on it. The number of metrics covered
is asserted, so the sweep can not silently shrink."""

import logging
import math
import os
import random
from pathlib import Path

from tests.evaluation.test_streamed_evaluation import flat, is_interval, plain_row
from unitxt import evaluate, get_from_catalog
from unitxt.metrics.base import Metric

CATALOG = Path(__file__).resolve().parents[2] / "catalog_snapshot" / "metrics"
WORDS = "the cat sat on a mat with red hat and blue bat 1 2 3".split()
LABELS = ["a", "b", "c", "d", "e"]


def catalog_metric_names():
    names = []
    for root, _, files in os.walk(CATALOG):
        for file in files:
            if file.endswith(".json"):
                relative = Path(root, file).relative_to(CATALOG).with_suffix("")
                names.append("metrics." + ".".join(relative.parts))
    return sorted(names)


def generic_data(kind, metric, n=60):
    rng = random.Random(kind)
    predictions, rows = [], []
    for index in range(n):
        task_data = {"context": "the cat sat", "question": "who sat", "contexts": ["the cat", "a mat"],
                     "group_id": str(index % 7), "variant_type": "original" if index % 3 == 0 else "paraphrase",
                     "type": "human_test" if index % 2 else "augmented", "query": f"q{index % 9}",
                     "metadata": {"template": "t"}}
        if kind == "text":
            references = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))]
            prediction = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))
        elif kind == "float":
            gold = rng.uniform(0, 5)
            references, prediction = [gold], gold + rng.gauss(0, 1)
        elif kind == "binary":
            references, prediction = [float(rng.random() < 0.4)], rng.random()
        else:
            references = [sorted(rng.sample(LABELS, rng.randint(1, 3)))]
            prediction = rng.sample(LABELS + ["f"], rng.randint(0, 4))
        predictions.append(prediction)
        rows.append(plain_row(index, references, [metric], task_data))
    return predictions, rows


def differences(streamed, in_memory):
    streamed, in_memory = flat(dict(streamed)), flat(dict(in_memory))
    # interval keys may differ: in memory an instance metric reports no CI of a score whose instance values are all
    # equal (the original's rule); the streamed Poisson bootstrap reports one
    if {k for k in streamed if not is_interval(k)} != {k for k in in_memory if not is_interval(k)}:
        return sorted(set(streamed) ^ set(in_memory))
    return [name for name, value in in_memory.items() if not is_interval(name) and not (
        math.isclose(value, streamed[name], rel_tol=0, abs_tol=1e-9) or math.isnan(value) and math.isnan(streamed[name])
        if isinstance(value, float) else value == streamed[name])]


def test_catalog_metrics_give_the_in_memory_points_when_streamed():
    logging.disable(logging.WARNING)
    try:
        covered, mismatches = set(), []
        for name in catalog_metric_names():
            if not isinstance(get_from_catalog(name), Metric):
                continue
            for kind in ("text", "float", "binary", "labels"):
                predictions, rows = generic_data(kind, name)
                try:
                    in_memory = evaluate(predictions, rows)
                except Exception:  # this data is not for this metric (or it needs a model or a server)
                    continue
                streamed = evaluate(iter(predictions), iter(rows), chunk_size=20)
                found = differences(streamed.global_scores, in_memory.global_scores)
                if found:
                    mismatches.append((name, kind, found[:5]))
                covered.add(name)
    finally:
        logging.disable(logging.NOTSET)
    assert mismatches == []
    assert len(covered) >= 105, sorted(covered)
