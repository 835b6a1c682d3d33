"""Inspect AI itself: imported on first use, with the install hint when it is missing."""

from typing import Any

from ..errors import MissingRequirementError

INSTALL_HINT = "pip install 'unitxt[inspect]'"


def require_inspect() -> Any:
    """The `inspect_ai` module, or a MissingRequirementError saying how to install it."""
    try:
        import inspect_ai
    except ImportError as error:
        raise MissingRequirementError(f"Running a unitxt recipe as an Inspect task needs Inspect AI, which is not "
                                      f"installed ({error}). Install it with: {INSTALL_HINT}") from None
    return inspect_ai
