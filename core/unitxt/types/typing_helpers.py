"""Smaller typing helpers of the original's `unitxt.type_utils` (which maps to types.checking, where these are
imported): recognising NewTypes and TypedDicts, `X|Y` unions spelled for older
Pythons, three-valued all/any, and `get_origin`/`get_args` with typing's aliases mapped to the builtin classes."""

import collections.abc
import io
import typing
from typing import Any, Dict, List, Optional, Tuple, TypedDict, Union


class GenericTypedDict(TypedDict):
    """A TypedDict without keys: its type is the type of every TypedDict class (see is_typed_dict)."""


BUILTINS_MAPPING: Dict[Any, Any] = {
    typing.List: list,
    typing.Set: set,
    typing.Dict: dict,
    typing.Tuple: tuple,
    typing.ByteString: bytes,
    typing.Callable: collections.abc.Callable,
    typing.Sequence: collections.abc.Sequence,
    type(None): None,
}

STATIC_SUBTYPE_MAPPING: Dict[type, Any] = {
    io.TextIOWrapper: typing.TextIO,
    io.TextIOBase: typing.TextIO,
    io.StringIO: typing.TextIO,
    io.BufferedReader: typing.BinaryIO,
    io.BufferedWriter: typing.BinaryIO,
    io.BytesIO: typing.BinaryIO,
}


def is_new_type(object: Any) -> bool:  # noqa: A002 - the original's parameter name
    """Whether `object` is a typing.NewType."""
    return callable(object) and hasattr(object, "__supertype__")


def is_typed_dict(object: Any) -> bool:  # noqa: A002
    """Whether `object` is a TypedDict class."""
    return isinstance(object, type(GenericTypedDict))


def _split_top(text: str, separator: str) -> List[str]:
    """`text` split at the separators that are outside brackets."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return parts + [text[start:]]


def convert_union_type(type_string: str) -> str:
    """A type string with `X|Y` unions written `Union[X,Y]`, spaces dropped (List[int|float] ->
    List[Union[int,float]]); Literal[...] contents are kept as written."""
    text = type_string.replace(" ", "") if "Literal[" not in type_string else type_string.strip()
    alternatives = [_convert_one(part) for part in _split_top(text, "|")]
    return alternatives[0] if len(alternatives) == 1 else "Union[" + ",".join(alternatives) + "]"


def _convert_one(text: str) -> str:
    if not text.endswith("]") or "[" not in text:
        return text
    name, inner = text[:text.index("[")], text[text.index("[") + 1:-1]
    if name == "Literal":
        return text
    return f"{name}[" + ",".join(convert_union_type(part) for part in _split_top(inner, ",")) + "]"


def optional_all(elements: List[Optional[bool]]) -> Optional[bool]:
    """True when all are true, False when all are False, else None (unknown)."""
    if all(elements):
        return True
    return False if all(element is False for element in elements) else None


def optional_any(elements: List[Optional[bool]]) -> Optional[bool]:
    """True when any is true, None (unknown) when any is None, else False."""
    if any(elements):
        return True
    return None if any(element is None for element in elements) else False


def get_origin(type_: Any) -> Any:
    """typing.get_origin, with typing's aliases (List, Dict, Callable, ...) given as their builtin classes."""
    origin = typing.get_origin(type_)
    try:
        return BUILTINS_MAPPING.get(origin, origin)
    except TypeError:  # an unhashable origin
        return origin


def get_args(type_: Any) -> Tuple:
    """typing.get_args (an empty tuple for a type without arguments)."""
    return typing.get_args(type_) or ()


class NormalizedType(typing.NamedTuple):
    """A type as (origin, args) with typing's aliases given as builtin classes and a Union's args as a frozenset, so
    equal types compare and hash equal (`normalize(Union[int, str]) == normalize(Union[str, int])`)."""

    origin: Any
    args: Union[tuple, frozenset] = ()

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, NormalizedType):
            return self.origin == other.origin and self.args == other.args
        return not self.args and self.origin == other  # a plain type equals its normalized form

    def __hash__(self) -> int:
        return hash(self.origin) if not self.args else hash((self.origin, self.args))

    def __repr__(self) -> str:
        return f"{self.origin}" if not self.args else f"{self.origin}[{self.args}])"  # the original's text


def _normalize_alias(type_: Any) -> Any:
    try:
        return BUILTINS_MAPPING.get(type_, type_)
    except TypeError:  # unhashable (a TypeVar is hashable and kept as it is)
        return type_


def _normalize_args(args: Any) -> Any:
    if isinstance(args, str):
        return args
    if isinstance(args, (frozenset, set)):
        return frozenset(_normalize_args(arg) for arg in args)
    if isinstance(args, (tuple, list)):
        return tuple(_normalize_args(arg) for arg in args)
    return normalize(args)


def normalize(type_: Any) -> NormalizedType:
    """`type_` as a NormalizedType (its args normalized recursively; a Union's as a frozenset)."""
    origin = get_origin(type_)
    if not origin:
        return NormalizedType(_normalize_alias(type_))
    args = get_args(type_)
    return NormalizedType(origin, _normalize_args(frozenset(args) if origin is typing.Union else args))


__all__ = ["GenericTypedDict", "BUILTINS_MAPPING", "STATIC_SUBTYPE_MAPPING", "is_new_type", "is_typed_dict",
           "convert_union_type", "optional_all", "optional_any",
           "get_origin", "get_args", "NormalizedType", "normalize"]
