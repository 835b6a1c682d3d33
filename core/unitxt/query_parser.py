"""Parser for artifact queries `name[key=value,...]` and recipe strings `key=value,key=[a,b],key={k=v}`.

Values are returned as `Unquoted` strings (plain text the caller may coerce to the target field's type), quoted
strings (kept verbatim), lists and dicts. A value that is itself a query (`metrics.f1[reduction=median]`) stays a
string and is resolved by whoever expects an artifact there. The original's step functions (`consume_name`,
`consume_term`, ... of its `unitxt.parsing_utils`) are at the end, with its results and messages.
"""

import re
import typing
from typing import Any, Callable, Dict, List, Tuple

from .errors import InvalidCatalogNameError, OverrideSyntaxError

CATALOG_NAME = re.compile(r"^[A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)*$")
KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# keys of parse_key_equals_value_string_to_dict: any text without = , [ ] { } (the original takes "first name", "-age")
LOOSE_KEY = re.compile(r"^[^=,\[\]{}\s](?:[^=,\[\]{}]*[^=,\[\]{}\s])?$")


class Unquoted(str):
    """An unquoted scalar from a query; may be coerced to int/float/bool/None by the consumer."""


def guess_scalar(value: Any) -> Any:
    """Interpret an unquoted scalar the way a user most likely meant it (int, float, bool, None, or text)."""
    if not isinstance(value, Unquoted):
        return value
    text = str(value)
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][+-]?\d+)", text):
        return float(text)
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    return text


def plain(value: Any) -> Any:
    """Recursively turn parsed values into plain Python values, guessing scalar types."""
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return guess_scalar(value)


MAX_NESTING = 100  # brackets/braces a query may nest (and artifact data, see artifact.from_serializable)


class _Parser:
    def __init__(self, text: str, key_pattern: "re.Pattern[str]" = KEY):
        self.text = text
        self.key_pattern = key_pattern
        self.pos = 0
        self.depth = 0

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.fail(f"Nesting deeper than {MAX_NESTING} levels of [ ] / {{ }}")

    def fail(self, message: str) -> None:
        pointer = f"{self.text}\n{' ' * self.pos}^"
        raise OverrideSyntaxError(f"{message} at position {self.pos} of:\n{pointer}", stage="parsing query")

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_spaces()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            self.fail(f"Expected '{char}'")
        self.pos += 1

    def key(self) -> str:
        self.skip_spaces()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in "=,[]{}":
            self.pos += 1
        key = self.text[start : self.pos].strip()
        if not self.key_pattern.match(key):
            self.pos = start
            self.fail(f"Invalid key {key!r} (keys are identifiers)")
        return key

    def assignments(self, closing: str) -> Dict[str, Any]:
        result: Dict[str, Any] = {}
        if self.peek() == closing:
            return result
        while True:
            key = self.key()
            self.expect("=")
            if key in result:
                self.fail(f"Key {key!r} assigned twice")
            result[key] = self.value()
            if self.peek() == ",":
                self.pos += 1
                continue
            return result

    def value(self) -> Any:
        char = self.peek()
        if char == "[":
            self.nest()
            self.pos += 1
            items: List[Any] = []
            if self.peek() != "]":
                while True:
                    items.append(self.value())
                    if self.peek() == ",":
                        self.pos += 1
                        continue
                    break
            self.expect("]")
            self.depth -= 1
            return items
        if char == "{":
            self.nest()
            self.pos += 1
            mapping = self.assignments("}")
            self.expect("}")
            self.depth -= 1
            return mapping
        if char in ("'", '"'):
            return self.quoted(char)
        return self.term()

    def quoted(self, quote: str) -> str:
        self.pos += 1
        chars = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\" and self.pos + 1 < len(self.text):
                chars.append(self.text[self.pos + 1])
                self.pos += 2
                continue
            if char == quote:
                self.pos += 1
                return "".join(chars)
            chars.append(char)
            self.pos += 1
        self.fail("Unterminated quoted string")

    def term(self) -> Unquoted:
        """A bare value; a '[' right after a name opens nested overrides kept verbatim (balanced)."""
        self.skip_spaces()
        start = self.pos
        depth = 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "[":
                if self.pos == start:
                    self.fail("Unexpected '['")
                depth += 1
            elif char == "]":
                if depth == 0:
                    break
                depth -= 1
            elif char in ",}" and depth == 0:
                break
            elif char in "{=" and depth == 0:
                self.fail(f"Unexpected '{char}' in value")
            self.pos += 1
        if depth:
            self.fail("Unbalanced '[' in value")
        text = self.text[start : self.pos].strip()
        if not text:
            self.fail("Missing value")
        return Unquoted(text)

    def at_end(self) -> None:
        if self.peek():
            self.fail(f"Unexpected '{self.peek()}'")


def parse_assignments(text: str, key_pattern: "re.Pattern[str]" = KEY) -> Dict[str, Any]:
    """Parse `key=value,key2=[a,b],key3={k=v}` into a dict (values as in the module docstring)."""
    parser = _Parser(text, key_pattern)
    result = parser.assignments("")
    parser.at_end()
    return result


def parse_artifact_query(text: str) -> Tuple[str, Dict[str, Any]]:
    """Split `name[key=value,...]` into the catalog name and its override dict."""
    if not isinstance(text, str) or not text.strip():
        raise OverrideSyntaxError(f"An artifact query must be a non-empty string, got {text!r}.")
    text = text.strip()
    bracket = text.find("[")
    name = text if bracket < 0 else text[:bracket].strip()
    validate_catalog_name(name)
    if bracket < 0:
        return name, {}
    parser = _Parser(text)
    parser.pos = bracket + 1
    overrides = parser.assignments("]")
    parser.expect("]")
    parser.at_end()
    return name, overrides


def validate_catalog_name(name: str) -> str:
    """Catalog names are dot-separated words; they can never address a path outside the catalog."""
    if not isinstance(name, str) or not CATALOG_NAME.fullmatch(name):  # fullmatch: "$" also matches before a final "\n"
        raise InvalidCatalogNameError(
            f"Invalid catalog name {name!r}: use dot-separated words of letters, digits, '_' or '-' "
            "(no '/', '..', spaces or brackets).",
            stage="catalog name",
        )
    too_long = [part for part in name.split(".") if len(part.encode("utf-8")) > MAX_NAME_PART_BYTES]
    if too_long:
        raise InvalidCatalogNameError(
            f"Invalid catalog name {name[:60]!r}...: each dot-separated part is a file or folder name, at most "
            f"{MAX_NAME_PART_BYTES} bytes (one has {len(too_long[0].encode('utf-8'))}).", stage="catalog name")
    return name


MAX_NAME_PART_BYTES = 200  # a file name holds 255 bytes: room for ".json" and the writer's temporary suffix


def is_assignment_string(text: str) -> bool:
    """True when text looks like `key=value,...` rather than an artifact query `name[...]`."""
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "=" and depth == 0:
            return True
    return False


def format_value(value: Any) -> str:
    """Render a python value back into query syntax (inverse of parsing for simple values)."""
    if isinstance(value, list):
        return "[" + ",".join(format_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}={format_value(item)}" for key, item in value.items()) + "}"
    text = str(value)
    if isinstance(value, Unquoted):
        return text
    needs_quotes = (
        not text
        or any(char in text for char in ",[]{}='\"\\")
        or text != text.strip()
        or not isinstance(guess_scalar(Unquoted(text)), str)
    )
    if isinstance(value, str) and needs_quotes:
        escaped = text.replace("\\", "\\\\").replace("'", "\\'")
        return f"'{escaped}'"
    return text


def _typed(value: Any) -> Any:
    """The original's typing of parsed values: numbers, true/false and none typed; quoted strings keep quotes."""
    if isinstance(value, list):
        return [_typed(item) for item in value]
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, Unquoted):
        return guess_scalar(value)
    return f'"{value}"' if isinstance(value, str) else value


def parse_key_equals_value_string_to_dict(args: str) -> Dict[str, Any]:
    """`key=value,...` into a dict, values typed as the original does (`a=1,b=[x,y]` -> {"a": 1, "b": ["x", "y"]})."""
    query = args
    if isinstance(query, str) and not query.strip():
        return {}  # the empty query assigns nothing (as in the original)
    if not isinstance(query, str) or "=" not in query:
        raise OverrideSyntaxError(f"malformed assignment in: {query}")
    return _typed(parse_assignments(query, LOOSE_KEY))


def separate_inside_and_outside_square_brackets(s: str) -> Tuple[str, Any]:
    """`name[key=value,...]` -> (name, typed overrides); a query without brackets -> (query, None)."""
    query = s
    if query.count("[") != query.count("]") or ("]" in query and query.index("]") < query.find("[")):
        raise OverrideSyntaxError("Illegal structure: unmatched square brackets.")
    bracket = query.find("[")
    if bracket < 0:
        return query, None
    name = query[:bracket].strip()
    if not name:
        raise OverrideSyntaxError(f"malformed name at the beginning of: {query}")
    parser = _Parser(query)
    parser.pos = bracket + 1
    try:
        overrides = parser.assignments("]")
    except OverrideSyntaxError as error:
        if "Expected '='" in str(error):  # the original's wording for a term without '=' inside the brackets
            raise OverrideSyntaxError(f"malformed assignment in: {query[bracket + 1:]}") from None
        raise
    parser.expect("]")
    if query[parser.pos:].strip():
        raise OverrideSyntaxError("malformed end of query: excessive text following the ] that closes the overwrites "
                                  f"in: {query!r}")
    return name, _typed(overrides)


def coerce_override(value: Any, annotation: Any, takes_names: Callable[[Any], bool]) -> Any:
    """Coerce a parsed override value (Unquoted strings, lists, dicts) to a field annotation; `takes_names` tells
    whether a type accepts a catalog name (an artifact class), so unquoted text stays text for it."""
    if isinstance(value, list):
        item_type = Any
        for candidate in (annotation, *typing.get_args(annotation)):
            if typing.get_origin(candidate) in (list, tuple) and typing.get_args(candidate):
                item_type = typing.get_args(candidate)[0]
                break
        return [coerce_override(item, item_type, takes_names) for item in value]
    if isinstance(value, dict):
        value_type = Any
        for candidate in (annotation, *typing.get_args(annotation)):
            if typing.get_origin(candidate) is dict and len(typing.get_args(candidate)) == 2:
                value_type = typing.get_args(candidate)[1]
                break
        return {key: coerce_override(item, value_type, takes_names) for key, item in value.items()}
    if not isinstance(value, Unquoted):
        return value
    text = str(value)
    options = typing.get_args(annotation) if typing.get_origin(annotation) is typing.Union else (annotation,)
    if type(None) in options and text.lower() in ("none", "null"):
        return None
    guessed = guess_scalar(value)
    for option in options:
        if option is bool and isinstance(guessed, bool):
            return guessed
        if option is int and isinstance(guessed, int) and not isinstance(guessed, bool):
            return guessed
        if option is float and isinstance(guessed, (int, float)) and not isinstance(guessed, bool):
            return float(guessed)
    if any(option is str or takes_names(option) for option in options):
        return text
    return guessed


# The original's step-by-step query reader (`unitxt.parsing_utils`): each `consume_*` reads one construct from the
# start of a string and returns (what it read, the rest of the string, stripped). Kept for code that calls the steps.
_NAME_STOP = frozenset("[],{}=")


def _is_blank_name(value: Any) -> bool:
    """True for what cannot be a name: None, a number or bool, an empty string."""
    return value is None or isinstance(value, (bool, int, float)) or len(value) == 0


def consume_name_val(instring: str) -> Tuple[Any, str]:
    """Read text up to the first of `[],{}=` as a scalar: true/false (any case), None, an int or float (a leading
    minus kept), else the text itself."""
    end = next((index for index, char in enumerate(instring) if char in _NAME_STOP), len(instring))
    text, rest = instring[:end].strip(), instring[end:].strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true", rest
    if text == "None":
        return None, rest
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    sign = -1 if negative else 1
    if digits.isdigit():
        return sign * int(digits), rest
    if digits.count(".") == 1 and digits.replace(".", "", 1).isdigit():
        return sign * float(digits), rest
    return text, rest


def consume_name(instring: str) -> Tuple[Any, str]:
    """Read a name (non-empty text, not a number, bool or None); a ValueError otherwise."""
    name, rest = consume_name_val(instring)
    if _is_blank_name(name):
        raise ValueError(f"malformed name at the beginning of: {instring}")
    return name, rest


def consume_term(instring: str) -> Tuple[Any, str]:
    """Read a value: `[a,b]` (a list of terms), `{k=v,...}` (a dict), `name[k=v]` (a query, returned as its text,
    resolved later by whoever loads it) or a scalar."""
    if instring.startswith("["):
        items, rest = [], instring
        while True:
            item, rest = consume_term(rest[1:].strip())
            items.append(item)
            if not rest.startswith(","):
                break
        if not rest.startswith("]"):
            raise ValueError(f"malformed list in: {instring}")
        return items, rest[1:].strip()
    if instring.startswith("{"):
        items, rest = consume_overwrites(instring[1:].strip(), "}")
        if not rest.startswith("}"):
            raise ValueError(f"malformed dict in: {instring}")
        return items, rest[1:].strip()
    value, rest = consume_name_val(instring)
    if _is_blank_name(value) or not rest.startswith("["):
        return value, rest
    _, rest = consume_overwrites(rest[1:].strip(), "]")
    if not rest.startswith("]"):
        raise ValueError(f"malformed query as a term in: {instring}")
    rest = rest[1:].strip()
    return instring[:len(instring) - len(rest)], rest


def consume_assignment(instring: str) -> Tuple[Any, str]:
    """Read `name=term` as {name: term}; the term may not be empty."""
    name, rest = consume_name(instring)
    if not rest.startswith("="):
        raise ValueError(f"malformed assignment in: {instring}")
    term, rest = consume_term(rest[1:].strip())
    if isinstance(term, (str, list, dict)) and len(term) == 0:
        raise ValueError(f"malformed assigned value in: {instring}")
    return {name: term}, rest


def consume_overwrites(instring: str, valid_follower: str) -> Tuple[Any, str]:
    """Read comma-separated assignments into one dict ({} when the string starts with `valid_follower`)."""
    if instring.startswith(valid_follower):
        return {}, instring
    result, rest = consume_assignment(instring.strip())
    while rest.startswith(","):
        assignment, rest = consume_assignment(rest[1:].strip())
        result = {**result, **assignment}
    return result, rest


def consume_query(instring: str) -> Tuple[Tuple[str, Any], str]:
    """Read `name` or `name[k=v,...]` as ((name, overrides or None), rest)."""
    name, rest = consume_name(instring)
    if not rest.startswith("["):
        return (name, None), rest
    overrides, rest = consume_overwrites(rest[1:], "]")
    rest = rest.strip()
    if not rest.startswith("]"):
        raise ValueError(f"malformed end of query: overwrites not closed by ] in: {instring}")
    return (name, overrides), rest[1:].strip()
