"""The inference engine contract: rows in (a Dataset, recipe rows, or dicts with `source`), predictions out.

`InferenceEngine.infer(dataset, return_meta_data=False)` checks each row's data classification against the engine's
policy (remote engines allow only `public` data and refuse before anything is sent), answers what the persistent cache
already knows, runs the rest through the engine's `_infer` and stores the answers, so an interrupted run resumes and a
rerun sends nothing. Engines implement `_infer(inputs, rows) -> List[TextGenerationInferenceOutput]`.
"""

import json
import threading
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Sequence, TypeVar

from ..artifact import InertField
from ..errors import UnitxtError
from ..settings_utils import settings as unitxt_settings
from ..operator import Operator, PackageRequirementsMixin

_CALLS_LOCK = threading.Lock()  # makes each engine's per-thread call state once


class InferenceError(UnitxtError):
    """An engine could not produce predictions (bad input, a refused or failed request)."""


@dataclass
class TextGenerationInferenceOutput:
    """One prediction with what the engine reported about it (`infer(..., return_meta_data=True)`)."""

    prediction: Any
    generated_text: Optional[str] = None  # the text the model generated (the prediction's text when not given)
    input_tokens: Optional[int] = None
    output_tokens: Optional[int] = None
    stop_reason: Optional[str] = None
    seed: Optional[int] = None
    input_text: Optional[str] = None
    model_name: Optional[str] = None
    inference_type: Optional[str] = None

    def __post_init__(self) -> None:
        if self.generated_text is None and isinstance(self.prediction, str):
            self.generated_text = self.prediction

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


T = TypeVar("T")


class ListWithMetadata(List[T]):
    """A list of predictions carrying a `metadata` dict about the run that produced them."""

    def __init__(self, *args: Any, metadata: Optional[dict] = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.metadata = metadata if metadata is not None else {}

    def __repr__(self) -> str:
        return f"ListWithMetadata(data={super().__repr__()}, metadata={self.metadata})"


@dataclass
class EngineInput:
    """What is sent for one row: `kind` "text" (a prompt string) or "chat" (a list of messages)."""

    kind: str
    value: Any
    tools: Optional[List[Dict[str, Any]]] = None  # the tools offered to the model (task_data "__tools__")

    def as_messages(self) -> List[Dict[str, Any]]:
        """Chat messages (a text prompt becomes one user message)."""
        return self.value if self.kind == "chat" else [{"role": "user", "content": self.value}]

    def as_text(self) -> str:
        """The prompt as text (chat messages joined as "role: content" lines, for engines without chat)."""
        if self.kind == "text":
            return self.value
        lines = []
        for message in self.value:
            content = message.get("content")
            if isinstance(content, list):
                content = " ".join(part.get("text", "") for part in content if part.get("type") == "text")
            lines.append(f"{message.get('role', 'user')}: {content}")
        return "\n".join(lines)

    def key_fields(self) -> Dict[str, Any]:
        """What of this input changes the answer (the default instance cache key)."""
        fields: Dict[str, Any] = {"kind": self.kind, "source": self.value}
        if self.tools:
            fields["tools"] = self.tools
        return fields

    def key(self) -> str:
        return json.dumps(self.key_fields(), sort_keys=True, ensure_ascii=False, default=str)


def rows_of(dataset: Any) -> List[Dict[str, Any]]:
    """Rows of a datasets.Dataset, a list of recipe rows, or plain dicts (each needs `source`)."""
    if isinstance(dataset, dict) and "source" in dataset:
        raise InferenceError("infer() takes a list of rows or a Dataset, got a single row (wrap it in a list).")
    if hasattr(dataset, "to_dict") and hasattr(dataset, "column_names") and hasattr(dataset, "__len__"):
        columns = dataset.to_dict()
        names = list(columns)
        return [dict(zip(names, values)) for values in zip(*(columns[name] for name in names))]
    if isinstance(dataset, (str, bytes)):
        raise InferenceError("infer() takes rows (dicts with 'source') or a Dataset, got a string; "
                             "wrap prompts as [{'source': text}].")
    rows = list(dataset)
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise InferenceError(f"Row {index} is a {type(row).__name__}; expected a dict with a 'source' field.")
    return rows


def engine_input(row: Dict[str, Any], index: int = 0) -> EngineInput:
    """Text sources go as text; chat sources (formats.chat_api, lists of messages) as chat with content parts."""
    if "source" not in row:
        raise InferenceError(f"Row {index} has no 'source' field (fields: {sorted(row)}).", field="source")
    source = row["source"]
    media = row.get("media") or {}
    if isinstance(source, str) and source.lstrip().startswith("[{"):
        try:
            parsed = json.loads(source)
            if isinstance(parsed, list) and all(isinstance(m, dict) and "role" in m for m in parsed):
                source = parsed
        except json.JSONDecodeError:
            pass
    if isinstance(source, str):
        if media.get("images") or media.get("audios"):
            from ..image_utils import to_content_parts

            return EngineInput("chat", to_content_parts([{"role": "user", "content": source}], media))
        return EngineInput("text", source)
    if isinstance(source, (list, tuple)) and all(isinstance(m, dict) and "role" in m for m in source):
        from ..image_utils import clean_content_parts

        return EngineInput("chat", clean_content_parts([_with_text_arguments(dict(m)) for m in source]))
    raise InferenceError(f"Row {index}: 'source' must be a string or a list of chat messages "
                         f"({{'role', 'content'}}), got {type(source).__name__}.", field="source")


def _with_text_arguments(message: Dict[str, Any]) -> Dict[str, Any]:
    """A chat message whose tool calls carry their arguments as JSON text, as the chat API expects (the original's
    to_messages does the same)."""
    calls = message.get("tool_calls")
    if isinstance(calls, list):
        message["tool_calls"] = [_text_arguments(call) for call in calls]
    return message


def _text_arguments(call: Any) -> Any:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or isinstance(function.get("arguments"), str) or "arguments" not in function:
        return call
    return {**call, "function": {**function, "arguments": json.dumps(function["arguments"])}}


def get_model_and_label_id(model_name: str, label: str) -> str:
    """An engine id as the original writes it: the model's last path segment in lower case with '-' as '_' and '.'
    as ',', then '_' and the engine's label."""
    last_segment = model_name.rsplit("/", 1)[-1]
    return "{}_{}".format(last_segment.lower().replace("-", "_").replace(".", ","), label)


class InferenceEngine(PackageRequirementsMixin, Operator):
    """Base of all engines: `infer(dataset)` / `engine(dataset)` give one prediction per row.

    `use_cache` (default on) keeps every answer in an on-disk cache keyed by the engine settings that affect output
    plus the input (`cache_dir`, else the `inference_cache_dir` setting / UNITXT_INFERENCE_CACHE_DIR, else
    ~/.cache/unitxt/inference).
    """

    def __repr__(self) -> str:
        """The engine with its given fields, credentials shown as "***" (a repr lands in logs and Ray's errors)."""
        from ..general.secrets import redact

        parts = [f"{name}={redact({name: self.__dict__[name]})[name]!r}" for name in self.get_fields()
                 if name in self._given_fields]
        return f"{type(self).__name__}({', '.join(parts)})"

    __abstract__ = True

    use_cache: bool = True
    cache_dir: Optional[str] = None
    cache_batch_size: int = InertField(default=100, reason="the cache here keeps each answer as soon as it arrives")

    # fields that never change an answer: left out of the cache key
    _not_in_cache_key = ("use_cache", "cache_dir", "num_parallel_requests", "timeout", "max_retries",
                         "retry_base_delay", "retry_max_delay", "credentials", "batch_size", "show_progress",
                         "data_classification_policy", "device", "device_map", "default_headers",
                         "concurrency_limit", "requirements")
    _inference_type = "engine"

    # handles of this process (the cache's database and journal, an HTTP client's connections): never pickled, an
    # engine sent to another process (a Ray worker, after use here) opens its own on first use
    _per_process = ("_cache_store", "_http", "_calls", "_request_pool")

    def prepare(self) -> None:
        super().prepare()
        self._cache_store = None
        if not unitxt_settings.mock_inference_mode:  # as the original: a mock needs no client or model
            self.prepare_engine()

    def prepare_engine(self) -> None:
        """The original's hook, run once when the engine is made (not in mock mode): load a model or make a client.
        Engines here open their clients on first use, so the default does nothing; subclasses may override it."""

    # the state of the call running in this thread (an engine may answer calls from several threads at once: an
    # actor working on two blocks); read by report() and the batch mode
    def _call(self) -> threading.local:
        calls = self.__dict__.get("_calls")
        if calls is None:
            with _CALLS_LOCK:
                calls = self.__dict__.get("_calls")
                if calls is None:
                    calls = self.__dict__["_calls"] = threading.local()
        return calls

    _on_result = property(lambda self: getattr(self._call(), "on_result", None),
                          lambda self, value: setattr(self._call(), "on_result", value))
    _missing_rows = property(lambda self: getattr(self._call(), "missing_rows", None),
                             lambda self, value: setattr(self._call(), "missing_rows", value))
    _missing_keys = property(lambda self: getattr(self._call(), "missing_keys", None),
                             lambda self, value: setattr(self._call(), "missing_keys", value))

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        for name in self._per_process:
            if name in state:
                state[name] = None
        return state

    # ------------------------------------------------------------------ public API
    def __call__(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        """Same as infer()."""
        return self.infer(dataset, return_meta_data=return_meta_data)

    def infer(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        """One prediction per row (strings), or TextGenerationInferenceOutput objects with `return_meta_data`."""
        return self._run(dataset, return_meta_data, mode="generate")

    def infer_log_probs(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        """Per row, the generated tokens with their log-probs: [{"text", "logprob", "top_tokens": [...]}, ...]."""
        if not self.supports_log_probs():
            raise InferenceError(f"{type(self).__name__} does not expose log-probs; use an engine that does "
                                 f"(OpenAI-protocol engines, HFAutoModelInferenceEngine).", artifact=self.artifact_name)
        return self._run(dataset, return_meta_data, mode="log_probs")

    def supports_log_probs(self) -> bool:
        return type(self)._infer_log_probs is not InferenceEngine._infer_log_probs

    label = None  # the original's engine label (e.g. "openai"): the suffix of its engine id

    def get_engine_id(self) -> str:
        """The original's engine id, `<model id>_<label>` (e.g. "gpt_4o_openai"; judges and catalog names of engines
        are built from it)."""
        model = (getattr(self, "model_name", None) or getattr(self, "model", None)
                 or getattr(self, "deployment_id", None) or getattr(self, "model_type", None) or "")
        return get_model_and_label_id(str(model), self.label or self._inference_type)

    def model_label(self) -> Optional[str]:
        return getattr(self, "model_name", None) or getattr(self, "model", None)

    def get_model_details(self) -> Dict[str, Any]:
        """What the serving side says about the model (the original's hook); engines that cannot ask give {}."""
        return {}

    # ------------------------------------------------------------------ the original's hooks on each row
    def verify_infer_inputs(self, dataset: Any, return_meta_data: bool) -> None:
        """Check the rows before anything runs: each a dict with 'source', allowed by the data classification
        policy (the original's hook; `dataset` is the list of rows)."""
        for index, row in enumerate(dataset):
            if not isinstance(row, dict):
                raise InferenceError(f"Row {index} is a {type(row).__name__}; expected a dict with a 'source' field.",
                                     artifact=self.artifact_name, field="source")
            if "source" not in row:
                raise InferenceError(f"Row {index} has no 'source' field (fields: {sorted(row)}).",
                                     artifact=self.artifact_name, field="source")
        self.check_policy(dataset)

    def verify_not_chat_api(self, dataset: Any) -> None:
        """Refuse rows whose source is chat messages (for engines that take text prompts only)."""
        rows = rows_of(dataset)
        if rows and isinstance(rows[0].get("source"), list):
            raise InferenceError(f"{type(self).__name__} takes text prompts, not chat messages (formats.chat_api); "
                                 f"use a text format.", artifact=self.artifact_name, field="source")

    def to_messages(self, instance: Dict[str, Any]) -> List[Dict[str, Any]]:
        """The chat messages a row is sent as (a text source is one user message; tool-call arguments as JSON
        text). Override it to change what is sent: the engine then sends every row as these messages."""
        return engine_input(instance).as_messages()

    def to_tools(self, instance: Dict[str, Any]) -> Optional[List[Dict[str, Any]]]:
        """The tools offered with a row: task_data["__tools__"] (None when it has none)."""
        task_data = instance.get("task_data")
        if task_data is None or (isinstance(task_data, str) and "__tools__" not in task_data):
            return None
        if isinstance(task_data, str):
            try:
                task_data = json.loads(task_data)
            except json.JSONDecodeError:
                return None
        return task_data.get("__tools__") if isinstance(task_data, dict) else None

    def request_input(self, row: Dict[str, Any], index: int = 0) -> EngineInput:
        """What is sent for a row: its source (through to_messages when a subclass overrides it) and tools."""
        if type(self).to_messages is not InferenceEngine.to_messages:
            item = EngineInput("chat", self.to_messages(row))
        else:
            item = engine_input(row, index)
        item.tools = self.to_tools(row) or None
        return item

    def get_instance_cache_key(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """The part of a row that changes the answer (with the engine's settings, the cache key): what is sent."""
        return self.request_input(instance).key_fields()

    # ------------------------------------------------------------------ to implement
    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        raise NotImplementedError(f"{type(self).__name__} does not implement _infer")

    def _infer_log_probs(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]
                         ) -> List[TextGenerationInferenceOutput]:
        raise NotImplementedError(f"{type(self).__name__}._infer_log_probs() is not implemented")

    # ------------------------------------------------------------------ machinery
    def check_policy(self, rows: Sequence[Dict[str, Any]]) -> None:
        """Refuse the whole batch when any row's classification is not allowed (before anything is sent; in mock
        mode nothing is sent, so nothing is refused)."""
        if mock_mode():
            return
        allowed = self.effective_policy()
        if allowed is None:
            return
        for index, row in enumerate(rows):
            try:
                self.check_instance_policy(row, allowed)
            except UnitxtError as error:
                error.field = "data_classification_policy"
                error.message = f"Row {index}: {error.message} Nothing was sent."
                error.args = (error._compose(),)
                raise

    def mock_mode_answers(self, rows: List[Dict[str, Any]], return_meta_data: bool, mode: str) -> List[Any]:
        """What the engine answers under settings.mock_inference_mode (the original's mock answers)."""
        return mock_answers(rows, return_meta_data, mode)

    def cache_settings(self) -> Dict[str, Any]:
        inert = {name for name, spec in self.get_fields().items() if isinstance(spec.declaration, InertField)}
        settings = {key: value for key, value in self.to_dict().items() if key not in self._not_in_cache_key
                    and key not in inert and not key.startswith("__")}
        settings["__type__"] = type(self).__name__
        server = self.answering_server()
        if server:
            settings["__server__"] = server
        return settings

    def answering_server(self) -> Optional[str]:
        """Where the answers come from when a setting outside the fields chooses it (a base URL from credentials or
        the environment): part of the cache key, so another server never gets this one's answers. None: local."""
        return None

    def _cache(self):
        if not self.use_cache:
            return None
        if self._cache_store is None:
            from .cache import InferenceCache

            self._cache_store = InferenceCache.open(self.cache_dir)
        return self._cache_store

    def _run(self, dataset: Any, return_meta_data: bool, mode: str) -> List[Any]:
        rows = rows_of(dataset)
        self.verify_infer_inputs(rows, return_meta_data)
        if mock_mode():  # nothing leaves the process, so no row is refused by data policy
            return self.mock_mode_answers(rows, return_meta_data, mode)
        inputs = [self.request_input(row, index) for index, row in enumerate(rows)]
        self.before_infer(rows)
        cache = self._cache()
        outputs: List[Optional[TextGenerationInferenceOutput]] = [None] * len(rows)
        keys: List[str] = []
        if cache is not None:
            settings_key = json.dumps([mode, self.cache_settings()], sort_keys=True, default=str)
            keys = [cache.make_key(settings_key, self.cache_input_key(item, row)) for item, row in zip(inputs, rows)]
            for index, found in cache.get_many(keys).items():
                outputs[index] = TextGenerationInferenceOutput(**found)
        missing = [index for index, output in enumerate(outputs) if output is None]
        if missing:
            def store(position: int, output: TextGenerationInferenceOutput) -> None:
                index = missing[position]
                outputs[index] = output
                if cache is not None:
                    cache.put(keys[index], output.to_dict())

            runner = self._infer_log_probs if mode == "log_probs" else self._infer
            self._on_result = store
            self._missing_rows = missing  # the caller's row of each request (batch mode names failed rows by it)
            self._missing_keys = [keys[index] for index in missing] if keys else None
            try:
                produced = runner([inputs[i] for i in missing], [rows[i] for i in missing])
            except UnitxtError as error:
                raise self.name_the_row(error, missing, outputs) from error.__cause__
            except Exception as error:  # an engine's own library failed: still a UnitxtError naming engine and row
                wrapped = InferenceError(f"{type(error).__name__}: {error}")
                raise self.name_the_row(wrapped, missing, outputs) from error
            finally:
                self._on_result = None
                self._missing_rows = self._missing_keys = None
                if cache is not None:
                    cache.flush()
            for position, output in enumerate(produced):
                if outputs[missing[position]] is None:
                    store(position, output)
        if return_meta_data:
            return outputs
        return [output.prediction for output in outputs]

    def name_the_row(self, error: UnitxtError, missing: List[int], outputs: List[Any]) -> UnitxtError:
        """The error of a failed request names the engine and the row (its index in the caller's data), and says how
        many answers were kept (cached) so that a rerun sends only the rest."""
        position = getattr(error, "position", None)
        if not error.artifact:
            error.artifact = self.artifact_name
        if isinstance(position, int) and 0 <= position < len(missing) and not error.message.startswith("Row "):
            answered = sum(output is not None for output in outputs)
            kept = f" ({answered} answered rows were kept{' in the cache' if self.use_cache else ''})" \
                if answered else ""
            error.message = f"Row {missing[position]}: {error.message}{kept}"
        error.args = (error._compose(),)
        error.answers = [output.prediction if output is not None else None for output in outputs]
        return error

    def before_infer(self, rows: List[Dict[str, Any]]) -> None:
        """Hook: check settings/requirements before the first request (after the policy check)."""
        self.check_missing_requirements()

    def cache_input_key(self, item: EngineInput, row: Dict[str, Any]) -> str:
        if type(self).get_instance_cache_key is InferenceEngine.get_instance_cache_key:
            return item.key()  # the default key is what is sent: already built
        return json.dumps(self.get_instance_cache_key(row), sort_keys=True, ensure_ascii=False, default=str)

    def request_keys(self, inputs: List[EngineInput], rows: List[Dict[str, Any]], mode: str = "generate"
                     ) -> List[str]:
        """The cache key of each request (also when use_cache is off: batch mode names its requests by them)."""
        from .cache import InferenceCache

        settings_key = json.dumps([mode, self.cache_settings()], sort_keys=True, default=str)
        return [InferenceCache.make_key(settings_key, self.cache_input_key(item, row))
                for item, row in zip(inputs, rows)]

    def forget_answers(self, dataset: Any, mode: str = "generate") -> int:
        """Drop the cached answers of these rows (a judge calls it for answers it could not read, so the next run
        asks again instead of replaying them); the number dropped."""
        cache = self._cache()
        rows = rows_of(dataset)
        if cache is None or not rows:
            return 0
        settings_key = json.dumps([mode, self.cache_settings()], sort_keys=True, default=str)
        return cache.forget([cache.make_key(settings_key, self.cache_input_key(self.request_input(row, index), row))
                             for index, row in enumerate(rows)])

    def report(self, position: int, output: TextGenerationInferenceOutput) -> None:
        """Engines that produce answers one by one call this so each answer is cached as soon as it arrives."""
        callback = getattr(self, "_on_result", None)
        if callback is not None:
            callback(position, output)



def mock_logprobs_default_value_factory() -> List[Dict[str, Any]]:
    """The original's default log-probability answer of a mock engine: one token "[[10]]" with logprob -1."""
    return [{"logprob": -1, "text": "[[10]]", "top_tokens": [{"logprob": -1, "text": "[[10]]"}]}]


def mock_mode() -> bool:
    """settings.mock_inference_mode (env UNITXT_MOCK_INFERENCE_MODE): every engine answers without its package,
    credentials or service, as the original's mock does."""
    from ..settings_utils import settings

    return bool(settings.mock_inference_mode)


def mock_answers(rows: List[Dict[str, Any]], return_meta_data: bool, mode: str) -> List[Any]:
    """The original's mock answers: the row's source as text; for log-probs one "[[10]]" token with logprob -1."""
    if mode == "log_probs":
        return [mock_logprobs_default_value_factory() for _ in rows]
    answers = [str(row["source"]) if "source" in row else str(engine_input(row, index).value)
               for index, row in enumerate(rows)]
    if return_meta_data:
        return [TextGenerationInferenceOutput(prediction=answer) for answer in answers]
    return answers


def task_options(row: Dict[str, Any], index: int) -> List[str]:
    """The options of a row for option-selecting engines: task_data["options"] (multiple choice), else
    task_data["classes"] (classification)."""
    task_data = row.get("task_data")
    if isinstance(task_data, str):
        try:
            task_data = json.loads(task_data)
        except json.JSONDecodeError:
            task_data = None
    options = None
    if isinstance(task_data, dict):
        options = task_data.get("options") or task_data.get("classes")
    if not isinstance(options, list) or not options:
        raise InferenceError(f"Row {index}: option selection needs task_data['options'] (or 'classes'), a non-empty "
                             f"list.", field="task_data")
    return [str(option) for option in options]
