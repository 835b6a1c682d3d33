"""Global settings: every setting is readable from the environment as `UNITXT_<NAME>` and scoped with `context()`."""

import contextlib
import json
import os
from typing import Any, Dict, Iterator

_DEFAULTS: Dict[str, Any] = {
    "default_verbosity": "info",
    "catalogs": None,
    "seed": 42,
    "data_classification_policy": None,
    "default_n_resamples": 1000,
    "confidence_level": 0.95,
    "max_log_message_size": 100_000,
    "allow_unverified_code": False,
    "disable_hf_datasets_cache": True,
    "mock_inference_mode": False,
    "default_provider": "watsonx",
    "inference_cache_dir": None,
    "inference_engine": None,
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


class Settings:
    """Attribute-style settings; explicit assignments win over `UNITXT_<NAME>` which wins over defaults."""

    def __init__(self) -> None:
        object.__setattr__(self, "_overrides", {})

    def __getattr__(self, name: str) -> Any:
        overrides = object.__getattribute__(self, "_overrides")
        if name in overrides:
            return overrides[name]
        default = _DEFAULTS.get(name)
        env_value = os.environ.get(f"UNITXT_{name.upper()}")
        if env_value is not None:
            return _coerce(env_value, default)
        if name in _DEFAULTS:
            return default
        raise AttributeError(f"unitxt has no setting '{name}'. Known settings: {sorted(_DEFAULTS)}")

    def __setattr__(self, name: str, value: Any) -> None:
        self._overrides[name] = value

    def __delattr__(self, name: str) -> None:
        self._overrides.pop(name, None)

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
