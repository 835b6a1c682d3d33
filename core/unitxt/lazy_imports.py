"""Deferred imports of heavy optional-at-import-time libraries, so `import unitxt` stays fast."""

from typing import Any


def numpy_module() -> Any:
    """The numpy module, imported on first use (metric modules call this instead of importing numpy at load)."""
    import numpy

    return numpy
