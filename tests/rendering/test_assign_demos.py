"""The original's per-instance demo assignment operators: ConstantSizeSample / RandomSizeSample take the demos from
the instance's own pool field with a sampler (never the instance itself), reproducibly by the instance's seed."""

import copy

import pytest

from unitxt.splitters import ConstantSizeSample, RandomSampler, RandomSizeSample

POOL = [{"input_fields": {"x": i}, "reference_fields": {"y": i}} for i in range(8)]


def _demos(operator, x):
    instance = {"input_fields": {"x": x}, "reference_fields": {"y": x}, "pool": copy.deepcopy(POOL)}
    result = operator.process_instance(instance)
    assert "pool" not in result
    return [demo["input_fields"]["x"] for demo in result["demos"]]


def test_constant_size_sample_draws_distinct_demos_other_than_the_instance_reproducibly():
    operator = ConstantSizeSample(from_field="pool", to_field="demos", sampler=RandomSampler(), sample_size=3)
    for x in range(8):
        demos = _demos(operator, x)
        assert len(demos) == 3 == len(set(demos)) and x not in demos
        assert demos == _demos(operator, x)
    assert [_demos(operator, x) for x in range(4)] == [[3, 1, 5], [5, 6, 3], [0, 1, 5], [7, 4, 2]]  # the original's
    seeded = ConstantSizeSample(from_field="pool", to_field="demos", sampler=RandomSampler(), sample_size=3,
                                sampling_seed=7)
    assert _demos(seeded, 0) == [1, 3, 7]


def test_random_size_sample_chooses_the_size_per_instance():
    operator = RandomSizeSample(from_field="pool", to_field="demos", sampler=RandomSampler(), sample_sizes=[1, 2, 4])
    assert [len(_demos(operator, x)) for x in range(4)] == [2, 4, 1, 2]


def test_skipping_demoed_instances_and_too_small_pools():
    operator = ConstantSizeSample(from_field="pool", to_field="demos", sampler=RandomSampler(), sample_size=3,
                                  skip_demoed_instances=True)
    assert operator.process_instance({"input_fields": {"x": 1}, "demos": [], "pool": POOL}) == {
        "input_fields": {"x": 1}, "demos": []}
    with pytest.raises(Exception, match="smaller than the needed sample_size: 9"):
        ConstantSizeSample(from_field="pool", to_field="demos", sampler=RandomSampler(),
                           sample_size=9).process_instance({"input_fields": {"x": 1}, "pool": POOL})
