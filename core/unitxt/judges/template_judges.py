"""Template judges: the judge's input is an ordinary unitxt instance of a judge task, rendered by a judge template
and format, run by an inference engine, and read back by the template's post-processors (a number = the score).

`LLMAsJudge` (the llm_as_judge guide): tasks rating.single_turn, rating.single_turn_with_reference and
pairwise_comparative_rating.single_turn of tasks.response_assessment. `TaskBasedLLMasJudge` (RAG and conversation
judges): any judge task whose input fields come from the evaluated instance's task_data plus the prediction; with
`infer_log_probs`, the score is the probability of "yes" in the judge's first answer token. (Ensembles of judges:
`MetricsEnsemble` in metrics/ensemble.py.)
"""

import json
import math
import re
from typing import Any, Dict, List, Optional

from ..artifact import Artifact
from ..errors import MetricError
from ..inference.base import InferenceEngine
from ..logging_utils import get_logger
from ..metrics.base import BulkInstanceMetric
from ..module_aliases import moved_classes
from ..rendering.row_json import task_data_policy
from .verdicts import finite, reader_for

_PAIRWISE_WINNER = {"a": 1.0, "tie": 0.5, "b": 0.0}
INPUT_MODEL, BASELINE_MODEL = "input_model", "baseline_model"  # the pairwise judge's model ids (the original's)


def get_task_data_dict(task_data: Any) -> Any:
    """Task data as a dict: a JSON string (as rows carry it) parsed, anything else as it is."""
    return json.loads(task_data) if isinstance(task_data, str) else task_data


def _number(value: Any) -> float:
    """A judge's processed answer as a score: numbers as is, A/B/tie verdicts as 1/0.5/0, anything else NaN."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _PAIRWISE_WINNER:
            return _PAIRWISE_WINNER[text]
        try:
            return float(text)
        except ValueError:
            return math.nan
    return math.nan


class LLMAsJudgeBase(BulkInstanceMetric):
    """Shared machinery: render judge instances with (task, template, format, system prompt), infer, post-process."""

    __abstract__ = True

    inference_model: InferenceEngine
    template: Artifact
    task: Any = None
    format: Optional[Artifact] = None
    system_prompt: Optional[Artifact] = None
    main_score: str = "llm_as_judge"
    batch_size: int = 1_000_000
    include_meta_data: bool = True
    judgment_pattern: Optional[str] = None  # a raw answer that does not match it is unparseable (NaN)
    prediction_type = Any
    _field_aliases = {"model": "inference_model"}  # `name[model=engines...]` overrides the judge's engine

    def __init__(self, *args: Any, **kwargs: Any):
        # later releases of the original name the judge's engine `model` (their examples write LLMAsJudge(model=...))
        if "model" in kwargs:
            if "inference_model" in kwargs:
                raise MetricError("Give the judge's engine once: 'model' and 'inference_model' name the same field.",
                                  artifact=type(self).__name__, field="model")
            kwargs["inference_model"] = kwargs.pop("model")
        super().__init__(*args, **kwargs)

    def get_full_task_name(self) -> Any:
        """The judge task (a catalog name, or the task itself)."""
        raise NotImplementedError(f"{type(self).__name__}.get_full_task_name() is not implemented")

    def verdict_sign(self, row: Dict[str, Any]) -> float:
        return 1.0

    def prepare_instances(self, references, predictions, task_data) -> List[Dict[str, Any]]:
        """The judge task's instances, one per evaluated instance (each with its `data_classification_policy`)."""
        raise NotImplementedError(f"{type(self).__name__}.prepare_instances() is not implemented")

    def recipe(self) -> Any:
        from ..rendering.recipe import DatasetRecipe

        kwargs: Dict[str, Any] = {"task": self.get_full_task_name(), "template": self.template}
        if self.format is not None:
            kwargs["format"] = self.format
        if self.system_prompt is not None:
            kwargs["system_prompt"] = self.system_prompt
        return DatasetRecipe(**kwargs)

    def wants_meta_data(self) -> bool:
        return False

    def pattern(self) -> Optional[str]:
        if self.judgment_pattern is not None:
            return self.judgment_pattern
        names = " ".join(str(name) for name in getattr(self.template, "postprocessors", None) or [])
        if "mt_bench" in names or "arena_hard" in names or "double_brackets" in names:
            return r"\[\[.+?\]\]"
        return None

    def meta_data_scores(self, row: Dict[str, Any]) -> Dict[str, Any]:
        """Per-instance keys from the engine's report on the judge's answer (none here; see TaskBasedLLMasJudge)."""
        return {}

    def judge_rows(self, instances: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The judge instances rendered by the judge's recipe, each row with its instance's data classification."""
        from ..api import _with_placeholder_references

        policies = [instance.get("data_classification_policy") for instance in instances]
        instances = [{key: value for key, value in instance.items() if key != "data_classification_policy"}
                     for instance in instances]
        recipe = self.recipe()
        rows = recipe.produce_rows(_with_placeholder_references(recipe.get_task(), instances))
        for row, policy in zip(rows, policies):
            if policy:
                row["data_classification_policy"] = policy
        return rows

    def infer_instances(self, instances: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Render the judge instances and ask the engine: the rows with `raw_prediction` (the answer), `prediction`
        (after the template's post-processors) and, with meta data, `infer_meta_data` (the engine's report)."""
        from ..evaluation.in_memory import post_process_rows

        rows = self.judge_rows(instances)
        raw = self.inference_model.infer(rows, return_meta_data=self.wants_meta_data())
        if self.wants_meta_data():
            for row, output in zip(rows, raw):
                row["infer_meta_data"] = {key: value for key, value in output.to_dict().items()
                                          if key != "prediction"}
            raw = [output.prediction for output in raw]
        processed = post_process_rows([str(answer) for answer in raw], rows)[0]
        for row, answer, value in zip(rows, raw, processed):
            row["raw_prediction"] = answer
            row["prediction"] = value
        return rows

    def get_metric_results_from_prediction_outputs(self, outputs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Per judged row, the score (the processed answer, NaN when unreadable) with the judge's raw answer and
        input (and the engine's report with include_meta_data)."""
        pattern = self.pattern()
        reader = None if getattr(self, "infer_log_probs", False) else reader_for(self.template)
        results = []
        for row in outputs:
            score = finite(reader(row["raw_prediction"]) if reader is not None else _number(row["prediction"]))
            score = score * self.verdict_sign(row) if score else score
            if pattern is not None and not re.search(pattern, str(row["raw_prediction"]), flags=re.DOTALL):
                score = math.nan
            result: Dict[str, Any] = {self.main_score: score,
                                      f"{self.main_score}_judge_raw_output": row["raw_prediction"],
                                      f"{self.main_score}_judge_raw_input": row["source"]}
            result.update(self.meta_data_scores(row))
            results.append(result)
        return results

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]
                ) -> List[Dict[str, Any]]:
        instances = self.prepare_instances(references, predictions, task_data)
        for instance, data in zip(instances, task_data):  # as the original: each carries its data's classification
            instance.setdefault("data_classification_policy", task_data_policy(data))
        rows = self.infer_instances(instances)
        results = self.get_metric_results_from_prediction_outputs(rows)
        unreadable = [row for row, result in zip(rows, results)
                      if not isinstance(result.get(self.main_score), (int, float))
                      or math.isnan(result[self.main_score])]
        if unreadable:
            mode = "log_probs" if getattr(self, "infer_log_probs", False) else "generate"
            self.inference_model.forget_answers(unreadable, mode=mode)
            get_logger().warning(f"{type(self).__name__} ({self.artifact_name}): {len(unreadable)} of {len(rows)} "
                                 f"judge answers could not be read as a score; their scores are NaN (raw answers in "
                                 f"{self.main_score}_judge_raw_output; not cached, so a rerun asks again).")
        return results


def _question(task_data: Dict[str, Any], strip_format: bool, cache: Dict[str, Any]) -> str:
    """The evaluated model's input as the judge sees it (the original's): with `strip_format`, the instance re-rendered
    by its own template with the plain format (no system prompt, no demos); else the rendered source it got."""
    if strip_format and isinstance((task_data.get("metadata") or {}).get("template"), (str, dict)):
        source = _restyled_source(task_data, cache)
    elif "source" in task_data:
        source = task_data["source"]
    else:  # task_data from outside an evaluation (no source): the task's question/input field
        source = next((task_data[name] for name in ("question", "input", "instruction")
                       if isinstance(task_data.get(name), str)), "")
    if isinstance(source, str) and source.lstrip().startswith("[{"):
        try:
            source = json.loads(source)
        except ValueError:
            pass
    if isinstance(source, list):  # chat messages
        if len(source) == 1:
            return str(source[0].get("content"))
        if len(source) == 2:
            return f"{source[0].get('content')}\n{source[1].get('content')}"
        return "\n".join(f"{turn.get('role')}: {turn.get('content')}" for turn in source)
    return str(source)


def _restyled_source(task_data: Dict[str, Any], cache: Dict[str, Any]) -> Any:
    """task_data rendered by its instance's template and formats.empty (task_data as input and reference fields)."""
    from ..catalog import fetch_artifact

    reference = task_data["metadata"]["template"]
    key = reference if isinstance(reference, str) else json.dumps(reference, sort_keys=True, default=str)
    if key not in cache:
        if isinstance(reference, str):
            template = fetch_artifact(reference)[0]
        else:
            from ..artifact import from_serializable

            template = from_serializable(reference)
        cache[key] = (template, fetch_artifact("formats.empty")[0])
    template, plain_format = cache[key]
    fields = {name: value for name, value in task_data.items() if name != "source"}
    rendered = template.render(fields, fields)
    rendered.setdefault("system_prompt", "")
    return plain_format.process(dict(rendered))["source"]


class LLMAsJudge(LLMAsJudgeBase):
    """The judge of the llm_as_judge guide: `task` is "rating.single_turn", "rating.single_turn_with_reference" or
    "pairwise_comparative_rating.single_turn" (the prediction is answer A, the first reference answer B).

    The question shown to the judge is, as in the original, the evaluated instance re-rendered by its template with
    the plain format (`strip_system_prompt_and_format_from_inputs`, the default), else the source the model got.
    """

    task: str = "rating.single_turn"
    strip_system_prompt_and_format_from_inputs: bool = True
    single_reference_per_prediction: bool = False

    _TASKS = ("rating.single_turn", "rating.single_turn_with_reference", "pairwise_comparative_rating.single_turn")

    def prepare(self) -> None:
        super().prepare()
        for prefix in ("tasks.", "response_assessment."):  # "tasks.response_assessment.rating.single_turn" is accepted
            if isinstance(self.task, str) and self.task.startswith(prefix):
                self.__dict__["task"] = self.task[len(prefix):]

    def verify(self) -> None:
        super().verify()
        if self.task not in self._TASKS:
            raise MetricError(f"LLMAsJudge task must be one of {list(self._TASKS)}, got {self.task!r}.",
                              artifact=self.artifact_name, field="task")

    def get_full_task_name(self) -> str:
        return f"tasks.response_assessment.{self.task}"

    def prepare_instances(self, references, predictions, task_data) -> List[Dict[str, Any]]:
        instances, templates = [], {}
        for index, (refs, prediction, data) in enumerate(zip(references, predictions, task_data)):
            question = _question(data, self.strip_system_prompt_and_format_from_inputs, templates)
            if self.task == "rating.single_turn":
                instances.append({"question": question, "answer": str(prediction)})
                continue
            if not refs:
                raise MetricError(f"Instance {index} has no reference; task {self.task} needs one.",
                                  artifact=self.artifact_name, field="references")
            if self.task == "rating.single_turn_with_reference":
                instances.append({"question": question, "answer": str(prediction), "reference_answer": str(refs[0])})
            else:  # the evaluated answer is A, the reference B (model ids as the original names them)
                instances.append({"question": question, "answer_a": str(prediction), "answer_b": str(refs[0]),
                                  "model_a": INPUT_MODEL, "model_b": BASELINE_MODEL})
        return instances

    def resolved_reduction_map(self) -> Dict[str, List[str]]:
        if self.reduction_map is None and self.task == "pairwise_comparative_rating.single_turn":
            return {"weighted_win_rate": [self.main_score]}  # as the original: the evaluated answer's win rate
        return super().resolved_reduction_map()

    def verdict_sign(self, row: Dict[str, Any]) -> float:
        """-1 for a pairwise row whose template showed the answers swapped (its task_data names the baseline
        first), so the verdict still scores the evaluated answer; else 1."""
        if self.task != "pairwise_comparative_rating.single_turn":
            return 1.0
        data = row.get("task_data")
        if isinstance(data, str):
            data = json.loads(data)
        return -1.0 if isinstance(data, dict) and data.get("model_a") == BASELINE_MODEL else 1.0


class TaskBasedLLMasJudge(LLMAsJudgeBase):
    """A judge over any judge task: its inputs are the evaluated instance's task_data fields (renamed by
    `judge_to_generator_fields_mapping` {judge field: task_data field}) and the prediction (`prediction_field`).

    With `infer_log_probs` the score is P(yes) from the first answer token's log-probs: P(yes)/(P(yes)+P(no)) when
    both are among the top tokens, P(yes) or 1-P(no) when only one is, NaN when neither is.
    """

    task: Any = None
    prediction_field: Optional[str] = None
    infer_log_probs: bool = False
    judge_to_generator_fields_mapping: Dict[str, str] = {}

    def inputs_from_task_data(self, predictions, references, task_data) -> tuple:
        return predictions, references  # prediction_field names the judge task's field (prepare_instances)

    def prepare(self) -> None:
        super().prepare()
        # as the original: every score is named after the judge's engine ("<engine id>_<main score>")
        self.__dict__["score_prefix"] = f"{self.inference_model.get_engine_id()}_"
        if "format" in self._given_fields and self.format is None:  # format=None: chosen by the engine
            self.set_format_for_inference_engine()

    def wants_meta_data(self) -> bool:
        return self.include_meta_data and not self.infer_log_probs

    def meta_data_scores(self, row: Dict[str, Any]) -> Dict[str, Any]:
        """With include_meta_data, the engine's report on the answer as `<main>_<field>` (as the original)."""
        return {f"{self.main_score}_{key}": value for key, value in row.get("infer_meta_data", {}).items()}

    def verify(self) -> None:
        super().verify()
        if self.task is None:
            raise MetricError("TaskBasedLLMasJudge needs a judge task (e.g. tasks.rag_eval.faithfulness.binary).",
                              artifact=self.artifact_name, field="task")

    def get_full_task_name(self) -> Any:
        return self.task

    def set_format_for_inference_engine(self) -> None:
        """The format when the judge is given format=None (the original's choice by engine id): watsonx.ai engines
        of Llama 3 instruct models formats.llama3_instruct, of Mixtral formats.models.mistral.instruction, other
        watsonx.ai models formats.empty; every other engine formats.chat_api."""
        from ..catalog import fetch_artifact

        engine_id = self.inference_model.get_engine_id()
        name = "formats.chat_api"
        if "_wml" in engine_id:
            name = ("formats.llama3_instruct" if re.search("llama.?3.*instruct", engine_id) else
                    "formats.models.mistral.instruction" if "mixtral" in engine_id else "formats.empty")
        self.__dict__["format"] = fetch_artifact(name)[0]

    def preprocess_instance(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """As the original: an instance without task_data is its own task data (the judge's template reads the
        prediction and references from it), without prediction None, without references [""]."""
        instance.setdefault("task_data", dict(instance))
        instance.setdefault("prediction", None)
        instance.setdefault("references", [""])
        return instance

    def evaluate_instances(self, instances: List[Dict[str, Any]]) -> Any:
        return super().evaluate_instances([self.preprocess_instance(instance) for instance in instances])

    def prepare_instances(self, references, predictions, task_data) -> List[Dict[str, Any]]:
        from ..catalog import fetch_artifact

        task = self.task if not isinstance(self.task, str) else fetch_artifact(self.task)[0]
        needed = list(task.input_fields if isinstance(task.input_fields, dict) else task.input_fields)
        defaults = task.defaults or {}
        instances = []
        for index, (prediction, data) in enumerate(zip(predictions, task_data)):
            instance = {}
            for name in needed:
                if name == self.prediction_field and prediction is not None:
                    is_dict = isinstance(prediction, dict)
                    instance[name] = prediction[name] if is_dict and name in prediction else prediction
                    continue
                source = self.judge_to_generator_fields_mapping.get(name, name)
                if source not in data and name in defaults:  # the judge task's default (e.g. choices) applies
                    continue
                if source not in data:
                    raise MetricError(f"The judge task needs '{name}' (from task_data '{source}'), missing from "
                                      f"instance {index} (task_data has {sorted(data)}).",
                                      artifact=self.artifact_name, field=source)
                instance[name] = data[source]
            instances.append(instance)
        return instances

    def infer_instances(self, instances: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """With infer_log_probs the prediction is P(yes) from the first answer token (see yes_probability)."""
        if not self.infer_log_probs:
            return super().infer_instances(instances)
        rows = self.judge_rows(instances)
        for row, tokens in zip(rows, self.inference_model.infer_log_probs(rows)):
            row["raw_prediction"] = json.dumps(tokens[:1] if tokens else [], default=str)
            row["prediction"] = yes_probability(tokens)
        return rows

    def pattern(self) -> Optional[str]:
        return None if self.infer_log_probs else super().pattern()


def yes_probability(tokens: List[Dict[str, Any]]) -> float:
    """P(yes) from the first generated token's top alternatives (see TaskBasedLLMasJudge); NaN when they are not
    log-probabilities (numbers <= 0)."""
    if not tokens or not isinstance(tokens, list) or not isinstance(tokens[0], dict):
        return math.nan
    first = tokens[0]
    tops = first.get("top_tokens") or [{"text": first.get("text"), "logprob": first.get("logprob")}]
    p_yes = p_no = 0.0
    seen_yes = seen_no = False
    for top in tops if isinstance(tops, list) else []:
        if not isinstance(top, dict) or top.get("logprob") is None:
            continue
        value = top["logprob"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value <= 0:
            return math.nan  # a positive, textual or NaN "log-prob" is not one: unreadable
        word = str(top.get("text") or "").strip().strip(".").lower()
        if word == "yes":
            p_yes += math.exp(value)
            seen_yes = True
        elif word == "no":
            p_no += math.exp(value)
            seen_no = True
    if seen_yes and seen_no:
        return p_yes / (p_yes + p_no) if p_yes + p_no > 0 else math.nan
    if seen_yes:
        return p_yes
    if seen_no:
        return 1.0 - p_no
    return math.nan


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
