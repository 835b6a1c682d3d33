"""The documented import location `unitxt.collections_operators` of the list-field operators (Explode, Wrap)."""

from .operators.fields import Wrap
from .operators.streams import Explode

__all__ = ["Explode", "Wrap"]
