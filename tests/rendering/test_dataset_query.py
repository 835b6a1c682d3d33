"""unitxt.dataset_utils (the original's module path): recipe queries parsed, catalog artifacts fetched."""

import pytest

from unitxt.dataset_utils import fetch, get_dataset_artifact, parse
from unitxt.rendering.recipe import DatasetRecipe


def test_parse_types_values_and_takes_the_empty_query():
    assert parse("card=cards.sst2,num_demos=3,demos_pool_size=20") == {
        "card": "cards.sst2", "num_demos": 3, "demos_pool_size": 20}
    assert parse("") == {} and parse("  ") == {}
    for bad in (",", "=cards.sst2,num_demos=1", "cards.sst2,num_demos=1", "card=,num_demos=1"):
        with pytest.raises(ValueError):
            parse(bad)


def test_fetch_applies_overrides_to_a_copy():
    plain = fetch("metrics.accuracy")
    changed = fetch("metrics.accuracy", {"n_resamples": 3})
    assert changed.n_resamples == 3 and plain.n_resamples != 3


def test_get_dataset_artifact_builds_the_recipe_of_a_query():
    recipe = get_dataset_artifact("card=cards.wnli,template_card_index=0", {"num_demos": 0})
    assert isinstance(recipe, DatasetRecipe) and recipe.num_demos == 0
