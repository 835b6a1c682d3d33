"""Typing support: a safe parser for type strings ("List[str]"), fast compiled type checkers, and a type registry.

Type strings come from catalog JSON, so they are parsed by a small recursive-descent parser over registered names —
never evaluated.
"""

import re
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..errors import InstanceValueError, MissingFieldError, UnitxtError
from .definitions import BUILTIN_TYPES, MEDIA_TYPES
from .spelling import (TypeStringError, TypeStringNestingError, TypeStringSyntaxError, format_type_string,
                       needs_formatting)

NoneType = type(None)

_REGISTERED_TYPES: Dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "bytes": bytes,
    "dict": dict,
    "list": list,
    "tuple": tuple,
    "None": NoneType,
    "NoneType": NoneType,
    "Any": Any,
    "List": List,
    "Dict": Dict,
    "Tuple": Tuple,
    "Optional": Optional,
    "Union": Union,
    "Literal": typing.Literal,
}  # as in the original, Set/Sequence/Iterable/Mapping are not type-string names


def register_type(new_type: Any, name: Optional[str] = None) -> Any:
    """Make a type (a class, NewType, TypedDict, or typing alias) usable by name in type strings."""
    type_name = name or getattr(new_type, "__name__", None)
    if not type_name:
        raise TypeStringError(f"Can not register type {new_type!r} without a name; pass name=...")
    _REGISTERED_TYPES[type_name] = new_type
    _checker_cache.clear()
    return new_type


def register_builtin_types() -> None:
    """Register the library's data types (Dialog, Table, Image, ...) by name, keeping any type already registered
    under the same name (user definitions win); done the first time an unknown name is looked up."""
    for type_name, new_type in BUILTIN_TYPES.items():
        if type_name not in _REGISTERED_TYPES:
            register_type(new_type, type_name)


def get_registered_type(name: str) -> Any:
    if name not in _REGISTERED_TYPES:
        register_builtin_types()
    return _REGISTERED_TYPES[name]


def mentions_media_type(tp: Any, _seen: Optional[set] = None) -> bool:
    """Whether a (possibly nested) type, or type string, refers to Image, Audio or Video anywhere."""
    if isinstance(tp, str):
        try:
            tp = to_type(tp)
        except Exception:  # noqa: BLE001 - an unparsable type mentions nothing we know
            return False
    if tp in MEDIA_TYPES:
        return True
    seen = _seen if _seen is not None else set()
    if id(tp) in seen:
        return False
    seen.add(id(tp))
    supertype = getattr(tp, "__supertype__", None)
    if supertype is not None:
        return mentions_media_type(supertype, seen)
    if isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__total__"):
        return any(mentions_media_type(hint, seen) for hint in typing.get_type_hints(tp).values())
    return any(mentions_media_type(arg, seen) for arg in typing.get_args(tp))


_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z_0-9\.]*)|(\[|\]|,)|('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(-?\d+(?:\.\d+)?))")


def _tokenize(text: str) -> List[Tuple[str, str]]:
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise TypeStringError(f"Invalid character in type string {text!r} at position {pos}.")
        name, punct, string, number = match.groups()
        if name is not None:
            tokens.append(("name", name))
        elif punct is not None:
            tokens.append(("punct", punct))
        elif string is not None:
            tokens.append(("literal", string[1:-1]))
        else:
            tokens.append(("literal", float(number) if "." in number else int(number)))
        pos = match.end()
    return tokens


def parse_type_string(type_string: str) -> Any:
    """Parse a type string such as "Dict[str, List[int]]" into the typing object it names."""
    text = type_string
    if needs_formatting(text):  # `int|str`, `typing.List[int]`: the original's other spellings
        text = format_type_string(text, literal_bars=False)
    tokens = _tokenize(text)
    position = [0]

    def peek():
        return tokens[position[0]] if position[0] < len(tokens) else (None, None)

    def take(expected=None):
        token = peek()
        if token[0] is None or (expected and token[1] != expected):
            raise TypeStringError(f"Malformed type string {text!r}: expected {expected or 'more input'}.")
        position[0] += 1
        return token

    def parse_one(inside_literal=False):
        kind, value = take()
        if kind == "literal":
            if not inside_literal:
                raise TypeStringError(f"Literal value {value!r} outside Literal[...] in type string {text!r}.")
            return value
        if kind != "name":
            error = TypeStringNestingError if value == "[" else TypeStringSyntaxError
            raise error(f"Malformed type string {text!r}: unexpected {value!r}.")
        if inside_literal and value in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[value]
        if value not in _REGISTERED_TYPES:
            register_builtin_types()
        if value not in _REGISTERED_TYPES:
            raise TypeStringError(
                f"Unknown type {value!r} in type string {text!r}. Register it with register_type(); "
                f"known types: {sorted(_REGISTERED_TYPES)}"
            )
        base = _REGISTERED_TYPES[value]
        if peek()[1] != "[":
            return base
        take("[")
        args = [parse_one(inside_literal=base is typing.Literal)]
        while peek()[1] == ",":
            take(",")
            if peek()[1] == "]":
                break  # a trailing comma, as Python allows in subscripts
            args.append(parse_one(inside_literal=base is typing.Literal))
        take("]")
        try:
            return base[tuple(args)] if len(args) > 1 else base[args[0]]
        except TypeError as error:
            raise TypeStringError(f"Invalid type string {text!r}: {error}") from None

    result = parse_one()
    if position[0] != len(tokens):
        raise TypeStringError(f"Malformed type string {text!r}: trailing input.")
    return result


def to_type(type_or_string: Any) -> Any:
    """Accept a type or its string form and return the type."""
    if isinstance(type_or_string, str):
        return parse_type_string(type_or_string)
    return type_or_string


def type_to_string(tp: Any) -> str:
    """Render a type as a string that `parse_type_string` reads back."""
    if isinstance(tp, str):
        return tp
    if tp is Any:
        return "Any"
    if tp is NoneType or tp is None:
        return "None"
    origin = typing.get_origin(tp)
    if origin is None:
        for name, registered in _REGISTERED_TYPES.items():
            if registered is tp and name not in ("NoneType",):
                return name
        return getattr(tp, "__name__", repr(tp))
    args = typing.get_args(tp)
    if origin is Union:
        non_none = [arg for arg in args if arg is not NoneType]
        if len(non_none) == 1 and len(args) == 2:
            return f"Optional[{type_to_string(non_none[0])}]"
        return f"Union[{', '.join(type_to_string(arg) for arg in args)}]"
    if origin is typing.Literal:
        return f"Literal[{', '.join(repr(arg) for arg in args)}]"
    names = {list: "List", dict: "Dict", tuple: "Tuple", set: "Set"}
    origin_name = names.get(origin)
    if origin_name is None:
        origin_name = {
            typing.Sequence: "Sequence",
            typing.Iterable: "Iterable",
            typing.Mapping: "Mapping",
        }.get(typing.get_origin(tp) and getattr(tp, "__origin__", None), None)
        if origin_name is None:
            import collections.abc as abc

            origin_name = {abc.Sequence: "Sequence", abc.Iterable: "Iterable", abc.Mapping: "Mapping"}.get(
                origin, getattr(origin, "__name__", str(origin))
            )
    if not args:
        return origin_name
    return f"{origin_name}[{', '.join(type_to_string(arg) for arg in args)}]"


_checker_cache: Dict[Any, Callable[[Any], bool]] = {}
ClassHook = Optional[Callable[[type], Optional[Callable[[Any], bool]]]]


def _is_typed_dict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__annotations__") and hasattr(
        tp, "__total__"
    )


def make_checker(tp: Any, class_hook: ClassHook = None) -> Callable[[Any], bool]:
    """Compile a type into a fast predicate `value -> bool` (cached per type when no hook is used)."""
    tp = to_type(tp)
    if class_hook is None:
        try:
            return _checker_cache[tp]
        except (KeyError, TypeError):
            pass
    checker = _build_checker(tp, class_hook)
    if class_hook is None:
        try:
            _checker_cache[tp] = checker
        except TypeError:
            pass
    return checker


def _accepts_none(tp: Any) -> bool:
    """True for Optional[...] (a Union with None) annotations."""
    return typing.get_origin(tp) is Union and NoneType in typing.get_args(tp)


def _build_checker(tp: Any, hook: ClassHook) -> Callable[[Any], bool]:
    if tp is Any or tp is object:
        return lambda value: True
    if hasattr(tp, "__verify_type__"):  # a class deciding itself which values conform to it
        return tp.__verify_type__
    if tp is NoneType or tp is None:
        return lambda value: value is None
    if tp is float:
        return lambda value: isinstance(value, (float, int)) and not isinstance(value, bool)
    if tp is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    supertype = getattr(tp, "__supertype__", None)
    if supertype is not None:  # typing.NewType
        return _build_checker(supertype, hook)
    if _is_typed_dict(tp):
        hints = typing.get_type_hints(tp)
        required = getattr(tp, "__required_keys__", frozenset(hints) if tp.__total__ else frozenset())
        required = frozenset(key for key in required if not _accepts_none(hints[key]))  # Optional keys may be absent
        field_checkers = {key: _build_checker(value, hook) for key, value in hints.items()}

        def check_typed_dict(value):
            """As the original's: the declared keys (Optional ones may be absent) have their types; other keys
            (e.g. a table record's title and id) are allowed."""
            if not isinstance(value, dict) or not required.issubset(value):
                return False
            # as the original: the declared keys are checked, other keys are allowed (a table with a "name")
            return all(check(value[key]) for key, check in field_checkers.items() if key in value)

        return check_typed_dict
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is None:
        if isinstance(tp, type):
            if hook is not None:
                hooked = hook(tp)
                if hooked is not None:
                    return hooked
            return lambda value: isinstance(value, tp)
        raise TypeStringError(f"Unsupported type annotation {tp!r}.")
    if origin is Union:
        options = [_build_checker(arg, hook) for arg in args]
        return lambda value: any(option(value) for option in options)
    if origin is typing.Literal:
        allowed = args
        return lambda value: any(value == option and type(value) is type(option) for option in allowed)
    import collections.abc as abc

    if origin in (list, abc.Sequence, abc.Iterable, set, abc.Set, frozenset):
        container = {list: list, set: (set, frozenset), frozenset: frozenset}.get(origin, (list, tuple))
        if not args or args[0] is Any:
            return lambda value: isinstance(value, container)
        item_checker = _build_checker(args[0], hook)
        return lambda value: isinstance(value, container) and all(map(item_checker, value))
    if origin is tuple:
        kinds = tuple if hook is _exact_tuples else (tuple, list)  # JSON turns tuples into lists
        if not args:
            return lambda value: isinstance(value, kinds)
        if len(args) == 2 and args[1] is Ellipsis:
            item_checker = _build_checker(args[0], hook)
            return lambda value: isinstance(value, kinds) and all(item_checker(item) for item in value)
        checkers = [_build_checker(arg, hook) for arg in args]
        return lambda value: (
            isinstance(value, kinds)
            and len(value) == len(checkers)
            and all(check(item) for check, item in zip(checkers, value))
        )
    if origin in (dict, abc.Mapping):
        if not args:
            return lambda value: isinstance(value, dict)
        key_checker, value_checker = (_build_checker(arg, hook) for arg in args)
        if args[1] is Any or args[1] is object:  # only the keys to check (rows of in-memory data: the common case)
            return lambda value: isinstance(value, dict) and all(map(key_checker, value))
        return lambda value: isinstance(value, dict) and all(
            key_checker(key) and value_checker(item) for key, item in value.items()
        )
    raise TypeStringError(f"Unsupported type annotation {tp!r}.")


def isoftype(object: Any, typing_type: Any) -> bool:  # noqa: A002 - the original's parameter names
    """True when the value conforms to the (possibly nested) type. As in the original, the type must be a type
    object (not a type string, None, or a bare List/Dict/Tuple), and a list is not a tuple."""
    _refuse_non_types(typing_type)
    try:
        return _strict_checker(typing_type)(object)
    except TypeStringError as error:
        raise UnsupportedTypeError(error.message) from None


_BARE_GENERICS = (typing.List, typing.Dict, typing.Tuple)


def _refuse_non_types(tp: Any) -> None:
    if tp is Ellipsis or isinstance(tp, (str, tuple)) or tp is None or any(tp is bare for bare in _BARE_GENERICS):
        raise UnsupportedTypeError(f"Type: '{tp}' is not supported type. Use a type such as Any, List[...], "
                                   "Dict[...], Tuple[...], Union[...], Optional[...], Literal[...], int, str, float, "
                                   "bool or a registered type.")
    if typing.get_origin(tp) is not typing.Literal:
        for arg in typing.get_args(tp):
            _refuse_non_types(arg)


_strict_cache: Dict[Any, Callable[[Any], bool]] = {}


def _exact_tuples(cls: type) -> None:
    """A class hook that changes no class check; as the hook of _build_checker it makes tuple types exact."""
    return None


def _strict_checker(tp: Any) -> Callable[[Any], bool]:
    """make_checker, except that a tuple type accepts only tuples (the internal checker also takes the lists JSON
    turns tuples into)."""
    try:
        return _strict_cache[tp]
    except (KeyError, TypeError):
        pass

    checker = _build_checker(tp, _exact_tuples)
    try:
        _strict_cache[tp] = checker
    except TypeError:
        pass
    return checker


def describe_value_type(value: Any, max_items: int = 3) -> str:
    """Describe the runtime type of a value in typing notation, for error messages."""
    if isinstance(value, list):
        item_types = sorted({describe_value_type(item) for item in value[:max_items]})
        return f"List[{' | '.join(item_types)}]" if item_types else "List"
    if isinstance(value, dict):
        key_types = sorted({type(key).__name__ for key in list(value)[:max_items]})
        value_types = sorted({describe_value_type(item) for item in list(value.values())[:max_items]})
        return f"Dict[{'|'.join(key_types)}, {' | '.join(value_types)}]" if value else "Dict"
    return type(value).__name__


class UnsupportedTypeError(UnitxtError, ValueError):
    """A value that is not a type (or type string) was given where a type is expected."""


def is_type(object: Any) -> bool:  # noqa: A002 - the original's parameter name
    """Whether the value is a type or a typing construct (List[int], Optional[str], Any...)."""
    return (isinstance(object, type) or object is Any or typing.get_origin(object) is not None
            or any(object is registered for registered in _REGISTERED_TYPES.values()))


def to_type_string(typing_type: Any) -> str:
    """A type as its type string (`List[str]`), the form catalog tasks store; a non-type raises UnsupportedTypeError."""
    if not is_type(typing_type) or any(typing_type is bare for bare in _BARE_GENERICS):
        raise UnsupportedTypeError(f"Type: '{typing_type}' is not a supported type. Use a type such as "
                                   f"{', '.join(['Any', 'List', 'Dict', 'Tuple', 'Union', 'Optional', 'Literal'])} or "
                                   f"one of the registered types: {', '.join(sorted(_REGISTERED_TYPES))}.")
    text = type_to_string(typing_type)
    try:
        parse_type_string(text)
    except TypeStringError:  # e.g. `object` or an unregistered class: no type string names it
        raise UnsupportedTypeError(f"Type: '{typing_type}' is not a supported type: its string {text!r} names no "
                                   "known type. Register it with register_type().") from None
    return text


def infer_type(obj: Any) -> Any:
    """The type a value has, as the original infers it (lists and dicts by their items, mixed items as Union)."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, float, str)):
        return type(obj)
    if isinstance(obj, (list, tuple)):
        kind = List if isinstance(obj, list) else Tuple
        items = _union_of([infer_type(item) for item in obj])
        if kind is Tuple and not obj:
            return Tuple[Any]  # the original's type of an empty tuple
        return kind[items] if kind is List else Tuple[tuple(infer_type(item) for item in obj)]
    if isinstance(obj, dict):
        keys = _union_of([infer_type(key) for key in obj])
        values = _union_of([infer_type(value) for value in obj.values()])
        return Dict[keys, values]
    return Any  # objects of other classes: no type string names them


def _vaguer(left: Any, right: Any) -> bool:
    """Whether `left` adds nothing next to `right` (the original drops it from an inferred Union): `right` with Any in
    some places (List[Any] next to List[int]), or bool next to int."""
    if left is bool and right is int:
        return True
    if left == right or typing.get_origin(left) is None or typing.get_origin(left) != typing.get_origin(right):
        return False
    pairs = list(zip(typing.get_args(left), typing.get_args(right)))
    return len(typing.get_args(left)) == len(typing.get_args(right)) and all(
        a is Any or a == b or _vaguer(a, b) for a, b in pairs)


def _union_of(types_found: List[Any]) -> Any:
    unique = []
    for found in types_found:
        if found not in unique:
            unique.append(found)
    if len(unique) > 1:  # None items and empty containers next to typed siblings add nothing (as in the original)
        unique = [found for found in unique if found is not NoneType]
        unique = [found for found in unique if not any(_vaguer(found, other) for other in unique)]
    if not unique:
        return Any
    return unique[0] if len(unique) == 1 else Union[tuple(sorted(unique, key=type_to_string))]


def infer_type_string(obj: Any) -> str:
    """The inferred type of a value as a type string without spaces (`Dict[str,List[float]]`)."""
    return type_to_string(infer_type(obj)).replace(" ", "")


def _resolve_forward(tp: Any, forward_refs: Optional[dict]) -> Any:
    if isinstance(tp, typing.ForwardRef):
        tp = tp.__forward_arg__
    if isinstance(tp, str) and forward_refs and tp in forward_refs:
        return forward_refs[tp]
    return tp


def eval_forward_ref(ref: Any, forward_refs: Optional[dict] = None) -> Any:
    """The type a forward reference names: a name of `forward_refs`, else its text read by the type-string parser
    (never run as code); forward references inside a generic type are resolved in place, anything else returned."""
    if isinstance(ref, typing.ForwardRef):
        text = ref.__forward_arg__
        return forward_refs[text] if forward_refs and text in forward_refs else parse_type_string(text)
    args = typing.get_args(ref)
    resolved = tuple([eval_forward_ref(item, forward_refs) for item in arg] if isinstance(arg, list)
                     else eval_forward_ref(arg, forward_refs) for arg in args)
    if resolved == args:
        return ref
    return ref.copy_with(resolved) if hasattr(ref, "copy_with") else typing.get_origin(ref)[resolved]


def issubtype(left: Any, right: Any, forward_refs: Optional[dict] = None) -> bool:
    """Whether every value of type `left` is also of type `right` (`List[Child]` under `List[Base]`, a Union under a
    wider Union, anything under Any); type arguments are compared member by member, tuples position by position."""
    left, right = _resolve_forward(left, forward_refs), _resolve_forward(right, forward_refs)
    if right is Any:
        return True
    if left is Any:
        return False
    left_origin, right_origin = typing.get_origin(left), typing.get_origin(right)
    if left_origin is Union:
        return all(issubtype(member, right, forward_refs) for member in typing.get_args(left))
    if right_origin is Union:
        return any(issubtype(left, member, forward_refs) for member in typing.get_args(right))
    if left_origin is typing.Literal:
        return all(make_checker(right)(value) for value in typing.get_args(left))
    left_base, right_base = left_origin or left, right_origin or right
    if not (isinstance(left_base, type) and isinstance(right_base, type) and issubclass(left_base, right_base)):
        return False
    right_args = typing.get_args(right)
    if not right_args:
        return True
    left_args = typing.get_args(left)
    if not left_args or len(left_args) != len(right_args):
        return False
    return all(issubtype(a, b, forward_refs) for a, b in zip(left_args, right_args))


def replace_class_names(full_string: str) -> str:
    """Dotted class paths inside a type string reduced to their class names (`a.b.<locals>.Person` -> `Person`)."""
    return re.sub(r"(?:\w+\.)*<locals>\.(\w+)|(?:\w+\.)*(\w+)", lambda m: m.group(1) or m.group(2), full_string)


def to_float_or_default(v: Any, failure_default: Optional[float] = 0) -> float:
    """`float(v)`, or `failure_default` when that fails; with `failure_default=None` the failure is raised."""
    try:
        return float(v)
    except (TypeError, ValueError):
        if failure_default is None:
            raise
        return failure_default


def verify_required_schema(required_schema_dict: Dict[str, Any], input_dict: Dict[str, Any],
                           class_name: str = "Task", id: Optional[str] = "",  # noqa: A002 - the original's names
                           description: Optional[str] = "") -> None:
    """Check that `input_dict` has every field of the schema with a value of its type: a missing field raises
    KeyError, a value of another type ValueError (both UnitxtError), each naming the field and the type."""
    for field_name, data_type in required_schema_dict.items():
        error: Optional[UnitxtError] = None
        if field_name not in input_dict:  # the original's words (the field is on the error, not in its text)
            error = MissingFieldError(
                f"The {class_name} ('{id}') expected a field '{field_name}' which the input instance did not contain.\n"
                f"The input instance fields are  : {list(input_dict.keys())}.\n{class_name} description: {description}")
        elif not make_checker(data_type)(input_dict[field_name]):  # type strings welcome (tasks keep them so)
            error = InstanceValueError(
                f"Passed value {input_dict[field_name]} of field '{field_name}' is not of required type: "
                f"({to_type_string(to_type(data_type))}) in {class_name} ('{id}').\n"
                f"{class_name} description: {description}")
        if error is not None:
            error.field = field_name
            raise error



strtype = to_type_string  # the original's other name of it


def is_type_dict(object: Any) -> bool:  # noqa: A002
    """Whether every value of a (nested) dict is a type; ValueError when `object` is not a dict."""
    if not isinstance(object, dict):
        raise ValueError("Should be dict.")
    return all(is_type_dict(value) if isinstance(value, dict) else is_type(value) for value in object.values())


def to_type_dict(dict_of_typing_types: Dict[str, Any]) -> Dict[str, Any]:
    """A (nested) dict of types with every type replaced by its string."""
    return {key: to_type_dict(value) if isinstance(value, dict) else to_type_string(value)
            for key, value in dict_of_typing_types.items()}


def parse_type_dict(type_dict: Dict[str, Any]) -> Dict[str, Any]:
    """The inverse of to_type_dict: a (nested) dict of type strings with every string parsed into its type."""
    result = {}
    for key, value in type_dict.items():
        if isinstance(value, str):
            result[key] = parse_type_string(value)
        elif isinstance(value, dict):
            result[key] = parse_type_dict(value)
        else:
            raise ValueError(f"Can parse only nested dictionary with type strings, got {type(value)}")
    return result


def parse_string_types_instead_of_actual_objects(obj: str) -> Any:
    """Deprecated (the original's name): a type string parsed into the type it names, with a DeprecationWarning -
    declare types as typing objects (Dict[str, int]) rather than strings."""
    import warnings

    warnings.warn("parse_string_types_instead_of_actual_objects is deprecated: declare types as typing objects "
                  "(e.g. Dict[str, int] instead of 'Dict[str, int]').", DeprecationWarning, stacklevel=2)
    return parse_type_string(obj)


from .typing_helpers import (BUILTINS_MAPPING, STATIC_SUBTYPE_MAPPING, GenericTypedDict, NormalizedType,  # noqa: E402,F401
                             convert_union_type, get_args, get_origin, is_new_type, is_typed_dict, normalize,
                             optional_all, optional_any)
from ..module_aliases import moved_classes


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
