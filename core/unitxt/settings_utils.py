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
    # the original's defaults per metric family (metrics/intervals.py), capped by default_n_resamples
    "num_resamples_for_instance_metrics": 1000,
    "num_resamples_for_global_metrics": 100,
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
