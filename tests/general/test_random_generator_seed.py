"""new_random_generator draws the original unitxt's numbers for the same global seed and sub_seed."""

from unitxt.random_utils import new_random_generator
from unitxt.settings_utils import settings


def test_same_first_draws_as_the_original():
    # values observed with unitxt 1.26.10 (global seed 42)
    assert new_random_generator("").random() == 0.5629132403167286
    assert new_random_generator("abc").random() == 0.19406768379790074
    assert new_random_generator(5).random() == 0.49888832763635016


def test_the_global_seed_changes_the_draws():
    first = new_random_generator("q").random()
    with settings.context(seed=7):
        assert new_random_generator("q").random() != first
    assert new_random_generator(("a", 1)).random() == new_random_generator(("a", 1)).random()
