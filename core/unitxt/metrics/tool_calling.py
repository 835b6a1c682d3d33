"""Tool-calling metrics: predicted tool calls ({"name": ..., "arguments": {...}}) against reference calls and the
tool schemas of task_data `__tools__`/`tools` (OpenAI function format: {"function": {"name", "parameters"}} or the
function dict itself).

tool_calling_metric (exact match, tool name accuracy, argument name recall/precision, argument value precision,
schema validation), key_value_extraction and tool_call_key_value_extraction (a per-key metric over flattened
calls), reflection_tool_calling_metric_syntactic and multi_turn_tool_calling_metric (schema conformity, with an
explanation of every violation), multi_turn_metric (any metric applied to the last assistant turn of a dialog).
JSON-schema checks are a small built-in validator (type, enum, required, properties, additionalProperties, items,
minimum/maximum, minLength/maxLength, anyOf/oneOf) — no jsonschema package needed.
"""

import json
import math
from typing import Any, Dict, List, Optional

from ..errors import MetricError
from .base import GlobalMetric, InstanceMetric, KeyedStatistics, Metric, MetricScores, keyed_columns
from .map_reduce import InstanceMapHooks
from .map_reduce import GroupMean, SequentialSuccess  # noqa: F401 (the original's reductions of multi-turn metrics)
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _tool_call(value: Any, metric: Any, what: str) -> Dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            value = None
    if not isinstance(value, dict) or "name" not in value:
        raise MetricError(f"{type(metric).__name__} expects {what} tool calls as {{'name': ..., 'arguments': {{...}}}}"
                          f", got {str(value)[:100]!r}.", artifact=metric.artifact_name, field=what)
    arguments = value.get("arguments") or {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = {"__unparsable__": arguments}
    return {"name": value["name"], "arguments": arguments if isinstance(arguments, dict) else {}}


def tool_schemas(task_data: Dict[str, Any]) -> Dict[str, Any]:
    """{tool name: parameters schema} from task_data __tools__ (or tools), as OpenAI tools or plain functions."""
    tools = task_data.get("__tools__", task_data.get("tools")) or []
    if isinstance(tools, str):
        tools = json.loads(tools)
    schemas = {}
    for tool in tools:
        function = tool.get("function", tool) if isinstance(tool, dict) else None
        if isinstance(function, dict) and "name" in function:
            schemas[function["name"]] = function.get("parameters") or {"type": "object", "properties": {}}
    return schemas


_JSON_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer(),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def schema_errors(schema: Any, value: Any, path: str = "arguments", strict: bool = True) -> List[str]:
    """Violations of a JSON schema (the subset tool definitions use) by `value`, as readable messages. `strict`
    also refuses arguments a function's properties do not name (JSON Schema itself allows them unless
    additionalProperties is false)."""
    if not isinstance(schema, dict):
        return [] if schema in (True, None) else [f"{path}: invalid schema {schema!r}"]
    errors: List[str] = []
    if "anyOf" in schema or "oneOf" in schema:
        options = schema.get("anyOf", schema.get("oneOf"))
        if not any(not schema_errors(option, value, path, strict) for option in options):
            errors.append(f"{path}: matches none of the allowed schemas")
    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        known = [t for t in types if t in _JSON_TYPES]
        if known and not any(_JSON_TYPES[t](value) for t in known):
            return errors + [f"{path}: expected {' or '.join(types)}, got {type(value).__name__} {str(value)[:40]!r}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} is above the maximum {schema['maximum']}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append(f"{path}: shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']} characters")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing required parameter '{name}'")
        for name, item in value.items():
            if name in properties:
                errors.extend(schema_errors(properties[name], item, f"{path}.{name}", strict))
            elif schema.get("additionalProperties") is False or (strict and properties and path == "arguments"
                                                                 and "additionalProperties" not in schema):
                errors.append(f"{path}: unknown parameter '{name}'")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors.extend(schema_errors(schema["additionalProperties"], item, f"{path}.{name}", strict))
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for position, item in enumerate(value):
            errors.extend(schema_errors(schema["items"], item, f"{path}[{position}]", strict))
    return errors


def call_errors(call: Dict[str, Any], schemas: Dict[str, Any]) -> List[str]:
    """Why a tool call does not conform to the available tools (empty when it does)."""
    if not schemas:
        return ["no tool specifications available"]
    if call["name"] not in schemas:
        return [f"function '{call['name']}' does not exist (available: {', '.join(sorted(schemas))})"]
    if "__unparsable__" in call["arguments"]:
        return ["arguments are not valid JSON"]
    return schema_errors(schemas[call["name"]], call["arguments"])


class ToolCallingMetric(InstanceMapHooks, InstanceMetric):
    """Compares a predicted tool call with the reference calls (best reference per score)."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "exact_match"
    prediction_type = "Any"
    ci_scores = ["exact_match", "tool_name_accuracy", "argument_name_recall", "argument_name_precision",
                 "argument_value_precision", "argument_schema_validation"]
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py): CIs of every score
    reduction_map = {"mean": ["exact_match", "tool_name_accuracy", "argument_name_recall", "argument_name_precision",
                              "argument_value_precision", "argument_schema_validation"]}

    def map(self, prediction, references, task_data):
        predicted = _tool_call(prediction, self, "prediction")
        golds = [_tool_call(reference, self, "reference") for reference in references]
        arguments = predicted["arguments"]

        def best(score):
            return max((score(gold) for gold in golds), default=0.0)

        def name_recall(gold):
            return len(set(arguments) & set(gold["arguments"])) / len(gold["arguments"]) if gold["arguments"] else 1.0

        def name_precision(gold):
            if arguments:
                return len(set(arguments) & set(gold["arguments"])) / len(arguments)
            return 1.0 if not gold["arguments"] else 0.0

        def value_precision(gold):
            if arguments:
                same = sum(key in gold["arguments"] and _dumps(value) == _dumps(gold["arguments"][key])
                           for key, value in arguments.items())
                return same / len(arguments)
            return 1.0 if not gold["arguments"] else 0.0

        schemas = tool_schemas(task_data)  # plain JSON Schema validation of the arguments, as the original
        valid = predicted["name"] in schemas and "__unparsable__" not in arguments and not schema_errors(
            schemas[predicted["name"]], arguments, strict=False)
        return {
            "exact_match": float(_dumps(predicted) in {_dumps(gold) for gold in golds}),
            "tool_name_accuracy": float(str(predicted["name"]) in {str(gold["name"]) for gold in golds}),
            "argument_name_recall": best(name_recall),
            "argument_name_precision": best(name_precision),
            "argument_value_precision": best(value_precision),
            "argument_schema_validation": float(valid),
        }


def _llmevalkit_types() -> Any:
    """llmevalkit's function-calling types (an optional package; an install hint when absent)."""
    from ..errors import MissingRequirementsError
    from ..general.requirements import find_unmet

    missing, mismatched, hints = find_unmet({"llmevalkit": "Install it with `pip install llmevalkit` (IBM's LLM "
                                                           "evaluation kit)"})
    if missing:
        raise MissingRequirementsError("ReflectionToolCallingMixin", missing, mismatched, hints)
    from llmevalkit.function_calling.pipeline import types

    return types


class ReflectionToolCallingMixin:
    """Converts tools and calls to the types of llmevalkit's function-calling pipeline (what the original's
    semantic reflection metric feeds it); needs the optional llmevalkit package."""

    @staticmethod
    def convert_tools_inventory(tools: List[Dict[str, Any]]) -> List[Any]:
        """Each tool's function description as an llmevalkit ToolSpec."""
        spec = _llmevalkit_types().ToolSpec
        return [spec(type="function", function={**tool}) for tool in tools]

    @staticmethod
    def convert_tool_call(prediction: Dict[str, Any]) -> Any:
        """A {"name", "arguments"} call as an llmevalkit ToolCall (arguments both as JSON text and parsed)."""
        return _llmevalkit_types().ToolCall(type="function", function={
            "name": prediction["name"], "arguments": json.dumps(prediction["arguments"]),
            "parsed_arguments": prediction["arguments"]})


class ReflectionToolCallingMetricSyntactic(InstanceMapHooks, InstanceMetric):
    """Whether each predicted tool call (or list of calls) conforms to the tool schemas: existing function and
    parameters, parameter types, required parameters, allowed values/ranges. `overall_valid` per instance and its
    global share; `explanations` lists the violations (None when valid)."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "overall_valid"
    ci_scores = ["overall_valid"]
    prediction_type = "Any"

    def map(self, prediction, references, task_data):
        schemas = tool_schemas(task_data)
        calls = prediction if isinstance(prediction, list) else [prediction]
        problems: List[str] = []
        if not calls:
            problems.append("no tool call")
        for call in calls:
            try:
                problems.extend(call_errors(_tool_call(call, self, "prediction"), schemas))
            except MetricError:
                problems.append(f"malformed tool call {str(call)[:80]!r}")
        return {"overall_valid": float(not problems), "explanations": "; ".join(problems) if problems else None}


class MultiTurnToolCallingMetric(InstanceMapHooks, InstanceMetric):
    """Schema conformity of the tool calls of a multi-turn conversation (a list of calls per instance): the share of
    calls whose function exists and whose arguments satisfy its JSON schema (`argument_schema_validation`)."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "argument_schema_validation"
    ci_scores = ["argument_schema_validation"]
    ci_style = "map_reduce"  # the original computes it as a MapReduceMetric (metrics/intervals.py)
    prediction_type = "Any"

    def map(self, prediction, references, task_data):
        schemas = tool_schemas(task_data)
        calls = prediction if isinstance(prediction, list) else [prediction]
        if not calls:
            raise MetricError(f"{type(self).__name__} needs at least one tool call per prediction (got an empty list)"
                              ".", artifact=self.artifact_name, field="prediction")
        valid = 0
        for call in calls:
            call = _tool_call(call, self, "prediction")
            valid += call["name"] in schemas and "__unparsable__" not in call["arguments"] and not schema_errors(
                schemas[call["name"]], call["arguments"], strict=False)
        return {"argument_schema_validation": valid / len(calls)}


class ReflectionToolCallingMetric(ReflectionToolCallingMetricSyntactic):
    """Syntactic schema checks plus the original system's LLM-based semantic reflection (hallucination, value format,
    function selection). The semantic part needs an LLM judge: running it reports the requirement."""

    runtime_pipeline: Any = InertField(default=True, reason='the reflection pipeline runs as defined here')

    _requirements_list = {"llmevalkit": "the LLM-based tool-call reflection toolkit"}


# ---------------------------------------------------------------- key-value extraction
class KeyValueExtraction(GlobalMetric):
    """Scores dict predictions key by key with `metric` against the first reference dict: per key the mean score
    (`<m>_<key>`), micro (over key occurrences) and macro (over keys) averages, and the share of predicted keys that
    exist in the references (`<m>_legal_keys_in_predictions`). A key in only one of prediction/reference scores 0."""

    prediction_type = "Dict[str, Any]"
    metric: Metric
    main_score: Optional[str] = "key_value_extraction_micro"

    def prepare(self) -> None:
        super().prepare()
        if isinstance(self.metric, str):
            from ..catalog import fetch_artifact

            self.metric = fetch_artifact(self.metric)[0]
        self.main_score = f"{self.metric.main_score}_micro"

    def _flatten(self, value: Any) -> Dict[str, Any]:
        if not isinstance(value, dict):
            raise MetricError(f"{type(self).__name__} expects dict predictions and references, got "
                              f"{type(value).__name__}.", artifact=self.artifact_name, field="prediction")
        return value

    def fast_statistic(self, predictions, references, task_data):
        """Per-instance, per-key scores computed once; resamples re-sum them."""
        np = _np()
        from .kernels.bootstrap import resampled_sums

        keyed = self.additive_statistics(predictions, references, task_data)

        def statistic(idx):
            idx = np.asarray(idx)
            return self.scores_of_totals(resampled_sums(keyed.rows, idx), idx.shape[0] == 1, keyed.keys)

        return statistic

    def additive_statistics(self, predictions, references, task_data):
        """Per instance: per key in the prediction or the reference its score ("value"; 0 when only one side has the
        key) and a count ("seen"), "gold" per reference key, "predicted" per predicted key, and the number of
        predicted keys ("keys", "all"). Only keys some reference has are scored, as a stream learns at its end."""
        np = _np()
        golds = [self._flatten(refs[0]) for refs in references]
        predicted = [self._flatten(p) for p in predictions]
        column: Dict[Any, int] = {("keys", "all"): 0}
        cells: List[Any] = []
        pairs = []
        for row, (p, g) in enumerate(zip(predicted, golds)):
            cells.append((row, 0, float(len(p))))
            for key in sorted(set(p) | set(g), key=str):
                for part in ("seen",) + (("gold",) if key in g else ()) + (("predicted",) if key in p else ()):
                    cells.append((row, column.setdefault((part, key), len(column)), 1.0))
                if key in p and key in g:
                    pairs.append((row, column.setdefault(("value", key), len(column)), p[key], g[key]))
        rows = np.zeros((len(predicted), len(column)))
        for row, col, value in cells:
            rows[row, col] += value
        if pairs:
            inner = self.metric.evaluate([a for _, _, a, _ in pairs], [[b] for _, _, _, b in pairs])
            for (row, col, _, _), instance in zip(pairs, inner.metric.instance_results(inner)):
                rows[row, col] += float(instance["score"])
        return KeyedStatistics(list(column), rows)

    def scores_of_totals(self, totals, exact, keys=None):
        np = _np()
        gold_keys = sorted({key for part, key in keys if part == "gold"}, key=str)
        # as the original, per resample (and per instance alone): only the keys of its references are scored, and a
        # predicted key is legal when one of its references has it
        in_references = keyed_columns(totals, keys, "gold", gold_keys) > 0
        sums = np.where(in_references, keyed_columns(totals, keys, "value", gold_keys), 0.0)
        counts = np.where(in_references, keyed_columns(totals, keys, "seen", gold_keys), 0.0)
        predicted_keys = sorted({key for part, key in keys if part == "predicted"}, key=str)
        predicted = keyed_columns(totals, keys, "predicted", predicted_keys)
        illegal = (predicted * (keyed_columns(totals, keys, "gold", predicted_keys) == 0)).sum(axis=1)
        total = totals[:, keys.index(("keys", "all"))]
        name = self.metric.main_score
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
            n_keys = (counts > 0).sum(axis=1)
            result = {f"{name}_{key}": means[:, k] for k, key in enumerate(gold_keys)}
            result[f"{name}_micro"] = np.where(counts.sum(axis=1) > 0, sums.sum(axis=1)
                                               / np.maximum(counts.sum(axis=1), 1), np.nan)
            result[f"{name}_macro"] = np.where(n_keys > 0, np.nansum(means, axis=1) / np.maximum(n_keys, 1), np.nan)
            result[f"{name}_legal_keys_in_predictions"] = np.where(total > 0, 1 - illegal / np.maximum(total, 1),
                                                                   0.0)
        return result


    def _finish_instance(self, scores: Dict[str, Any]) -> Dict[str, Any]:
        """As the original scores one instance alone: no per-key entries for keys its reference lacks, and None
        scores when its reference has no key (the original's computation fails there)."""
        result = super()._finish_instance(scores)
        main = self.score_prefix + self.main_score
        if _is_nan(result.get(main)):
            return {"score": None, "score_name": main, main: None}
        per_key = f"{self.score_prefix}{self.metric.main_score}_"
        return {key: value for key, value in result.items() if not (key.startswith(per_key) and _is_nan(value))}


def flatten_tool_call(value: Any, parent: str = "", sep: str = ".") -> Dict[str, Any]:
    """Nested dicts as dotted keys; a list of dicts is indexed (k.0.x), or keyed by each dict's single key when every
    dict has exactly one, distinct key."""
    flat: Dict[str, Any] = {}
    for key, item in value.items():
        name = f"{parent}{sep}{key}" if parent else str(key)
        if isinstance(item, list) and item and all(isinstance(e, dict) for e in item):
            keys = [next(iter(e)) for e in item if len(e) == 1]
            if len(keys) == len(item) and len(set(keys)) == len(keys):
                for element in item:
                    flat.update(flatten_tool_call(element, name, sep))
                continue
            for position, element in enumerate(item):
                flat.update(flatten_tool_call(element, f"{name}{sep}{position}", sep))
        elif isinstance(item, dict):
            flat.update(flatten_tool_call(item, name, sep))
        else:
            flat[name] = item
    return flat


class ToolCallKeyValueExtraction(KeyValueExtraction):
    """Key-value extraction over tool calls flattened to keys (name, arguments.city, arguments.address.street...)."""

    prediction_type = "Any"
    flatten_list_of_dictionaries: bool = False

    def _flatten(self, value: Any) -> Dict[str, Any]:
        return flatten_tool_call(_tool_call(value, self, "tool call"))

    def flatten_dict(self, nested_dict: Dict[str, Any], parent_key: str = "", sep: str = ".") -> Dict[str, Any]:
        """The original's name of the flattening: nested keys joined by `sep` (see flatten_tool_call)."""
        return flatten_tool_call(nested_dict, parent_key, sep)


# ---------------------------------------------------------------- multi-turn
def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


class MultiTurnMetric(Metric):
    """Applies `metric` to the assistant turns of dialogs and scores dialogs: each instance is one assistant turn of
    the dialog `conversation/id` in task_data (turn key: "assistant_turn_<len(conversation/dialog) // 2>"); a dialog's
    score reduces its turns' scores (`in_group_reduction`, default the mean), the global score is the mean over
    dialogs. Without dialog ids it scores instances one by one. A dialog prediction (a list of {"role", "content"}
    turns) is scored by the content of its last assistant turn. No confidence intervals (as the original)."""

    prediction_field: Any = InertField(default='prediction', reason='this metric reads the predictions themselves')
    reference_field: Any = InertField(default='references', reason='this metric reads the references themselves')

    metric: Metric
    main_score: Optional[str] = "score"
    in_group_reduction: Optional[Any] = None  # GroupMean() when None
    cross_group_reduction: Optional[Any] = None
    group_id_field: str = "conversation/id"
    item_id_field: str = "conversation/dialog"

    def prepare(self) -> None:
        super().prepare()
        if isinstance(self.metric, str):
            from ..catalog import fetch_artifact

            self.metric = fetch_artifact(self.metric)[0]
        if "main_score" not in self._given_fields and getattr(self.metric, "main_score", None):
            self.__dict__["main_score"] = self.metric.main_score

    def resolved_ci_scores(self) -> List[str]:
        return []

    @staticmethod
    def last_assistant_turn(prediction: Any) -> Any:
        if isinstance(prediction, list) and prediction and all(isinstance(t, dict) and "role" in t for t in prediction):
            turns = [t for t in prediction if t.get("role") == "assistant"]
            return turns[-1].get("content", "") if turns else ""
        return prediction

    def _turn_key(self, data: Dict[str, Any]) -> Optional[tuple]:
        from ..dict_utils import dict_get

        try:
            group = dict_get(data, self.group_id_field)
            dialog = dict_get(data, self.item_id_field)
        except Exception:
            return None
        return str(group), "assistant_turn_" + str(len(dialog) // 2)

    def evaluate(self, predictions, references, task_data=None) -> MetricScores:
        task_data = list(task_data) if task_data is not None else [{} for _ in predictions]
        inner = self.metric.evaluate([self.last_assistant_turn(p) for p in predictions], references, task_data)
        keys = [self._turn_key(data) if isinstance(data, dict) else None for data in task_data]
        if not keys or any(key is None for key in keys):  # instance by instance, still without intervals
            scores = MetricScores(self, inner.instance_scores, inner.statistic, inner.n)
            scores.mean_values = inner.mean_values
            return scores
        rows = inner.instance_scores
        names = [name for name, value in rows[0].items()
                 if isinstance(value, (int, float)) and not isinstance(value, bool)]
        in_group = self.in_group_reduction or GroupMean()
        cross_group = self.cross_group_reduction or GroupMean()
        np = _np()

        def statistic(idx: Any) -> Dict[str, Any]:
            results: Dict[str, List[float]] = {name: [] for name in names}
            for row in np.atleast_2d(idx):
                dialogs: Dict[str, Dict[str, Dict[str, Any]]] = {}
                for position in row:
                    group, item = keys[int(position)]
                    dialogs.setdefault(group, {})[item] = rows[int(position)]
                for name in names:
                    per_dialog = [(group, in_group.reduce_list([(item, scores.get(name, math.nan))
                                                                for item, scores in turns.items()]))
                                  for group, turns in dialogs.items()]
                    results[name].append(cross_group.reduce_list(per_dialog))
            return {name: np.asarray(values, dtype=np.float64) for name, values in results.items()}

        return MetricScores(self, [dict(row) for row in rows], statistic, len(rows))

    def instance_results(self, scores: MetricScores) -> List[Dict[str, Any]]:
        if scores.metric is self:
            return super().instance_results(scores)
        return self.metric.instance_results(scores)
