"""Recipe construction checks as in the original: no limit above loader_limit, its deprecated class names."""

import pytest

from unitxt.standard import DatasetRecipe, StandardRecipe, StandardRecipeWithIndexes


@pytest.mark.parametrize("field", ["max_test_instances", "max_validation_instances", "max_train_instances"])
def test_a_split_limit_above_loader_limit_is_refused(field):
    with pytest.raises(ValueError, match=f"{field} should not exceed loader_limit \\(4\\)"):
        DatasetRecipe(card="cards.demo.sentiment", template_card_index=0, loader_limit=4, **{field: 6})


def test_a_demo_pool_above_loader_limit_is_refused_and_equal_limits_pass():
    with pytest.raises(ValueError, match="demos_pool_size should not exceed loader_limit"):
        DatasetRecipe(card="cards.demo.sentiment", template_card_index=0, loader_limit=4, num_demos=1,
                      demos_pool_size=5)
    recipe = DatasetRecipe(card="cards.demo.sentiment", template_card_index=0, loader_limit=4, max_test_instances=4)
    assert recipe.loader_limit == 4


def test_deprecated_recipe_names_are_dataset_recipe():
    assert StandardRecipe is DatasetRecipe and StandardRecipeWithIndexes is DatasetRecipe
