"""The original's type_utils helpers reachable at `unitxt.type_utils`: subtype relation, class-name shortening,
float conversion with a fallback, and checking a dict against a field schema."""

import typing

import pytest

from unitxt.errors import UnitxtError
from unitxt.type_utils import issubtype, replace_class_names, to_float_or_default, verify_required_schema


class Animal:
    pass


class Cat(Animal):
    pass


def test_issubtype_follows_type_arguments_and_unions():
    assert issubtype(typing.List[Cat], typing.List[Animal])
    assert issubtype(typing.Tuple[Cat, int], typing.Tuple[Animal, int])
    assert not issubtype(typing.Tuple[Cat], typing.Tuple[Animal, int])
    assert not issubtype(typing.List[Animal], typing.List[Cat])
    assert issubtype(typing.Union[Cat, int], typing.Union[Animal, int, str])
    assert not issubtype(typing.Union[Cat, float], typing.Union[Animal, int])
    assert issubtype(typing.Dict[str, Cat], typing.Any)
    assert issubtype(typing.List[int], list) and not issubtype(list, typing.List[int])


def test_replace_class_names_keeps_the_last_component():
    assert replace_class_names("pkg.mod.<locals>.Cat") == "Cat"
    assert replace_class_names("Dict[str, zoo.Cat]") == "Dict[str, Cat]"
    assert replace_class_names("Tuple[Thing]") == "Tuple[Thing]"


def test_to_float_or_default():
    assert to_float_or_default("2.5") == 2.5
    assert to_float_or_default("two", 7) == 7
    with pytest.raises(ValueError):
        to_float_or_default("two", None)


def test_verify_required_schema_names_the_field():
    schema = {"price": float, "tags": typing.List[str]}
    verify_required_schema(schema, {"price": 1.5, "tags": ["x"], "extra": 0})
    with pytest.raises(ValueError, match="'tags'"):
        verify_required_schema(schema, {"price": 1.5, "tags": [3]})
    with pytest.raises(KeyError, match="'price'"):
        verify_required_schema(schema, {"tags": []})


def test_type_string_errors_are_the_builtin_kinds_the_original_raises():
    from unitxt.type_utils import parse_type_string

    assert parse_type_string("Dict[str, float,]") == typing.Dict[str, float]
    with pytest.raises(SyntaxError):
        parse_type_string("Tuple[str,,int]")
    with pytest.raises(TypeError):
        parse_type_string("Dict[[str], int]")


def test_infer_type_string_of_an_unknown_object_is_any():
    from unitxt.type_utils import infer_type_string

    assert infer_type_string(Cat()) == "Any"
    assert infer_type_string({"pet": Cat()}) == "Dict[str,Any]"


def test_normalized_types_compare_and_hash_as_the_original():
    import typing
    from typing import Dict, ForwardRef, List, Optional, Tuple, Union

    from unitxt.type_utils import NormalizedType, eval_forward_ref, normalize

    assert normalize(Union[int, str]) == normalize(Union[str, int])
    assert hash(normalize(Union[int, str])) == hash(normalize(Union[str, int]))
    assert normalize(int) == int and normalize(List[int]) != list and normalize(typing.List) == list
    assert normalize(Dict[str, List[int]]) == NormalizedType(dict, (NormalizedType(str), NormalizedType(
        list, (NormalizedType(int),))))
    assert normalize(Optional[str]).args == frozenset({NormalizedType(str), NormalizedType(None)})
    assert normalize(Tuple[int, ...]).args == (NormalizedType(int), NormalizedType(Ellipsis))
    assert repr(normalize(List[int])) == "<class 'list'>[(<class 'int'>,)])"  # the original's text
    assert eval_forward_ref(ForwardRef("int")) is int
    assert eval_forward_ref(ForwardRef("Foo"), {"Foo": dict}) is dict
    assert eval_forward_ref(List[ForwardRef("Foo")], {"Foo": str}) == List[str]
    assert eval_forward_ref(ForwardRef("Dict[str, int]")) == Dict[str, int]
    with pytest.raises(UnitxtError):  # read by the type-string parser, never run as code
        eval_forward_ref(ForwardRef("__import__('os').getcwd()"))
