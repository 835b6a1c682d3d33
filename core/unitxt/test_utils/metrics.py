"""Helpers to check a metric against expected outputs (`unitxt.test_utils.metrics.test_metric` / `apply_metric`).

`test_metric` runs a metric directly and as a stream operator, then compares instance and global scores with the
targets: numbers within `tolerance` (targets are usually written with 2 decimals), confidence-interval bounds within
`ci_tolerance` (bootstrap bounds depend on the resamples), everything else exactly.
"""

import copy
import math
from typing import Any, Dict, List, Optional, Sequence

from ..errors import UnitxtError
from ..logging_utils import get_logger
from ..settings_utils import settings
from ..metrics.base import Metric
from ..stream import ListStream
from ..module_aliases import moved_classes


class MetricTestError(AssertionError, UnitxtError):
    """A metric's outputs differ from the expected targets."""

    def __init__(self, message: str):
        UnitxtError.__init__(self, message)


def apply_metric(
    metric: Metric,
    predictions: Sequence[Any],
    references: Sequence[Sequence[Any]],
    task_data: Optional[Sequence[Dict[str, Any]]] = None,
    calc_confidence_intervals: bool = True,
    perform_validations_in_apply_metric: bool = True,
) -> List[Dict[str, Any]]:
    """Score predictions with one metric; returns instances with `score: {"instance": ..., "global": ...}`.
    (`perform_validations_in_apply_metric` is accepted for the original's callers: inputs are always validated.)"""
    task_data = list(task_data) if task_data is not None else [{} for _ in predictions]
    # references that are not lists go in as given, so the metric's input check names them
    references = [list(refs) if isinstance(refs, (list, tuple)) else refs for refs in references]
    scores = metric.evaluate(list(predictions), references, task_data)
    global_scores = scores.global_scores(with_ci=calc_confidence_intervals)
    return [
        {"prediction": prediction, "references": refs, "task_data": data,
         "score": {"instance": instance, "global": global_scores}}
        for prediction, refs, data, instance in zip(predictions, references, task_data, metric.instance_results(scores))
    ]


def _is_ci_key(key: str) -> bool:
    return key.endswith("_ci_low") or key.endswith("_ci_high")


def _mismatches(actual: Dict[str, Any], target: Dict[str, Any], where: str, tolerance: float, ci_tolerance: float,
                ignore: Sequence[str]) -> List[str]:
    problems = []
    for key in sorted(set(actual) | set(target)):
        if key in ignore and key not in target:
            continue
        if key not in target:
            problems.append(f"{where}: unexpected score '{key}' = {actual[key]!r}")
            continue
        if key not in actual:
            problems.append(f"{where}: missing score '{key}' (expected {target[key]!r})")
            continue
        got, want = actual[key], target[key]
        if _number(got) and _number(want):
            if math.isnan(got) or math.isnan(want):
                if not (math.isnan(got) and math.isnan(want)):
                    problems.append(f"{where}: '{key}' = {got!r}, expected {want!r}")
                continue
            allowed = ci_tolerance if _is_ci_key(key) else tolerance
            if abs(got - want) > allowed + 1e-12:
                problems.append(f"{where}: '{key}' = {got!r}, expected {want!r} (tolerance {allowed})")
        elif got != want:
            problems.append(f"{where}: '{key}' = {got!r}, expected {want!r}")
    return problems


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def test_metric(
    metric: Metric,
    predictions: Sequence[Any],
    references: Sequence[Sequence[Any]],
    instance_targets: Sequence[Dict[str, Any]],
    global_target: Dict[str, Any],
    task_data: Optional[Sequence[Dict[str, Any]]] = None,
    tolerance: float = 0.005,
    ci_tolerance: float = 0.05,
    score_keys_to_ignore: Optional[Sequence[str]] = None,
) -> bool:
    """Check a metric's instance and global scores against targets; raises MetricTestError, else returns True.

    Numbers match within `tolerance` (0.005: equal when rounded to 2 decimals), CI bounds within `ci_tolerance`.
    Keys in `score_keys_to_ignore` are only compared when the target lists them. The metric is also run as a
    stream operator, which must give the same scores.
    """
    if settings.test_metric_disable:
        get_logger().info("test_metric() is disabled by unitxt.settings.test_metric_disable "
                          "(UNITXT_TEST_METRIC_DISABLE).")
        return None
    if score_keys_to_ignore is None:
        score_keys_to_ignore = ("num_of_instances",)
    if len(instance_targets) != len(predictions):
        raise MetricTestError(f"{len(instance_targets)} instance targets for {len(predictions)} predictions.")
    metric = _with_test_resamples(metric)
    results = apply_metric(metric, predictions, references, task_data)
    problems: List[str] = []
    for index, (result, target) in enumerate(zip(results, instance_targets)):
        problems += _mismatches(result["score"]["instance"], target, f"instance {index}", tolerance, ci_tolerance,
                                score_keys_to_ignore)
    problems += _mismatches(results[0]["score"]["global"] if results else {}, global_target, "global", tolerance,
                            ci_tolerance, score_keys_to_ignore)
    if not problems:
        problems += _stream_mismatches(metric, results)
    if problems:
        raise MetricTestError(f"{type(metric).__name__} does not produce the expected scores:\n  " + "\n  ".join(problems))
    return True


test_metric.__test__ = False

# the original's test_metric bootstraps a global metric's CIs with 3 resamples (so the stated CIs are those)
TEST_GLOBAL_RESAMPLES = 3


def _with_test_resamples(metric: Metric) -> Metric:
    """A copy of a global-style metric that bootstraps with TEST_GLOBAL_RESAMPLES, as the stated targets were made."""
    if getattr(metric, "ci_style", None) != "global" or not metric.resolved_n_resamples():
        return metric
    metric = copy.deepcopy(metric)
    metric.n_resamples = TEST_GLOBAL_RESAMPLES
    return metric  # a helper, not a pytest test, even when imported into a test module


def _stream_mismatches(metric: Metric, results: List[Dict[str, Any]]) -> List[str]:
    """Scores from `metric.process` (the operator path) must equal the direct evaluation's."""
    instances = [{"prediction": r["prediction"], "references": r["references"], "task_data": r["task_data"]}
                 for r in results]
    streamed = list(metric.process(ListStream(instances), "test"))
    problems = []
    for index, (direct, via_stream) in enumerate(zip(results, streamed)):
        if not _same(direct["score"], via_stream["score"]):
            problems.append(f"instance {index}: the stream operator path gives {via_stream['score']!r}, "
                            f"direct evaluation {direct['score']!r}")
            break
    if len(streamed) != len(results):
        problems.append(f"the stream operator path returned {len(streamed)} instances for {len(results)}")
    return problems


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def round_floats(obj: Any, precision: int = 2, recursive: bool = True) -> Any:
    """Floats rounded to `precision` decimals, inside dicts and lists too when `recursive`."""
    if isinstance(obj, float):
        return round(obj, precision)
    if recursive and isinstance(obj, dict):
        return {key: round_floats(value, precision, recursive) for key, value in obj.items()}
    if recursive and isinstance(obj, list):
        return [round_floats(value, precision, recursive) for value in obj]
    return obj


def dict_equal(dict1: Dict[str, Any], dict2: Dict[str, Any]) -> bool:
    """Equal as JSON with sorted keys (so key order and int/float spelling of the same number do not matter)."""
    import json

    return json.dumps(dict1, sort_keys=True, default=repr) == json.dumps(dict2, sort_keys=True, default=repr)


def check_scores(global_target: Dict[str, Any], instance_targets: List[Dict[str, Any]], global_outputs: Dict[str, Any],
                 instance_outputs: List[Dict[str, Any]], score_keys_to_ignore: Optional[List[str]] = None) -> None:
    """Compare computed scores with targets after rounding to 2 decimals (MetricTestError naming the difference);
    keys in `score_keys_to_ignore` are left out of both sides."""
    ignore = set(score_keys_to_ignore or ())

    def kept(scores: Dict[str, Any]) -> Dict[str, Any]:
        return round_floats({key: value for key, value in scores.items() if key not in ignore})

    if not dict_equal(kept(global_outputs), kept(global_target)):
        raise MetricTestError(f"global score must be equal, got {kept(global_outputs)} =/= {kept(global_target)}")
    if len(instance_outputs) != len(instance_targets):
        raise MetricTestError(f"{len(instance_outputs)} instance outputs for {len(instance_targets)} targets")
    for index, (output, target) in enumerate(zip(instance_outputs, instance_targets)):
        if not dict_equal(kept(output), kept(target)):
            raise MetricTestError(f"instance {index} score must be equal, got {kept(output)} =/= {kept(target)}")


def test_evaluate(global_target: Dict[str, Any], instance_targets: List[Dict[str, Any]],
                  task_data: Optional[List[Dict[str, Any]]], metric_name: str) -> None:
    """Score records (each with its `prediction` and `references`) with one metric through `eval_utils.evaluate`,
    with confidence intervals, and compare with the targets as check_scores does (instances by their `score`)."""
    if settings.test_metric_disable:
        get_logger().info("test_evaluate() is disabled by unitxt.settings.test_metric_disable "
                          "(UNITXT_TEST_METRIC_DISABLE).")
        return
    from ..evaluation.eval_utils import evaluate

    results, global_outputs = evaluate(task_data, metric_names=[metric_name], compute_conf_intervals=True)
    instance_outputs = [{"score": result[metric_name]} for result in results]
    check_scores(global_target, instance_targets, global_outputs[metric_name], instance_outputs)


test_evaluate.__test__ = False


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
