"""new_random_generator draws the original unitxt's numbers for the same global seed and sub_seed."""

import pytest

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


def test_reseeded_draws_equal_a_new_generator_per_sub_seed():
    """OriginalDraws (one generator re-seeded per instance, the demo sampler's path) draws what
    new_random_generator({**fields}) draws, with and without a local seed, under other global seeds too."""
    import random

    from unitxt.random_utils import OriginalDraws

    rows = [{"text": f"row {i}", "n": i, "tags": ["a", str(i)]} for i in range(40)] + [{}, {"local_seed": 3}]
    for seed in (42, 7, 123456):
        with settings.context(seed=seed):
            draws = OriginalDraws()
            for fields in rows:
                for local in (None, 0, 11):
                    expected = new_random_generator({**fields} if local is None else {**fields, "local_seed": local})
                    got = draws.for_fields(fields, local)
                    assert type(got) is random.Random
                    assert [got.random() for _ in range(3)] == [expected.random() for _ in range(3)], (seed, fields)
    assert OriginalDraws().for_fields({"x": 1}).random() == new_random_generator({"x": 1}).random()


def test_one_call_sample_equals_a_new_generators_sample():
    """OriginalDraws.sample (the columnar renderer's demo draw) returns what new_random_generator({**fields}).sample
    returns, on its inlined branch (up to 5 from more than 21) and the others, with and without a local seed, and
    refuses a sample larger than the population as random.sample does."""
    from unitxt.random_utils import OriginalDraws

    rows = [{"premise": f"row {i}", "n": i, "classes": ["yes", "no"]} for i in range(30)] + [{}]
    checked = 0
    for seed in (42, 5):
        with settings.context(seed=seed):
            draws = OriginalDraws()
            for fields in rows:
                for local in (None, 3):
                    for n, k in ((100, 5), (100, 1), (22, 5), (100, 0), (21, 5), (100, 6), (40, 40), (3, 2)):
                        population = range(n) if k % 2 else [f"d{i}" for i in range(n)]
                        sub_seed = {**fields} if local is None else {**fields, "local_seed": local}
                        expected = new_random_generator(sub_seed).sample(population, k)
                        assert draws.sample(fields, population, k, local) == expected, (seed, fields, local, n, k)
                        checked += 1
    assert checked == 2 * 31 * 2 * 8
    with pytest.raises(ValueError, match="larger than population"):
        OriginalDraws().sample({"a": 1}, range(3), 4)


def test_inlined_sample_equals_random_sample():
    """sample_like_random gives random.Random.sample's items and order, on both of its branches (a list for
    populations up to its set size, a set of picks beyond), for ranges and lists, and draws the same words."""
    import random

    from unitxt.random_utils import sample_like_random

    checked = 0
    for n in (1, 2, 5, 20, 21, 22, 30, 37, 38, 60, 100, 101, 500, 2000):
        # 16 / 17 / 40 picks from 100+: the set branch keeps its picks in a list up to 16, in a set beyond
        for k in sorted({0, 1, 2, 5, 6, 7, 16, 17, 40, n // 2, n - 1, n} & set(range(n + 1))):
            for seed in range(25):
                population = range(n) if seed % 2 else [f"item{i}" for i in range(n)]
                mine, reference = random.Random(f"s{seed}/{n}/{k}"), random.Random(f"s{seed}/{n}/{k}")
                assert sample_like_random(mine, population, k) == reference.sample(population, k), (n, k, seed)
                assert mine.random() == reference.random()  # the generators are left in the same state
                checked += 1
    assert checked > 2000
    with pytest.raises(ValueError, match="larger than population"):
        sample_like_random(random.Random(1), range(3), 4)
