"""Mergeable metric states for scoring a stream chunk by chunk in bounded memory.

A metric over a stream keeps, per set of instances it scores (a partition of the stream, or one group of it):
- exact totals of additive per-instance statistics, so point estimates are those of the in-memory path (to float
  rounding): sums and counts of instance scores for metrics whose global scores are means of instance scores ("mean");
  per-label (true positive, gold, predicted) counts for the single-label classification family ("labels"); column
  totals of a GlobalMetric's `additive_statistics` — corpus BLEU, WER, binary / multi-label / entity F1... ("sums");
- the same totals for every bootstrap resample, each instance weighted by an independent Poisson(1) count (see
  kernels/poisson_bootstrap.py): (resamples x statistics) numbers, whatever the stream's length.
A MetricPipeline streams through its inner metric ("pipeline"). Other metrics (rank correlations, ...) keep their
processed inputs and are scored in memory at the end, exactly as the in-memory path scores them ("kept": memory grows
with the stream).
"""

import itertools
import zlib
from typing import Any, Dict, List, Optional

from ..errors import MetricError
from ..lazy_imports import numpy_module as _np
from ..settings_utils import settings
from .base import GlobalMetric, KeyedStatistics, Metric, MetricScores

WHOLE = None  # the bucket of every instance of the partition (other buckets are group values)
Buckets = Dict[Any, Any]  # bucket -> positions in the chunk (WHOLE: every position)


def _rng(label: str, chunk: int = 0) -> Any:
    """A generator per state and chunk, seeded by the global seed, the state's name (metric, partition, group) and the
    chunk's index in the stream: a chunk's draws depend on nothing else, so chunks scored apart (on other processes or
    machines) merge into the states of one sequential pass."""
    return _np().random.default_rng([int(settings.seed), zlib.crc32(label.encode("utf-8", "surrogatepass")),
                                     int(chunk)])


def _ratio(numerator: Any, denominator: Any) -> Any:
    np = _np()
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), np.nan)


def _chosen(array: Any, positions: Any) -> Any:
    return array if positions is None else array[_np().asarray(positions, dtype=_np().int64)]


def _widened(array: Any, width: int, axis: int = -1) -> Any:
    """`array` with zero columns appended along `axis` up to `width` (labels or keys seen after it was made); a
    writable copy of a read-only one (a state received from another process)."""
    np = _np()
    missing = width - array.shape[axis]
    if missing <= 0:
        return array if array.flags.writeable else array.copy()
    shape = list(array.shape)
    shape[axis] = missing
    return np.concatenate([array, np.zeros(shape, dtype=array.dtype)], axis=axis)


class _Mergeable:
    """A kind whose states are totals: scores of a bucket come from its exact totals, intervals from its resampled
    totals. Subclasses say how a chunk adds to the states and how totals become scores."""

    def __init__(self, accumulator: "MetricAccumulator"):
        self.accumulator = accumulator
        self.metric = accumulator.metric
        self.resamples = accumulator.resamples
        self.states: Dict[Any, Any] = {}

    def state(self, bucket: Any) -> Any:
        state = self.states.get(bucket)
        if state is None:
            state = self.states[bucket] = self.new_state(self.resamples, _rng(f"{self.accumulator.label}|{bucket!r}",
                                                                              self.accumulator.chunk))
        return state

    def merge(self, other: "_Mergeable") -> None:
        """Add the states of a later chunk's accumulator of the same metric (its buckets in their order)."""
        for bucket, state in other.states.items():
            mine = self.states.get(bucket)
            if mine is None:
                mine = self.states[bucket] = self.new_state(self.resamples, None)
            self.merge_state(mine, state, other)

    def merge_state(self, mine: Any, theirs: Any, other: "_Mergeable") -> None:
        raise NotImplementedError(f"{type(self).__name__}.merge_state")

    def new_state(self, resamples: int, rng: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.new_state")

    def add(self, predictions: List[Any], references: List[List[Any]], task_data: Any, buckets: Buckets) -> None:
        raise NotImplementedError(f"{type(self).__name__}.add")

    def point(self, bucket: Any) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.point")

    def resample_values(self, bucket: Any, name: str) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.resample_values")

    def details(self, bucket: Any) -> Dict[str, Any]:
        return {}

    def count(self, bucket: Any) -> int:
        state = self.states.get(bucket)
        return state.count if state is not None else 0

    def keeps_inputs(self) -> bool:
        return False

    def global_scores(self, bucket: Any) -> Dict[str, Any]:
        from .kernels.bootstrap import percentile_interval

        metric, count = self.metric, self.count(bucket)
        point = self.point(bucket)
        if metric.main_score not in point:
            raise MetricError(f"{type(metric).__name__} did not produce its main score '{metric.main_score}'.",
                              artifact=metric.artifact_name)
        finisher = MetricScores(metric, [], None, count)
        intervals = {}
        if self.resamples and count > 1:
            for name in finisher.ci_names(point):
                intervals[name] = percentile_interval(self.resample_values(bucket, name), metric.confidence_level)
        scores = finisher.finish(point, intervals, count)
        scores.update(self.details(bucket))
        return scores

    def main_score_resamples(self, seed: int) -> Any:
        return self.resample_values(WHOLE, self.metric.main_score)


# ---------------------------------------------------------------------------- means of instance scores
class _MeanState:
    """Sums and counts of each score's non-NaN instance values, exact and per Poisson resample."""

    def __init__(self, resamples: int, rng: Any):
        self.resamples, self.rng = resamples, rng
        self.count = 0
        self.sums: Dict[str, float] = {}
        self.counts: Dict[str, float] = {}
        self.resampled: Dict[str, Any] = {}  # name -> (resamples, 2): weighted sums and weighted counts

    def add(self, values: Dict[str, Any]) -> None:
        np = _np()
        names = list(values)
        n = len(values[names[0]]) if names else 0
        if n == 0:
            return
        self.count += n
        columns, present = [], []
        for name in names:
            seen = ~np.isnan(values[name])
            kept = np.where(seen, values[name], 0.0)
            self.sums[name] = self.sums.get(name, 0.0) + float(kept.sum())
            self.counts[name] = self.counts.get(name, 0.0) + float(np.count_nonzero(seen))
            columns.append(kept)
            present.append(seen.astype(np.float64))
        if not self.resamples:
            return
        from .kernels.poisson_bootstrap import weighted_totals

        totals = weighted_totals(self.rng, self.resamples, np.column_stack(columns + present))
        for position, name in enumerate(names):
            pair = totals[:, [position, len(names) + position]]
            self.resampled[name] = self.resampled[name] + pair if name in self.resampled else pair

    def merge(self, other: "_MeanState") -> None:
        """Add a later chunk's totals (the same additions, in the same order, as adding its values here)."""
        self.count += other.count
        for name, total in other.sums.items():
            self.sums[name] = self.sums.get(name, 0.0) + total
            self.counts[name] = self.counts.get(name, 0.0) + other.counts[name]
        for name, pair in other.resampled.items():
            self.resampled[name] = self.resampled[name] + pair if name in self.resampled else pair


class _MeanKind(_Mergeable):
    """Metrics whose global scores are NaN-ignoring means of instance scores (MetricScores.mean_values)."""

    def __init__(self, accumulator: "MetricAccumulator"):
        super().__init__(accumulator)
        self.names: Dict[str, None] = {}  # every score name seen (a group may lack some: NaN, as in memory)

    def new_state(self, resamples, rng):
        return _MeanState(resamples, rng)

    def merge(self, other):
        self.names.update(other.names)
        super().merge(other)

    def merge_state(self, mine, theirs, other):
        mine.merge(theirs)

    def add_values(self, values: Dict[str, Any], buckets: Buckets) -> None:
        self.names.update(dict.fromkeys(values))
        for bucket, positions in buckets.items():
            self.state(bucket).add({name: _chosen(array, positions) for name, array in values.items()})

    def point(self, bucket):
        state = self.states[bucket]
        return {name: float(_ratio(state.sums.get(name, 0.0), state.counts.get(name, 0.0))) for name in self.names}

    def resample_values(self, bucket, name):
        pair = self.states[bucket].resampled.get(name)
        return _ratio(pair[:, 0], pair[:, 1]) if pair is not None else _np().full(self.resamples, _np().nan)


# ---------------------------------------------------------------------------- single-label classification
class _LabelState:
    """Per-label true positive, gold and predicted counts, exact and per Poisson resample."""

    def __init__(self, resamples: int, rng: Any):
        np = _np()
        self.resamples, self.rng = resamples, rng
        self.count = 0
        self.exact = np.zeros((3, 0), dtype=np.int64)  # rows: tp, support, predicted
        self.resampled = np.zeros((3, resamples, 0), dtype=np.int64)

    def widen(self, width: int) -> None:
        self.exact = _widened(self.exact, width)
        self.resampled = _widened(self.resampled, width)

    def add(self, gold: Any, pred: Any, width: int) -> None:
        """Add pairs of label codes (codes index the stream's label table of `width` labels)."""
        np = _np()
        if len(gold) == 0:
            return
        self.widen(width)
        self.count += len(gold)
        cells, counts = np.unique(gold * width + pred, return_counts=True)
        gold_of, pred_of = cells // width, cells % width
        hit = gold_of == pred_of
        for row, codes, weights in ((0, gold_of[hit], counts[hit]), (1, gold_of, counts), (2, pred_of, counts)):
            np.add.at(self.exact[row], codes, weights)
        if not self.resamples:
            return
        from .kernels.poisson_bootstrap import weighted_key_counts

        drawn = weighted_key_counts(self.rng, self.resamples, counts)
        for row, codes, weights in ((0, gold_of[hit], drawn[:, hit]), (1, gold_of, drawn), (2, pred_of, drawn)):
            np.add.at(self.resampled[row], (slice(None), codes), weights)


class _LabelKind(_Mergeable):
    """LabelPairMetric: (first reference, prediction) label pairs, labels coded in order of first appearance."""

    def __init__(self, accumulator: "MetricAccumulator"):
        super().__init__(accumulator)
        self.codes: Dict[Any, int] = {}
        self.labels: List[Any] = []

    def new_state(self, resamples, rng):
        return _LabelState(resamples, rng)

    def merge(self, other):
        """Recode a later chunk's labels into this stream's table (new ones in their order of appearance), then add
        its (integer) counts."""
        for label in other.labels:
            if label not in self.codes:
                self.codes[label] = len(self.labels)
                self.labels.append(label)
        self._recoded = _np().asarray([self.codes[label] for label in other.labels], dtype=_np().int64)
        super().merge(other)

    def merge_state(self, mine, theirs, other):
        np = _np()
        theirs.widen(len(other.labels))
        mine.widen(len(self.labels))
        mine.count += theirs.count
        np.add.at(mine.exact, (slice(None), self._recoded), theirs.exact)
        if self.resamples:
            np.add.at(mine.resampled, (slice(None), slice(None), self._recoded), theirs.resampled)

    def add(self, predictions, references, task_data, buckets):
        from .classification import _first_reference, _hashable

        np = _np()
        predictions, references, _ = self.metric.checked_inputs(predictions, references, task_data)
        golds, codes = _first_reference(references, self.metric), self.codes
        if not all(type(value) is str for value in itertools.chain(golds, predictions)):
            golds, predictions = list(map(_hashable, golds)), list(map(_hashable, predictions))
        for label in dict.fromkeys(itertools.chain(golds, predictions)):  # new labels, in order of appearance
            if label not in codes:
                codes[label] = len(self.labels)
                self.labels.append(label)
        gold = np.fromiter(map(codes.__getitem__, golds), dtype=np.int64, count=len(golds))
        pred = np.fromiter(map(codes.__getitem__, predictions), dtype=np.int64, count=len(predictions))
        for bucket, positions in buckets.items():
            self.state(bucket).add(_chosen(gold, positions), _chosen(pred, positions), len(self.labels))

    def point(self, bucket):
        state = self.states[bucket]
        state.widen(len(self.labels))
        whole = state.count == self.accumulator.total
        scores = self._scores(state.exact[:, None, :], state.exact[1] > 0, whole)
        return {name: float(values[0]) for name, values in scores.items()}

    def resample_values(self, bucket, name):
        state = self.states[bucket]
        state.widen(len(self.labels))
        return self._scores(state.resampled, state.exact[1] > 0, False)[name]

    def _scores(self, counts: Any, gold_seen: Any, whole: bool) -> Dict[str, Any]:
        """The metric's scores from (3, r, labels) counts over the classes (labels seen as gold in the bucket),
        ordered as the in-memory path orders them."""
        from .kernels.classification import _sorted_distinct, label_scores_from_counts

        np = _np()
        tp, support, predicted = counts
        classes = _sorted_distinct([label for code, label in enumerate(self.labels) if gold_seen[code]], "references")
        order = np.asarray([self.codes[label] for label in classes], dtype=np.int64)
        scores = label_scores_from_counts(tp[:, order], support[:, order], predicted[:, order],
                                          predicted if self.metric.needs_matthews() else None)
        return self.metric.select_label_scores(scores, classes, whole)


# ---------------------------------------------------------------------------- additive statistics
class _SumState:
    """Column totals of additive per-instance statistics, exact and per Poisson resample."""

    def __init__(self, resamples: int, rng: Any):
        self.resamples, self.rng = resamples, rng
        self.count = 0
        self.exact: Any = None
        self.resampled: Any = None

    def add(self, rows: Any, columns: Any, width: int) -> None:
        """Add statistics rows (m, w): row column j adds to column columns[j] of `width` columns."""
        np = _np()
        if len(rows) == 0:
            return
        self.count += len(rows)
        totals = rows.sum(axis=0, dtype=np.int64 if np.issubdtype(rows.dtype, np.integer) else np.float64)
        if self.exact is None:
            self.exact = np.zeros(0, dtype=totals.dtype)
            self.resampled = np.zeros((self.resamples, 0))
        self.widen(width)
        np.add.at(self.exact, columns, totals)
        if self.resamples:
            from .kernels.poisson_bootstrap import weighted_totals

            np.add.at(self.resampled, (slice(None), columns), weighted_totals(self.rng, self.resamples, rows))

    def widen(self, width: int) -> None:
        self.exact = _widened(self.exact, width)
        self.resampled = _widened(self.resampled, width)


class _SumKind(_Mergeable):
    """GlobalMetric.additive_statistics: fixed columns, or KeyedStatistics whose keys get columns as they appear."""

    def __init__(self, accumulator: "MetricAccumulator"):
        super().__init__(accumulator)
        self.columns: Dict[Any, int] = {}
        self.keyed = False

    def new_state(self, resamples, rng):
        return _SumState(resamples, rng)

    def merge(self, other):
        """Map a later chunk's columns into this stream's (new keys get columns in their order), then add its
        totals."""
        self.keyed = self.keyed or other.keyed
        self._recoded = _np().asarray([self.columns.setdefault(key, len(self.columns)) for key in other.columns],
                                      dtype=_np().int64)
        super().merge(other)

    def merge_state(self, mine, theirs, other):
        np = _np()
        if theirs.exact is None:
            return
        theirs.widen(len(other.columns))
        mine.count += theirs.count
        if mine.exact is None:
            mine.exact = np.zeros(0, dtype=theirs.exact.dtype)
            mine.resampled = np.zeros((self.resamples, 0))
        mine.widen(len(self.columns))
        if mine.exact.dtype != theirs.exact.dtype:
            mine.exact = mine.exact.astype(np.result_type(mine.exact, theirs.exact))
        np.add.at(mine.exact, self._recoded, theirs.exact)
        if self.resamples:
            np.add.at(mine.resampled, (slice(None), self._recoded), theirs.resampled)

    def add(self, predictions, references, task_data, buckets):
        np = _np()
        statistics = self.metric.additive_statistics(*self.metric.checked_inputs(predictions, references, task_data))
        self.keyed = isinstance(statistics, KeyedStatistics)
        keys = statistics.keys if self.keyed else range(np.asarray(statistics).shape[1])
        columns = np.asarray([self.columns.setdefault(key, len(self.columns)) for key in keys], dtype=np.int64)
        rows = np.asarray(statistics.rows if self.keyed else statistics)
        for bucket, positions in buckets.items():
            self.state(bucket).add(_chosen(rows, positions), columns, len(self.columns))

    def _keys(self) -> Optional[List[Any]]:
        return list(self.columns) if self.keyed else None

    def _totals(self, bucket: Any, exact: bool) -> Dict[str, Any]:
        state = self.states[bucket]
        state.widen(len(self.columns))
        return self.metric.scores_of_totals(state.exact[None, :] if exact else state.resampled, exact, self._keys())

    def point(self, bucket):
        return {name: values[0].item() if hasattr(values[0], "item") else values[0]
                for name, values in self._totals(bucket, True).items()}

    def resample_values(self, bucket, name):
        return self._totals(bucket, False)[name]

    def details(self, bucket):
        state = self.states[bucket]
        state.widen(len(self.columns))
        return self.metric.details_of_totals(state.exact, self._keys())


# ---------------------------------------------------------------------------- pipelines and kept inputs
class _PipelineKind:
    """A MetricPipeline: its preprocess steps per chunk, its inner metric accumulated, its postprocess steps on the
    merged scores."""

    def __init__(self, accumulator: "MetricAccumulator"):
        self.metric = accumulator.metric
        # the inner metric as the in-memory path scores it (the pipeline's score_prefix in place of its own)
        self.inner = MetricAccumulator(self.metric.inner_metric(), f"{accumulator.label}>inner",
                                       accumulator.resamples > 0, accumulator.chunk)

    def add(self, predictions, references, task_data, buckets):
        prepared = self.metric.prepared_inputs(predictions, references, [task_data[i] for i in range(len(predictions))])
        if len(prepared[0]) != len(predictions):
            raise MetricError(f"The preprocess steps of {type(self.metric).__name__} changed the number of instances "
                              f"({len(predictions)} -> {len(prepared[0])}); a streamed evaluation scores each "
                              "instance where it is.", artifact=self.metric.artifact_name, field="preprocess_steps")
        self.inner.add(*prepared, buckets)

    def count(self, bucket):
        return self.inner.count(bucket)

    def merge(self, other: "_PipelineKind") -> None:
        self.inner.merge(other.inner)

    def keeps_inputs(self) -> bool:
        return self.inner.keeps_inputs()

    def global_scores(self, bucket):
        return self.metric.adjusted_global_scores(self.inner.global_scores(bucket))

    def main_score_resamples(self, seed):
        return self.inner.main_score_resamples(seed)


class _KeptKind:
    """No mergeable form: the processed inputs are kept and scored by the metric at the end (the in-memory numbers,
    CIs included); each bucket remembers its positions among them."""

    def __init__(self, accumulator: "MetricAccumulator"):
        self.metric = accumulator.metric
        self.resamples = accumulator.resamples
        self.inputs: List[List[Any]] = [[], [], []]
        self.positions: Dict[Any, List[int]] = {}
        self.scores: Optional[MetricScores] = None

    def add(self, predictions, references, task_data, buckets):
        offset = len(self.inputs[0])
        for bucket, positions in buckets.items():
            self.positions.setdefault(bucket, []).extend(
                offset + position for position in (range(len(predictions)) if positions is None else positions))
        self.inputs[0].extend(predictions)
        self.inputs[1].extend(references)
        self.inputs[2].extend(task_data[i] for i in range(len(predictions)))

    def count(self, bucket):
        return len(self.positions.get(bucket, ()))

    def merge(self, other: "_KeptKind") -> None:
        """Append a later chunk's kept inputs (its positions shifted past this stream's)."""
        offset = len(self.inputs[0])
        for bucket, positions in other.positions.items():
            self.positions.setdefault(bucket, []).extend(offset + position for position in positions)
        for mine, theirs in zip(self.inputs, other.inputs):
            mine.extend(theirs)
        self.scores = None

    def keeps_inputs(self) -> bool:
        return True

    def _scored(self) -> MetricScores:
        if self.scores is None:
            self.scores = self.metric.evaluate(*self.inputs)
        return self.scores

    def global_scores(self, bucket):
        return self._scored().global_scores(self.positions[bucket], with_ci=self.resamples > 0)

    def main_score_resamples(self, seed):
        from .kernels.bootstrap import resample_indices

        np = _np()
        scores, main = self._scored(), self.metric.main_score
        return np.concatenate([np.asarray(scores.statistic(idx)[main], dtype=np.float64)
                               for idx in resample_indices(scores.n, self.metric.resolved_n_resamples(), seed)])


# ---------------------------------------------------------------------------- one metric over a partition
def _kind_by_type(metric: Metric) -> Optional[type]:
    """The kind a metric's type implies (its scoring is the base classes'); None: the first chunk's scores decide
    between "mean" and "kept"."""
    from .classification import LabelPairMetric
    from .classification_variants import F1Fast
    from .pipeline import MetricPipeline

    cls = type(metric)
    if isinstance(metric, MetricPipeline) and cls.evaluate is MetricPipeline.evaluate:
        return _PipelineKind
    # a metric scored through a subclass's overridden hooks has no mergeable form of its base class
    if cls.evaluate is not Metric.evaluate or not isinstance(metric, GlobalMetric) or metric.original_hooks_overridden():
        return None
    if isinstance(metric, LabelPairMetric) and cls.score in (GlobalMetric.score, LabelPairMetric.score,
                                                             F1Fast.score) and \
            cls.fast_statistic is LabelPairMetric.fast_statistic:
        return _LabelKind
    if cls.additive_statistics is not GlobalMetric.additive_statistics:
        return _SumKind
    return None


KIND_NAMES = {_MeanKind: "mean", _LabelKind: "labels", _SumKind: "sums", _PipelineKind: "pipeline", _KeptKind: "kept"}


class MetricAccumulator:
    """One metric over one partition of a stream: its kind's states per bucket (the whole partition, each group)."""

    def __init__(self, metric: Metric, label: str, with_ci: bool, chunk: int = 0, kind: Optional[type] = None):
        self.metric = metric
        self.label = label
        self.resamples = metric.resolved_n_resamples() if with_ci else 0
        self.chunk = chunk  # the index of the chunk scored here (seeds the resample draws)
        self.total = 0
        self.state: Any = kind(self) if kind is not None else None  # the kind: given (earlier chunks chose it), or
        # chosen by the first chunk

    def merge(self, other: "MetricAccumulator") -> None:
        """Add a later chunk's accumulator of the same metric and partition: the states a sequential pass over both
        chunks gives."""
        if other.state is None:
            return
        if self.state is None:
            self.state = other.state
            if hasattr(other.state, "accumulator"):
                other.state.accumulator = self
        elif type(self.state) is not type(other.state):
            raise MetricError(f"{type(self.metric).__name__} scored one chunk of the stream as '{self.kind}' and "
                              f"another as '{KIND_NAMES[type(other.state)]}' (mean instance scores in some chunks "
                              "only).", artifact=self.metric.artifact_name)
        else:
            self.state.merge(other.state)
        self.total += other.total

    @property
    def kind(self) -> Optional[str]:
        return KIND_NAMES[type(self.state)] if self.state is not None else None

    def add(self, predictions: List[Any], references: List[List[Any]], task_data: Any, buckets: Buckets) -> None:
        """Add one chunk of the partition; `buckets` maps group values to positions in the chunk (WHOLE: every one,
        given as None)."""
        if self.state is None:
            kind = _kind_by_type(self.metric)
            if kind is None:
                self._add_first_scored(predictions, references, task_data, buckets)
                self.total += len(predictions)
                return
            self.state = kind(self)
        if isinstance(self.state, _MeanKind):
            scores = self.metric.evaluate(predictions, references, task_data)
            if type(scores) is not MetricScores or scores.mean_values is None:
                raise MetricError(f"{type(self.metric).__name__} gave mean instance scores for earlier chunks of "
                                  "the stream but not for this one.", artifact=self.metric.artifact_name)
            self.state.add_values(scores.mean_values, buckets)
        else:
            self.state.add(predictions, references, task_data, buckets)
        self.total += len(predictions)

    def _add_first_scored(self, predictions, references, task_data, buckets) -> None:
        scores = self.metric.evaluate(predictions, references, task_data)
        if type(scores) is MetricScores and scores.mean_values is not None:
            self.state = _MeanKind(self)
            self.state.add_values(scores.mean_values, buckets)
        else:
            self.state = _KeptKind(self)
            self.state.add(predictions, references, task_data, buckets)

    def keeps_inputs(self) -> bool:
        """Whether this metric holds its processed inputs (no mergeable form): memory grows with the stream."""
        return self.state is not None and self.state.keeps_inputs()

    def count(self, bucket: Any = WHOLE) -> int:
        return self.state.count(bucket) if self.state is not None else 0

    def global_scores(self, bucket: Any = WHOLE) -> Dict[str, Any]:
        """The metric's global scores over a bucket (names prefixed, CIs, score, score_name, num_of_instances)."""
        return self.state.global_scores(bucket)

    def main_score_resamples(self, seed: int) -> Any:
        """The main score of each resample of the whole partition (for the CI of a mean over subsets)."""
        return self.state.main_score_resamples(seed)
