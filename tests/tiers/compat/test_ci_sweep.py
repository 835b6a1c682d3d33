"""Differential sweep of the CI settings: every metric of test_same_numbers (36 shared names, generated inputs of
every prediction type: labels, strings, lists, numbers, spans, dicts) run through the oracle and through ours with
n_resamples and confidence_level overridden, with another global seed, and (for metrics with several scores) with
ci_scores overridden: global scores, instance scores and every CI bound both report equal within 1e-9. Exceptions,
with reasons: exceptions.md (and CI_EXCEPTIONS in test_same_numbers)."""

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.metrics.pipeline import MetricPipeline
from unitxt.settings_utils import settings

from .test_same_numbers import CI_EXCEPTIONS, METRIC_CASES, METRICS, rng_for, same

CI_SCORES_OVERRIDES = {"token_overlap": ["recall"], "retrieval_at_k": ["recall_at_3", "match_at_5"],
                       "mrr": ["mrr"], "char_edit_distance": ["char_edit_distance"]}
VARIANTS = [("resamples_and_level", {"n_resamples": 50, "confidence_level": 0.9}, None),
            ("seed", {}, 7)]
# (name, variant) not compared, with the reason in exceptions.md (none today)
EXCEPTIONS = set()
CASES = [(family, name, variant, overrides, seed) for family, name in METRIC_CASES
         for variant, overrides, seed in VARIANTS if (name, variant) not in EXCEPTIONS]
CASES += [(family, name, "ci_scores", {"ci_scores": CI_SCORES_OVERRIDES[name]}, None)
          for family, name in METRIC_CASES if name in CI_SCORES_OVERRIDES]


def settings_holder(metric):
    """Where a metric's CI settings live: a pipeline's inner metric, else the metric itself (as the oracle runner)."""
    return metric.metric if isinstance(metric, MetricPipeline) else metric


def _inputs(family, name):
    return METRICS[family][0](rng_for(name))


@pytest.fixture(scope="module")
def oracle_sweep(oracle):
    jobs = []
    for family, name, _, overrides, seed in CASES:
        predictions, references, task_data = _inputs(family, name)
        jobs.append({"kind": "metric", "name": f"metrics.{name}", "predictions": predictions,
                     "references": references, "task_data": task_data, "pairs_as_tuples": family == "entities",
                     "overrides": overrides, "seed": seed})
    return dict(zip([(name, variant) for _, name, variant, _, _ in CASES], oracle(jobs)))


@pytest.mark.parametrize("family,name,variant,overrides,seed", CASES,
                         ids=[f"{name}-{variant}" for _, name, variant, _, _ in CASES])
def test_ci_settings_give_the_original_bounds(family, name, variant, overrides, seed, oracle_sweep):
    theirs = oracle_sweep[(name, variant)]
    assert "error" not in theirs, theirs.get("error")
    metric = fetch_artifact(f"metrics.{name}")[0]
    target = settings_holder(metric)
    for field, value in overrides.items():
        setattr(target, field, value)
    predictions, references, task_data = _inputs(family, name)
    with settings.context(seed=seed if seed is not None else settings.seed):
        scores = metric.evaluate(predictions, references, task_data)
        global_scores = scores.global_scores(with_ci=True)
    instances = metric.instance_results(scores)
    checked = 0
    for key, value in theirs["global"].items():
        if key in global_scores and key != "num_of_instances" and (name, key) not in CI_EXCEPTIONS:
            same(global_scores[key], value, f"{name} {variant} global {key}")
            checked += "_ci_" in key
    for index, (ours, original) in enumerate(zip(instances, theirs["instances"])):
        for key in original:
            if key in ours:
                same(ours[key], original[key], f"{name} {variant} instance {index} {key}")
    reported = [key for key in theirs["global"] if "_ci_" in key and (name, key) not in CI_EXCEPTIONS]
    assert checked == len(reported), f"{name} {variant}: CI keys missing here: " \
                                     f"{[key for key in reported if key not in global_scores]}"
