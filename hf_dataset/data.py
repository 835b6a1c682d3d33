"""unitxt/data: any unitxt recipe as a Hugging Face dataset; the config name is the recipe string."""
import importlib

from .unitxt_vendored import unitxt  # noqa: F401 - installs the embedded unitxt and its catalog

UnitxtDatasetBuilder = importlib.import_module("unitxt.rendering.dataset_builder").UnitxtDatasetBuilder


class Data(UnitxtDatasetBuilder):
    """Model-ready rows (source, target, references, metrics, ...) of the recipe given as the config name."""
