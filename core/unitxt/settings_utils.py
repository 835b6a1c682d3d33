"""Global settings: every setting is readable from the environment as `UNITXT_<NAME>` and scoped with `context()`."""

import contextlib
import json
import os
from typing import Any, Dict, Iterator, List, Optional

from .errors import UnitxtError

_DEFAULTS: Dict[str, Any] = {
    "default_verbosity": "info",
    "catalogs": None,
    "seed": 42,
    "data_classification_policy": None,
    "default_n_resamples": 1000,
    # the original's defaults per metric family (metrics/intervals.py), capped by default_n_resamples
    "num_resamples_for_instance_metrics": 1000,
    "num_resamples_for_global_metrics": 100,
    "confidence_level": 0.95,
    "max_log_message_size": 100_000,
    "allow_unverified_code": False,
    "disable_hf_datasets_cache": True,
    "dataset_cache_default": False,  # load_dataset's use_cache when not given (UNITXT_DATASET_CACHE_DEFAULT)
    "mock_inference_mode": False,
    "global_loader_limit": None,  # caps every loader's rows per split (with its own loader_limit, the smaller)
    "use_only_local_catalogs": False,  # every catalog here is local (the snapshot and registered folders)
    "loader_cache_size": 25,
    "stream_hf_datasets_by_default": False,
    "max_connection_retries": 3,  # attempts of a network call that fails (retry_connection_with_exponential_backoff)
    "default_provider": "watsonx",
    "inference_cache_dir": None,
    "inference_batch": False,  # UNITXT_INFERENCE_BATCH=1: engines with a provider batch API use it (half price)
    "inference_engine": None,
    # metrics computed by a unitxt metrics service (unitxt-metrics-service) instead of locally: a JSON list of
    # catalog names (UNITXT_REMOTE_METRICS) and the service's compute URL (UNITXT_REMOTE_METRICS_ENDPOINT,
    # e.g. http://127.0.0.1:8000/compute)
    "remote_metrics": [],
    "remote_metrics_endpoint": None,
    # the key that signs and checks the metrics service's bearer tokens (None: the service takes any token)
    "metrics_master_key_token": None,
    "metrics_service_max_request_bytes": 50_000_000,
    # the original's switches for its catalog-building scripts (UNITXT_<NAME>): test_card / test_metric return at
    # once, only local catalogs are read, and artifacts are built without their prepare/verify steps
    "test_card_disable": False,
    "test_metric_disable": False,
    "use_only_local_catalogs": False,
    "skip_artifacts_prepare_and_verify": False,
    "task_data_as_text": True,  # rows read back (schema.loads_instance) keep task_data as its JSON text
}


def _coerce(raw: str, default: Any) -> Any:
    """Turn an environment string into the type of the setting's default."""
    if isinstance(default, bool):
        return raw.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    if raw.strip().startswith(("{", "[")):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return raw


class SettingValueError(UnitxtError, ValueError):
    """A setting given a value its type can not take."""


def _cast(name: str, value: Any, kind: type) -> Any:
    """A value given for a bool/int/float setting in that type, as the original casts them ("7" -> 7, "True" ->
    True); anything else is a clear error."""
    if kind is bool:
        if value in ("True", "False", True, False):
            return value in ("True", True)
        raise SettingValueError(f"Setting '{name}' takes True or False (or 'True'/'False'), got {value!r}.",
                                field=name)
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise SettingValueError(f"Setting '{name}' takes a {kind.__name__}, got {value!r}.", field=name) from None


class Settings:
    """Attribute-style settings; `UNITXT_<NAME>` in the environment wins over assignments (and `context()`), which
    win over defaults (the original's order).

    One shared object (`Settings()` is `get_settings()`, as in the original). `settings.<name>_key` is the name of the
    setting's environment variable; bool/int/float settings cast what they are given; `settings.x = (float, "0.5")`
    declares a new setting's type. Reading a setting that is neither known nor set is an AttributeError."""

    _shared: "Settings" = None  # type: ignore[assignment]

    @classmethod
    def is_uninitilized(cls) -> bool:
        """Whether the shared object is not made yet (the original's name, spelling included)."""
        return cls._shared is None

    def __new__(cls) -> "Settings":
        if cls._shared is None:
            shared = super().__new__(cls)
            object.__setattr__(shared, "_overrides", {})
            object.__setattr__(shared, "_types", {name: type(value) for name, value in _DEFAULTS.items()
                                                  if type(value) in (bool, int, float)})
            cls._shared = shared
        return cls._shared

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name.endswith("_key"):
            return self.environment_variable_key_name(name[:-4])
        overrides = object.__getattribute__(self, "_overrides")
        default = _DEFAULTS.get(name)
        env_value = os.environ.get(f"UNITXT_{name.upper()}")
        if env_value is not None:  # the environment wins over assignments and context(), as in the original
            kind = object.__getattribute__(self, "_types").get(name)
            if kind is not None and name not in _DEFAULTS:
                return _cast(name, env_value, kind)
            return _coerce(env_value, overrides.get(name, default))
        if name in overrides:
            return overrides[name]
        if name in _DEFAULTS:
            return default
        raise AttributeError(f"unitxt has no setting '{name}'. Known settings: {sorted(_DEFAULTS)}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name.endswith("_key"):
            raise AttributeError(f"'{name}' names a setting's environment variable; it can not be set.")
        if isinstance(value, tuple) and len(value) == 2:  # (type, value) declares a typed setting (the original's form)
            if value[0] not in (int, float, bool):
                raise SettingValueError(f"Setting '{name}' with a (type, value) pair takes int, float or bool as the "
                                        f"type, got {value[0]!r}.", field=name)
            self._types[name], value = value
        if name in self._types and value is not None:
            value = _cast(name, value, self._types[name])
        self._overrides[name] = value

    def __delattr__(self, name: str) -> None:
        self._overrides.pop(name, None)

    @staticmethod
    def environment_variable_key_name(name: str) -> str:
        """The environment variable a setting is read from: UNITXT_<NAME>."""
        return "UNITXT_" + name.upper()

    def get_all_environment_variables(self) -> list:
        return [self.environment_variable_key_name(name) for name in self.keys()]

    @contextlib.contextmanager
    def context(self, **values: Any) -> Iterator["Settings"]:
        """Temporarily set settings inside a `with` block."""
        missing = object()
        previous = {key: self._overrides.get(key, missing) for key in values}
        self._overrides.update(values)
        try:
            yield self
        finally:
            for key, value in previous.items():
                if value is missing:
                    self._overrides.pop(key, None)
                else:
                    self._overrides[key] = value

    def keys(self):
        return sorted(set(_DEFAULTS) | set(self._overrides))


settings = Settings()


def get_settings() -> Settings:
    return settings


class DataClassificationSettingError(UnitxtError, RuntimeError):
    """UNITXT_DATA_CLASSIFICATION_POLICY is not a JSON object {artifact name: [classifications]} (a RuntimeError,
    as in the original)."""


def data_classification_overrides() -> Dict[str, List[str]]:
    """The per-artifact data classification policies set by UNITXT_DATA_CLASSIFICATION_POLICY ({} when unset)."""
    raw = settings.data_classification_policy
    if not raw:
        return {}
    if isinstance(raw, dict):
        parsed = raw
    else:
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
    if not isinstance(parsed, dict):
        raise DataClassificationSettingError(
            f"If specified, the value of 'UNITXT_DATA_CLASSIFICATION_POLICY' should be a valid json dictionary. "
            f"Got '{raw}' instead.")
    for name, policies in parsed.items():
        if not isinstance(policies, list) or not all(isinstance(policy, str) for policy in policies):
            raise DataClassificationSettingError(
                f"UNITXT_DATA_CLASSIFICATION_POLICY maps artifact names to lists of classification names; "
                f"'{name}' maps to {policies!r}.", field="data_classification_policy")
    return parsed


def get_artifacts_data_classification(artifact: str) -> Optional[List[str]]:
    """The data classifications UNITXT_DATA_CLASSIFICATION_POLICY allows for the artifact with this catalog name
    (None when the variable is unset or does not name it)."""
    return data_classification_overrides().get(artifact)


def cast_to_type(value: Any, value_type: type) -> Any:
    """An environment string as `value_type` (booleans from true/false/1/0, as the original's settings do)."""
    if value_type is bool:
        text = str(value).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off", ""):
            return False
        raise ValueError(f"Value must be a boolean ('true' or 'false'), got {value!r}.")
    return value_type(value)


def default_catalog_path() -> str:
    """The catalog shipped with the library: next to this module (release) or at the repository root."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "catalog_snapshot"), os.path.join(here, "..", "..", "catalog_snapshot")):
        if os.path.isdir(candidate):
            return os.path.abspath(candidate)
    return os.path.abspath(os.path.join(here, "..", "..", "catalog_snapshot"))


class Constants:
    """Fixed values of the installation (paths, Hub names, reserved stream and field names): one shared object."""

    _instance = None

    @classmethod
    def is_uninitilized(cls) -> bool:
        """Whether the shared object is not made yet (the original's name, spelling included)."""
        return cls._instance is None

    def __new__(cls) -> "Constants":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __init__(self) -> None:
        if "_constants" in self.__dict__:
            return
        from .version import version

        package_dir = os.path.dirname(os.path.abspath(__file__))
        catalog = default_catalog_path()
        values = {
            "dataset_file": os.path.join(package_dir, "rendering", "dataset_builder.py"),
            "metric_file": os.path.join(package_dir, "metrics", "base.py"),
            "local_catalog_path": catalog, "package_dir": package_dir, "default_catalog_path": catalog,
            "catalog_dir": catalog, "dataset_url": "unitxt/data", "metric_url": "unitxt/metric", "version": version,
            "python": ".".join(map(str, __import__("sys").version_info[:3])), "catalog_hierarchy_sep": ".",
            "env_local_catalogs_paths_sep": ":", "codebase_url": "https://github.com/IBM/unitxt",
            "website_url": "https://www.unitxt.org", "inference_stream": "__INFERENCE_STREAM__",
            "instance_stream": "__INSTANCE_STREAM__", "image_tag": "unitxt-img", "demos_pool_field": "_demos_pool_",
            "demos_field": "demos", "instruction_field": "instruction", "system_prompt_field": "system_prompt",
        }
        object.__setattr__(self, "_constants", values)

    def __getattr__(self, name: str) -> Any:
        values = object.__getattribute__(self, "_constants")
        if name in values:
            return values[name]
        raise AttributeError(f"unitxt has no constant '{name}'. Known constants: {sorted(values)}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._constants:
            raise AttributeError(f"Constant '{name}' is already set and can not be changed.")
        self._constants[name] = value


def get_constants() -> Constants:
    """The installation's constants (one shared object)."""
    return Constants()
