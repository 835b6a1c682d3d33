"""The original's map-reduce metric family: `map` turns each instance into an intermediate value, `reduce` turns a
list of them into scores. An instance's scores are `reduce_one` of its intermediate, the global scores `reduce` of all,
and the bootstrap CIs `reduce` of resampled lists (every float score, or `ci_score_names`). Reductions
(`MeanReduction`, `MaxReduction`, `RootMeanReduction`, group reductions) are artifacts a metric holds as a field, so a
user writes `class MyMetric(ReductionInstanceMetric): reduction = MeanReduction(); def map(...)` as in the original.
"""

import copy
import math
import warnings
from typing import Any, Dict, Generic, List, Optional, Tuple, TypeVar

from ..artifact import Artifact, NonPositionalField
from ..dict_utils import dict_get
from ..lazy_imports import numpy_module as _np
from .base import Metric, inputs_from_task_data_fields
from .scores import MetricScores

IntermediateType = TypeVar("IntermediateType")
PredictionType = TypeVar("PredictionType")


def _nan_mean(values: List[Any]) -> Any:
    """numpy's nanmean without its all-NaN warning (NaN then), as a Python float."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = _np().nanmean(values)
    try:
        return float(result)
    except (TypeError, ValueError):
        return result


def _nan_max(values: List[Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _np().nanmax(values)


class Statistic:
    """The scores `scorer(sample)` of a resample of `data` (given by its indices) as an array in `score_names` order;
    it keeps every computed array, so `mean(i)` / `std(i)` describe score i over all the samples it scored."""

    def __init__(self, data: List[Any], score_names: List[str], scorer: Any):
        self.data = data
        self.score_names = score_names
        self.scorer = scorer
        self._history: List[Any] = []

    def __call__(self, indices: Any, axis: int = 0) -> Any:
        np = _np()
        sample = [self.data[int(i)] for i in np.atleast_1d(indices)]
        scores = self.scorer(sample)
        result = np.array([scores[name] for name in self.score_names])
        self._history.append(result)
        return result

    def mean(self, idx: int) -> Any:
        return _nan_mean([result[idx] for result in self._history])

    def std(self, idx: int) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return _np().nanstd([result[idx] for result in self._history])


class ConfidenceIntervalMixin(Artifact):
    """The CI settings of map-reduce metrics: `n_resamples` bootstrap resamples of the intermediates (None: no CI),
    scored by `_sample_to_scores`; CIs for `ci_score_names` (default: every float score)."""

    __abstract__ = True

    n_resamples: Optional[int] = 1000
    confidence_level: float = 0.95
    ci_score_names: Optional[List[str]] = None
    return_confidence_interval: bool = True
    ci_method: str = "BCa"
    ci_paired: bool = True

    def _sample_to_scores(self, sample: List[Any]) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}._sample_to_scores(sample)")

    def bootstrap(self, data: List[Any], score_names: List[str]) -> Dict[str, float]:
        """{name_ci_low, name_ci_high} of each score (`ci_score_names` when set) over `n_resamples` resamples of
        `data` scored by `_sample_to_scores`; an interval that is NaN for a score without spread is its value."""
        from ..random_utils import get_seed
        from .kernels.bca import bootstrap_seed, interval_from_distribution
        from .kernels.bootstrap import resample_indices

        np = _np()
        if self.ci_score_names is not None:
            score_names = self.ci_score_names
        statistic = Statistic(data, score_names, self._sample_to_scores)
        n = len(data)
        resamples = [statistic(row) for rows in resample_indices(n, self.resolved_n_resamples(), seed=bootstrap_seed(
            get_seed()), dtype=np.int64) for row in rows]
        distribution = np.asarray(resamples, dtype=np.float64).reshape(len(resamples), len(score_names))
        theta_hat = np.asarray(statistic(np.arange(n)), dtype=np.float64)
        jackknife = None
        if str(self.ci_method).lower() == "bca":
            everything = np.arange(n)
            jackknife = np.asarray([statistic(np.delete(everything, i)) for i in range(n)],
                                   dtype=np.float64).reshape(n, len(score_names))
        result: Dict[str, float] = {}
        for column, name in enumerate(score_names):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                low, high = interval_from_distribution(distribution[:, column], theta_hat[column],
                                                       None if jackknife is None else jackknife[:, column],
                                                       self.confidence_level, self.ci_method)
            if math.isnan(low) and math.isnan(high) and statistic.std(column) == 0:
                low = high = statistic.mean(column)  # identical scores: no spread, the interval is the value
            result[f"{name}_ci_low"], result[f"{name}_ci_high"] = float(low), float(high)
        return result


class AggregationReduction(Artifact, Generic[IntermediateType]):
    """Turns a list of intermediate values into a dict of scores."""

    __abstract__ = True

    def reduce(self, intermediates: List[IntermediateType]) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.reduce(intermediates)")


class DictReduction(AggregationReduction[Dict[str, float]]):
    """Reduces dicts of scores key by key: each key's list of values goes through `reduce_list`."""

    __abstract__ = True

    def reduce_list(self, values: List[float]) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.reduce_list(values)")

    def reduce(self, intermediates: List[Dict[str, float]]) -> Dict[str, Any]:
        lists: Dict[str, List[float]] = {}
        for intermediate in intermediates:
            for key, value in intermediate.items():
                lists.setdefault(key, []).append(value)
        return {key: self.reduce_list(values) for key, values in lists.items()}


class MeanReduction(DictReduction):
    """The NaN-ignoring mean of each score."""

    def reduce_list(self, values: List[float]) -> Any:
        return _nan_mean(values)


class RootMeanReduction(DictReduction):
    """The square root of the NaN-ignoring mean of each score (e.g. RMSE from squared errors)."""

    def reduce_list(self, values: List[float]) -> Any:
        return math.sqrt(_nan_mean(values))


class MaxReduction(DictReduction):
    """The NaN-ignoring maximum of each score."""

    def reduce_list(self, values: List[float]) -> Any:
        return float(_nan_max(values))


class GroupReduction(AggregationReduction[Tuple[str, Dict[str, float]]]):
    """Reduces (id, scores) pairs key by key: each key's list of (id, value) goes through `reduce_list`."""

    __abstract__ = True

    def reduce_list(self, items: List[Tuple[str, float]]) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.reduce_list(items)")

    def reduce(self, intermediates: List[Tuple[str, Dict[str, float]]]) -> Dict[str, Any]:
        lists: Dict[str, List[Tuple[str, float]]] = {}
        for item_id, intermediate in intermediates:
            for key, value in intermediate.items():
                lists.setdefault(key, []).append((item_id, value))
        return {key: self.reduce_list(items) for key, items in lists.items()}


class GroupMean(GroupReduction):
    """The NaN-ignoring mean of the items' (or groups') scores."""

    def reduce_list(self, items: List[Tuple[str, float]]) -> Any:
        return _nan_mean([value for _, value in items])


class SequentialSuccess(GroupReduction):
    """The share of a group's items, in item-id order, that succeed (score > threshold) before the first failure."""

    threshold: float = 0.5

    def reduce_list(self, items: List[Tuple[str, float]]) -> Any:
        successful = 0
        for _, value in sorted(items, key=lambda item: item[0]):
            if not value > self.threshold:
                break
            successful += 1
        return successful / len(items)


class MapReduceScores(MetricScores):
    """Scores of a map-reduce metric: global scores of a subset are the metric's `reduce_and_bootstrap` of its
    intermediates (`reduce` alone without CIs), named by `annotate_scores`; resamples for paired comparisons
    `reduce` resampled intermediates (float scores only)."""

    def __init__(self, metric: "MapReduceMetric", intermediates: List[Any], instance_scores: List[Dict[str, Any]]):
        super().__init__(metric, instance_scores, self._statistic, len(intermediates))
        self.intermediates = intermediates
        self.float_names: List[str] = []

    def _statistic(self, idx: Any) -> Dict[str, Any]:
        np = _np()
        rows: Dict[str, List[float]] = {name: [] for name in self.float_names}
        for row in idx:
            scores = self.metric.reduce([self.intermediates[int(i)] for i in row])
            for name in rows:
                value = scores.get(name, math.nan)
                rows[name].append(math.nan if value is None else float(value))
        return {name: np.asarray(values, dtype=np.float64) for name, values in rows.items()}

    def point_scores(self, positions: Any) -> Dict[str, Any]:
        scores = self.metric.reduce([self.intermediates[int(i)] for i in positions])
        self.float_names = [name for name, value in scores.items() if isinstance(value, float)]
        return {name: _python_value(value) for name, value in scores.items()}

    def ci_names(self, point: Dict[str, Any]) -> List[str]:
        names = self.metric.ci_score_names
        if names is None:
            return [name for name in self.float_names if name in point]
        self.float_names = list(dict.fromkeys([*self.float_names, *names]))
        return [name for name in names if name in point]

    def global_scores(self, positions: Optional[Any] = None, with_ci: bool = True) -> Dict[str, Any]:
        positions = self._positions(positions)
        if len(positions) == 0:
            return {}
        subset = [self.intermediates[int(i)] for i in positions]
        scores = self.metric.reduce_and_bootstrap(subset) if with_ci else self.metric.reduce(subset)
        self.float_names = [name for name, value in scores.items() if isinstance(value, float)]
        result = self.metric.annotate_scores({name: _python_value(value) for name, value in scores.items()})
        result["num_of_instances"] = len(subset)
        return result


def _python_value(value: Any) -> Any:
    return value.item() if hasattr(value, "item") and getattr(value, "ndim", 1) == 0 else value


class MapReduceMetric(Metric, ConfidenceIntervalMixin, Generic[PredictionType, IntermediateType]):
    """A metric as `map` (one instance -> an intermediate value) and `reduce` (intermediates -> scores)."""

    __abstract__ = True
    ci_style = "map_reduce"

    n_resamples: Optional[int] = 1000
    reference_field: str = NonPositionalField(default="references")
    prediction_field: str = NonPositionalField(default="prediction")

    def map(self, prediction: PredictionType, references: List[PredictionType],
            task_data: Dict[str, Any]) -> IntermediateType:
        raise NotImplementedError(f"{type(self).__name__}.map(prediction, references, task_data)")

    def reduce(self, intermediates: List[IntermediateType]) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.reduce(intermediates)")

    def reduce_one(self, intermediate: IntermediateType) -> Dict[str, Any]:
        return self.reduce([intermediate])

    def _sample_to_scores(self, sample: List[Any]) -> Dict[str, Any]:
        return self.reduce(sample)

    def annotate_scores(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        """Scores as reported: names prefixed by score_prefix, plus score / score_name (and score_ci_low / high)
        of the main score."""
        annotated = {self.score_prefix + name: value for name, value in scores.items()}
        annotated["score_name"] = self.score_prefix + self.main_score
        annotated["score"] = scores[self.main_score]
        for level in ("high", "low"):
            if f"{self.main_score}_ci_{level}" in scores:
                annotated[f"score_ci_{level}"] = scores[f"{self.main_score}_ci_{level}"]
        return annotated

    def reduce_and_bootstrap(self, intermediates: List[IntermediateType]) -> Dict[str, Any]:
        """`reduce` of the intermediates plus the bootstrap CIs of its float scores (none for one instance or when
        CIs are off)."""
        scores = self.reduce(intermediates)
        if self.resolved_n_resamples() < 1 or len(intermediates) <= 1:
            return scores
        float_names = [name for name, value in scores.items() if isinstance(value, float)]
        return {**scores, **self.bootstrap(intermediates, float_names)}

    def _finish_instance(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        return self.annotate_scores(scores)

    def compute(self, stream: Any, stream_name: Optional[str] = None) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
        """(instance scores, global scores) of a stream of evaluation instances, as reported (annotated)."""
        scores = self.evaluate_instances(list(stream))
        return self.instance_results(scores), scores.global_scores()

    def process(self, stream: Any, stream_name: Optional[str] = None) -> Any:
        """The stream's instances with this metric's scores merged into their `score` (earlier metrics' stay; a
        global score name already there is replaced with a warning)."""
        instances = list(stream)
        if not instances:
            return
        instance_scores, global_scores = self.compute(instances, stream_name)
        self.update_instance_scores(instances, instance_scores)
        for instance in instances:
            self.update_and_adjust_global_score(instance, dict(global_scores))
            yield instance

    def resolved_n_resamples(self) -> int:
        """`n_resamples` as given (None: no CI), none when CIs are switched off."""
        if not self.return_confidence_interval or self.n_resamples is None:
            return 0
        return int(self.n_resamples)

    def resolved_ci_scores(self) -> List[str]:
        return list(self.ci_score_names) if self.ci_score_names is not None else [self.main_score]

    def inputs_from_task_data(self, predictions, references, task_data) -> tuple:
        return inputs_from_task_data_fields(self, predictions, references, task_data)

    def map_stream(self, evaluation_inputs: Any) -> List[IntermediateType]:
        """The intermediates of an iterable of (prediction, references, task_data)."""
        return [self.map(prediction=prediction, references=references, task_data=task_data)
                for prediction, references, task_data in evaluation_inputs]

    def score(self, predictions, references, task_data) -> MetricScores:
        intermediates = self.map_stream(zip(predictions, references, task_data))
        instance_scores = [self.reduce_one(intermediate) for intermediate in intermediates]
        return MapReduceScores(self, intermediates, instance_scores)


class ReductionInstanceMetric(MapReduceMetric[PredictionType, IntermediateType],
                              Generic[PredictionType, IntermediateType]):
    """A map-reduce metric whose instance scores are the intermediates themselves and whose global scores are the
    `reduction` of them (e.g. MeanReduction of per-instance score dicts)."""

    __abstract__ = True

    reduction: AggregationReduction

    def reduce(self, intermediates: List[IntermediateType]) -> Dict[str, Any]:
        return self.reduction.reduce(intermediates)

    def reduce_one(self, intermediate: IntermediateType) -> Dict[str, Any]:
        return copy.deepcopy(intermediate)


class GroupMetric(MapReduceMetric[PredictionType, IntermediateType], Generic[PredictionType, IntermediateType]):
    """Applies `metric` to every instance, groups its instance scores by the task_data fields `group_id_field`
    (group) and `item_id_field` (item within the group; a later item of the same id replaces an earlier one), reduces
    each group (`in_group_reduction`), then across groups (`cross_group_reduction`). No CIs by default."""

    __abstract__ = True

    main_score: Optional[str] = None
    metric: MapReduceMetric
    group_id_field: str
    item_id_field: str
    in_group_reduction: GroupReduction = NonPositionalField(default_factory=GroupMean)
    cross_group_reduction: GroupReduction = NonPositionalField(default_factory=GroupMean)
    n_resamples: Optional[int] = None

    def prepare(self) -> None:
        if self.main_score is None and getattr(self, "metric", None) is not None:
            self.main_score = self.metric.main_score
        super().prepare()

    def _get_group_id(self, task_data: Dict[str, Any]) -> str:
        return str(dict_get(task_data, self.group_id_field))

    def _get_item_id(self, task_data: Dict[str, Any]) -> str:
        return str(dict_get(task_data, self.item_id_field))

    def map_stream(self, evaluation_inputs: Any) -> List[Tuple[Any, str, str]]:
        group_ids: List[str] = []
        item_ids: List[str] = []

        def tracked():
            for prediction, references, task_data in evaluation_inputs:
                group_ids.append(self._get_group_id(task_data))
                item_ids.append(self._get_item_id(task_data))
                yield prediction, references, task_data

        intermediates = list(self.metric.map_stream(tracked()))
        return list(zip(intermediates, group_ids, item_ids))

    def reduce_group(self, items: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
        return self.in_group_reduction.reduce(list(items.items()))

    def reduce_one(self, intermediate: Tuple[Any, str, str]) -> Dict[str, Any]:
        return self.metric.reduce_one(intermediate[0])

    def reduce(self, intermediates: List[Tuple[Any, str, str]]) -> Dict[str, Any]:
        groups: Dict[str, Dict[str, Any]] = {}
        for intermediate, group_id, item_id in intermediates:
            groups.setdefault(group_id, {})[item_id] = self.metric.reduce_one(intermediate)
        group_scores = {group_id: self.reduce_group(items) for group_id, items in groups.items()}
        return self.cross_group_reduction.reduce(list(group_scores.items()))


class CorrelationMetric(MapReduceMetric[float, Tuple[float, float]]):
    """A correlation of predictions with their (single) references: `get_correlation_func()` gives a function of two
    lists returning (statistic, p-value), reported as the main score and `<main score>_p_value`; instance scores NaN."""

    __abstract__ = True

    prediction_type: Any = float
    _requirements_list = ["scipy"]

    def map(self, prediction: float, references: List[float], task_data: Dict[str, Any]) -> Tuple[float, float]:
        return (prediction, references[0])

    def get_correlation_func(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.get_correlation_func()")

    def reduce_one(self, intermediate: Tuple[float, float]) -> Dict[str, Any]:
        return {self.main_score: math.nan}

    def reduce(self, intermediates: List[Tuple[float, float]]) -> Dict[str, Any]:
        predictions = [prediction for prediction, _ in intermediates]
        references = [reference for _, reference in intermediates]
        score, p_value = self.get_correlation_func()(predictions, references)
        return {self.main_score: score, f"{self.main_score}_p_value": p_value}


class InstanceMapHooks:
    """The original's ReductionInstanceMetric hooks on an instance metric here: `map(prediction, references,
    task_data)` gives an instance's score dict (`compute` calls it), `map_stream` maps every instance, `reduce_one`
    makes an instance's scores and `reduce` the global ones (the NaN-ignoring mean of each score). Instance scores
    always come through map_stream and reduce_one; a subclass overriding `reduce` gets its global scores (with the
    map-reduce bootstrap of their float scores) from it."""

    def map(self, prediction: Any, references: List[Any], task_data: Dict[str, Any]) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.map(prediction, references, task_data)")

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, Any]:
        return self.map(prediction=prediction, references=references, task_data=task_data)

    def map_stream(self, evaluation_inputs: Any) -> List[Any]:
        """The intermediates of an iterable of (prediction, references, task_data)."""
        return [self.map(prediction=prediction, references=references, task_data=task_data)
                for prediction, references, task_data in evaluation_inputs]

    def reduce_one(self, intermediate: Any) -> Dict[str, Any]:
        return copy.deepcopy(intermediate)

    def reduce(self, intermediates: List[Any]) -> Dict[str, Any]:
        numeric = [{name: value for name, value in intermediate.items()
                    if isinstance(value, (int, float)) and not isinstance(value, bool)} for intermediate in intermediates]
        return MeanReduction().reduce(numeric)

    def compute_all(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> List[Any]:
        return [self.reduce_one(intermediate) for intermediate in self.map_stream(zip(predictions, references, task_data))]

    # a reduce of a subclass decides the global scores as a map-reduce metric's would
    annotate_scores = MapReduceMetric.annotate_scores
    reduce_and_bootstrap = MapReduceMetric.reduce_and_bootstrap
    bootstrap = ConfidenceIntervalMixin.bootstrap

    def _sample_to_scores(self, sample: List[Any]) -> Dict[str, Any]:
        return self.reduce(sample)

    def score(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> MetricScores:
        if type(self).reduce is InstanceMapHooks.reduce:
            return super().score(predictions, references, task_data)
        intermediates = self.map_stream(zip(predictions, references, task_data))
        return MapReduceScores(self, intermediates, [self.reduce_one(item) for item in intermediates])


class BatchMapHooks:
    """The original's map-reduce hooks on a model-backed metric that scores batches here (BulkInstanceMetric
    `compute`): `map_stream` gives every instance's score dict (batched through compute), `reduce_one` an instance's
    scores, `reduce` the global ones (the NaN-ignoring mean of each score). A subclass overriding map_stream or
    reduce_one changes the instance scores; one overriding reduce gets its global scores from it."""

    def map_stream(self, evaluation_inputs: Any) -> List[Dict[str, Any]]:
        inputs = list(evaluation_inputs)
        predictions = [item[0] for item in inputs]
        references = [item[1] for item in inputs]
        task_data = [item[2] for item in inputs]
        return self.batched_scores(predictions, references, task_data)

    def reduce_one(self, intermediate: Any) -> Dict[str, Any]:
        return copy.deepcopy(intermediate)

    reduce = InstanceMapHooks.reduce
    annotate_scores = MapReduceMetric.annotate_scores
    reduce_and_bootstrap = MapReduceMetric.reduce_and_bootstrap
    bootstrap = ConfidenceIntervalMixin.bootstrap
    _sample_to_scores = InstanceMapHooks._sample_to_scores

    def compute_all(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> List[Any]:
        return [self.reduce_one(intermediate) for intermediate in self.map_stream(zip(predictions, references, task_data))]

    def score(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> MetricScores:
        if type(self).reduce is BatchMapHooks.reduce:
            return super().score(predictions, references, task_data)
        intermediates = self.map_stream(zip(predictions, references, task_data))
        return MapReduceScores(self, intermediates, [self.reduce_one(item) for item in intermediates])


class MapReduceOverrides:
    """The original's map-reduce hooks on a metric computed here in vectorised form: the class defines `map` and
    `reduce` with the original's meaning (same numbers); when a subclass overrides map, map_stream, reduce or
    reduce_one, its scores come through them as a map-reduce metric's would (`map_reduce_home` names the class whose
    hooks the vectorised form equals)."""

    map_reduce_home: Any = None  # set per class below its definition

    def map_stream(self, evaluation_inputs: Any) -> List[Any]:
        return [self.map(prediction=prediction, references=references, task_data=task_data)
                for prediction, references, task_data in evaluation_inputs]

    def reduce_one(self, intermediate: Any) -> Dict[str, Any]:
        return self.reduce([intermediate])

    annotate_scores = MapReduceMetric.annotate_scores
    reduce_and_bootstrap = MapReduceMetric.reduce_and_bootstrap
    bootstrap = ConfidenceIntervalMixin.bootstrap
    _sample_to_scores = InstanceMapHooks._sample_to_scores

    def original_hooks_overridden(self) -> bool:
        home = self.map_reduce_home
        return home is not None and not all(getattr(type(self), name) is getattr(home, name)
                                            for name in ("map", "map_stream", "reduce", "reduce_one"))

    def score(self, predictions: List[Any], references: List[List[Any]], task_data: List[Any]) -> MetricScores:
        if not self.original_hooks_overridden():
            return super().score(predictions, references, task_data)
        intermediates = self.map_stream(zip(predictions, references, task_data))
        return MapReduceScores(self, intermediates, [self.reduce_one(item) for item in intermediates])
