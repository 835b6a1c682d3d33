"""The unitxt logger: one named logger, verbosity from `UNITXT_DEFAULT_VERBOSITY`."""

import logging
from typing import Optional

from .settings_utils import settings
from .module_aliases import moved_classes

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "warn": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}
_configured = False


class SizeLimitedFormatter(logging.Formatter):
    """Cuts a formatted log message to settings.max_log_message_size characters, saying so and how to change it (one
    huge instance printed in a warning would flood the console)."""

    def format(self, record: logging.LogRecord) -> str:
        message = super().format(record)
        limit = int(settings.max_log_message_size)
        if len(message) <= limit:
            return message
        return (message[:limit] + f"...\n(message cut at {limit} characters; raise the limit with "
                "unitxt.settings.max_log_message_size or the UNITXT_MAX_LOG_MESSAGE_SIZE environment variable)")


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
            handler.setFormatter(SizeLimitedFormatter("%(levelname)s (unitxt) %(message)s"))
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
        handler.setFormatter(SizeLimitedFormatter(
            "[Unitxt|%(levelname)s|%(filename)s:%(lineno)s] %(asctime)s >> %(message)s"))


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
