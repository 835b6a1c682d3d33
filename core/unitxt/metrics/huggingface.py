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

The original's per-instance forms: HuggingfaceInstanceMetric (the metric on each instance alone),
HuggingfaceBulkMetric (one call returning a list per score) and RougeHF (evaluate's rouge, nltk sentence splits).
"""

import json
import math
import os
import uuid
from typing import Any, Dict, List, Optional

from ..artifact import Artifact
from ..errors import MetricError, MissingRequirementError
from ..general.helpers import retry_connection_with_exponential_backoff
from .base import BulkInstanceMetric, GlobalMetric, InstanceMetric
from ..settings_utils import settings

DEFAULT_MAX_RESAMPLES = 100
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]  # what RougeHF reports


def load_evaluate_metric(metric: Any, name: str, config_name: Optional[str] = None) -> Any:
    """`evaluate.load(name)` for a unitxt metric, once per metric object (kept in memory, no cache-file locking);
    a clear error naming the metric when evaluate is missing or the load fails."""
    loaded = metric.__dict__.get("_hf_metric")
    if loaded is not None:
        return loaded
    try:
        import evaluate
    except ImportError:
        raise MissingRequirementError(
            f"{type(metric).__name__} needs the evaluate library. Install it with: pip install evaluate",
            artifact=metric.artifact_name,
        ) from None
    kwargs: Dict[str, Any] = {"keep_in_memory": True, "experiment_id": uuid.uuid4().hex}
    if config_name is not None:
        kwargs["config_name"] = config_name
    try:
        loaded = evaluate.load(name, **kwargs)
    except Exception as error:  # noqa: BLE001 - evaluate raises many kinds (offline, missing script, ...)
        raise MetricError(f"Could not load the evaluate metric '{name}': {type(error).__name__}: {error}",
                          artifact=metric.artifact_name) from error
    metric.__dict__["_hf_metric"] = loaded
    return loaded


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
        return load_evaluate_metric(self, self.hf_metric_name, self.hf_config_name)

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


class HuggingfaceInstanceMetric(InstanceMetric):
    """An `evaluate` metric computed on each instance alone (its prediction and references); the instance scores
    are its `hf_metric_fields` (all it returns when empty), NaN main score when it fails on an instance; global
    scores reduce them per `reduction_map`."""

    __abstract__ = True

    hf_metric_name: str
    hf_metric_fields: List[str]
    hf_compute_args: Dict[str, Any] = {}
    _requirements_list = {"evaluate": "the Hugging Face evaluate library"}

    def compute(self, references: List[Any], prediction: Any, task_data: Dict[str, Any]) -> Dict[str, Any]:
        metric = load_evaluate_metric(self, self.hf_metric_name)
        try:
            score = metric.compute(predictions=[prediction], references=[references], **self.hf_compute_args)
        except Exception:  # noqa: BLE001 - as the original: an instance the metric can not score is NaN
            score = {self.main_score: math.nan}
        if self.hf_metric_fields:
            score = {field: score[field] for field in self.hf_metric_fields}
        return score


class HuggingfaceBulkMetric(BulkInstanceMetric):
    """An `evaluate` metric computed once on all instances, returning a list per score (one value per instance):
    the instance scores are its `hf_metric_fields`; task_data fields named in `hf_additional_input_fields` are passed
    as lists."""

    __abstract__ = True

    hf_metric_name: str
    hf_metric_fields: List[str]
    hf_compute_args: Dict[str, Any] = {}
    hf_additional_input_fields: List[str] = []
    _requirements_list = {"evaluate": "the Hugging Face evaluate library"}

    def compute(self, references: List[List[Any]], predictions: List[Any],
                task_data: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        passed: Dict[str, Any] = {}
        for field in self.hf_additional_input_fields:
            if field not in task_data[0]:
                raise MetricError(f"'{field}' field required by {type(self).__name__} is not in passed in task_data: "
                                  f"{task_data[0]}", artifact=self.artifact_name, field="hf_additional_input_fields")
            passed[field] = [data[field] for data in task_data]
        metric = load_evaluate_metric(self, self.hf_metric_name)
        scores = metric.compute(predictions=predictions, references=references, **passed, **self.hf_compute_args)
        results: List[Dict[str, Any]] = [{} for _ in scores[self.hf_metric_fields[0]]]
        for key in self.hf_metric_fields:
            for result, value in zip(results, scores[key]):
                result[key] = value
        return results


class NLTKMixin(Artifact):
    """Gives a metric `self.nltk`, the nltk package with its punkt sentence tokenizer data (downloaded quietly when
    missing), imported on first use."""

    __abstract__ = True

    @property
    def nltk(self) -> Any:
        module = self.__dict__.get("_nltk")
        if module is None:
            try:
                import nltk as module
            except ImportError:
                raise MissingRequirementError(f"{type(self).__name__} needs nltk. Install it with: pip install nltk",
                                              artifact=self.artifact_name) from None
            module.download("punkt", quiet=True)
            module.download("punkt_tab", quiet=True)
            self.__dict__["_nltk"] = module
        return module


class RougeHF(NLTKMixin, HuggingfaceInstanceMetric):
    """ROUGE F-measures per instance by the `evaluate` library's rouge metric (texts split into sentences by nltk,
    one per line, when `sent_split_newline`); global scores are their means."""

    hf_metric_name = "rouge"
    main_score = "rougeL"
    scale: float = 1.0
    prediction_type = str
    single_reference_per_prediction = False
    rouge_types: List[str] = list(ROUGE_TYPES)
    reduction_map = {"mean": list(ROUGE_TYPES)}
    hf_metric_fields = list(ROUGE_TYPES)
    ci_scores = list(ROUGE_TYPES)
    sent_split_newline: bool = True
    _requirements_list = {"nltk": "pip install nltk", "rouge_score": "pip install rouge_score",
                          "evaluate": "pip install evaluate"}

    def prepare(self) -> None:
        super().prepare()
        # no aggregation inside the library (its own bootstrap): unitxt reduces the instance scores
        self.hf_compute_args = {**self.hf_compute_args, "use_aggregator": False, "rouge_types": self.rouge_types}

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, Any]:
        if self.sent_split_newline:
            prediction = "\n".join(self.nltk.sent_tokenize(prediction.strip()))
            references = ["\n".join(self.nltk.sent_tokenize(reference.strip())) for reference in references]
        scores = super().compute(references, prediction, task_data)
        for name in self.hf_metric_fields:
            if isinstance(scores[name], list):
                scores[name] = scores[name][0]
        return scores


__all__ = ["HuggingfaceMetric", "HuggingfaceInstanceMetric", "HuggingfaceBulkMetric", "load_evaluate_metric", "NLTKMixin", "RougeHF",
           "DEFAULT_MAX_RESAMPLES"]
