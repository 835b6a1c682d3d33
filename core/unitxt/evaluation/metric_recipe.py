"""The original's evaluation as a pipeline of stream operators (its `unitxt.metric_utils` recipes): predictions
zipped with the dataset rows (`FromPredictionsAndOriginalData`), post-processed (`PostProcessRecipe`: raw and
processed copies, the template's target prefix removed, the rows' post-processors applied), then scored per subset
and group stream and joined back (`MetricRecipe`). `evaluate()` (evaluation.in_memory) computes the same results
over index lists; these operators serve code written against the original's recipes.
"""

import re
from typing import Any, Dict, Iterable, Iterator, List, Optional

from ..artifact import Dataclass
from ..errors import UnitxtError
from ..operator import InstanceOperator, SequentialOperator
from ..operators.stream_kinds import SequentialOperatorInitializer, StreamInitializerOperator
from ..settings_utils import get_constants
from ..stream import DynamicStream, MultiStream
from .subset_streams import DEFAULT_STREAM_NAME, empty_predictions_generator


class DeleteTargetPrefix(InstanceOperator):
    """Removes from a text prediction the target prefix of the template that rendered the row (named in
    task_data.metadata.template), filled with the task data, and the whitespace around it."""

    def _template(self, reference: Any) -> Any:
        cache = self.__dict__.setdefault("_templates", {})
        key = reference if isinstance(reference, str) else repr(reference)
        if key not in cache:
            if isinstance(reference, str):
                from ..catalog import fetch_artifact

                cache[key] = fetch_artifact(reference)[0]
            else:
                from ..artifact import from_serializable

                cache[key] = from_serializable(reference)
        return cache[key]

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        task_data = instance.get("task_data") or {}
        if "metadata" not in task_data:
            return instance
        prefix = self._template(task_data["metadata"]["template"]).target_prefix
        if prefix and isinstance(instance["prediction"], str):
            prefix = prefix.format(**task_data)
            instance["prediction"] = re.sub(rf"^\s*{re.escape(prefix)}\s*", "", instance["prediction"])
        return instance


def _post_process_steps() -> SequentialOperator:
    from ..operators.applying import ApplyOperatorsField
    from ..operators.fields import RecursiveCopy

    inference = [get_constants().inference_stream]
    return SequentialOperator(steps=[
        RecursiveCopy(field="prediction", to_field="raw_prediction"),
        RecursiveCopy(field="references", to_field="raw_references", dont_apply_to_streams=inference),
        RecursiveCopy(field="source", to_field="task_data/source"),
        DeleteTargetPrefix(),
        ApplyOperatorsField(operators_field="postprocessors"),
        RecursiveCopy(field="prediction", to_field="processed_prediction"),
        RecursiveCopy(field="references", to_field="processed_references", dont_apply_to_streams=inference),
    ])


class FromPredictionsAndOriginalData(StreamInitializerOperator):
    """One stream (`split_name`) of the dataset rows, each with its prediction (empty predictions when none)."""

    def zip(self, predictions: Iterable[Any], references: Iterable[Any]) -> Iterator[Dict[str, Any]]:
        for prediction, original in zip(predictions, references):
            if not isinstance(original, dict) or not all(isinstance(key, str) for key in original):
                raise UnitxtError("The dataset passed for evaluation is not valid. Perhaps you passed a full dataset "
                                  "with multiple splits for evaluation instead of only the a single 'test' split. "
                                  f"The offending instance: {original} ", artifact=self.artifact_name)
            yield {**original, "prediction": prediction}

    def process(self, predictions: Optional[List[Any]] = None, references: Optional[Iterable] = None,
                split_name: str = DEFAULT_STREAM_NAME) -> MultiStream:
        if predictions is None:
            predictions = empty_predictions_generator()
        return MultiStream({split_name: DynamicStream(self.zip, {"predictions": predictions,
                                                                 "references": references})})


class InstanceInput(Dataclass):
    """A single instance given to a metric: its prediction, references and other inputs."""

    prediction: Any
    references: List[Any]
    additional_inputs: Optional[Dict] = None


class PostProcessRecipe(SequentialOperatorInitializer):
    """`recipe(predictions, references)`: the rows with their predictions post-processed (see the module)."""

    def prepare(self) -> None:
        from ..operators.fields import LoadJson

        super().prepare()
        self.steps = [FromPredictionsAndOriginalData(), LoadJson(field="task_data"), _post_process_steps()]


class MetricRecipe(SequentialOperatorInitializer):
    """`recipe(predictions, references)`: the rows scored by their metrics, with subsets (cut at `subset_depth`)
    and groups scored apart; confidence intervals when `calc_confidence_intervals`."""

    calc_confidence_intervals: bool = True
    subset_depth: int = 2

    def prepare(self) -> None:
        from ..metrics.lists import ApplyMetric
        from ..operators.fields import LoadJson, RecursiveCopy, Rename
        from .subset_streams import JoinSubsetsAndGroups, SplitSubsetsAndGroups

        super().prepare()
        self.steps = [
            FromPredictionsAndOriginalData(),
            LoadJson(field="task_data"),
            _post_process_steps(),
            SplitSubsetsAndGroups(subset_depth=self.subset_depth),
            ApplyMetric(metric_field="metrics", calc_confidence_intervals=self.calc_confidence_intervals),
            JoinSubsetsAndGroups(),
            Rename(field="raw_prediction", to_field="prediction"),
            Rename(field="raw_references", to_field="references"),
            RecursiveCopy(field="source", to_field="task_data/source"),
        ]


__all__ = ["DeleteTargetPrefix", "FromPredictionsAndOriginalData", "InstanceInput", "MetricRecipe",
           "PostProcessRecipe"]
