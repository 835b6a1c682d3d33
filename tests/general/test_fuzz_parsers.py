"""Fuzzing the recipe/override parsers and the catalog loader: every input ends in a result or a UnitxtError, never
another exception (issue "Hardening"). Seeded and small in CI; UNITXT_FUZZ_EXAMPLES=100000 for a nightly-sized run."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unitxt.catalog import fetch_artifact, get_from_catalog
from unitxt.errors import UnitxtError
from unitxt.query_parser import parse_artifact_query, parse_assignments

EXAMPLES = int(os.environ.get("UNITXT_FUZZ_EXAMPLES", "1500"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

SYNTAX = "=,[]{}'\"\\ .:_-"
query_text = st.one_of(
    st.text(alphabet=st.sampled_from(list(SYNTAX + "abcxyz019") + ["\n", "\t", "é", "\ud800", "\x00"]), max_size=60),
    st.text(max_size=40),
    st.builds(lambda depth, tail: "a=" + "[" * depth + tail + "]" * depth, st.integers(0, 1200), st.text(max_size=5)),
)


def outcome(function, *args):
    try:
        function(*args)
    except UnitxtError:
        pass


@FUZZ
@given(query_text)
def test_assignment_parser_never_raises_anything_but_unitxt_errors(text):
    outcome(parse_assignments, text)


@FUZZ
@given(query_text)
def test_artifact_query_parser_never_raises_anything_but_unitxt_errors(text):
    outcome(parse_artifact_query, text)


@FUZZ
@given(st.sampled_from(["metrics.accuracy", "templates.key_val", "processors.lower_case", "cards.demo.sentiment"]),
       query_text)
def test_catalog_queries_with_overrides_never_raise_anything_but_unitxt_errors(name, overrides):
    outcome(fetch_artifact, f"{name}[{overrides}]")
    outcome(fetch_artifact, overrides)


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
              st.sampled_from(["accuracy", "artifact_link", "sequential_operator", "loader", "os.system",
                               "input_output_template", "metrics.accuracy", "__type__"])),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(["__type__", "to", "steps", "input_format",
                                                                "output_format", "main_score", "x"]) | st.text(max_size=8),
                                               children, max_size=4)),
    max_leaves=25,
)
catalog_bytes = st.one_of(
    json_values.map(lambda value: json.dumps(value).encode("utf-8")),
    st.binary(max_size=80),
    st.builds(lambda depth: ('{"__type__": "sequential_operator", "steps": [' * depth + "{}" + "]}" * depth).encode(),
              st.integers(0, 700)),
)


@pytest.fixture(scope="module")
def fuzz_catalog(tmp_path_factory):
    from unitxt.catalog import register_local_catalog

    path = tmp_path_factory.mktemp("fuzz_catalog")
    register_local_catalog(str(path))
    return path


@settings(FUZZ, max_examples=max(1, EXAMPLES // 2))  # each example writes, parses and builds an entry
@given(content=catalog_bytes)
def test_catalog_loader_never_raises_anything_but_unitxt_errors(content, fuzz_catalog, monkeypatch):
    from unitxt import catalog_store
    from unitxt.catalog import LocalCatalog

    only_the_fuzz_catalog = LocalCatalog(str(fuzz_catalog))
    monkeypatch.setattr(catalog_store, "get_catalogs", lambda: [only_the_fuzz_catalog])
    (fuzz_catalog / "fuzzed.json").write_bytes(content)
    assert "fuzzed" in only_the_fuzz_catalog  # the fuzzed entry is what gets loaded, not an unknown-name error
    outcome(get_from_catalog, "fuzzed")
