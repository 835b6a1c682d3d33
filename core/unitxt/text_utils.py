"""Text helpers for showing instances: `print_dict` (the documented `unitxt.text_utils.print_dict`) and friends."""

import json
import re
import sys
from typing import Any, Dict, Iterable, List, Optional, TextIO

from .module_aliases import moved_classes

INDENT = "    "


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return repr(value)


def indent_text(text: str, prefix: str) -> str:
    """Prefix every line of `text` (empty lines too, so multi-line values stay aligned)."""
    return "\n".join(prefix + line for line in str(text).split("\n"))


def dict_to_lines(dic: Dict[str, Any], indent: int = 0, keys_to_print: Optional[Iterable[str]] = None,
                  indent_delta: int = len(INDENT), max_chars: Optional[int] = None) -> List[str]:
    """One `key (type):` header per field followed by its value indented below it; nested dicts are expanded.
    `indent` spaces before the top level, `indent_delta` more per level; with `max_chars`, value lines are cut to at
    most that many characters (as the original's print_dict)."""
    lines: List[str] = []
    step = " " * indent_delta
    base = " " * indent
    keys = list(keys_to_print) if keys_to_print is not None else list(dic)
    for key in keys:
        if key not in dic:
            continue
        value = dic[key]
        lines.append(f"{base}{key} ({type(value).__name__}):")
        if isinstance(value, dict) and value:
            lines.extend(dict_to_lines(value, indent + indent_delta, indent_delta=indent_delta, max_chars=max_chars))
        else:
            lines.extend(_wrapped(indent_text(_value_text(value), base + step), len(base + step), max_chars))
    return lines


def _wrapped(text: str, pad: int, max_chars: Optional[int]) -> List[str]:
    """The lines of an indented text, each cut into pieces of at most `max_chars` characters (padding included)."""
    lines = text.split("\n")
    if not max_chars:
        return lines
    width = max(1, max_chars - pad)
    cut: List[str] = []
    for line in lines:
        body = line[pad:]
        cut.extend(line[:pad] + body[start:start + width] for start in range(0, max(len(body), 1), width))
    return cut


def dict_to_text(dic: Dict[str, Any], indent: int = 0, keys_to_print: Optional[Iterable[str]] = None,
                 indent_delta: int = len(INDENT), max_chars: Optional[int] = None) -> str:
    return "\n".join(dict_to_lines(dic, indent, keys_to_print, indent_delta, max_chars))


def print_dict(
    d: Dict[str, Any],
    indent: int = 0,
    indent_delta: int = 4,
    max_chars: Optional[int] = None,
    keys_to_print: Optional[Iterable[str]] = None,
    log_level: str = "info",
    use_logger: Optional[bool] = None,
    file: Optional[TextIO] = None,
) -> None:
    """Print every field of a dict (or only `keys_to_print`) as `key (type):` with the value indented below
    (`indent` spaces, `indent_delta` more per level; value lines cut at `max_chars` when given) - the original's
    parameters.

    The text goes to standard output (or `file`), as the documentation shows it; with `use_logger=True`, or a
    `log_level` other than "info" (e.g. "debug", to hide it unless asked), to the unitxt logger at that level.
    """
    text = dict_to_text(d, indent, keys_to_print, indent_delta, max_chars)
    if use_logger is None:
        use_logger = log_level != "info"
    if use_logger:
        from .logging_utils import get_logger

        log = getattr(get_logger(), log_level, None)
        if not callable(log):
            raise ValueError(f"print_dict's log_level must be a logging level name such as 'info' or 'debug', "
                             f"got {log_level!r}.")
        log("\n" + text)
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
    """snake_case: words of lowercase letters and digits joined by single underscores (as the original decides)."""
    return re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", s) is not None


def camel_to_snake_case(s: str) -> str:
    """CamelCase to snake_case, acronyms kept together ("HTTPResponseCode" -> "http_response_code")."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def nested_tuple_to_string(nested_tuple: tuple) -> str:
    """Items of nested tuples joined with '_' ((1, (2, "a")) -> "1_2_a")."""
    return "_".join(nested_tuple_to_string(item) if isinstance(item, tuple) else str(item) for item in nested_tuple)


def _wrapped_lines(text: str, indent: str, width: int) -> str:
    """Each line of `text` indented, cut into pieces of `width` characters when indent + line is wider than that."""
    out = []
    for line in text.split("\n"):
        pieces = [line[i:i + width] for i in range(0, len(line), width)] if len(line) + len(indent) > width else [line]
        out.extend(f"{indent}{piece.rstrip()}\n" for piece in pieces or [""])
    return "".join(out)


def to_pretty_string(value: Any, indent: int = 0, indent_delta: int = 4, max_chars: Optional[int] = None,
                     keys: Optional[List[str]] = None, item_label: Optional[str] = None,
                     float_format: Optional[str] = None) -> str:
    """A readable multi-line rendering of nested dicts, lists, tuples and DataFrames: each entry as
    `name (type):` with its value indented below, lines wrapped at `max_chars` (default: terminal width - 10)."""
    import shutil

    max_chars = max_chars or shutil.get_terminal_size()[0] - 10
    pad = " " * indent
    deeper = dict(indent=indent + indent_delta, indent_delta=indent_delta, max_chars=max_chars,
                  float_format=float_format)
    if isinstance(value, dict):
        chosen = list(value) if keys is None else list(keys)
        missing = [key for key in chosen if key not in value]
        if missing:
            raise ValueError(f"Dictionary does not contain field '{missing[0]}' specified in 'keys' argument. "
                             f"The available keys are {list(value.keys())}")
        return "".join(f"{pad}{key} ({type(value[key]).__name__}):\n" + to_pretty_string(value[key], **deeper)
                       for key in chosen)
    if isinstance(value, (list, tuple)):
        brackets = "[{}]" if isinstance(value, list) else "({})"
        return "".join(f"{pad}{brackets.format(i)} ({type(item).__name__}):\n" + to_pretty_string(item, **deeper)
                       for i, item in enumerate(value))
    if type(value).__name__ == "DataFrame" and hasattr(value, "to_string"):
        import pandas as pd  # only reached with a DataFrame, so pandas is there

        options = ["display.max_rows", None, "display.max_columns", None, "display.max_colwidth", None,
                   "display.width", max_chars - indent]
        if float_format is not None:
            options += ["display.float_format", ("{:," + float_format + "}").format]
        with pd.option_context(*options):
            return _wrapped_lines(repr(value), pad, max_chars - indent)
    text = f"{value:{float_format}}" if isinstance(value, float) and float_format else str(value)
    return _wrapped_lines(text, pad, max_chars - indent)


def lines_defining_obj_in_card(all_lines: List[str], obj_name: str, start_search_at_line: int = 0) -> tuple:
    """(first, last) indices of the lines of a card's Python source that define `obj_name` (e.g. "TaskCard("): from
    the first line mentioning it to the line closing its brackets; (-1, -1) when it is not there. For
    "__description__" the span ends at the `)` closing a `__description__=(` block (texts may hold any brackets)."""
    start = next((i for i in range(start_search_at_line, len(all_lines)) if obj_name in all_lines[i]), -1)
    if start < 0:
        return (-1, -1)
    if "__description__" in obj_name:
        line = all_lines[start]
        if "__description__=(" not in line:
            return (start, start)
        closing = " " * line.index("__description__") + ")"
        end = next((i for i in range(start + 1, len(all_lines)) if all_lines[i].startswith(closing)), start)
        return (start, end)
    depth = 0
    for i in range(start, len(all_lines)):
        depth += len(re.findall(r"[({[]", all_lines[i])) - len(re.findall(r"[)}\]]", all_lines[i]))
        if depth <= 0 and i >= start:
            return (start, i)
    raise ValueError(f"Unbalanced brackets: the definition of '{obj_name}' starting at line {start} never closes.")


def _yaml_scalar(value: Any) -> str:
    text = str(value).replace("\n", "\\n").replace('"', '\\"')
    return f'"{text}"' if text == "" or "\\n" in text else text


def construct_dict_as_yaml_lines(d: Any, indent_delta: int = 2) -> List[str]:
    """The lines of `d` (dicts, lists, scalars) written as YAML, nested levels indented by `indent_delta` (>= 2,
    room for the "- " of list items); keys with spaces and empty texts quoted, newlines escaped."""
    if indent_delta < 2:
        raise ValueError(f"Needs at least 2 position indentations, for the case of list elements, that are to be "
                         f"preceded each by ' -'. Got indent_delta={indent_delta}.")
    pad = " " * indent_delta
    bullet = pad[:-2] + "- "
    if isinstance(d, dict):
        if not d:
            return ["{}"]
        lines: List[str] = []
        for key, value in d.items():
            head = (f'"{key}"' if " " in key or key == "" else key) + ": "
            inner = construct_dict_as_yaml_lines(value, indent_delta)
            lines += [head + inner[0]] if len(inner) == 1 else [head] + [pad + line for line in inner]
        return lines
    if isinstance(d, list):
        if not d:
            return ["[]"]
        lines = []
        for value in d:
            inner = construct_dict_as_yaml_lines(value, indent_delta)
            lines += [bullet + inner[0]] + [pad + line for line in inner[1:]]
        return lines
    return [_yaml_scalar(d)]


def _python_scalar(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if value is None or isinstance(value, (int, float, bool)):
        return f"{value}"
    raise RuntimeError(f"unrecognized value to print as python: {value}")


def _python_entry(head: str, inner: List[str], pad: str) -> List[str]:
    """`head` (a key and ':' or '=') followed by the lines of its value, closed with a comma; a dict's or list's inner
    lines indented one level (an artifact's are already)."""
    if len(inner) == 1:
        return [head + inner[0] + ","]
    middle = inner[1:-1]
    if inner[0].startswith(("{", "[")):
        middle = [pad + line for line in middle]
    return [head + inner[0], *middle, inner[-1] + ","]


def construct_dict_as_python_lines(d: Any, indent_delta: int = 4) -> List[str]:
    """The lines of `d` written as Python: a dict with "__type__" as a call `__type__<type>(field=value, ...)`, other
    dicts and lists as literals (their members indented by the enclosing level), texts double-quoted."""
    pad = " " * indent_delta
    if isinstance(d, dict):
        if not d:
            return ["{}"]
        is_call = "__type__" in d
        if is_call and len(d) == 1:
            return [f"__type__{d['__type__']}()"]
        lines = [f"__type__{d['__type__']}(" if is_call else "{"]
        for key, value in d.items():
            if key != "__type__":
                head = f"{key}=" if is_call else f'"{key}": '
                lines += _python_entry(head, construct_dict_as_python_lines(value, indent_delta), pad)
        if is_call:
            return [lines[0], *[pad + line for line in lines[1:]], ")"]
        return lines + ["}"]
    if isinstance(d, list):
        if not d:
            return ["[]"]
        lines = ["["]
        for value in d:
            inner = construct_dict_as_python_lines(value, indent_delta)
            lines += inner[:-1] + [inner[-1] + ","]
        return lines + ["]"]
    return [_python_scalar(d)]


def print_dict_as_yaml(d: dict, indent_delta: int = 2) -> str:
    """`d` as YAML text (see construct_dict_as_yaml_lines)."""
    return "\n".join(construct_dict_as_yaml_lines(d, indent_delta=indent_delta))


def print_dict_as_python(d: dict, indent_delta: int = 4) -> str:
    """`d` as Python text (see construct_dict_as_python_lines)."""
    return "\n".join(construct_dict_as_python_lines(d, indent_delta=indent_delta))


def is_made_of_sub_strings(string: str, sub_strings: Iterable[str]) -> bool:
    """Whether `string` is a concatenation of one or more of `sub_strings` (each any number of times)."""
    return bool(re.match("^(" + "|".join(map(re.escape, sub_strings)) + ")+$", string))


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
