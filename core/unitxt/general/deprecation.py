"""Marking functions and classes as deprecated from a given version (the original's `unitxt.deprecation_utils`):
before that version a call warns (DeprecationWarning), from it on a call raises DeprecationError."""

import functools
import warnings
from typing import Any, Callable, Optional

from ..errors import UnitxtWarning
from ..settings_utils import get_constants, get_settings

constants = get_constants()  # read at call time (tests may patch this module's `constants`)
settings = get_settings()


class DeprecationError(Exception):
    """A deprecated function or class was used in a version that no longer supports it."""


def compare_versions(version1: str, version2: str) -> int:
    """-1, 0 or 1 as dotted version `version1` is lower than, equal to or higher than `version2` (missing parts count
    as 0, so "1.0" equals "1.0.0")."""
    left = [int(part) for part in str(version1).split(".")]
    right = [int(part) for part in str(version2).split(".")]
    width = max(len(left), len(right))
    left += [0] * (width - len(left))
    right += [0] * (width - len(right))
    return (left > right) - (left < right)


def depraction_wrapper(obj: Callable, version: str, alt_text: str) -> Callable:  # the original's spelling
    """`obj` wrapped so each call warns while the library is older than `version`, and raises from it on."""

    @functools.wraps(obj)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if compare_versions(constants.version, version) < 0:
            if settings.default_verbosity in ("debug", "info", "warning"):
                warnings.warn(f"{obj.__name__} is deprecated.{alt_text}", DeprecationWarning, stacklevel=2)
        else:
            raise DeprecationError(f"{obj.__name__} is no longer supported.{alt_text}")
        return obj(*args, **kwargs)

    return wrapper


def deprecation(version: str, alternative: Optional[str] = None, msg: Optional[str] = None) -> Callable:
    """Decorator: the function or class is deprecated from `version`, optionally naming its `alternative`."""

    def decorator(obj: Any) -> Callable:
        alt_text = (f" Use {alternative} instead." if alternative is not None else "") + (msg or "")
        if not callable(obj):
            raise ValueError(f"deprecation() decorates functions and classes, got {type(obj).__name__}.")
        return depraction_wrapper(obj, version, alt_text)

    return decorator


def init_warning(msg: str = "") -> Callable:
    """Class decorator logging a warning (once, when the class is defined)."""

    def decorator(initiated_class: type) -> type:
        UnitxtWarning(msg)
        return initiated_class

    return decorator


def warn_on_call(warning_type: type = UserWarning, msg: str = "") -> Callable:
    """Decorator issuing `warning_type` with `msg` each time the function is called or the class instantiated."""

    def decorator(obj: Any) -> Any:
        if isinstance(obj, type):
            original_init = obj.__init__

            @functools.wraps(original_init)
            def new_init(self: Any, *args: Any, **kwargs: Any) -> None:
                warnings.warn(msg, warning_type, stacklevel=2)
                original_init(self, *args, **kwargs)

            obj.__init__ = new_init
            return obj

        @functools.wraps(obj)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            warnings.warn(msg, warning_type, stacklevel=2)
            return obj(*args, **kwargs)

        return wrapper

    return decorator
