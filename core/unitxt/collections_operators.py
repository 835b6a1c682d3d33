"""The documented import location `unitxt.collections_operators` of the list-field operators (Explode, Wrap)."""

from .operators import Explode, Wrap

__all__ = ["Explode", "Wrap"]
