"""The original's general helpers (`unitxt.utils`): copies, JSON files, flattening, retries with backoff, a small LRU
cache, a singleton metaclass and package checks. Written from their documented behaviour."""

import copy
import functools
import importlib.metadata
import importlib.util
import json
import os
import random
import re
import time
import urllib.error
from collections import OrderedDict
from contextvars import ContextVar
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..settings_utils import settings
from .requirements import DistributionNotFound, DistStub, VersionConflict, require  # noqa: F401 - unitxt.utils names
from ..module_aliases import moved_classes

RETRIED_ERRORS: Tuple[type, ...] = (ConnectionError, TimeoutError, FileNotFoundError, urllib.error.HTTPError)
try:  # requests comes with datasets/huggingface_hub; its network errors are retried too (as in the original)
    import requests.exceptions as _requests_errors

    RETRIED_ERRORS = (_requests_errors.ConnectionError, _requests_errors.Timeout, _requests_errors.HTTPError,
                      *RETRIED_ERRORS)
except ImportError:  # pragma: no cover - requests is always installed with datasets
    pass


def _caused_by(error: BaseException, kinds: Tuple[type, ...]) -> bool:
    """Whether the error, or an error in its cause/context chain, is one of `kinds`."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, kinds):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def retry_connection_with_exponential_backoff(max_retries: Optional[int] = None,
                                              retry_exceptions: Tuple[type, ...] = RETRIED_ERRORS,
                                              backoff_factor: float = 1) -> Callable:
    """Decorator: rerun a network call that failed with one of `retry_exceptions` (directly or as a cause), waiting
    backoff_factor * 2**attempt seconds (plus jitter) between attempts; `max_retries` defaults to the setting
    `max_connection_retries` (3, as in the original). The last failure propagates."""

    def decorator(function: Callable) -> Callable:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            attempts = max_retries if max_retries is not None else int(getattr(settings, "max_connection_retries", 3))
            for attempt in range(max(1, attempts)):
                try:
                    return function(*args, **kwargs)
                except Exception as error:
                    if attempt + 1 >= attempts or not _caused_by(error, retry_exceptions):
                        raise
                    time.sleep(backoff_factor * (2 ** attempt) + random.uniform(0, 1))
            return None

        return wrapper

    return decorator


def flatten_dict(d: Dict[str, Any], parent_key: str = "", sep: str = "_") -> Dict[str, Any]:
    """Nested dicts as one level, keys joined with `sep`: {"a": {"b": 1}} -> {"a_b": 1}."""
    flat: Dict[str, Any] = {}
    for key, value in d.items():
        name = f"{parent_key}{sep}{key}" if parent_key else key
        if isinstance(value, dict):
            flat.update(flatten_dict(value, name, sep=sep))
        else:
            flat[name] = value
    return flat


def json_dump(data: Any) -> str:
    """JSON text indented by 4 spaces, non-ASCII kept."""
    return json.dumps(data, indent=4, ensure_ascii=False)


def load_json(path: str) -> Any:
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def save_to_file(path: str, data: str) -> None:
    with open(path, "w", encoding="utf-8") as file:
        file.write(data)
        file.write("\n")


def get_all_files_in_dir(dir_path: str, recursive: bool = False, file_extension: Optional[str] = None) -> List[str]:
    """The paths of the files in a directory (and its subdirectories when `recursive`), those ending with
    `file_extension` when given; ValueError when `dir_path` is not a directory."""
    if not os.path.isdir(dir_path):
        raise ValueError(f"{dir_path} is not a directory")
    found = []
    for root, _, names in os.walk(dir_path):
        found += [os.path.join(root, name) for name in names if not file_extension or name.endswith(file_extension)]
        if not recursive:
            break
    return found


def is_module_available(module_name: str) -> bool:
    """Whether a module can be imported (without importing it)."""
    return importlib.util.find_spec(module_name) is not None


def import_module_from_file(file_path: str) -> Any:
    """Run a Python file as a module named after it and return the module (how example programs are run)."""
    import os

    name = os.path.splitext(os.path.basename(file_path))[0]
    spec = importlib.util.spec_from_file_location(name, file_path)
    if spec is None or spec.loader is None:
        raise ImportError(f"Can not import {file_path!r}: not a Python source file.")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def safe_eval(expression: str, context: Dict[str, Any], allowed_tokens: List[str]) -> Any:
    """Evaluate `expression` over the `context` variables (the original's `utils.safe_eval`): its text, numbers and
    quoted strings aside, must be made only of context names and `allowed_tokens` (else ValueError, as the original),
    and it runs in the expression sandbox (unitxt.sandbox.expressions: no attributes, imports or builtins beyond the
    whitelist; a SandboxError, a ValueError, otherwise)."""
    from ..sandbox.expressions import compile_expression
    from ..text_utils import is_made_of_sub_strings

    allowed_sub_strings = list(context.keys()) + list(allowed_tokens)
    if not is_made_of_sub_strings(remove_numerics_and_quoted_texts(expression), allowed_sub_strings):
        raise ValueError(f"The expression '{expression}' can not be evaluated because it contains tokens outside the "
                         f"allowed list of {allowed_sub_strings}.")
    return compile_expression(expression, allowed_names=context.keys()).evaluate(dict(context))


def is_package_installed(package_name: str) -> bool:
    """Whether a distribution is installed."""
    try:
        importlib.metadata.version(package_name)
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


def remove_numerics_and_quoted_texts(input_str: str) -> str:
    """The text without numbers and quoted strings (used to compare code-like text up to its literals)."""
    text = re.sub(r"\d+(\.\d+)?", "", input_str)
    text = re.sub(r'"[^"]*"', "", text)
    return re.sub(r"'[^']*'", "", text)


def deep_copy(obj: Any) -> Any:
    return copy.deepcopy(obj)


def shallow_copy(obj: Any) -> Any:
    return copy.copy(obj)


def recursive_copy(obj: Any, internal_copy: Optional[Callable[[Any], Any]] = None) -> Any:
    """Copy nested dicts, lists and tuples (new containers at every level); leaves go through `internal_copy`."""
    if isinstance(obj, dict):
        return type(obj)({key: recursive_copy(value, internal_copy) for key, value in obj.items()})
    if isinstance(obj, list):
        return type(obj)(recursive_copy(value, internal_copy) for value in obj)
    if isinstance(obj, tuple):
        items = [recursive_copy(value, internal_copy) for value in obj]
        return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
    return internal_copy(obj) if internal_copy is not None else obj


def recursive_deep_copy(obj: Any) -> Any:
    return recursive_copy(obj, deep_copy)


def recursive_shallow_copy(obj: Any) -> Any:
    return recursive_copy(obj, shallow_copy)


class LRUCache:
    """A mapping that keeps the `max_size` most recently used entries (None: all), one per thread / async context (as
    the original: what one thread caches, or clears, no other thread sees)."""

    def __init__(self, max_size: Optional[int] = 10):
        self._max_size = max_size
        self._context_items: ContextVar = ContextVar("unitxt_lru_cache", default=None)

    def _items(self) -> "OrderedDict[Any, Any]":
        items = self._context_items.get()
        if items is None:
            items = OrderedDict()
            self._context_items.set(items)
        return items

    def _trim(self, items: "OrderedDict[Any, Any]") -> None:
        while self._max_size is not None and len(items) > self._max_size:
            items.popitem(last=False)

    def __setitem__(self, key: Any, value: Any) -> None:
        items = self._items()
        items[key] = value
        items.move_to_end(key)
        self._trim(items)

    def __getitem__(self, key: Any) -> Any:
        items = self._items()
        if key not in items:
            raise KeyError(f"{key} not found in cache")
        items.move_to_end(key)
        return items[key]

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: Any) -> bool:
        return key in self._items()

    def __len__(self) -> int:
        return len(self._items())

    def clear(self) -> None:
        self._items().clear()

    def __repr__(self) -> str:
        return f"LRUCache(max_size={self._max_size}, items={list(self._items().items())})"

    @property
    def max_size(self) -> Optional[int]:
        return self._max_size

    @max_size.setter
    def max_size(self, value: Optional[int]) -> None:
        self._max_size = value
        self._trim(self._items())


def lru_cache_decorator(max_size: Optional[int] = 128) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Memoise a function in an LRUCache of `max_size` entries (None: unbounded), keyed by its positional and keyword
    arguments; the wrapper's `cache_clear()` empties it."""

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        cache = LRUCache(max_size=max_size)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = args + tuple(sorted(kwargs.items())) if kwargs else args
            if key in cache:
                return cache[key]
            result = cache[key] = func(*args, **kwargs)
            return result

        wrapper.cache_clear = cache.clear
        return wrapper

    return decorator


@lru_cache_decorator(max_size=None)
def artifacts_json_cache(artifact_path: str) -> Any:
    """The parsed JSON of an artifact file, read once per path (until `artifacts_json_cache.cache_clear()`)."""
    return load_json(artifact_path)


class Singleton(type):
    """Metaclass: every call of the class gives the same instance."""

    _instances: Dict[type, Any] = {}

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls not in Singleton._instances:
            Singleton._instances[cls] = super().__call__(*args, **kwargs)
        return Singleton._instances[cls]


class LongString(str):
    """A string whose repr is cut to `repr_len` characters (for long prompts in logs)."""

    def __new__(cls, value: str, *, repr_str: Optional[str] = None) -> "LongString":
        obj = super().__new__(cls, value)
        obj._repr_str = repr_str
        return obj

    def __repr__(self) -> str:
        return self._repr_str if self._repr_str is not None else super().__repr__()


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
