"""Text helpers for showing instances: `print_dict` (the documented `unitxt.text_utils.print_dict`) and friends."""

import json
import re
import sys
from typing import Any, Dict, Iterable, List, Optional, TextIO

INDENT = "    "


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return repr(value)


def indent_text(text: str, prefix: str) -> str:
    """Prefix every line of `text` (empty lines too, so multi-line values stay aligned)."""
    return "\n".join(prefix + line for line in str(text).split("\n"))


def dict_to_lines(dic: Dict[str, Any], indent: int = 0, keys_to_print: Optional[Iterable[str]] = None) -> List[str]:
    """One `key (type):` header per field followed by its value indented below it; nested dicts are expanded."""
    lines: List[str] = []
    base = INDENT * indent
    keys = list(keys_to_print) if keys_to_print is not None else list(dic)
    for key in keys:
        if key not in dic:
            continue
        value = dic[key]
        lines.append(f"{base}{key} ({type(value).__name__}):")
        if isinstance(value, dict) and value:
            lines.extend(dict_to_lines(value, indent + 1))
        else:
            lines.append(indent_text(_value_text(value), base + INDENT))
    return lines


def dict_to_text(dic: Dict[str, Any], indent: int = 0, keys_to_print: Optional[Iterable[str]] = None) -> str:
    return "\n".join(dict_to_lines(dic, indent, keys_to_print))


def print_dict(
    dic: Dict[str, Any],
    indent: int = 0,
    keys_to_print: Optional[Iterable[str]] = None,
    use_logger: bool = False,
    file: Optional[TextIO] = None,
) -> None:
    """Print every field of a dict (or only `keys_to_print`) as `key (type):` with the value indented below.

    With `use_logger=True` the text goes to the unitxt logger (info level) instead of standard output.
    """
    text = dict_to_text(dic, indent, keys_to_print)
    if use_logger:
        from .logging_utils import get_logger

        get_logger().info("\n" + text)
        return
    print(text, file=file or sys.stdout)


def to_pretty_json(value: Any) -> str:
    """Indented, key-sorted JSON (NaN kept as NaN) with a repr fallback for values JSON can not hold."""
    return json.dumps(value, indent=4, sort_keys=True, ensure_ascii=False, default=repr)


__all__ = ["print_dict", "dict_to_text", "dict_to_lines", "indent_text", "to_pretty_json"]


def split_words(s: str) -> List[str]:
    """Words of an identifier or phrase: split at case changes, digits, spaces, '_' and '-' ("helloWorld_2" ->
    ["hello", "World", "2"])."""
    return re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", s)


def is_camel_case(s: str) -> bool:
    """CamelCase: starts with a capital, letters and digits only."""
    return re.fullmatch(r"[A-Z][A-Za-z0-9]*", s) is not None


def is_snake_case(s: str) -> bool:
    """snake_case: lowercase letters, digits and underscores, starting with a letter."""
    return re.fullmatch(r"[a-z][a-z0-9_]*", s) is not None


def camel_to_snake_case(s: str) -> str:
    """CamelCase to snake_case, acronyms kept together ("HTTPResponseCode" -> "http_response_code")."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def nested_tuple_to_string(nested_tuple: tuple) -> str:
    """Items of nested tuples joined with '_' ((1, (2, "a")) -> "1_2_a")."""
    return "_".join(nested_tuple_to_string(item) if isinstance(item, tuple) else str(item) for item in nested_tuple)
