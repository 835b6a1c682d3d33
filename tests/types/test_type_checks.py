"""Type checks and type strings follow the original unitxt's rules (checked against unitxt 1.26.10)."""

import typing
from typing import Any, Dict, List, Optional, Tuple, Union

import pytest

from unitxt.type_utils import (
    UnsupportedTypeError,
    format_type_string,
    infer_type_string,
    isoftype,
    parse_type_string,
    to_type_string,
)


def test_isoftype_takes_a_list_only_where_a_list_is_wanted():
    assert isoftype(("x", 2), Tuple[str, int])
    assert not isoftype(["x", 2], Tuple[str, int])
    assert not isoftype({"k": ["x"]}, Dict[str, Tuple[str]])
    assert isoftype([("x", 2)], List[Tuple[str, int]])


@pytest.mark.parametrize("not_a_type", ["int", (int, str), None, typing.List, typing.Dict, Tuple[int, ...]])
def test_isoftype_refuses_what_is_not_a_type(not_a_type):
    with pytest.raises(UnsupportedTypeError):
        isoftype(1, not_a_type)


def test_bar_spelling_and_typing_prefix_parse():
    assert parse_type_string("int|str") == Union[int, str]
    assert parse_type_string("List[ float | int ]") == List[Union[float, int]]
    assert parse_type_string("typing.Dict[str, typing.List[int]]") == Dict[str, List[int]]
    assert parse_type_string("Optional[bool|str]") == Optional[Union[bool, str]]
    assert format_type_string("typing.dict[str, list[int|float]]") == "Dict[str,List[Union[int,float]]]"
    assert format_type_string("tuple[str|list[bool]]|None") == "Union[Tuple[Union[str,List[bool]]],None]"


def test_set_and_unregistered_classes_are_not_type_strings():
    for text in ("Set[int]", "set[str]", "Mapping[str,int]"):
        with pytest.raises(ValueError):
            parse_type_string(text)
    with pytest.raises(ValueError):
        to_type_string(object)
    with pytest.raises(ValueError):
        to_type_string(typing.Dict)


def test_an_empty_container_takes_its_typed_siblings_type():
    assert infer_type_string([[], ["a"]]) == "List[List[str]]"
    assert infer_type_string([[], ["a"], [2.5]]) == "List[Union[List[float],List[str]]]"
    assert infer_type_string({"x": {}, "y": {"k": 1}}) == "Dict[str,Dict[str,int]]"
    assert infer_type_string([[[]], [[True]]]) == "List[List[List[bool]]]"
    assert infer_type_string([None, "a"]) == "List[str]"
    assert infer_type_string([[], 3]) == "List[Union[List[Any],int]]"  # no typed list sibling: List[Any] stays
    assert infer_type_string([]) == "List[Any]" and Any is not None


def test_bool_next_to_int_and_empty_tuples_next_to_one_item_tuples_are_dropped():
    assert infer_type_string([3, False]) == "List[int]"
    assert infer_type_string([{"a": True}, {"a": 2}]) == "Dict[str,int]".join(["List[", "]"])
    assert infer_type_string([False, 0.5]) == "List[Union[bool,float]]"
    assert infer_type_string(()) == "Tuple[Any]"
    assert infer_type_string([(), ("z",)]) == "List[Tuple[str]]"
    assert infer_type_string([(), ("z", "w")]) == "List[Union[Tuple[Any],Tuple[str,str]]]"


def test_typed_dict_keys_annotated_optional_may_be_absent_but_required_ones_may_not():
    from typing import TypedDict

    class Reading(TypedDict):
        sensor: str
        note: Optional[str]

    assert isoftype({"sensor": "t1"}, Reading)
    assert isoftype({"sensor": "t1", "note": None}, Reading)
    assert not isoftype({"note": "warm"}, Reading)
    assert not isoftype({"sensor": "t1", "note": 3}, Reading)


def test_a_class_with_verify_type_decides_which_values_conform():
    class EvenLength:
        @classmethod
        def __verify_type__(cls, value):
            return len(value) % 2 == 0

    assert isoftype("ab", EvenLength) and isoftype([1, 2, 3, 4], EvenLength)
    assert not isoftype("abc", EvenLength)
    assert isoftype(["ab", "cd"], List[EvenLength]) and not isoftype(["ab", "c"], List[EvenLength])
