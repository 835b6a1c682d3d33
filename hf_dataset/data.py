"""unitxt/data: any unitxt recipe as a Hugging Face dataset; the config name is the recipe string."""
from .unitxt_vendored import unitxt

UnitxtDatasetBuilder = unitxt.dataset_builder.UnitxtDatasetBuilder


class Data(UnitxtDatasetBuilder):
    """Model-ready rows (source, target, references, metrics, ...) of the recipe given as the config name."""
