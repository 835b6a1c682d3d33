"""Applying the templates' post-processors to predictions and references, column by column: rows are handled
per distinct post-processor list, and within one list each distinct text is processed once.
"""

import json
from collections.abc import Sequence
from typing import Any, Dict, List, Optional, Tuple

from ..errors import MetricError, UnitxtError
from .inputs import EvaluationInputs, LazyColumn, positions_by_code


class _Resolver:
    """Caches catalog lookups of metrics and post-processors during one evaluation."""

    def __init__(self):
        self.cache: Dict[str, Any] = {}

    def get(self, reference: Any, kind: str) -> Any:
        from ..artifact import from_serializable
        from ..catalog import fetch_artifact

        key = reference if isinstance(reference, str) else json.dumps(reference, sort_keys=True)
        if key not in self.cache:
            if isinstance(reference, str) and reference.lstrip().startswith("{"):
                try:
                    data = json.loads(reference)
                except ValueError:
                    raise MetricError(f"Cannot read the inline {kind} {reference[:80]!r} (expected a JSON artifact "
                                      f"with a __type__, or a catalog name).", field=kind) from None
                artifact = from_serializable(data)
            else:
                from ..metrics.remote import as_remote_metric

                artifact = as_remote_metric(reference) if kind == "metric" else None  # UNITXT_REMOTE_METRICS
                try:
                    artifact = artifact or fetch_artifact(reference)[0]
                except UnitxtError as error:
                    raise error.with_context(stage=f"resolving {kind}") from None
            self.cache[key] = artifact
        return self.cache[key]


class LazyTaskData(Sequence):
    """task_data of rows, parsed from JSON on access (most metrics never read it; parsing all costs seconds at 1M).

    With `sources`, each row's task_data carries the row's rendered `source` too, as the original gives metrics (a
    judge shows the evaluated model's input from it)."""

    def __init__(self, raw: List[Any], sources: Optional[Sequence[Any]] = None):
        self.raw = raw
        self.sources = sources

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return LazyTaskData(self.raw[index], None if self.sources is None else self.sources[index])
        value = self.raw[index]
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as error:
                raise MetricError(f"task_data of instance {index} is not valid JSON ({str(error)[:120]}): "
                                  f"{value[:80]!r}.", field="task_data") from None
        elif value is None:
            value = {}
        elif self.sources is not None and isinstance(value, dict):
            value = dict(value)
        if self.sources is not None and isinstance(value, dict):
            value["source"] = self.sources[index]
        return value

    def subset(self, positions: Sequence[int]) -> "LazyTaskData":
        raw, sources = self.raw, self.sources
        return LazyTaskData([raw[position] for position in positions],
                            None if sources is None else [sources[position] for position in positions])


def _processor_chain(names: Tuple[str, ...], resolver: "_Resolver") -> List[Any]:
    from ..operator import FieldOperator
    from ..processors import PostProcess

    chain = []
    for name in names:
        processor = resolver.get(name, "post-processor")
        if isinstance(processor, FieldOperator):
            processor = PostProcess(processor)
        if not isinstance(processor, PostProcess):
            raise UnitxtError(f"Post-processor '{name}' is a {type(processor).__name__}, not a processor.",
                              artifact=str(name))
        chain.append(processor)
    return chain


def _names(listed: Any) -> Tuple[Any, ...]:
    """A row's metric or post-processor list as a tuple; one name given as a string is a one-item list (never its
    characters), and a JSON list in a string is parsed."""
    if isinstance(listed, str):
        text = listed.strip()
        if text.startswith("["):
            try:
                return tuple(json.loads(text))
            except ValueError:
                raise MetricError(f"Cannot read the list {text[:80]!r} (expected a JSON list of names).",
                                  field="metrics/postprocessors") from None
        return (listed,)
    return tuple(listed or ())


def _needs_task_data(chain: List[Any]) -> bool:
    return any(getattr(processor.operator, "needs_task_data", False) for processor in chain)


def post_process_rows(predictions: Sequence[Any], rows: Any, resolver: Optional[_Resolver] = None
                      ) -> Tuple[List[Any], List[List[Any]], LazyTaskData]:
    """Apply each row's template post-processors to its prediction and references (rows: a list of row dicts, a
    Dataset, or EvaluationInputs).

    Rows are handled per distinct post-processor list, and within one list each distinct text is processed once.
    """
    inputs = rows if isinstance(rows, EvaluationInputs) else EvaluationInputs(rows)
    resolver = resolver or _Resolver()
    n = len(inputs)
    processed_predictions: List[Any] = [None] * n
    processed_references: List[Any] = [None] * n
    task_data = LazyTaskData(LazyColumn(inputs, "task_data"),
                             LazyColumn(inputs, "source") if inputs.has("source") else None)
    references = inputs.column("references")
    codes, distinct = inputs.codes("postprocessors")
    for code, positions in enumerate(positions_by_code(codes, len(distinct))):
        if not positions:
            continue
        chain = _processor_chain(_names(distinct[code]), resolver)
        if _needs_task_data(chain):
            _post_process_with_task_data(chain, positions, predictions, references, task_data,
                                         processed_predictions, processed_references)
        else:
            _post_process_column(chain, positions, n, predictions, references, processed_predictions,
                                 processed_references)
    return processed_predictions, processed_references, task_data


def _checked_references(references: Any, index: int) -> List[Any]:
    if references is None:
        return []
    if not isinstance(references, (list, tuple)):
        raise MetricError(f"References of instance {index} must be a list, got {type(references).__name__}.",
                          field="references")
    return list(references)


def _check_prediction(prediction: Any, index: int) -> None:
    if prediction is None:
        raise MetricError(f"Prediction {index} is None; every instance needs a prediction (use '' for no output).",
                          field="prediction")


def _post_process_with_task_data(chain, positions, predictions, references, task_data, out_predictions,
                                 out_references) -> None:
    """Processors that read the instance's task_data run row by row."""
    for index in positions:
        prediction = predictions[index]
        _check_prediction(prediction, index)
        refs = _checked_references(references[index], index)
        data = task_data[index]
        try:
            for processor in chain:
                prediction, refs = processor.process_value_pair(prediction, refs, data)
        except UnitxtError as error:
            raise error.with_context(stage=f"post-processing instance {index}") from None
        out_predictions[index], out_references[index] = prediction, refs


def _post_process_column(chain, positions, n, predictions, references, out_predictions, out_references) -> None:
    """Processors of one side applied per distinct value of the column (values equal as text share the work)."""
    everything = len(positions) == n
    preds = predictions if everything else [predictions[p] for p in positions]
    refs = references if everything else [references[p] for p in positions]
    if any(prediction is None for prediction in preds):
        _check_prediction(None, positions[next(i for i, p in enumerate(preds) if p is None)])
    if not all(type(item) is list for item in refs):
        refs = [item if type(item) is list else _checked_references(item, positions[local])
                for local, item in enumerate(refs)]
    prediction_side = [processor for processor in chain if processor.process_prediction]
    reference_side = [processor for processor in chain if processor.process_references]
    new_predictions = _map_distinct(prediction_side, preds, lambda local: positions[local])
    if reference_side:
        flat = [reference for item in refs for reference in item]
        lengths = [len(item) for item in refs]

        def owner_of(offset: int) -> int:  # only on errors: the instance a flat reference belongs to
            from bisect import bisect_right
            from itertools import accumulate

            return positions[bisect_right(list(accumulate(lengths)), offset)]

        mapped = _map_distinct(reference_side, flat, owner_of)
        if all(length == 1 for length in lengths):
            new_references = [[value] for value in mapped]
        else:
            from itertools import islice

            remaining = iter(mapped)
            new_references = [list(islice(remaining, length)) for length in lengths]
    else:
        new_references = refs
    if everything:
        out_predictions[:] = new_predictions
        out_references[:] = new_references
    else:
        for local, position in enumerate(positions):
            out_predictions[position] = new_predictions[local]
            out_references[position] = new_references[local]


def _map_distinct(processors: List[Any], values: List[Any], instance_of) -> List[Any]:
    """The values after the processors, computed once per distinct text (other values one by one). Containers are
    copied per instance so instances never share a mutable processed value."""
    if not processors:
        return list(values)

    def run(value, local):
        try:
            for processor in processors:
                value = processor.apply_value(value)
        except UnitxtError as error:
            raise error.with_context(stage=f"post-processing instance {instance_of(local)}") from None
        return value

    if all(type(value) is str for value in values):
        first: Dict[str, int] = {}
        for local, value in enumerate(values):
            first.setdefault(value, local)
        memo = {value: run(value, local) for value, local in first.items()}
        results = [memo[value] for value in values]
        if any(isinstance(result, (list, dict)) for result in memo.values()):
            results = [_fresh(result) for result in results]
        return results
    memo = {}
    results = []
    for local, value in enumerate(values):
        if type(value) is str:
            if value not in memo:
                memo[value] = run(value, local)
            results.append(_fresh(memo[value]))
        else:
            results.append(run(value, local))
    return results


def _fresh(value: Any) -> Any:
    """Containers are copied so instances never share a mutable processed value."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value
