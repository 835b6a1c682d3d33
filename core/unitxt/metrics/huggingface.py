"""HuggingfaceMetric: wrap a metric of the `evaluate` library (Hub name or local script path) as a unitxt metric.

`evaluate` is imported only when the metric first computes. By default the metric receives `predictions` and
`references` (a list of reference lists per prediction; the first reference only with
`single_reference_per_prediction`); task fields are passed per instance (`hf_additional_input_fields_pass`, a list
per field) or as one shared value (`hf_additional_input_fields_pass_one_value`), plus constant `hf_compute_args`.
The HF score named `hf_main_score` (default: `main_score`) is reported as `main_score` (default: `hf_main_score`,
else the metric's name, e.g. "bleu").

Global scores are computed by the HF metric on all instances; instance scores by computing it on each instance alone
(`process_single_instances`); confidence intervals by recomputing it per resample, so they use at most
`DEFAULT_MAX_RESAMPLES` resamples unless `n_resamples` is set. Only numeric results become scores.
"""

import json
import math
import os
import uuid
from typing import Any, Dict, List, Optional

from ..errors import MetricError, MissingRequirementError
from ..general.helpers import retry_connection_with_exponential_backoff
from .base import GlobalMetric
from ..settings_utils import settings

DEFAULT_MAX_RESAMPLES = 100


@retry_connection_with_exponential_backoff(backoff_factor=2)
def hf_evaluate_load(path: str, *args: Any, **kwargs: Any) -> Any:
    """`evaluate.load(path, ...)` as the original's metrics call it: a fresh experiment id, no verification, remote
    code only if settings.allow_unverified_code, a fresh download when settings.disable_hf_datasets_cache, `path`
    under settings.hf_offline_metrics_path when that is set; connection failures are retried."""
    try:
        import evaluate
    except ImportError:
        raise MissingRequirementError("hf_evaluate_load needs the evaluate library. Install it with: "
                                      "pip install evaluate", field="path") from None
    offline_folder = getattr(settings, "hf_offline_metrics_path", None)
    if offline_folder is not None:
        path = os.path.join(offline_folder, path)
    return evaluate.load(path, *args, **kwargs, experiment_id=str(uuid.uuid4()), verification_mode="no_checks",
                         trust_remote_code=settings.allow_unverified_code,
                         download_mode="force_redownload" if settings.disable_hf_datasets_cache
                         else "reuse_dataset_if_exists")


class HuggingfaceMetric(GlobalMetric):
    """A metric computed by `evaluate.load(hf_metric_name)` (see the module docstring)."""

    hf_metric_name: str
    hf_main_score: Optional[str] = None
    hf_config_name: Optional[str] = None
    hf_metric_fields: Optional[List[str]] = None
    hf_additional_input_fields: List[str] = []
    hf_additional_input_fields_pass: List[str] = []
    hf_additional_input_fields_pass_one_value: List[str] = []
    hf_compute_args: Dict[str, Any] = {}
    scale: float = 1.0
    # the original catalog format: scale != 1 with scaled_fields divides those fields by scale (e.g. 0-100 -> 0-1);
    # without scaled_fields every score is multiplied by scale
    scaled_fields: Optional[List[str]] = None
    _requirements_list = {"evaluate": "the Hugging Face evaluate library"}

    def prepare(self) -> None:
        super().prepare()
        if not self.main_score:  # default: the HF score name, else the metric's name ("bleu" -> "bleu")
            self.main_score = self.hf_main_score or self.hf_metric_name.rstrip("/").rsplit("/", 1)[-1].split(".")[0]

    def resolved_n_resamples(self) -> int:
        if self.n_resamples is not None:
            return int(self.n_resamples)
        return min(int(settings.default_n_resamples), DEFAULT_MAX_RESAMPLES)

    def load_hf_metric(self) -> Any:
        """The `evaluate` module (loaded once per metric object, kept in memory, no cache-file locking)."""
        loaded = self.__dict__.get("_hf_metric")
        if loaded is None:
            try:
                import evaluate
            except ImportError:
                raise MissingRequirementError(
                    "HuggingfaceMetric needs the evaluate library. Install it with: pip install evaluate",
                    artifact=self.artifact_name,
                ) from None
            kwargs: Dict[str, Any] = {"keep_in_memory": True, "experiment_id": uuid.uuid4().hex}
            if self.hf_config_name is not None:
                kwargs["config_name"] = self.hf_config_name
            try:
                loaded = evaluate.load(self.hf_metric_name, **kwargs)
            except Exception as error:  # noqa: BLE001 - evaluate raises many kinds (offline, missing script, ...)
                raise MetricError(
                    f"Could not load the evaluate metric '{self.hf_metric_name}': {type(error).__name__}: {error}",
                    artifact=self.artifact_name,
                ) from error
            self.__dict__["_hf_metric"] = loaded
        return loaded

    def _passed_fields(self, task_data: List[Dict[str, Any]]) -> Dict[str, Any]:
        passed: Dict[str, Any] = {}
        for field in [*self.hf_additional_input_fields, *self.hf_additional_input_fields_pass]:
            missing = [index for index, data in enumerate(task_data) if field not in data]
            if missing:
                raise MetricError(
                    f"HuggingfaceMetric passes task field '{field}', but instance {missing[0]} has no such field "
                    f"(it has: {', '.join(sorted(task_data[missing[0]]))}).", artifact=self.artifact_name, field=field,
                )
            passed[field] = [data[field] for data in task_data]
        for field in self.hf_additional_input_fields_pass_one_value:
            values = {json.dumps(data.get(field), sort_keys=True, default=str) for data in task_data}
            if len(values) != 1 or field not in task_data[0]:
                raise MetricError(
                    f"hf_additional_input_fields_pass_one_value: field '{field}' must be present with one value in "
                    f"all instances, found {len(values)} distinct values.", artifact=self.artifact_name, field=field,
                )
            passed[field] = task_data[0][field]
        return passed

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]) -> Dict[str, Any]:
        metric = self.load_hf_metric()
        refs: List[Any] = [refs[0] for refs in references] if self.single_reference_per_prediction else references
        arguments = dict(self.hf_compute_args)
        arguments.update(self._passed_fields(task_data))
        try:
            result = metric.compute(predictions=predictions, references=refs, **arguments)
        except Exception as error:  # noqa: BLE001 - report the HF metric's failure with our context
            raise MetricError(
                f"evaluate metric '{self.hf_metric_name}' failed: {type(error).__name__}: {error}",
                artifact=self.artifact_name,
            ) from error
        result = dict(result or {})
        hf_main = self.hf_main_score or self.main_score
        if hf_main not in result:
            raise MetricError(
                f"evaluate metric '{self.hf_metric_name}' returned no '{hf_main}' (it returned: "
                f"{', '.join(sorted(result))}); set hf_main_score.", artifact=self.artifact_name,
            )
        if hf_main != self.main_score:
            result[self.main_score] = result.pop(hf_main)
        if self.hf_metric_fields is not None:
            keep = set(self.hf_metric_fields) | {self.main_score}
            result = {name: value for name, value in result.items() if name in keep}
        scores: Dict[str, Any] = {}
        for name, value in result.items():
            if hasattr(value, "item"):
                value = value.item()
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if self.scale == 1.0 or math.isnan(value):
                scores[name] = value
            elif self.scaled_fields is None:
                scores[name] = value * self.scale
            else:
                scores[name] = value / self.scale if name in self.scaled_fields else value
        return scores


__all__ = ["HuggingfaceMetric", "DEFAULT_MAX_RESAMPLES"]
