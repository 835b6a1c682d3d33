"""Metric base classes: scores per instance once, then global scores and bootstrap CIs for any subset cheaply.

Every metric turns (predictions, references, task_data) into a `MetricScores`: the instance score dicts plus a
vectorised `statistic(idx) -> {score name: values}` over index matrices (r, m). Global scores of any subset are
`statistic(subset[None, :])`; CIs resample positions within the subset. InstanceMetric statistics reduce per-instance
values; fast GlobalMetrics reduce per-instance sufficient statistics (counts); other GlobalMetrics fall back to
calling `compute` per resample (documented slow path).
"""

import math
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Dict, Generic, Iterable, List, NamedTuple, Optional, Sequence, TypeVar

from ..artifact import InertField, NonPositionalField
from ..artifact_registry import register_type_names
from ..errors import MetricError
from ..lazy_imports import lazy_exports, numpy_module as _np
from ..operator import PackageRequirementsMixin, StreamOperator
from ..settings_utils import settings
from ..types.checking import describe_value_type, make_checker, to_type, type_to_string
from ..types.checking import parse_string_types_instead_of_actual_objects  # noqa: F401 - the original's name here
from .ci_methods import ConfidenceIntervalMethods
from .scores import ColumnScores, MetricScores, Statistic
from .instance_reductions import mean_statistic, weighted_win_rate  # noqa: F401 - names of this module before
from .stream_scores import StreamScoresMixin


PredictionType = TypeVar("PredictionType")


class EvaluationInput(tuple, Generic[PredictionType]):
    """One instance as a metric sees it: the tuple (prediction, references, task_data)."""

    def __new__(cls, prediction: PredictionType, references: List[PredictionType],
                task_data: Dict[str, Any]) -> "EvaluationInput[PredictionType]":
        return super().__new__(cls, (prediction, references, task_data))


_EVALUATION_MEMO: "ContextVar[Optional[Dict[Any, Any]]]" = ContextVar("unitxt_evaluation_memo", default=None)


@contextmanager
def evaluation_memo():
    """Within one evaluation, metrics over the same instances share work they would each repeat (label encodings,
    per-resample counts). Keys hold ids of the input lists; the memo keeps those lists alive (see `shared`)."""
    token = _EVALUATION_MEMO.set({})
    try:
        yield
    finally:
        _EVALUATION_MEMO.reset(token)


def shared(key: Any, compute: Callable[[], Any], keep: tuple = ()) -> Any:
    """`compute()` once per key within the current evaluation_memo (every call computes outside of one). `keep`: the
    objects whose ids are in the key; the memo holds them, so a freed list's id reused by a new list (one partition's
    inputs after another's) never returns the old list's result."""
    memo = _EVALUATION_MEMO.get()
    if memo is None:
        return compute()
    entry = memo.get(key)
    if entry is None or len(entry[0]) != len(keep) or any(a is not b for a, b in zip(entry[0], keep)):
        entry = memo[key] = (keep, compute())
    return entry[1]


def repr_limited(value: Any, limit: int = 200) -> str:
    """`str(value)` cut to `limit` characters (how error messages quote a prediction or reference)."""
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "..."


class Metric(StreamScoresMixin, ConfidenceIntervalMethods, PackageRequirementsMixin, StreamOperator):
    """Base of all metrics. Subclasses implement `score(predictions, references, task_data) -> MetricScores`."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    main_score: Optional[str] = None
    prediction_type: Any = Any
    single_reference_per_prediction: bool = False
    score_prefix: str = ""
    n_resamples: Optional[int] = None
    confidence_level: float = 0.95
    ci_scores: Optional[List[str]] = None
    ci_method: str = "BCa"  # scipy.stats.bootstrap's method: "BCa", "percentile" or "basic"
    # the original's CI procedure this metric follows (metrics/intervals.py): "instance", "global" or "map_reduce"
    ci_style = "global"
    return_confidence_interval: bool = True  # the original's switch; off: no *_ci_* scores
    # the same switch under the name the original's instance, bulk and global metrics give it
    confidence_interval_calculation: bool = NonPositionalField(default=True)
    ci_score_names: Optional[List[str]] = NonPositionalField(default=None)  # the map-reduce name of ci_scores
    ci_paired: bool = InertField(default=True, reason="intervals follow this metric's own CI procedure")

    def original_hooks_overridden(self) -> bool:
        """Whether a subclass overrides one of the original's hooks that this class computes in a vectorised form
        (its scores then come through the hooks, and streamed evaluation keeps its inputs)."""
        return False

    def get_metric_name(self) -> str:
        """The catalog name the metric was fetched by, else its class name."""
        return self.artifact_name

    def set_confidence_interval_calculation(self, return_confidence_interval: bool) -> None:
        self.return_confidence_interval = return_confidence_interval

    def disable_confidence_interval_calculation(self) -> None:
        self.set_confidence_interval_calculation(False)

    def prepare(self) -> None:
        super().prepare()
        if isinstance(self.prediction_type, str):
            self.prediction_type = to_type(self.prediction_type)  # the deprecated string form becomes its type

    def verify(self) -> None:
        super().verify()
        if not self.main_score:
            raise MetricError(f"{type(self).__name__} must set main_score.", artifact=type(self).__name__,
                              field="main_score")

    def resolved_n_resamples(self) -> int:
        """Explicit n_resamples (None given explicitly: no CI), else the original's default of the metric's family
        (settings.default_n_resamples caps it: 0 turns CIs off)."""
        if not (self.return_confidence_interval and self.confidence_interval_calculation):
            return 0
        if self.n_resamples is not None:
            return int(self.n_resamples)
        if "n_resamples" in getattr(self, "_given_fields", ()):
            return 0  # as in the original, an explicit n_resamples=None turns the CI off
        if self.ci_style == "global":
            return min(int(settings.default_n_resamples), int(settings.num_resamples_for_global_metrics))
        if self.ci_style == "instance":
            return min(int(settings.default_n_resamples), int(settings.num_resamples_for_instance_metrics))
        return int(settings.default_n_resamples)

    def resolved_ci_scores(self) -> List[str]:
        chosen = self.ci_scores if self.ci_scores is not None else self.ci_score_names
        return list(chosen) if chosen is not None else [self.main_score]

    def prefixed(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        if not self.score_prefix:
            return dict(scores)
        return {self.score_prefix + name: value for name, value in scores.items()}

    # ------------------------------------------------------------------ input checks
    def check_inputs(self, predictions: Sequence[Any], references: Sequence[Sequence[Any]], task_data: Sequence[Any]) -> None:
        if len(predictions) != len(references) or len(task_data) != len(predictions):
            raise MetricError(
                f"{len(predictions)} predictions, {len(references)} reference lists and {len(task_data)} task_data "
                "entries; they must have the same length.",
                artifact=self.artifact_name,
            )
        expected = to_type(self.prediction_type) if isinstance(self.prediction_type, str) else self.prediction_type
        # as in the original: the references are checked first, then the predictions, with its message wording
        name = self.metric_display_name()
        check = make_checker(expected) if expected is not Any else None
        if check is not None or self.single_reference_per_prediction or not _all_lists(references):
            for refs in references:
                self._check_reference_list(refs, expected, check, name)
        if check is None:
            return
        for prediction in predictions:
            if not check(prediction) and not _is_nan(prediction):
                raise MetricError(
                    f"Each prediction is expected to be of type '{type_to_string(expected)}' in {name} metric. "
                    f"Received prediction of type {type(prediction)}: {repr_limited(prediction)}. "
                    f"({name} expects {type_to_string(expected)}: add a post-processor to the template that converts "
                    "the model output, e.g. processors.to_number.)",
                    artifact=self.artifact_name,
                    field="prediction",
                )

    def metric_display_name(self) -> str:
        """The catalog name the metric was fetched by, else its class name (how messages name it)."""
        return getattr(self, "__id__", None) or type(self).__name__

    def _check_reference_list(self, refs: Any, expected: Any, check: Any, name: str) -> None:
        """One instance's references: a list, of exactly one when the metric needs that, each of the expected type."""
        if not isinstance(refs, (list, tuple)):
            raise MetricError(
                f"Expecting a list of references for each prediction in {name} metric. Received reference of type "
                f"{type(refs)}: {repr_limited(refs)}",
                artifact=self.artifact_name,
                field="references",
            )
        if self.single_reference_per_prediction and len(refs) != 1:
            raise MetricError(
                f"Expecting a list with a single reference per prediction in {name} metric. Received a list with "
                f"multiple references: {repr_limited(refs)}",
                artifact=self.artifact_name,
                field="references",
            )
        if check is None:
            return
        for reference in refs:
            if not check(reference) and not _is_nan(reference):
                raise MetricError(
                    f"Each reference is expected to be of type '{type_to_string(expected)}' in {name} metric. "
                    f"Received reference of type {type(reference)}: {repr_limited(reference)}",
                    artifact=self.artifact_name,
                    field="references",
                )

    def inputs_from_task_data(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> tuple:
        return predictions, references  # (predictions, references) to score; InstanceMetric may read task_data

    # ------------------------------------------------------------------ scoring
    def score(self, predictions: List[Any], references: List[List[Any]], task_data: List[Dict[str, Any]]) -> MetricScores:
        """Abstract hook of metric families (InstanceMetric, GlobalMetric, ...)."""
        raise NotImplementedError(f"{type(self).__name__}.score(predictions, references, task_data) is not implemented")

    def evaluate(self, predictions: List[Any], references: List[List[Any]], task_data: Optional[List[Dict[str, Any]]] = None) -> MetricScores:
        """Check inputs and score (the entry point used by the evaluation pipeline)."""
        return self.score(*self.checked_inputs(predictions, references, task_data))

    def checked_inputs(self, predictions: List[Any], references: List[List[Any]],
                       task_data: Optional[List[Dict[str, Any]]] = None) -> tuple:
        """(predictions, references, task_data) as lists, after the requirement and input checks."""
        self.check_missing_requirements()
        task_data = task_data if task_data is not None else [{} for _ in predictions]
        predictions, references = self.inputs_from_task_data(predictions, references, task_data)
        if not isinstance(predictions, list):
            predictions = list(predictions)
        if not isinstance(references, list) or not _all_lists(references):
            for index, refs in enumerate(references):  # a string would be split into characters: never silently
                if isinstance(refs, (str, bytes)) or not isinstance(refs, Iterable) or isinstance(refs, dict):
                    raise MetricError(
                        f"Expecting a list of references for each prediction in {self.metric_display_name()} metric. "
                        f"Received reference of type {type(refs)}: {repr_limited(refs)} (instance {index}; wrap a "
                        f"single reference in a list: [{repr(refs)[:40]}]).",
                        artifact=self.artifact_name, field="references")
            references = [list(refs) for refs in references]
        self.check_inputs(predictions, references, task_data)
        return predictions, references, task_data

    def process(self, stream, stream_name: Optional[str] = None):
        """Score a stream of evaluation instances ({prediction, references, task_data}); adds to their `score` field
        (update_instance_scores, update_and_adjust_global_score: earlier metrics' scores stay).

        Materialises the stream (global scores need every instance)."""
        instances = list(stream)
        if not instances:
            return
        scores = self.evaluate_instances(instances)
        global_scores = scores.global_scores()
        self.update_instance_scores(instances, self.instance_results(scores))
        for instance in instances:
            self.update_and_adjust_global_score(instance, dict(global_scores))
            yield instance

    def evaluate_instances(self, instances: List[Dict[str, Any]]) -> MetricScores:
        """Scores of stream instances ({"prediction", "references", "task_data", ...}) read by `consume_stream`; a
        MetricPipeline first runs its preprocess steps on the whole instances (they may read other fields, as the
        original's do)."""
        predictions, references, task_data, _ = self.consume_stream(instances)
        return self.evaluate(predictions, references, [_as_dict(item) for item in task_data])

    def _finish_instance(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        result = self.prefixed(scores)
        main = self.score_prefix + self.main_score
        result["score"] = result.get(main, math.nan)
        result["score_name"] = main
        return result

    def instance_results(self, scores: MetricScores) -> List[Dict[str, Any]]:
        return [self._finish_instance(instance) for instance in scores.instance_scores]


def input_keys(predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> Any:
    """One int per instance, equal for instances with equal (prediction, references, task_data): a global metric
    scores a multiset of instances, so such instances are interchangeable."""
    np = _np()
    codes: Dict[str, int] = {}
    return np.asarray([codes.setdefault(repr(item), len(codes)) for item in zip(predictions, references, task_data)],
                      dtype=np.int64)


def _all_lists(references: List[Any]) -> bool:
    """Every item is a list (checked once per list of references within an evaluation)."""
    return shared(("all_lists", id(references)), lambda: all(type(refs) is list for refs in references),
                  keep=(references,))


def _field_of(data: Any, name: str, metric: Metric, option: str) -> Any:
    if isinstance(data, dict) and name in data:
        return data[name]
    raise MetricError(f"{option}={name!r}, but an instance's task_data has no field {name!r}: {data!r:.80}",
                      artifact=metric.artifact_name, field=option)


def _as_dict(task_data: Any) -> Dict[str, Any]:
    if isinstance(task_data, str):
        import json

        return json.loads(task_data)
    return task_data


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


MetricWithConfidenceInterval = Metric  # the original's base holding the CI settings; Metric holds them here
register_type_names(Metric, "MetricWithConfidenceInterval")


def inputs_from_task_data_fields(metric: Any, predictions: list, references: list, task_data: list) -> tuple:
    """(predictions, references), each read from the task_data field the metric's `prediction_field` /
    `reference_field` names when that is not the default (the original's options; a reference becomes a list)."""
    if metric.reference_field != "references":
        references = [_field_of(data, metric.reference_field, metric, "reference_field") for data in task_data]
        references = [value if isinstance(value, list) else [value] for value in references]
    if metric.prediction_field != "prediction":
        predictions = [_field_of(data, metric.prediction_field, metric, "prediction_field") for data in task_data]
    return predictions, references


# reductions this library computes for any instance metric (the original's implemented_reductions list fewer)
REDUCTIONS_COMPUTED_HERE = ("mean", "group_mean", "max", "median", "min")


class InstanceMetric(Metric):
    """Scores each instance by itself (`compute`); global scores reduce instance scores per `reduction_map`."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)
    ci_style = "instance"

    reduction_map: Optional[Dict[str, Any]] = None  # {"mean": [score names], ...} or a group_mean reduction
    # the reductions reduction_map may name (group_mean: metrics/group_reduction.py), the original's list
    implemented_reductions: List[str] = NonPositionalField(default_factory=lambda: ["mean", "group_mean", "max"])
    subgroup_column: Optional[str] = None  # group_mean: the task_data field splitting a group into subgroups
    # the original's options: read the references / the prediction from this task_data field instead
    reference_field: str = NonPositionalField(default="references")
    prediction_field: str = NonPositionalField(default="prediction")

    def inputs_from_task_data(self, predictions, references, task_data) -> tuple:
        return inputs_from_task_data_fields(self, predictions, references, task_data)

    def resolved_reduction_map(self) -> Dict[str, List[str]]:
        return self.reduction_map if self.reduction_map is not None else {"mean": [self.main_score]}

    def verify(self) -> None:
        super().verify()
        for reduction in self.resolved_reduction_map():
            if reduction not in self.implemented_reductions and reduction not in REDUCTIONS_COMPUTED_HERE:
                known = sorted(set(self.implemented_reductions) | set(REDUCTIONS_COMPUTED_HERE))
                raise MetricError(
                    f"Unknown reduction '{reduction}' in reduction_map; use {', '.join(known)}.",
                    artifact=type(self).__name__,
                    field="reduction_map",
                )
        if "group_mean" in self.resolved_reduction_map():
            from .group_reduction import check_group_reduction

            check_group_reduction(self)

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.compute(references, prediction, task_data)")

    def compute_instance_scores(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> List[Dict[str, Any]]:
        """Score each evaluation instance of the stream: its instance scores are added to instance["score"]
        ["instance"]; returns per instance {"score": instance["score"], "task_data": its group fields}."""
        instances = list(stream)
        self.update_instance_scores(instances, self.instance_results(self.evaluate_instances(instances)))
        results = []
        for instance in instances:
            data = _as_dict(instance.get("task_data") or {})
            kept = {key: data[key] for key in ("group_id", self.subgroup_column) if key is not None and key in data}
            results.append({"score": instance["score"], "task_data": kept})
        return results

    def get_group_scores(self, instances: List[Dict[str, Any]], score_names: List[str], group_aggregation_func: Callable,
                         prepend_score_prefix: bool) -> List[Dict[str, Any]]:
        """One {"score": {"instance": {name: aggregate}}} per task_data group_id (sorted): the group's instance
        scores aggregated by `group_aggregation_func` (given {subgroup: scores} when subgroup_column is set). The
        group_mean reduction aggregates groups through this method (metrics/group_reduction.py)."""
        from .group_reduction import group_scores_of_instances

        return group_scores_of_instances(self, instances, score_names, group_aggregation_func, prepend_score_prefix)

    def compute_all(self, predictions: List[Any], references: List[List[Any]], task_data: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Instance scores of all instances (override for a vectorised implementation)."""
        return [self.compute(refs, prediction, data) for prediction, refs, data in zip(predictions, references, task_data)]

    def score(self, predictions, references, task_data) -> MetricScores:
        if "group_mean" in self.resolved_reduction_map():
            from .group_reduction import grouped_scores

            return grouped_scores(self, lambda: self.compute_all(predictions, references, task_data), task_data)
        return self.scores_from_instances(self.compute_all(predictions, references, task_data))

    def scores_from_instances(self, instance_scores: List[Dict[str, Any]]) -> MetricScores:
        np = _np()
        reductions = self.resolved_reduction_map()
        statistics = []
        means: Dict[str, Any] = {}
        seen: set = set()
        # "mean" keeps score names; other reductions add a suffix (f1_median), except for a single reduction, and the
        # main score keeps its name in the first reduction listing it when no mean reduction does.
        main_plain = None if self.main_score in reductions.get("mean", []) else self.main_score
        for reduction, names in reductions.items():
            values = {}
            columns = getattr(instance_scores, "columns", None) if not getattr(instance_scores, "built", True) else None
            for name in names:
                if columns is not None and name in columns:  # ColumnScores: the values as computed
                    array = np.asarray(columns[name], dtype=np.float64)
                else:
                    column = [scores.get(name, math.nan) for scores in instance_scores]
                    array = np.asarray([math.nan if v is None else v for v in column], dtype=np.float64)
                plain = reduction == "mean" or len(reductions) == 1 or (name == main_plain and name not in seen)
                global_name = name if plain else f"{name}_{reduction}"
                seen.add(name)
                values[global_name] = array
            statistics.append(mean_statistic(values, reduction))
            if reduction == "mean":
                means.update(values)

        def statistic(idx):
            combined = {}
            for part in statistics:
                combined.update(part(idx))
            return combined

        scores = MetricScores(self, instance_scores, statistic, len(instance_scores))
        if set(reductions) == {"mean"}:
            scores.mean_values = means
            from .kernels.counted import two_valued_means

            statistic.counted = two_valued_means(means)
        return scores


class BulkInstanceMetric(InstanceMetric):
    """Like InstanceMetric, but `compute(references, predictions, task_data)` scores a batch at once."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    batch_size: int = 256
    implemented_reductions: List[str] = NonPositionalField(default_factory=lambda: ["mean", "weighted_win_rate"])

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]) -> List[Dict[str, Any]]:  # type: ignore[override]
        raise NotImplementedError(f"{type(self).__name__}.compute(references, predictions, task_data)")

    def preprocess_instance(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: an evaluation instance as this metric reads it (every stream instance passes here first)."""
        return instance

    def consume_stream(self, stream: Iterable[Dict[str, Any]]) -> tuple:
        return super().consume_stream(self.preprocess_instance(instance) for instance in stream)

    def compute_all(self, predictions, references, task_data):
        return self.batched_scores(predictions, references, task_data)

    def batched_scores(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> List[Dict[str, Any]]:
        """`compute` over batches of batch_size instances: one score dict per instance."""
        results: List[Dict[str, Any]] = []
        for start in range(0, len(predictions), self.batch_size):
            stop = start + self.batch_size
            batch = self.compute(references[start:stop], predictions[start:stop], task_data[start:stop])
            if len(batch) != len(predictions[start:stop]):
                raise MetricError(f"{type(self).__name__}.compute returned {len(batch)} results for "
                                  f"{len(predictions[start:stop])} instances.", artifact=self.artifact_name)
            results.extend(batch)
        return results


class KeyedStatistics(NamedTuple):
    """Additive per-instance statistics whose columns are named by keys (e.g. ("tp", label)): chunks of a stream
    see different labels, and their columns merge by key."""

    keys: List[Any]
    rows: Any  # (n, len(keys))


def keyed_columns(totals: Any, keys: List[Any], part: str, labels: List[Any]) -> Any:
    """The (r, len(labels)) columns of the (part, label) keys of summed keyed statistics (zeros for unseen keys)."""
    np = _np()
    position = {key: column for column, key in enumerate(keys)}
    result = np.zeros((totals.shape[0], len(labels)), dtype=np.float64)
    for column, label in enumerate(labels):
        source = position.get((part, label))
        if source is not None:
            result[:, column] = totals[:, source]
    return result


class GlobalMetric(Metric):
    """Scores need all instances together (`compute(references, predictions, task_data) -> dict`).

    Instance scores come from computing on each instance alone (unless process_single_instances=False). Subclasses
    that can decompose their score into per-instance statistics override `fast_statistic` (no per-resample compute).
    """

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    process_single_instances: bool = True

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.compute(references, predictions, task_data)")

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        """Vectorised statistic over index matrices, or None to use `compute` (slow path)."""
        return None

    def additive_statistics(self, predictions, references, task_data) -> Optional[Any]:
        """Per-instance statistics (n, width) whose column totals decide every global score (`scores_of_totals`,
        `details_of_totals`), so a stream's chunks merge by addition; or KeyedStatistics when the columns stand for
        labels that differ between chunks; None when the metric has no such form."""
        return None

    def scores_of_totals(self, totals: Any, exact: bool, keys: Optional[List[Any]] = None) -> Dict[str, Any]:
        """Global scores of summed statistics rows (r, width): {name: r values}; `exact` for the point estimate;
        `keys` name the columns of keyed statistics (every key seen, in order of first appearance)."""
        raise NotImplementedError(f"{type(self).__name__}.scores_of_totals(totals, exact) is not implemented")

    def details_of_totals(self, vector: Any, keys: Optional[List[Any]] = None) -> Dict[str, Any]:
        """Global values reported beside the scores (no CIs), from the summed statistics of the instances."""
        return {}

    def single_instance_scores(self, predictions, references, task_data, statistic: Statistic) -> Dict[str, Any]:
        """Score of each instance alone: {name: n values}. Default: the statistic on one-instance rows, chunked."""
        np = _np()
        n = len(predictions)
        parts: Dict[str, List[Any]] = {}
        step = 4096
        for start in range(0, n, step):
            rows = np.arange(start, min(n, start + step), dtype=np.int64)[:, None]
            for name, values in statistic(rows).items():
                parts.setdefault(name, []).append(np.asarray(values))
        return {name: np.concatenate(chunks) for name, chunks in parts.items()}

    def score(self, predictions, references, task_data) -> MetricScores:
        n = len(predictions)
        statistic = self.fast_statistic(predictions, references, task_data)
        if statistic is None:
            statistic = self._slow_statistic(predictions, references, task_data)
        if self.process_single_instances and n:
            columns = self.single_instance_scores(predictions, references, task_data, statistic)
            instance_scores = columns if isinstance(columns, ColumnScores) else ColumnScores(columns, n)
        else:  # as the original: no instance score, its main score NaN
            instance_scores = [{self.main_score: math.nan} if isinstance(self.main_score, str) else {}
                               for _ in range(n)]
        scores = MetricScores(self, instance_scores, statistic, n)
        keys = getattr(statistic, "jackknife_keys", None)
        scores.jackknife_keys = keys if keys is not None else (lambda: input_keys(predictions, references, task_data))
        return scores

    def _slow_statistic(self, predictions, references, task_data) -> Statistic:
        np = _np()

        def statistic(idx):
            results = []
            for row in idx:
                row = [int(i) for i in row]
                results.append(self.compute([references[i] for i in row], [predictions[i] for i in row],
                                            [task_data[i] for i in row]))
            names = dict.fromkeys(name for result in results for name, value in result.items()
                                  if isinstance(value, (int, float)) or value is None)
            # a score a row does not report (a class absent from that resample) is NaN in that row
            return {name: np.asarray([float(result[name]) if isinstance(result.get(name), (int, float)) else math.nan
                                      for result in results], dtype=np.float64) for name in names}

        return statistic


# the original's `unitxt.metric` (which maps here) also held the metric's input schema: imported on first use
__getattr__, __dir__ = lazy_exports(__name__, {"UNITXT_METRIC_SCHEMA": "...rendering.dataset_builder"}, "-")
