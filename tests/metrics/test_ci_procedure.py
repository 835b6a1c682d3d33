"""CIs follow the original's procedure: scipy.stats.bootstrap (BCa by default) over np.random.default_rng(hash(seed)),
so the bounds equal scipy's on the same data; and the original's smaller differences (issue "Same numbers II")."""

import math

import numpy as np
import pytest
from scipy.stats import bootstrap

from unitxt.catalog import fetch_artifact
from unitxt.evaluation import post_process_rows
from unitxt.settings_utils import settings


def _scipy_ci(values, statistic, n_resamples, seed=42, method="BCa", level=0.95):
    result = bootstrap((np.asarray(values),), statistic, n_resamples=n_resamples, confidence_level=level,
                       random_state=np.random.default_rng(seed), method=method, vectorized=False)
    return result.confidence_interval.low, result.confidence_interval.high


def test_token_overlap_ci_is_scipys_bca_of_the_mean_over_1000_resamples():
    rng = np.random.default_rng(3)
    words = ["a", "b", "c", "d"]
    references = [[" ".join(rng.choice(words, 3))] for _ in range(60)]
    predictions = [" ".join(rng.choice(words, 2)) for _ in range(60)]
    metric = fetch_artifact("metrics.token_overlap")[0]
    scores = metric.evaluate(predictions, references)
    f1 = [row["f1"] for row in metric.instance_results(scores)]
    low, high = _scipy_ci(f1, np.mean, 1000)  # an instance metric: 1000 resamples (the original's default)
    result = scores.global_scores()
    assert result["f1_ci_low"] == pytest.approx(low, abs=1e-12) and result["f1_ci_high"] == pytest.approx(high, abs=1e-12)


def test_f1_macro_ci_is_scipys_bca_of_the_recomputed_score_and_follows_seed_and_level():
    from unitxt.metrics.kernels.classification import f1_macro

    rng = np.random.default_rng(5)
    gold = [str(v) for v in rng.integers(0, 3, 80)]
    pred = [g if rng.random() < 0.6 else str(rng.integers(0, 3)) for g in gold]
    metric = fetch_artifact("metrics.f1_macro")[0]

    def statistic(rows):
        rows = rows.astype(int)
        return f1_macro([gold[i] for i in rows], [pred[i] for i in rows])

    for seed, level in ((42, 0.95), (7, 0.9)):
        metric.confidence_level = level
        with settings.context(seed=seed):
            result = metric.evaluate(pred, [[g] for g in gold]).global_scores()
        low, high = _scipy_ci(np.arange(80), statistic, 1000, seed=seed, level=level)
        assert result["f1_macro_ci_low"] == pytest.approx(low, abs=1e-12)
        assert result["f1_macro_ci_high"] == pytest.approx(high, abs=1e-12)


def test_percentile_method_and_resample_count_override():
    values = [0.0, 1.0, 1.0, 0.0, 1.0, 0.5, 1.0, 0.0, 0.25, 1.0]
    metric = fetch_artifact("metrics.char_edit_dist_accuracy")[0]
    metric.ci_method, metric.n_resamples = "percentile", 200
    scores = metric.scores_from_instances([{"char_edit_dist_accuracy": v} for v in values])
    low, high = _scipy_ci(values, np.mean, 200, method="percentile")
    result = scores.global_scores()
    assert (result["score_ci_low"], result["score_ci_high"]) == pytest.approx((low, high), abs=1e-12)


def test_a_global_metric_draws_100_resamples_by_default():
    assert fetch_artifact("metrics.f1_weighted")[0].resolved_n_resamples() == 100
    assert fetch_artifact("metrics.accuracy")[0].resolved_n_resamples() == 1000


def test_constant_instance_scores_get_no_ci_in_an_instance_metric():
    metric = fetch_artifact("metrics.token_overlap")[0]
    result = metric.evaluate(["a b"] * 5, [["a b"]] * 5).global_scores()
    assert result["f1"] == 1.0 and "f1_ci_low" not in result


def test_no_ci_where_the_original_reports_none():
    for name, predictions, references in [
        ("metrics.anls", ["abc", "abd", "x"], [["abc"], ["abc"], ["y"]]),
        ("metrics.prediction_length", ["abc", "abd", "x"], [["abc"], ["abc"], ["y"]]),
        ("metrics.relaxed_correctness", ["12", "5", "x"], [["12"], ["4"], ["y"]]),
        ("metrics.websrc_squad_f1", ["a b", "c", "x"], [["a b"], ["d"], ["y"]]),
    ]:
        result = fetch_artifact(name)[0].evaluate(predictions, references).global_scores()
        assert not [key for key in result if "_ci_" in key], name


def test_multi_label_f1_of_an_instance_without_reference_classes_is_nan():
    metric = fetch_artifact("metrics.f1_micro_multi_label")[0]
    scores = metric.evaluate([[], ["a"], ["b"]], [[[]], [["a"]], [["a"]]])
    instances = metric.instance_results(scores)
    assert math.isnan(instances[0]["f1_micro"]) and instances[1]["f1_micro"] == 1.0 and instances[2]["f1_micro"] == 0.0


@pytest.mark.parametrize("text,rating", [("[[ 9.0 / 10 ]]", 0.9), ("[[7]]", 0.7), ("[[8/10]]", 0.8), ("[[ 6 ]]", 0.6),
                                         ("no rating", 0.0), ("[[nine]]", 0.0)])
def test_mt_bench_rating_reads_spaces_and_out_of_ten(text, rating):
    predictions, _, _ = post_process_rows([text], [{"references": [text],
                                                    "postprocessors": ["processors.extract_mt_bench_rating_judgment"]}])
    assert predictions[0] == pytest.approx(rating)


def test_literal_eval_refuses_values_that_are_not_text():
    from unitxt.errors import UnitxtError

    for value in (5, [1, 2]):
        with pytest.raises(UnitxtError, match="literal"):
            post_process_rows([value], [{"references": ["1"], "postprocessors": ["processors.literal_eval"]}])
    predictions, _, _ = post_process_rows(["(1, 2)"], [{"references": ["1"], "postprocessors": ["processors.literal_eval"]}])
    assert predictions == [(1, 2)]
