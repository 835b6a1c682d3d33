"""The unitxt logger: one named logger, verbosity from `UNITXT_DEFAULT_VERBOSITY`."""

import logging
from typing import Optional

from .settings_utils import settings

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "warn": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}
_configured = False


def get_logger(name: Optional[str] = None) -> logging.Logger:
    """Return the unitxt logger (or its child `name`), configured once with the verbosity from settings."""
    global _configured
    name = name or "unitxt"
    logger = logging.getLogger("unitxt" if name == "unitxt" else f"unitxt.{name}")
    if not _configured:
        root = logging.getLogger("unitxt")
        level = _LEVELS.get(str(settings.default_verbosity).lower(), logging.INFO)
        root.setLevel(level)
        if not root.handlers:
            handler = logging.StreamHandler()
            handler.setFormatter(logging.Formatter("%(levelname)s (unitxt) %(message)s"))
            root.addHandler(handler)
        _configured = True
    return logger


def set_verbosity(level: str) -> None:
    """Change the unitxt logger level ('debug', 'info', 'warning', 'error')."""
    get_logger().setLevel(_LEVELS[level.lower()])


def enable_explicit_format() -> None:
    """Switch the unitxt handlers to a detailed layout (level, source file and line, time) — for debugging and tests."""
    get_logger()
    for handler in logging.getLogger("unitxt").handlers:
        handler.setFormatter(logging.Formatter(
            "[Unitxt|%(levelname)s|%(filename)s:%(lineno)s] %(asctime)s >> %(message)s"))
