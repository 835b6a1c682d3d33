"""GeneratorStream's `caching` and `copying` options (the original's constructor keywords)."""

import itertools

from unitxt.stream import DynamicStream, GeneratorStream


def _counting_generator():
    counter = itertools.count()

    def generate():
        yield {"pass": next(counter), "tags": []}

    return generate


def test_without_caching_every_pass_runs_the_generator_again():
    stream = GeneratorStream(_counting_generator())
    assert [row["pass"] for row in stream] == [0]
    assert [row["pass"] for row in stream] == [1]


def test_with_caching_later_passes_replay_the_first():
    stream = GeneratorStream(_counting_generator(), caching=True)
    assert list(stream) == list(stream) == [{"pass": 0, "tags": []}]


def test_copying_protects_the_cached_rows_from_changes_downstream():
    stream = GeneratorStream(_counting_generator(), caching=True, copying=True)
    next(iter(stream))["tags"].append("changed")
    assert next(iter(stream))["tags"] == []
    assert isinstance(DynamicStream(_counting_generator()), GeneratorStream)
