"""The documented import location `unitxt.standard` of DatasetRecipe (and its legacy name StandardRecipe)."""

from .recipe import DatasetRecipe, StandardRecipe

__all__ = ["DatasetRecipe", "StandardRecipe"]
