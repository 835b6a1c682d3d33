"""The documented import location `unitxt.image_operators` of the image operators (defined in operators/images.py)."""

from .operators.images import *  # noqa: F401,F403
