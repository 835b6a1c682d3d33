"""Score a table of records with catalog metrics, without a recipe: `evaluate(table, metric_names)`.

For data that is already in task form (e.g. a RAG system's questions, retrieved contexts and answers): as the
original, each record is one instance given to the metric whole, so a metric pipeline's preprocess steps read its
columns (answer, contexts, context_ids, ground_truths, ...). Missing columns default to: `prediction` the record
itself, `references` none, `task_data` the record. Each metric is scored separately, so metrics sharing score names
never mix.
"""

from typing import Any, Dict, List, Sequence, Tuple

from ..errors import UnitxtError
from ..module_aliases import moved_classes


def _records(table: Any) -> Tuple[List[Dict[str, Any]], bool]:
    """(records, given as a pandas DataFrame?)."""
    if hasattr(table, "to_dict") and hasattr(table, "columns") and hasattr(table, "iloc"):
        return table.to_dict("records"), True
    records = list(table)
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise UnitxtError(f"Record {index} is a {type(record).__name__}; eval_utils.evaluate expects a pandas "
                              "DataFrame or a list of dicts.", artifact="eval_utils.evaluate", field="dataset")
    return records, False


def evaluate(dataset: Any, metric_names: Sequence[str], compute_conf_intervals: bool = False) -> Tuple[Any, Any]:
    """(per-record results, global scores): the records with one column per metric (its main score per record),
    and per metric all its global scores (with every `<score>_ci_low`/`_ci_high` when `compute_conf_intervals`).

    A pandas DataFrame in gives DataFrames out, the global table with one column per metric name and one row per
    global score name (the original's layout); a list of dicts gives (list of dicts, {metric name: scores})."""
    from ..catalog import fetch_artifact
    from ..metrics.base import Metric

    if isinstance(metric_names, str):
        metric_names = [metric_names]
    if not metric_names:
        raise UnitxtError("Name at least one metric.", artifact="eval_utils.evaluate", field="metric_names")
    records, is_frame = _records(dataset)
    results = [dict(record) for record in records]
    global_scores: Dict[str, Dict[str, Any]] = {}
    for name in metric_names:
        metric = fetch_artifact(name)[0] if isinstance(name, str) else name
        if not isinstance(metric, Metric):
            raise UnitxtError(f"{name!r} is a {type(metric).__name__}, not a metric (expand a metrics list first).",
                              artifact="eval_utils.evaluate", field="metric_names")
        instances = []
        for record in records:
            instance = dict(record)
            instance.setdefault("prediction", dict(record))
            instance.setdefault("references", [])
            instance.setdefault("task_data", dict(record))
            instances.append(instance)
        if not instances:
            continue
        scored = metric.evaluate_instances(instances)
        for result, instance in zip(results, metric.instance_results(scored)):
            result[name] = instance.get("score")
        global_scores[name] = dict(scored.global_scores(with_ci=compute_conf_intervals))
    if is_frame:
        import pandas

        return pandas.DataFrame(results), pandas.DataFrame(global_scores)
    return results, global_scores


def as_remote_metric(metric: Any) -> Any:
    """A MetricPipeline whose inner metric is computed by the metrics service of the `remote_metrics_endpoint`
    setting (UNITXT_REMOTE_METRICS_ENDPOINT), as the original; any other metric is a ValueError."""
    from ..metrics.pipeline import MetricPipeline
    from ..metrics.remote import RemoteMetric, remote_metrics_endpoint

    if not isinstance(metric, MetricPipeline):
        raise ValueError(f"Unexpected remote metric type {type(metric)} for the metric named "
                         f"'{getattr(metric, '__id__', None)}'. Remotely executed metrics should be MetricPipeline "
                         "objects.")
    return RemoteMetric.wrap_inner_metric_pipeline_metric(metric_pipeline=metric,
                                                          remote_metrics_endpoint=remote_metrics_endpoint())


__all__ = ["evaluate", "as_remote_metric"]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
