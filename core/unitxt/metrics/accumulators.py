"""Mergeable metric states for scoring a stream chunk by chunk in bounded memory.

A metric over a stream keeps, per set of instances it scores (a partition of the stream, or one group of it):
- exact totals of additive per-instance statistics — sums and counts of instance scores for metrics whose global
  scores are means of instance scores; per-label (true positive, gold, predicted) counts for the single-label
  classification family — so point estimates are those of the in-memory path (to float rounding);
- the same totals for every bootstrap resample, each instance weighted by an independent Poisson(1) count (see
  kernels/poisson_bootstrap.py): (resamples x statistics) numbers, whatever the stream's length.
Other metrics (correlations, corpus BLEU, ...) have no additive form here: their inputs are kept and scored in memory
at the end, exactly as the in-memory path scores them (memory then grows with the stream; `kept_metrics` names them).
"""

import itertools
import zlib
from typing import Any, Dict, List, Optional

from ..errors import MetricError
from ..lazy_imports import numpy_module as _np
from ..settings_utils import settings
from .base import GlobalMetric, KeyedStatistics, Metric, MetricScores

WHOLE = None  # the bucket of every instance of the partition (other buckets are group values)


def _rng(label: str) -> Any:
    """A generator per state, seeded by the global seed and the state's name (metric, partition, group)."""
    return _np().random.default_rng([int(settings.seed), zlib.crc32(label.encode("utf-8", "surrogatepass"))])


def _additive_kind(metric: Metric) -> Optional[str]:
    """"labels" or "sums" when the metric's global scores follow from additive statistics by construction (its
    scoring is the base classes'); None: decided by the first chunk's scores ("mean" or "kept")."""
    from .classification import LabelPairMetric

    from .pipeline import MetricPipeline

    cls = type(metric)
    if isinstance(metric, MetricPipeline) and cls.evaluate is MetricPipeline.evaluate:
        return "pipeline"
    if cls.evaluate is not Metric.evaluate or not isinstance(metric, GlobalMetric):
        return None
    if isinstance(metric, LabelPairMetric) and cls.score is GlobalMetric.score and \
            cls.fast_statistic is LabelPairMetric.fast_statistic:
        return "labels"
    if cls.additive_statistics is not GlobalMetric.additive_statistics:
        return "sums"
    return None


def _python(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def _ratio(numerator: Any, denominator: Any) -> Any:
    np = _np()
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), np.nan)


class _MeanState:
    """Sums and counts of each score's non-NaN instance values, exact and per Poisson resample."""

    def __init__(self, resamples: int, label: str):
        self.resamples = resamples
        self.rng = _rng(label) if resamples else None
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
            array = values[name]
            seen = ~np.isnan(array)
            kept = np.where(seen, array, 0.0)
            self.sums[name] = self.sums.get(name, 0.0) + float(kept.sum())
            self.counts[name] = self.counts.get(name, 0.0) + float(np.count_nonzero(seen))
            columns.append(kept)
            present.append(seen.astype(np.float64))
        if not self.resamples:
            return
        from .kernels.poisson_bootstrap import weighted_totals

        totals = weighted_totals(self.rng, self.resamples, np.column_stack(columns + present))
        width = len(names)
        for position, name in enumerate(names):
            pair = totals[:, [position, width + position]]
            if name in self.resampled:
                self.resampled[name] += pair
            else:
                self.resampled[name] = pair

    def point(self) -> Dict[str, float]:
        return {name: float(_ratio(self.sums[name], self.counts[name])) for name in self.sums}

    def resample_values(self, name: str) -> Any:
        pair = self.resampled[name]
        return _ratio(pair[:, 0], pair[:, 1])


class _LabelState:
    """Per-label true positive, gold and predicted counts of (first reference, prediction) pairs, exact and per
    Poisson resample; labels get columns as they first appear in the stream."""

    def __init__(self, resamples: int, label: str):
        np = _np()
        self.resamples = resamples
        self.rng = _rng(label) if resamples else None
        self.count = 0
        self.exact = np.zeros((3, 0), dtype=np.int64)  # rows: tp, support, predicted
        self.resampled = np.zeros((3, resamples, 0), dtype=np.int64)

    def grow(self, width: int) -> None:
        np = _np()
        missing = width - self.exact.shape[1]
        if missing > 0:
            self.exact = np.concatenate([self.exact, np.zeros((3, missing), dtype=np.int64)], axis=1)
            self.resampled = np.concatenate(
                [self.resampled, np.zeros((3, self.resamples, missing), dtype=np.int64)], axis=2)

    def add(self, gold: Any, pred: Any, width: int) -> None:
        """Add pairs of label codes (codes index the stream's label table of `width` labels)."""
        np = _np()
        if len(gold) == 0:
            return
        self.grow(width)
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


class _SumState:
    """Column totals of additive per-instance statistics (GlobalMetric.additive_statistics), exact and per Poisson
    resample."""

    def __init__(self, resamples: int, label: str):
        self.resamples = resamples
        self.rng = _rng(label) if resamples else None
        self.count = 0
        self.exact: Any = None
        self.resampled: Any = None

    def add(self, rows: Any, columns: Any = None, width: int = 0) -> None:
        """Add statistics rows (m, w); with `columns`, row column j adds to column columns[j] of `width` columns."""
        np = _np()
        if len(rows) == 0:
            return
        self.count += len(rows)
        totals = rows.sum(axis=0, dtype=np.int64 if np.issubdtype(rows.dtype, np.integer) else np.float64)
        drawn = None
        if self.resamples:
            from .kernels.poisson_bootstrap import weighted_totals

            drawn = weighted_totals(self.rng, self.resamples, rows)
        if columns is not None:
            self._grow(width, totals.dtype)
            np.add.at(self.exact, columns, totals)
            if drawn is not None:
                np.add.at(self.resampled, (slice(None), columns), drawn)
            return
        self.exact = totals if self.exact is None else self.exact + totals
        if drawn is not None:
            self.resampled = drawn if self.resampled is None else self.resampled + drawn

    def _grow(self, width: int, dtype: Any) -> None:
        np = _np()
        if self.exact is None:
            self.exact = np.zeros(0, dtype=dtype)
            self.resampled = np.zeros((self.resamples, 0)) if self.resamples else None
        missing = width - len(self.exact)
        if missing > 0:
            self.exact = np.concatenate([self.exact, np.zeros(missing, dtype=self.exact.dtype)])
            if self.resampled is not None:
                self.resampled = np.concatenate([self.resampled, np.zeros((self.resamples, missing))], axis=1)


class MetricAccumulator:
    """One metric over one partition of a stream: a state per bucket (the whole partition, and each group value)."""

    def __init__(self, metric: Metric, label: str, with_ci: bool):
        self.metric = metric
        self.label = label
        self.resamples = metric.resolved_n_resamples() if with_ci else 0
        self.kind: Optional[str] = None  # "mean", "labels", "sums", "pipeline" or "kept", fixed by the first chunk
        self.states: Dict[Any, Any] = {}
        self.total = 0
        # label table of the "labels" kind
        self.label_codes: Dict[Any, int] = {}
        self.key_columns: Dict[Any, int] = {}  # columns of keyed additive statistics
        self.keyed = False
        self.labels: List[Any] = []
        # inputs of the "kept" kind, and the positions of each bucket in them
        self.kept: Optional[List[List[Any]]] = None
        self.kept_positions: Dict[Any, List[int]] = {}
        self.kept_scores: Optional[MetricScores] = None
        self.inner: Optional["MetricAccumulator"] = None  # the inner metric's accumulator of a MetricPipeline

    # ------------------------------------------------------------------ adding chunks
    def add(self, predictions: List[Any], references: List[List[Any]], task_data: Any,
            buckets: Dict[Any, List[int]]) -> None:
        """Add one chunk of the partition; `buckets` maps group values to positions in the chunk (WHOLE: every one)."""
        metric = self.metric
        if self.kind is None:
            self.kind = _additive_kind(metric)
            if self.kind == "pipeline":
                self.inner = MetricAccumulator(metric.metric, f"{self.label}>inner", self.resamples > 0)
        if self.kind == "pipeline":
            prepared = metric.prepared_inputs(predictions, references, [task_data[i] for i in range(len(predictions))])
            if len(prepared[0]) != len(predictions):
                raise MetricError(f"The preprocess steps of {type(metric).__name__} changed the number of instances "
                                  f"({len(predictions)} -> {len(prepared[0])}); a streamed evaluation scores each "
                                  "instance where it is.", artifact=metric.artifact_name, field="preprocess_steps")
            self.inner.add(*prepared, buckets)
        elif self.kind == "labels":
            self._add_labels(predictions, references, task_data, buckets)
        elif self.kind == "sums":
            self._add_sums(predictions, references, task_data, buckets)
        elif self.kind == "kept":
            self._keep(predictions, references, task_data, buckets)
        else:
            scores = metric.evaluate(predictions, references, task_data)
            if type(scores) is MetricScores and scores.mean_values is not None:
                if self.kind is None:
                    self.kind = "mean"
                self._add_means(scores.mean_values, buckets)
            elif self.kind is None:
                self.kind = "kept"
                self._keep(predictions, references, task_data, buckets)
            else:
                raise MetricError(f"{type(metric).__name__} gave mean instance scores for earlier chunks of the "
                                  "stream but not for this one.", artifact=metric.artifact_name)
        self.total += len(predictions)

    def _add_sums(self, predictions, references, task_data, buckets) -> None:
        np = _np()
        statistics = self.metric.additive_statistics(*self.metric.checked_inputs(predictions, references, task_data))
        columns = None
        self.keyed = isinstance(statistics, KeyedStatistics)
        if self.keyed:
            columns = np.asarray([self.key_columns.setdefault(key, len(self.key_columns)) for key in statistics.keys],
                                 dtype=np.int64)
            statistics = statistics.rows
        rows = np.asarray(statistics)
        for bucket, positions in buckets.items():
            chosen = rows if bucket is WHOLE else rows[np.asarray(positions, dtype=np.int64)]
            self._state(bucket, _SumState).add(chosen, columns, len(self.key_columns))

    def _state(self, bucket: Any, make: Any) -> Any:
        state = self.states.get(bucket)
        if state is None:
            state = self.states[bucket] = make(self.resamples, f"{self.label}|{bucket!r}")
        return state

    def _add_means(self, values: Dict[str, Any], buckets: Dict[Any, List[int]]) -> None:
        np = _np()
        for bucket, positions in buckets.items():
            chosen = values if bucket is WHOLE else {
                name: array[np.asarray(positions, dtype=np.int64)] for name, array in values.items()}
            self._state(bucket, _MeanState).add(chosen)

    def _add_labels(self, predictions, references, task_data, buckets) -> None:
        from .classification import _first_reference, _hashable

        np = _np()
        predictions, references, _ = self.metric.checked_inputs(predictions, references, task_data)
        golds, codes = _first_reference(references, self.metric), self.label_codes
        if not all(type(value) is str for value in itertools.chain(golds, predictions)):
            golds, predictions = list(map(_hashable, golds)), list(map(_hashable, predictions))
        for label in dict.fromkeys(itertools.chain(golds, predictions)):  # new labels, in order of appearance
            if label not in codes:
                codes[label] = len(self.labels)
                self.labels.append(label)
        gold_array = np.fromiter(map(codes.__getitem__, golds), dtype=np.int64, count=len(golds))
        pred_array = np.fromiter(map(codes.__getitem__, predictions), dtype=np.int64, count=len(predictions))
        for bucket, positions in buckets.items():
            if bucket is WHOLE:
                chosen_gold, chosen_pred = gold_array, pred_array
            else:
                chosen = np.asarray(positions, dtype=np.int64)
                chosen_gold, chosen_pred = gold_array[chosen], pred_array[chosen]
            self._state(bucket, _LabelState).add(chosen_gold, chosen_pred, len(self.labels))

    def _keep(self, predictions, references, task_data, buckets) -> None:
        if self.kept is None:
            self.kept = [[], [], []]
        offset = len(self.kept[0])
        for bucket, positions in buckets.items():
            self.kept_positions.setdefault(bucket, []).extend(
                offset + position for position in (range(len(predictions)) if bucket is WHOLE else positions))
        self.kept[0].extend(predictions)
        self.kept[1].extend(references)
        self.kept[2].extend(task_data[i] for i in range(len(predictions)))

    # ------------------------------------------------------------------ scores
    def keeps_inputs(self) -> bool:
        """Whether this metric holds its processed inputs (no mergeable form): memory grows with the stream."""
        return self.kind == "kept" or self.kind == "pipeline" and self.inner.keeps_inputs()

    def count(self, bucket: Any = WHOLE) -> int:
        if self.kind == "pipeline":
            return self.inner.count(bucket)
        if self.kind == "kept":
            return len(self.kept_positions.get(bucket, ()))
        state = self.states.get(bucket)
        return state.count if state is not None else 0

    def global_scores(self, bucket: Any = WHOLE) -> Dict[str, Any]:
        """The metric's global scores over a bucket (names prefixed, CIs, score, score_name, num_of_instances)."""
        if self.kind == "pipeline":
            return self.metric.adjusted_global_scores(self.inner.global_scores(bucket))
        if self.kind == "kept":
            return self._kept_scores().global_scores(self.kept_positions[bucket], with_ci=self.resamples > 0)
        from .kernels.bootstrap import percentile_interval

        count = self.count(bucket)
        point = self._point(bucket, count)
        finisher = MetricScores(self.metric, [], None, count)
        if self.metric.main_score not in point:
            raise MetricError(f"{type(self.metric).__name__} did not produce its main score "
                              f"'{self.metric.main_score}'.", artifact=self.metric.artifact_name)
        intervals = {}
        if self.resamples and count > 1:
            for name in finisher.ci_names(point):
                intervals[name] = percentile_interval(self._resample_values(bucket, name), self.metric.confidence_level)
        scores = finisher.finish(point, intervals, count)
        if self.kind == "sums":
            scores.update(self.metric.details_of_totals(self.states[bucket].exact))
        return scores

    def main_score_resamples(self, seed: int) -> Any:
        """The main score of each resample of the whole partition (for the CI of a mean over subsets)."""
        if self.kind == "pipeline":
            return self.inner.main_score_resamples(seed)
        main = self.metric.main_score
        if self.kind != "kept":
            return self._resample_values(WHOLE, main)
        from .kernels.bootstrap import resample_indices

        np = _np()
        scores = self._kept_scores()
        return np.concatenate([np.asarray(scores.statistic(idx)[main], dtype=np.float64)
                               for idx in resample_indices(scores.n, self.metric.resolved_n_resamples(), seed)])

    def _keys(self) -> Optional[List[Any]]:
        """The column keys of keyed statistics (every key of the partition), None for fixed-width statistics."""
        return list(self.key_columns) if self.keyed else None

    def _padded(self, totals: Any) -> Any:
        """Keyed totals widened to every key of the partition (a group may not have seen them all)."""
        np = _np()
        missing = len(self.key_columns) - totals.shape[1]
        return np.concatenate([totals, np.zeros((totals.shape[0], missing))], axis=1) if missing > 0 else totals

    def _kept_scores(self) -> MetricScores:
        if self.kept_scores is None:
            self.kept_scores = self.metric.evaluate(*self.kept)
        return self.kept_scores

    def _point(self, bucket: Any, count: int) -> Dict[str, Any]:
        state = self.states[bucket]
        if self.kind == "mean":
            return state.point()
        if self.kind == "sums":
            return {name: _python(values[0]) for name, values in
                    self.metric.scores_of_totals(self._padded(state.exact[None, :]), True, self._keys()).items()}
        scores = self._label_scores(state.exact[:, None, :], state.exact[1] > 0, count == self.total)
        return {name: float(values[0]) for name, values in scores.items()}

    def _resample_values(self, bucket: Any, name: str) -> Any:
        state = self.states[bucket]
        if self.kind == "mean":
            return state.resample_values(name)
        if self.kind == "sums":
            return self.metric.scores_of_totals(self._padded(state.resampled), False, self._keys())[name]
        return self._label_scores(state.resampled, state.exact[1] > 0, False)[name]

    def _label_scores(self, counts: Any, gold_seen: Any, whole: bool) -> Dict[str, Any]:
        """The metric's scores from (3, r, labels) counts over the classes (labels seen as gold in the bucket),
        ordered as the in-memory path orders them."""
        from .kernels.classification import _sorted_distinct, label_scores_from_counts

        np = _np()
        tp, support, predicted = counts
        classes = _sorted_distinct([label for code, label in enumerate(self.labels) if gold_seen[code]], "references")
        order = np.asarray([self.label_codes[label] for label in classes], dtype=np.int64)
        with_matthews = self.metric.needs_matthews()
        scores = label_scores_from_counts(tp[:, order], support[:, order], predicted[:, order],
                                          predicted if with_matthews else None)
        return self.metric.select_label_scores(scores, classes, whole)
