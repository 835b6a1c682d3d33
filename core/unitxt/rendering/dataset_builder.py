"""The `datasets` builder of unitxt recipes.

Shared by the Hub script (`unitxt/data`) and `load_dataset`.
Its workings are in recipe_builder.py: `datasets` reads
the file defining a builder's class whenever one is made
(a regular-expression scan of every line), so this file
stays this short - a long one took ~6 ms of each load.
"""

from ..module_aliases import moved_classes
from .recipe_builder import (  # noqa: F401 - served here
    UNITXT_DATASET_SCHEMA,
    UNITXT_METRIC_SCHEMA,
    RecipeArrowBuilder,
    UnitxtConfig,
    cache_safe_id,
)
from .row_arrow import (  # noqa: F401 - served here
    _inferred_table,
    _stored_media,
    _unified,
    content_part_features,
    image_storage,
    row_features,
    source_text,
    source_texts,
    stored_row_features,
    string_list,
)


class UnitxtDatasetBuilder(RecipeArrowBuilder):
    """A recipe's rows (config name: the recipe)."""


Dataset = UnitxtDatasetBuilder  # the original's name

# the names the original imported here
__getattr__ = moved_classes(__name__)
