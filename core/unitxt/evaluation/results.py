"""EvaluationResults: the scored instances (a list) plus global, group and subset score views with summaries."""

import json
import math
from collections.abc import Sequence as SequenceABC
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..errors import UnitxtError
from ..lazy_imports import lazy_exports
from ..settings_utils import settings
from .tables import _is_number, group_key_fields, markdown_table


_SCORE_META = ("score_name", "num_of_instances")


_ROW_SCORES = ("score", "score_name", "score_ci_low", "score_ci_high", "num_of_instances")


def _score_row(scores: Dict[str, Any]) -> List[Any]:
    """The main-score columns of a summary row."""
    return [scores.get(name) for name in _ROW_SCORES]


class _MainScore(dict):
    """Score dicts exposing their main score as attributes."""

    @property
    def score(self) -> Any:
        return self.get("score")

    @property
    def score_name(self) -> Any:
        return self.get("score_name")


class GlobalScores(_MainScore):
    """Global scores of an evaluation (dict-like) with `.score`, `.score_name`, a markdown `.summary` and the
    evaluation's reproducibility `.signature`."""

    _results: Optional["EvaluationResults"] = None  # the evaluation these scores belong to (set by build)

    @property
    def signature(self) -> Optional[str]:
        return self._results.signature if self._results is not None else None

    @property
    def summary(self) -> str:
        names = sorted(
            name for name, value in self.items()
            if _is_number(value) and name not in _SCORE_META and not name.endswith(("_ci_low", "_ci_high"))
        )
        rows = [[name, self[name], self.get(f"{name}_ci_low"), self.get(f"{name}_ci_high")] for name in names]
        table = markdown_table(["score_name", "score", "ci_low", "ci_high"], rows, digits=2)
        text = f"{table}\nMain Score: {self.get('score_name')}\nNum Instances: {self.get('num_of_instances')}"
        signature = self.signature
        return text if signature is None else f"{text}\nSignature: {signature}"

    def __str__(self) -> str:
        return self.summary

    def to_df(self) -> Any:
        """The numeric scores as a pandas DataFrame indexed by score_name, with score, ci_low and ci_high columns
        (the original's table; pandas is optional here)."""
        pandas = _pandas("GlobalScores.to_df()")
        rows = [{"score_name": name, "score": value, "ci_low": self.get(f"{name}_ci_low"),
                 "ci_high": self.get(f"{name}_ci_high")}
                for name, value in self.items()
                if not name.endswith(("_ci_low", "_ci_high")) and _is_number(value)]
        return pandas.DataFrame(rows, columns=["score_name", "score", "ci_low", "ci_high"]).set_index("score_name")


def _pandas(what: str) -> Any:
    """pandas, imported on use (an optional package here)."""
    try:
        import pandas
    except ImportError:
        from ..errors import MissingRequirementError

        raise MissingRequirementError(f"{what} needs pandas: pip install pandas") from None
    return pandas


class InstanceScores(list):
    """Per-instance results as flat rows (as in the original system): the task_data fields, the row's fields, the
    prediction and processed values, and the instance scores (`r.instance_scores[0]["accuracy"]`); with a `.summary`
    table and `.to_df(columns)` (pandas, when installed)."""

    default_columns = ("source", "prediction", "processed_prediction", "processed_references", "score", "score_name")

    @classmethod
    def of(cls, instances: Sequence[Dict[str, Any]]) -> "InstanceScores":
        rows = cls()
        rows.original_instances = instances
        parsed: Dict[str, Any] = {}
        for instance in instances:
            data = instance.get("task_data")
            if isinstance(data, str):
                data = parsed[data] if data in parsed else parsed.setdefault(data, json.loads(data))
            row = dict(data or {})
            row.update((name, value) for name, value in instance.items() if name not in ("task_data", "score"))
            row.update(instance["score"]["instance"])
            rows.append(row)
        return rows

    original_instances: Sequence[Dict[str, Any]] = ()

    def to_df(self, flatten: bool = True, columns: Optional[Sequence[str]] = None) -> Any:
        """The rows as a pandas DataFrame (all their columns, or `columns`); `flatten=False`: the evaluated
        instances as they are (score dicts nested), as in the original."""
        pandas = _pandas("InstanceScores.to_df()")
        frame = pandas.DataFrame(list(self) if flatten else [dict(row) for row in self.original_instances])
        if columns is not None:
            missing = [column for column in columns if column not in frame.columns]
            if missing:
                raise KeyError(f"columns {missing} are not in the instance scores (they have {list(frame.columns)})")
            return frame[list(columns)]
        return frame

    def to_markdown(self, flatten: bool = True, columns: Optional[Sequence[str]] = None, max_col_width: int = 30,
                    **kwargs: Any) -> str:
        """to_df's table as markdown, each cell's lines wrapped at `max_col_width` (pandas' to_markdown, which
        needs the tabulate package)."""
        import textwrap

        frame = self.to_df(flatten, columns).copy()
        for column in frame.columns:
            frame[column] = frame[column].apply(lambda value: "\n".join(
                textwrap.fill(line, width=max_col_width) for line in str(value).splitlines()))
        try:
            return frame.to_markdown(**kwargs)
        except ImportError:
            from ..errors import MissingRequirementError

            raise MissingRequirementError("InstanceScores.to_markdown() needs tabulate: pip install tabulate") from None

    @property
    def summary(self) -> str:
        columns = list(self.default_columns)
        return markdown_table(columns, [[_cell(row.get(column)) for column in columns] for row in self])


def _cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str):
        return value.replace("\n", "\\n").replace("|", "\\|")
    return value


class GroupsScores(dict):
    """{group-by key: {group value: scores}} with a markdown `.summary` (one table per group-by key)."""

    @property
    def summary(self) -> str:
        parts = []
        for key, groups in self.items():
            fields = group_key_fields(key)
            headers = list(fields) + list(_ROW_SCORES)
            rows = []
            for value, scores in groups.items():
                values = list(value) if isinstance(value, tuple) else [value]
                rows.append(values + _score_row(scores))
            parts.append(f"# Group By: {', '.join(fields)}\n" + markdown_table(headers, rows))
        return "\n\n".join(parts)


class SubsetsScores(_MainScore):
    """Scores per subset (nested for nested benchmarks) plus the overall `subsets_mean`."""

    @property
    def summary(self) -> str:
        rows = []

        def walk(scores: Dict[str, Any], prefix: str) -> None:
            for name, value in scores.items():
                if isinstance(value, dict) and name != "groups":
                    path = f"{prefix}{name}"
                    rows.append([path] + _score_row(value))
                    walk(value, path + "/")

        walk(self, "")
        rows.append(["ALL"] + _score_row(self))
        return markdown_table(["subset"] + list(_ROW_SCORES), rows)


class EvaluationResults(SequenceABC):
    """The evaluated instances (each the input row plus `prediction`, `processed_prediction`, `processed_references`
    and `score: {"instance": ..., "global": ...}`) and score views. Instances are built when read, so evaluating a
    million rows does not make a million dicts; treat them as read-only views of the evaluation."""

    @property
    def global_scores(self) -> GlobalScores:
        """The global scores (of the first instance's score, when the results were given as instances)."""
        scores = self.__dict__.get("_global_scores")
        if scores is None and self._instances:
            scores = GlobalScores(self._instances[0]["score"]["global"])
        return scores

    @global_scores.setter
    def global_scores(self, value: GlobalScores) -> None:
        self.__dict__["_global_scores"] = value

    @property
    def groups_scores(self) -> GroupsScores:
        """Scores per group of each group-by key (empty without group_by)."""
        scores = self.__dict__.get("_groups_scores")
        if scores is None and self._instances:
            scores = GroupsScores(self._instances[0]["score"].get("groups") or {})
        return scores

    @groups_scores.setter
    def groups_scores(self, value: GroupsScores) -> None:
        self.__dict__["_groups_scores"] = value

    @property
    def subsets_scores(self) -> SubsetsScores:
        """Scores per subset of a benchmark (empty for one dataset)."""
        scores = self.__dict__.get("_subsets_scores")
        if scores is None and self._instances:
            scores = SubsetsScores(self._instances[0]["score"].get("subsets") or {})
        return scores

    @subsets_scores.setter
    def subsets_scores(self, value: SubsetsScores) -> None:
        self.__dict__["_subsets_scores"] = value

    def __init__(self, instances: Optional[Sequence[Dict[str, Any]]] = None):
        self._instances: Optional[List[Dict[str, Any]]] = list(instances) if instances is not None else None
        self._built: Dict[int, Dict[str, Any]] = {}
        self._columns: Optional[Dict[str, Any]] = None

    def __len__(self) -> int:
        if self._instances is not None:
            return len(self._instances)
        return len(self._columns["inputs"]) if self._columns is not None else 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if isinstance(index, str):  # a list in the original too: say where scores by name live
            raise TypeError(f"EvaluationResults is a list of evaluated instances, indexed by position, not by "
                            f"'{index}': use results.global_scores[{index!r}] (or results.global_scores.summary)")
        if self._instances is not None:
            return self._instances[index]
        n = len(self)
        position = index + n if index < 0 else index
        if not 0 <= position < n:
            raise IndexError(f"instance {index} out of range ({n} instances)")
        instance = self._built.get(position)
        if instance is None:
            instance = self._built[position] = self._build_instance(position)
        return instance

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (list, EvaluationResults)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # mutable views, like the list they replace

    def __repr__(self) -> str:
        scores = self.global_scores or {}
        return f"EvaluationResults({len(self)} instances, score {scores.get('score')!r})"

    def _build_instance(self, position: int) -> Dict[str, Any]:
        columns = self._columns
        instance = dict(columns["inputs"].row(position))
        if isinstance(instance.get("task_data"), str):  # results rows carry task_data as a dict (dataset rows: JSON)
            instance["task_data"] = self._task_data[position]
        instance["prediction"] = columns["predictions"][position]
        instance["processed_prediction"] = columns["processed_predictions"][position]
        instance["processed_references"] = columns["processed_references"][position]
        instance["score"] = score = {"instance": columns["instance_scores"][position], "global": self.global_scores}
        if self.groups_scores:
            score["groups"] = self.groups_scores
        if self.subsets_scores:
            score["subsets"] = self.subsets_scores
        return instance

    def input_rows(self):
        """The evaluated input rows, in order (without the scores)."""
        if self._columns is None:
            return iter(self)
        return self._columns["inputs"].iter_rows()

    @property
    def instance_scores(self) -> InstanceScores:
        return InstanceScores.of(self)

    def to_html(self, path: Optional[str] = None, title: str = "unitxt evaluation report",
                max_instances: int = 2000, baseline: Optional["EvaluationResults"] = None) -> str:
        """A self-contained HTML report (scores with CI bars, groups, subsets, confusion matrix, instance browser,
        and the paired comparison with a `baseline` run of the same instances); written to `path` when given."""
        from .html_report import render_report

        text = render_report(self, title=title, max_instances=max_instances, baseline=baseline)
        if path is not None:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        return text

    def plot(self, path: Optional[str] = None) -> Any:
        """A matplotlib figure of the scores with CIs (needs `unitxt[report]`); saved to `path` when given."""
        from .plots import plot_results

        return plot_results(self, path)

    def __getstate__(self) -> Dict[str, Any]:
        """Pickle the instances, scores and signature, not the scoring internals (metric closures do not pickle)."""
        state = dict(self.__dict__)
        if state.get("_columns") is not None:
            state["_signature"] = self.signature
            state["_instances"] = list(self)
            state["_columns"] = None
            state["_built"] = {}
        for name in ("_partitions", "_group_buckets", "_task_data"):
            state.pop(name, None)
        return state

    @property
    def signature(self) -> str:
        """Versions, catalog content, recipe, data, metric settings and bootstrap settings behind these numbers."""
        if self._signature is None:
            from .signature import build_signature

            metrics = [metric for partition in self._partitions.values() for metric, _ in partition.metric_scores]
            self._signature = build_signature(self.input_rows(), self._task_data, metrics, self._with_ci)
        return self._signature

    @classmethod
    def build(
        cls,
        inputs: Any,
        predictions: List[Any],
        processed_predictions: List[Any],
        processed_references: List[List[Any]],
        task_data: Sequence[Dict[str, Any]],
        instance_scores: Sequence[Dict[str, Any]],
        partitions: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], Any],
        with_ci: bool,
        group_value: Callable[[Dict[str, Any], str], Any],
        hashable: Callable[[Any], Any],
    ) -> "EvaluationResults":
        """Results over EvaluationInputs (see evaluation_inputs.py) and the evaluation's columns."""
        groups = _GroupSpecs(inputs)
        subsets = {subset for subset, _ in partitions}
        if len(partitions) == 1 and subsets == {()}:
            (partition,) = partitions.values()
            global_scores = GlobalScores(partition.global_scores(with_ci=with_ci))
            subsets_scores = SubsetsScores()
        else:
            subsets_scores = _subsets_scores(partitions, with_ci)
            global_scores = GlobalScores(subsets_scores)
            _attach_subset_groups(subsets_scores, groups, task_data, partitions, with_ci, group_value, hashable)
        group_buckets = _group_buckets(groups, task_data, partitions, group_value, hashable)
        results = cls()
        results._columns = {
            "inputs": inputs, "predictions": predictions, "processed_predictions": processed_predictions,
            "processed_references": processed_references, "instance_scores": instance_scores,
        }
        results.global_scores = global_scores
        results.groups_scores = _groups_scores(group_buckets, partitions, with_ci)
        results.subsets_scores = subsets_scores
        # kept for signature and paired comparison (unitxt.compare): the scored partitions and group memberships
        results._partitions = partitions
        results._group_buckets = group_buckets
        results._task_data = task_data
        results._with_ci = with_ci
        results._signature = None
        global_scores._results = results
        return results


class _GroupSpecs:
    """The rows' `groups` column, read only when some row has a group spec."""

    def __init__(self, inputs: Any):
        self.inputs = inputs
        if inputs.has("groups"):
            _, distinct = inputs.codes("groups")
            self.any = any(distinct)
        else:
            self.any = False

    def __getitem__(self, position: int) -> Any:
        return self.inputs.column("groups")[position]


def _group_buckets(groups, task_data, partitions, group_value, hashable) -> Dict[Any, Dict[Any, List[int]]]:
    """{group-by key: {group value: local positions}} of a run scored as one partition ({} otherwise: with subsets,
    groups are scored inside each subset, see `_attach_subset_groups`)."""
    if len(partitions) != 1:
        return {}
    (partition,) = partitions.values()
    return _partition_group_buckets(groups, task_data, partition.positions, group_value, hashable)


def _group_spec(spec: Any, position: int) -> Any:
    """One entry of a row's `groups` field: a JSON object of values, a key name or a list of key names."""
    try:
        entry = json.loads(spec) if isinstance(spec, str) else None
    except (ValueError, RecursionError):
        entry = None
    if isinstance(entry, dict) or isinstance(entry, str) or (
            isinstance(entry, list) and entry and all(isinstance(name, str) for name in entry)):
        return entry
    raise UnitxtError(f"Row {position}: each entry of 'groups' must be the JSON text of an object of group values "
                      f"or of a key name / list of key names, got {str(spec)[:80]!r}.", field="groups")


def _partition_group_buckets(groups, task_data, positions, group_value, hashable) -> Dict[Any, Dict[Any, List[int]]]:
    """{group-by key: {group value: indices into `positions`}} of the rows at `positions` (a partition's rows). A key
    is the field name, or a tuple of names for a multi-field group_by (as in the original system:
    groups_scores["label"], groups_scores[("label", "num_demos")]); values likewise. Rows carry their values as JSON objects in `groups` ('{"label": "pos"}');
    rows written as JSON lists of key names have their values looked up in task_data."""
    result: Dict[Any, Dict[Any, List[int]]] = {}
    if not groups.any:
        return result
    parsed: Dict[str, Any] = {}
    for local, position in enumerate(positions):
        for spec in groups[position] or []:
            entry = parsed.get(spec)
            if entry is None:
                entry = parsed[spec] = _group_spec(spec, position)
            if isinstance(entry, dict):
                names, values = tuple(entry), tuple(hashable(value) for value in entry.values())
            else:
                names = (entry,) if isinstance(entry, str) else tuple(entry)
                values = tuple(hashable(group_value(task_data[position], name)) for name in names)
            key = names if len(names) > 1 else names[0]
            value = values if len(values) > 1 else values[0]
            result.setdefault(key, {}).setdefault(value, []).append(local)
    return result


def _attach_subset_groups(subsets_scores, groups, task_data, partitions, with_ci, group_value, hashable) -> None:
    """With subsets, a subset recipe's group_by is scored within the subset, under its scores' "groups" key (as in
    the original system: results.subsets_scores["cola"]["groups"]["label"])."""
    for (subset, _), partition in partitions.items():
        buckets = _partition_group_buckets(groups, task_data, partition.positions, group_value, hashable)
        if not buckets or not subset:
            continue
        node = subsets_scores
        for part in subset:
            node = node[part]
        node["groups"] = GroupsScores({key: {value: partition.global_scores(locals_, with_ci=with_ci)
                                            for value, locals_ in groups.items()} for key, groups in buckets.items()})


def _groups_scores(group_buckets, partitions, with_ci) -> GroupsScores:
    result = GroupsScores()
    if not group_buckets:
        return result
    (partition,) = partitions.values()
    for key, buckets in group_buckets.items():
        result[key] = {value: partition.global_scores(locals_, with_ci=with_ci) for value, locals_ in buckets.items()}
    return result


def _subsets_scores(partitions, with_ci: bool) -> SubsetsScores:
    """Per-subset global scores, nested by subset path, and the mean of the subsets' main scores (with a CI)."""
    import numpy as np

    result = SubsetsScores()
    leaf_scores = []
    for (subset, metrics), partition in partitions.items():
        path = list(subset) if subset else ["+".join(metrics)]
        scores = partition.global_scores(with_ci=with_ci)
        node = result
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = scores
        leaf_scores.append((path, partition, scores))

    def mean_over(node: Dict[str, Any]) -> List[float]:
        values = []
        for name, value in node.items():
            if isinstance(value, dict):
                if "score_name" in value and value.get("score_name") != "subsets_mean" and not any(
                    isinstance(child, dict) for child in value.values()
                ):
                    values.append(value["score"])
                else:
                    child_values = mean_over(value)
                    value["score"] = float(np.mean(child_values)) if child_values else math.nan
                    value["score_name"] = "subsets_mean"
                    value["subsets_mean"] = value["score"]
                    values.append(value["score"])
        return values

    top = mean_over(result)
    mean = float(np.mean(top)) if top else math.nan
    result["subsets_mean"] = mean
    result["score"] = mean
    result["score_name"] = "subsets_mean"
    result["num_of_instances"] = sum(len(partition.positions) for _, partition, _ in leaf_scores)
    if with_ci and len(leaf_scores) > 0:
        leaves = {tuple(path): partition for path, partition, _ in leaf_scores}
        low, high = _nested_mean_ci(result, leaves)
        result["subsets_mean_ci_low"] = result["score_ci_low"] = low
        result["subsets_mean_ci_high"] = result["score_ci_high"] = high
    return result


def _nested_mean_ci(result, leaves) -> Tuple[float, float]:
    """CI of the (nested) subsets mean: every leaf resampled within itself, each inner node the mean of its children
    per resample, as its point estimate is; inner nodes get their own score_ci_low / score_ci_high."""
    import numpy as np

    from ..metrics.kernels.bootstrap import percentile_interval

    n_resamples = int(settings.default_n_resamples)
    if n_resamples <= 0:
        return math.nan, math.nan
    order = {path: offset for offset, path in enumerate(leaves)}

    def leaf_vector(path):
        return leaves[path].main_score_resamples(n_resamples, seed=int(settings.seed) + order[path])

    def node_vector(node, prefix):
        vectors = []
        for name, value in node.items():
            if not isinstance(value, dict):
                continue
            path = prefix + (name,)
            if path in leaves:
                vectors.append(leaf_vector(path))
            else:
                vector = node_vector(value, path)
                value["score_ci_low"], value["score_ci_high"] = percentile_interval(vector, 0.95)
                vectors.append(vector)
        shortest = min(len(vector) for vector in vectors)  # a streamed leaf has its metric's own resample count
        return np.nanmean(np.vstack([vector[:shortest] for vector in vectors]), axis=0)

    return percentile_interval(node_vector(result, ()), 0.95)


# More names of the original's `unitxt.metric_utils` (which maps here), imported on first use from their homes.
_ORIGINAL_NAMES = {
    **{name: "..subset_streams" for name in ("DEFAULT_STREAM_NAME", "DEFAULT_STREAM_SUBSET_SEPARATOR", "nan_mean",
                                            "EmptyPrediction", "empty_predictions_generator",
                                            "SplitSubsetsAndGroups", "JoinSubsetsAndGroups")},
    **{name: "..metric_recipe" for name in ("DeleteTargetPrefix", "FromPredictionsAndOriginalData", "InstanceInput",
                                           "MetricRecipe", "PostProcessRecipe")},
    **{name: "...metrics.remote" for name in ("UNITXT_REMOTE_METRICS", "UNITXT_REMOTE_METRICS_ENDPOINT",
                                             "get_remote_metrics_names", "get_remote_metrics_endpoint",
                                             "MetricRequest", "MetricResponse")},
    **{name: "...rendering.dataset_builder" for name in ("UNITXT_DATASET_SCHEMA", "UNITXT_METRIC_SCHEMA")},
}
__getattr__, __dir__ = lazy_exports(__name__, _ORIGINAL_NAMES, "-")  # (anchored at this module: one dot more)
