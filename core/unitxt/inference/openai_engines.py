"""Engines for servers speaking the OpenAI chat/completions protocol: OpenAI, Azure OpenAI, vLLM servers, RITS,
Together AI, Ollama, LiteLLM proxies. No package beyond the standard library is needed (see http_client.py).

Text sources go as one user message (or, with `api="completions"`, as a completions prompt); chat sources go as
chat messages, images as content parts. Requests run `num_parallel_requests` at a time with retries.
"""

import json
import os
from typing import Any, Dict, List, Literal, Optional, TypedDict

from ..artifact import Field
from .base import EngineInput, InferenceEngine, InferenceError, TextGenerationInferenceOutput
from .batch import BATCH_FIELDS
from .concurrency import RequestError, run_all, with_retries
from .params import GenerationParamsMixin
from ..artifact import InertField


class CredentialsOpenAi(TypedDict, total=False):
    """The `credentials` of OpenAI-protocol engines: an API key and the API root URL (both optional)."""

    api_key: str
    api_url: str


def _public() -> List[str]:
    return ["public"]


class RemoteEngineMixin(InferenceEngine):
    """Fields of engines that send requests: parallelism, timeout, retries, progress; only public data by default."""

    __abstract__ = True

    num_parallel_requests: int = 20
    timeout: float = 120.0
    max_retries: int = 5
    retry_base_delay: float = 1.0
    retry_max_delay: float = 60.0
    show_progress: bool = True
    data_classification_policy: Optional[List[str]] = Field(default_factory=_public)
    # batch mode (engines with a provider batch API; see batch.py): None follows the inference_batch setting
    batch: Optional[bool] = None
    batch_poll_interval: float = 30.0
    batch_poll_max_interval: float = 300.0
    batch_timeout: float = 25 * 3600.0
    batch_fallback: Optional[str] = None  # "live": failed batch requests are sent one by one
    batch_max_requests: Optional[int] = None  # None: the provider's limit
    batch_max_bytes: Optional[int] = None
    batch_completion_window: str = "24h"

    _not_in_cache_key = InferenceEngine._not_in_cache_key + BATCH_FIELDS
    _supports_batch = False
    _batch_limits = (50_000, 200 * 1024 * 1024)  # requests and bytes per batch file (OpenAI's)

    def batch_mode(self) -> bool:
        """Whether the uncached requests go through the batch API: `batch`, else the inference_batch setting
        (UNITXT_INFERENCE_BATCH=1) for engines that have one."""
        from ..settings_utils import settings

        if self.batch_fallback not in (None, "live"):
            raise InferenceError(f"batch_fallback is None or 'live', got {self.batch_fallback!r}.",
                                 artifact=self.artifact_name, field="batch_fallback")
        if self.batch is None:
            return self._supports_batch and bool(settings.inference_batch)
        if self.batch and not self._supports_batch:
            raise InferenceError(f"{type(self).__name__} has no provider batch API; batch=True works with "
                                 f"OpenAiInferenceEngine, AzureOpenAIInferenceEngine, TogetherAiInferenceEngine (and "
                                 f"CrossProviderInferenceEngine on open-ai, azure, together-ai).",
                                 artifact=self.artifact_name, field="batch")
        return bool(self.batch)

    def batch_limits(self) -> tuple:
        """(requests, bytes) a batch file may hold: batch_max_requests / batch_max_bytes, else the provider's."""
        return (int(self.batch_max_requests or self._batch_limits[0]), int(self.batch_max_bytes or
                                                                            self._batch_limits[1]))

    def run_requests(self, send, inputs: List[Any], description: str) -> List[TextGenerationInferenceOutput]:
        def one(item):
            return with_retries(lambda: send(item), self.max_retries, self.retry_base_delay, self.retry_max_delay,
                                label=type(self).__name__)

        return run_all(one, inputs, self.num_parallel_requests, on_result=self.report,
                       description=f"{type(self).__name__} {description}", show_progress=self.show_progress,
                       pool=self.kept_request_pool())

    def sends_requests(self) -> bool:
        """Whether its answers come over the network (calls can then overlap on one kept request pool)."""
        return True

    def keep_request_pool(self) -> None:
        """From now on, in this process, calls share one pool of num_parallel_requests threads (and their keep-alive
        connections): a caller answering block after block from several threads at once - an actor of a Ray pool -
        keeps that many requests in flight across its blocks, with no pause at each block's end."""
        from concurrent.futures import ThreadPoolExecutor

        if self.__dict__.get("_request_pool") is None:
            self._request_pool = ThreadPoolExecutor(max_workers=max(1, self.num_parallel_requests),
                                                    thread_name_prefix="unitxt-requests")

    def kept_request_pool(self) -> Optional[Any]:
        """The pool kept by keep_request_pool() (None: each call has its own)."""
        return self.__dict__.get("_request_pool")


class OpenAiInferenceEngine(RemoteEngineMixin, GenerationParamsMixin):
    """An OpenAI-compatible server: `credentials={"api_key", "api_url"}` or env OPENAI_API_KEY / OPENAI_API_URL.

    `base_url` (or api_url) is the API root ending in /v1; `default_headers` are added to every request.
    """

    parameters: Any = InertField(default=None, reason="generation parameters are this engine's own fields here")

    model_name: Optional[str] = None
    base_url: Optional[str] = None
    credentials: Optional[Dict[str, str]] = None
    default_headers: Optional[Dict[str, str]] = None
    api: Literal["chat", "completions"] = "chat"

    _env_prefix = "OPENAI"
    _default_base_url: Optional[str] = "https://api.openai.com/v1"
    _requires_api_key = True
    _inference_type = "openai"
    _supports_batch = True
    label: str = "openai"  # names the engine in results (engine id)

    def get_client_model_name(self) -> str:
        """The model name sent in each request (the original's hook; RITS strips its endpoint prefix)."""
        return self.model_name

    def own_endpoint(self) -> bool:
        """Whether requests go to a server of the user's own: a base_url / api_url on this machine or a private
        network (a hosted API's default URL never is)."""
        explicit = self.base_url or self.credential("api_url")
        return bool(explicit) and local_host(explicit)

    def effective_policy(self) -> Optional[List[str]]:
        """Public data only for hosted APIs; public and proprietary rows for a server of the user's own (loopback or
        a private network: no third party sees the data), unless data_classification_policy is given explicitly or
        overridden by UNITXT_DATA_CLASSIFICATION_POLICY."""
        policy = super().effective_policy()
        if "data_classification_policy" in self._given_fields or policy is not self.data_classification_policy:
            return policy
        if policy == _public() and self.own_endpoint():
            return _local_data()
        return policy

    def before_infer(self, rows: List[Dict[str, Any]]) -> None:
        super().before_infer(rows)
        if not self.get_client_model_name():
            raise InferenceError(f"{type(self).__name__} needs model_name.", artifact=self.artifact_name,
                                 field="model_name")
        client = self.create_client()
        kept = self.__dict__.get("_http")
        if kept is None or self.kept_request_pool() is None or _client_settings(kept) != _client_settings(client):
            self._http = client  # else the kept pool's threads keep their connections of the same client

    # ------------------------------------------------------------------ connection settings
    def credential(self, name: str) -> Optional[str]:
        """credentials[name], else the env variable <PREFIX>_<NAME> (e.g. OPENAI_API_KEY)."""
        if self.credentials and self.credentials.get(name):
            return self.credentials[name]
        return os.environ.get(f"{self._env_prefix}_{name.upper()}")

    def api_root(self) -> str:
        root = self.base_url or self.credential("api_url") or self._default_base_url
        if not root:
            raise InferenceError(f"{type(self).__name__} needs base_url (or credentials['api_url'] / env "
                                 f"{self._env_prefix}_API_URL).", artifact=self.artifact_name, field="base_url")
        return root

    def answering_server(self) -> Optional[str]:
        """The API root requests go to, wherever it is set (base_url, credentials['api_url'], env, default)."""
        try:
            root = self.api_root()
        except InferenceError:
            return None
        return root.rstrip("/") if root else None

    def auth_headers(self) -> Dict[str, str]:
        key = self.credential("api_key")
        if not key:
            if self._requires_api_key:
                raise InferenceError(f"{type(self).__name__} needs an API key: credentials={{'api_key': ...}} or env "
                                     f"{self._env_prefix}_API_KEY.", artifact=self.artifact_name, field="credentials")
            return {}
        return {"Authorization": f"Bearer {key}"}

    def url_query(self) -> Optional[Dict[str, str]]:
        return None

    def get_default_headers(self) -> Dict[str, str]:
        """Headers added to every request (the original's hook): `default_headers`."""
        return dict(self.default_headers or {})

    def create_client(self) -> Any:
        """The client requests go through (the original's hook, run before each run of requests): an HTTP client of
        the API root with the key and get_default_headers(). A subclass may return another client with `post(path,
        body) -> dict` (a recording or retrying one)."""
        from .http_client import JSONHTTPClient

        headers = {**self.auth_headers(), **self.get_default_headers()}
        return JSONHTTPClient(self.api_root(), headers=headers, timeout=self.timeout, query=self.url_query())

    def chat_path(self) -> str:
        return "chat/completions"

    # ------------------------------------------------------------------ batch API (see batch.py)
    def batch_api_root(self) -> str:
        """Where the files and batches endpoints are (the API root for OpenAI-style providers)."""
        return self.api_root()

    def batch_scope(self) -> str:
        """What a journaled batch belongs to: the batch API root (batch ids are per provider account)."""
        return self.batch_api_root()

    def batch_url(self) -> str:
        """The `url` of a batch request line (and the batch's endpoint)."""
        return "/v1/completions" if self.api == "completions" else "/v1/chat/completions"

    def batch_client(self):
        from .http_client import JSONHTTPClient

        headers = {**self.auth_headers(), **self.get_default_headers()}
        return JSONHTTPClient(self.batch_api_root(), headers=headers, timeout=self.timeout, query=self.url_query())

    def completions_path(self) -> str:
        return "completions"

    # ------------------------------------------------------------------ requests
    def request_body(self, item: EngineInput, log_probs: bool) -> Dict[str, Any]:
        params = self.generation_params()
        if log_probs:
            params["logprobs"] = True
            params.setdefault("top_logprobs", 5)
        body: Dict[str, Any] = {"model": self.get_client_model_name()}
        if self.api == "completions":
            if item.kind == "chat":
                raise InferenceError("api='completions' takes text sources; this row's source is chat messages "
                                     "(use api='chat').", artifact=self.artifact_name, field="api")
            body["prompt"] = item.value
            if log_probs:
                params["logprobs"] = params.pop("top_logprobs")
        else:
            body["messages"] = item.as_messages()
            if item.tools:
                body["tools"] = item.tools
        body.update(params)
        return body

    def post(self, path: str, body: Dict[str, Any]) -> Dict[str, Any]:
        try:
            return self._http.post(path, body)
        except RequestError as error:
            error.artifact = error.artifact or self.artifact_name
            error.args = (error._compose(),)
            raise

    def malformed(self, what: str, answer: Any) -> InferenceError:
        """A well-formed HTTP answer that is not a usable completion: never cached, retried on the next run."""
        return InferenceError(f"{type(self).__name__} got a malformed answer: {what}: {str(answer)[:300]}",
                              artifact=self.artifact_name)

    def send(self, item: EngineInput, log_probs: bool = False) -> TextGenerationInferenceOutput:
        body = self.request_body(item, log_probs)
        answer = self.post(self.completions_path() if self.api == "completions" else self.chat_path(), body)
        return self.read_answer(answer, item, log_probs)

    def read_answer(self, answer: Dict[str, Any], item: EngineInput, log_probs: bool) -> TextGenerationInferenceOutput:
        """The completion in a decoded answer, checked: text content (a list of text parts is joined), log-probs when
        asked; anything else is a malformed answer (an InferenceError, so it is not cached)."""
        choices = answer.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self.malformed("no choices", answer)
        choice = choices[0]
        if self.api == "completions":
            text = choice.get("text")
        else:
            message = choice.get("message")
            if not isinstance(message, dict):
                raise self.malformed("the choice has no message", answer)
            text = message.get("content")
            if isinstance(text, list) and all(isinstance(part, dict) and isinstance(part.get("text"), str)
                                               for part in text):
                text = "".join(part["text"] for part in text)
            call = tool_call_text(message) if item is not None and item.tools else None
            if call is not None:  # as the original: the first tool call as {"name": ..., "arguments": ...}
                text = call
            elif text is None and item is not None and item.tools:
                text = ""
        if not isinstance(text, str):
            raise self.malformed(f"the answer's content is {type(text).__name__}, not text", answer)
        prediction: Any = text
        if log_probs:
            try:
                prediction = self.completion_logprobs(choice) if self.api == "completions" else \
                    self.chat_logprobs(choice)
            except (AttributeError, TypeError, KeyError, ValueError) as error:
                raise self.malformed(f"unreadable log-probs ({type(error).__name__})", answer) from None
            if not prediction and text:
                raise self.malformed("log-probs were asked for but the answer has none", answer)
        output = self.get_return_object(prediction, ResponseView(answer), True)
        if not isinstance(output, TextGenerationInferenceOutput):  # an override that returns the prediction only
            output = TextGenerationInferenceOutput(prediction=output)
        if output.input_text is None and item is not None and item.kind == "text":
            output.input_text = item.as_text()
        return output

    def get_return_object(self, predict_result: Any, response: Any, return_meta_data: bool) -> Any:
        """The answer of one request (the original's hook): with return_meta_data a TextGenerationInferenceOutput
        with the response's usage, model and finish reason, else the prediction. `response` is the decoded answer,
        readable as a dict or by attributes (response.choices[0].message.content, response.usage.prompt_tokens)."""
        if not return_meta_data:
            return predict_result
        usage = response.get("usage") if isinstance(response.get("usage"), dict) else {}
        tokens = [usage.get(name) if isinstance(usage.get(name), int) else None
                  for name in ("prompt_tokens", "completion_tokens")]
        choice = (response.get("choices") or [{}])[0]
        model = response.get("model") if isinstance(response.get("model"), str) else None
        reason = choice.get("finish_reason") if isinstance(choice.get("finish_reason"), str) else None
        return TextGenerationInferenceOutput(
            prediction=predict_result, input_tokens=tokens[0], output_tokens=tokens[1], stop_reason=reason,
            seed=self.seed, model_name=model or self.get_client_model_name(), inference_type=self._inference_type)

    @staticmethod
    def _logprob(value: Any) -> float:
        """A token log-prob: a finite number <= 0 (a probability above 1 or text is not one)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (value <= 0.0):
            raise ValueError(f"not a log-probability: {value!r}")
        return float(value)

    @classmethod
    def chat_logprobs(cls, choice: Dict[str, Any]) -> List[Dict[str, Any]]:
        content = (choice.get("logprobs") or {}).get("content") or []
        return [{"text": str(token["token"]), "logprob": cls._logprob(token["logprob"]),
                 "top_tokens": [{"text": str(top["token"]), "logprob": cls._logprob(top["logprob"])}
                                for top in token.get("top_logprobs") or []]} for token in content]

    @classmethod
    def completion_logprobs(cls, choice: Dict[str, Any]) -> List[Dict[str, Any]]:
        logprobs = choice.get("logprobs") or {}
        tops = logprobs.get("top_logprobs") or [None] * len(logprobs.get("tokens") or [])
        return [{"text": str(token), "logprob": cls._logprob(value) if value is not None else None,
                 "top_tokens": [{"text": str(t), "logprob": cls._logprob(v)} for t, v in (top or {}).items()]}
                for token, value, top in zip(logprobs.get("tokens") or [], logprobs.get("token_logprobs") or [], tops)]

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        if self.batch_mode():
            from .batch import run_batches

            return run_batches(self, inputs, rows)
        return self.run_requests(lambda item: self.send(item), inputs, "generation")

    def _infer_log_probs(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]
                         ) -> List[TextGenerationInferenceOutput]:
        if self.batch_mode():
            from .batch import run_batches

            return run_batches(self, inputs, rows, log_probs=True)
        return self.run_requests(lambda item: self.send(item, log_probs=True), inputs, "log-probs")

    # ------------------------------------------------------------------ option scoring (completions with echo)
    def option_log_prob(self, context: str, option: str) -> float:
        """Sum of the log-probs of `option`'s tokens after `context` (a completions request with echo, 0 new tokens).
        A server that returns no prompt log-probs (OpenAI's own API) is an error, never a silent first option."""
        prompt = context + option
        body = {"model": self.get_client_model_name(), "prompt": prompt, "echo": True, "max_tokens": 0, "logprobs": 0}
        answer = with_retries(lambda: self.post(self.completions_path(), body), self.max_retries,
                              self.retry_base_delay, self.retry_max_delay, label=type(self).__name__)
        choices = answer.get("choices")
        logprobs = choices[0].get("logprobs") if isinstance(choices, list) and choices and \
            isinstance(choices[0], dict) else None
        offsets = logprobs.get("text_offset") if isinstance(logprobs, dict) else None
        values = logprobs.get("token_logprobs") if isinstance(logprobs, dict) else None
        if not isinstance(offsets, list) or not isinstance(values, list) or not offsets:
            raise InferenceError(f"{type(self).__name__}: the server returned no prompt log-probs (completions with "
                                 f"echo=True and logprobs), so options can not be scored; use a server that does "
                                 f"(e.g. vLLM). Answer: {str(answer)[:200]}", artifact=self.artifact_name)
        total = 0.0
        for offset, value in zip(offsets, values):
            if isinstance(offset, int) and offset >= len(context) and value is not None:
                try:
                    total += self._logprob(value)
                except ValueError as error:
                    raise InferenceError(f"{type(self).__name__}: {error} in the prompt log-probs.",
                                         artifact=self.artifact_name) from None
        return total


def _local_data() -> List[str]:
    return ["public", "proprietary"]


def enterprise_data() -> List[str]:
    """The policy of engines on an organisation's own hosted service (IBM RITS, watsonx.ai): public and proprietary
    rows, the original's default for them."""
    return ["public", "proprietary"]


def local_host(url: str) -> bool:
    """Whether a URL's host is loopback, private or link-local ("localhost" or an IP literal; a name is remote)."""
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def tool_call_text(message: Dict[str, Any]) -> Optional[str]:
    """The first tool call of a chat answer as the original writes it: {"name": <name>, "arguments": <arguments>}."""
    calls = message.get("tool_calls")
    function = calls[0].get("function") if isinstance(calls, list) and calls and isinstance(calls[0], dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    arguments = function.get("arguments")
    arguments = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return f'{{"name": "{function["name"]}", "arguments": {arguments}}}'


class ResponseView(dict):
    """A decoded JSON answer readable by attributes too (response.choices[0].message.content), as the OpenAI client's
    response objects are, for hooks written against them."""

    def __getattr__(self, name: str) -> Any:
        try:
            return _view(self[name])
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: Any) -> Any:
        return _view(dict.__getitem__(self, name))

    def get(self, name: Any, default: Any = None) -> Any:
        return self[name] if name in self else default

    def model_dump(self) -> Dict[str, Any]:
        return dict(self)


def _view(value: Any) -> Any:
    if isinstance(value, dict) and not isinstance(value, ResponseView):
        return ResponseView(value)
    if isinstance(value, list):
        return [_view(item) for item in value]
    return value


def _client_settings(client: Any) -> tuple:
    """What an HTTP client sends where (two clients of equal settings are interchangeable; any other client is
    never taken for the kept one)."""
    if not all(hasattr(client, name) for name in ("scheme", "host", "port", "prefix", "query", "headers", "timeout")):
        return (id(client),)
    return (client.scheme, client.host, client.port, client.prefix, client.query, sorted(client.headers.items()),
            client.timeout)
