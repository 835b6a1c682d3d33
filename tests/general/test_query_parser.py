import json
import string

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from unitxt.artifact import Artifact
from unitxt.errors import OverrideSyntaxError
from unitxt.query_parser import format_value, parse_artifact_query, parse_assignments, plain
from unitxt.operators import Set


def test_documented_override_forms():
    assert parse_artifact_query("artifact_name[key_to_modify=new_value]") == (
        "artifact_name",
        {"key_to_modify": "new_value"},
    )
    name, overrides = parse_artifact_query("tasks.my_task[metrics=[metrics.accuracy, metrics.f1[reduction=median]]]")
    assert name == "tasks.my_task"
    assert overrides == {"metrics": ["metrics.accuracy", "metrics.f1[reduction=median]"]}
    assert plain(parse_assignments("k={new_key_0=new_value_0,new_key_1=1}")) == {
        "k": {"new_key_0": "new_value_0", "new_key_1": 1}
    }


def test_recipe_string():
    parsed = plain(parse_assignments(
        "card=cards.wnli,template=[templates.a,templates.b[x=1]],num_demos=[0,1,3],demos_pool_size=100"
    ))
    assert parsed == {
        "card": "cards.wnli",
        "template": ["templates.a", "templates.b[x=1]"],
        "num_demos": [0, 1, 3],
        "demos_pool_size": 100,
    }


def test_scalar_guessing_and_quotes():
    parsed = plain(parse_assignments("a=1,b=0.5,c=true,d=None,e='1',f=\"x, y\",g=text with spaces"))
    assert parsed == {"a": 1, "b": 0.5, "c": True, "d": None, "e": "1", "f": "x, y", "g": "text with spaces"}


@pytest.mark.parametrize(
    "text",
    [
        "card=cards.x[",  # unbalanced
        "card=[a,b",
        "card=cards.x]",
        "card",
        "=x",
        "a=1,,b=2",
        "a=1,a=2",
        "a={b=1",
        "a='unterminated",
        "a==1",
        "1a=2",
        "a=[1,2]]",
    ],
)
def test_malformed_assignments(text):
    with pytest.raises(OverrideSyntaxError):
        parse_assignments(text)


@pytest.mark.parametrize(
    "text",
    ["name[", "name[a=1", "name[a=1]]", "name[a]", "name]x", "../x[a=1]", "a/b", "name[a=1]tail", "name[=1]"],
)
def test_malformed_queries(text):
    with pytest.raises(OverrideSyntaxError):
        parse_artifact_query(text)


keys = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=8).filter(lambda k: k[0] != "_")
scalars = st.one_of(
    st.integers(min_value=-10**6, max_value=10**6),
    st.booleans(),
    st.text(alphabet=string.ascii_letters + string.digits + " .,-_[]{}='\"\\", min_size=1, max_size=12),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(keys, children, max_size=3),
    ),
    max_leaves=8,
)


def _quoted(value):
    """The form format_value produces for strings: always quoted, so the round trip keeps them strings."""
    if isinstance(value, list):
        return "[" + ",".join(_quoted(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}={_quoted(item)}" for key, item in value.items()) + "}"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return str(value)


@hsettings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, values, min_size=1, max_size=4))
def test_property_assignments_round_trip(mapping):
    text = ",".join(f"{key}={_quoted(value)}" for key, value in mapping.items())
    assert plain(parse_assignments(text)) == mapping


@hsettings(max_examples=200, deadline=None)
@given(st.dictionaries(keys, values, min_size=1, max_size=4))
def test_property_format_value_round_trip(mapping):
    text = ",".join(f"{key}={format_value(value)}" for key, value in mapping.items())
    assert plain(parse_assignments(text)) == mapping


@hsettings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_property_parser_never_crashes_unexpectedly(text):
    try:
        parse_assignments(text)
    except OverrideSyntaxError:
        pass


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()),
    lambda children: st.one_of(st.lists(children, max_size=3), st.dictionaries(st.text(max_size=5), children, max_size=3)),
    max_leaves=10,
)


@hsettings(max_examples=200, deadline=None)
@given(st.dictionaries(keys, json_values, min_size=1, max_size=4))
def test_property_json_round_trip_of_artifacts(fields):
    artifact = Set(fields=fields)
    text = json.dumps(artifact.to_dict())
    again = Artifact.from_dict(json.loads(text))
    assert again == artifact
    assert again.fields == fields
