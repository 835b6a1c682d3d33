"""`LoadFromSklearn` with a split scikit-learn does not have: a LoaderError naming the subset and the valid ones
(not scikit-learn's raw parameter error), checked before anything is fetched."""

import pytest

from unitxt.errors import UnitxtError
from unitxt.loaders.other_sources import LoadFromSklearn


def test_a_bad_subset_names_the_valid_ones():
    loader = LoadFromSklearn(dataset_name="20newsgroups", splits=["validation"])
    with pytest.raises(UnitxtError, match=r"fetch_20newsgroups has no subset 'validation' \(a name of `splits`\); "
                                          r"its subsets are 'all', 'test', 'train'"):
        list(loader()["validation"])


def test_a_dataset_without_subsets_is_explained():
    loader = LoadFromSklearn(dataset_name="california_housing", splits=["train"])
    with pytest.raises(UnitxtError, match=r"fetch_california_housing has no subsets \(it takes no 'subset'\), so "
                                          r"split 'train'"):
        list(loader()["train"])
