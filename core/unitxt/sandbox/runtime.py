"""Runtime side of the expression sandbox: size limits, guarded operators and the whitelisted functions and
methods that sandboxed expressions may call (see expressions.py for the validator and the safety argument)."""

import itertools
import json
import math
import re
import time
from typing import Any, Callable, Dict, FrozenSet, Iterator, NamedTuple, Optional

from ..errors import SandboxError


MAX_EXPRESSION_LENGTH = 10_000
MAX_NESTING_DEPTH = 200
MAX_POWER_EXPONENT = 10_000
MAX_INT_BITS = 2**20
MAX_SEQUENCE_LENGTH = 10**7
MAX_RANGE_LENGTH = 10**6
MAX_ITERATIONS = 10**7
MAX_FORMAT_NUMBER = 10_000
MAX_JSON_INDENT = 32
MAX_TEXT_SIZE = 10**7  # characters str()/json.dumps() may produce; nested items sorted() may compare
MAX_SECONDS = 10.0  # wall-clock budget of the comprehensions of one evaluation

_SEQUENCE_TYPES = (str, list, tuple)
_NUMBER_TYPES = (int, float)


# ---------------------------------------------------------------------------
# run-time guards
# ---------------------------------------------------------------------------


class _GuardError(SandboxError):
    """Raised by a run-time guard; re-raised by `evaluate` with the expression named."""

    def __init__(self, message: str):
        super().__init__(message)


def _size(value: Any) -> int:
    return len(value) if isinstance(value, _SEQUENCE_TYPES) else 0


def _text_size(value: Any, limit: int) -> int:
    """An upper estimate of len(str(value)), counted through nested containers (shared ones each time they
    appear) and stopping as soon as it passes `limit`."""
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, int) and not isinstance(item, bool):
            total += item.bit_length() // 3 + 2
        elif isinstance(item, dict):
            total += 2 + 4 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2 + 2 * len(item)
            stack.extend(item)
        else:
            total += 24
        if total > limit:
            return total
    return total


def _check_text_size(value: Any, what: str) -> None:
    if _text_size(value, MAX_TEXT_SIZE) > MAX_TEXT_SIZE:
        raise _GuardError(f"{what} of a value of more than {MAX_TEXT_SIZE} characters/items is not allowed")


def _guarded_str(*args: Any) -> str:
    if args:
        _check_text_size(args[0], "str()")
    return str(*args)


def _guarded_sorted(iterable: Any, **kwargs: Any) -> list:
    items = list(iterable)
    _check_text_size(items, "sorted()")
    return sorted(items, **kwargs)


def _guarded_zip(*iterables: Any, **kwargs: Any) -> Any:
    lengths = [len(item) for item in iterables if isinstance(item, _SEQUENCE_TYPES)]
    if len(lengths) == len(iterables) and iterables and min(lengths) * len(iterables) > MAX_SEQUENCE_LENGTH:
        raise _GuardError(f"zip() producing more than {MAX_SEQUENCE_LENGTH} items is not allowed")
    return zip(*iterables, **kwargs)


def _materialized(iterables: Any) -> list:
    items = [list(item) for item in iterables]
    if sum(len(item) for item in items) > MAX_SEQUENCE_LENGTH:
        raise _GuardError(f"itertools over more than {MAX_SEQUENCE_LENGTH} items is not allowed")
    return items


def _guarded_product(*iterables: Any, repeat: int = 1) -> list:
    """itertools.product as a list, refused when it would hold more than MAX_SEQUENCE_LENGTH tuples."""
    pools = _materialized(iterables) * int(repeat)
    if math.prod(len(pool) for pool in pools) > MAX_SEQUENCE_LENGTH:
        raise _GuardError(f"itertools.product() producing more than {MAX_SEQUENCE_LENGTH} tuples is not allowed")
    return list(itertools.product(*pools))


def _guarded_chain(*iterables: Any) -> list:
    return [item for pool in _materialized(iterables) for item in pool]


def _guarded_combinatorics(function: Callable) -> Callable:
    def call(iterable: Any, r: Optional[int] = None) -> list:
        pool = _materialized([iterable])[0]
        size = len(pool) if r is None else int(r)
        count = math.perm(len(pool), size) if function is itertools.permutations else math.comb(len(pool), size)
        if count > MAX_SEQUENCE_LENGTH:
            raise _GuardError(f"itertools.{function.__name__}() producing more than {MAX_SEQUENCE_LENGTH} tuples "
                              "is not allowed")
        return list(function(pool, size))

    return call


_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]")


def _guarded_regex(function: Callable) -> Callable:
    """re.<function> refusing patterns with a quantified group that itself holds a quantifier ("(a+)+"), the shape
    of catastrophic backtracking, and texts longer than MAX_SEQUENCE_LENGTH."""

    def call(pattern: Any, string: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(pattern, str) and _NESTED_QUANTIFIER.search(pattern):
            raise _GuardError(f"regex {pattern[:60]!r} repeats a group that holds a repetition (catastrophic "
                              "backtracking); rewrite it without nested quantifiers")
        if isinstance(string, str) and len(string) > MAX_SEQUENCE_LENGTH:
            raise _GuardError(f"regex on a text longer than {MAX_SEQUENCE_LENGTH} characters is not allowed")
        return function(pattern, string, *args, **kwargs)

    return call


def _guarded_add(left: Any, right: Any) -> Any:
    result = left + right
    if (
        isinstance(result, _SEQUENCE_TYPES)
        and len(result) > MAX_SEQUENCE_LENGTH
        and len(result) > max(_size(left), _size(right))
    ):
        raise _GuardError(
            f"concatenation producing {len(result)} items (more than {MAX_SEQUENCE_LENGTH}) is not allowed"
        )
    return result


def _guarded_mul(left: Any, right: Any) -> Any:
    if isinstance(left, int) and isinstance(right, _SEQUENCE_TYPES):
        count, sequence = left, right
    elif isinstance(right, int) and isinstance(left, _SEQUENCE_TYPES):
        count, sequence = right, left
    else:
        count, sequence = None, None
    if sequence is not None:
        if count > 1 and len(sequence) * count > MAX_SEQUENCE_LENGTH:
            raise _GuardError(
                f"sequence repetition producing {len(sequence) * count} items "
                f"(more than {MAX_SEQUENCE_LENGTH}) is not allowed"
            )
    elif isinstance(left, int) and isinstance(right, int):
        if left.bit_length() + right.bit_length() > MAX_INT_BITS:
            raise _GuardError(f"integer multiplication producing more than {MAX_INT_BITS} bits is not allowed")
    return left * right


def _guarded_pow(base: Any, exponent: Any) -> Any:
    if isinstance(exponent, _NUMBER_TYPES) and isinstance(base, _NUMBER_TYPES):
        if exponent > MAX_POWER_EXPONENT:
            raise _GuardError(f"'**' with an exponent larger than {MAX_POWER_EXPONENT} is not allowed")
        if (
            isinstance(base, int)
            and isinstance(exponent, int)
            and exponent > 1
            and base.bit_length() * exponent > MAX_INT_BITS
        ):
            raise _GuardError(f"'**' producing an integer of more than {MAX_INT_BITS} bits is not allowed")
    return base**exponent


def _guarded_lshift(value: Any, shift: Any) -> Any:
    if isinstance(value, int) and isinstance(shift, int) and value and value.bit_length() + shift > MAX_INT_BITS:
        raise _GuardError(f"'<<' producing an integer of more than {MAX_INT_BITS} bits is not allowed")
    return value << shift


def _guarded_mod(left: Any, right: Any) -> Any:
    if isinstance(left, (str, bytes)):
        raise _GuardError("printf-style '%' string formatting is not allowed (use an f-string)")
    return left % right


def _guarded_range(*args: Any) -> range:
    result = range(*args)
    try:
        length = len(result)
    except OverflowError:
        length = MAX_RANGE_LENGTH + 1
    if length > MAX_RANGE_LENGTH:
        raise _GuardError(f"range() longer than {MAX_RANGE_LENGTH} is not allowed")
    return result


def _guarded_sum(iterable: Any, start: Any = 0) -> Any:
    if not isinstance(start, (int, float, complex)):
        raise _GuardError("sum() with a non-numeric start is not allowed")
    return sum(iterable, start)


def _guarded_round(number: Any, ndigits: Any = None) -> Any:
    if ndigits is None:
        return round(number)
    if isinstance(ndigits, int) and abs(ndigits) > MAX_FORMAT_NUMBER:
        raise _GuardError(f"round() with |ndigits| larger than {MAX_FORMAT_NUMBER} is not allowed")
    return round(number, ndigits)


def _check_format_spec(spec: str) -> None:
    for digits in re.findall(r"\d+", spec):
        stripped = digits.lstrip("0")
        if len(stripped) > 6 or (stripped and int(stripped) > MAX_FORMAT_NUMBER):
            raise _GuardError(f"format spec {spec[:50]!r} with a number larger than {MAX_FORMAT_NUMBER} is not allowed")


def _format_value(value: Any, spec: str, conversion: int) -> str:
    if conversion == ord("s"):
        value = str(value)
    elif conversion == ord("r"):
        value = repr(value)
    elif conversion == ord("a"):
        value = ascii(value)
    _check_format_spec(spec)
    return format(value, spec)


def _str_replace(string: str, old: Any, new: Any, count: Any = -1) -> str:
    if isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
        occurrences = string.count(old) if old else len(string) + 1
        if isinstance(count, int) and count >= 0:
            occurrences = min(occurrences, count)
        if len(string) + occurrences * (len(new) - len(old)) > MAX_SEQUENCE_LENGTH:
            raise _GuardError(f"str.replace() producing more than {MAX_SEQUENCE_LENGTH} characters is not allowed")
    return str.replace(string, old, new, count)


def _str_join(separator: str, iterable: Any) -> str:
    items = list(iterable)
    total = len(separator) * max(len(items) - 1, 0) + sum(len(item) for item in items if isinstance(item, str))
    if len(items) > 1 and total > MAX_SEQUENCE_LENGTH:
        raise _GuardError(f"str.join() producing more than {MAX_SEQUENCE_LENGTH} characters is not allowed")
    return str.join(separator, items)


def _re_sub(pattern: Any, repl: Any, string: Any, count: int = 0, flags: int = 0) -> str:
    if not isinstance(repl, str):
        raise _GuardError("re.sub() replacement must be a string")
    compiled = re.compile(pattern, flags)
    growth = [0]
    limit = MAX_SEQUENCE_LENGTH - len(string)

    def expand(match: "re.Match") -> str:
        replacement = match.expand(repl)
        growth[0] += len(replacement) - (match.end() - match.start())
        if growth[0] > 0 and growth[0] > limit:
            raise _GuardError(f"re.sub() producing more than {MAX_SEQUENCE_LENGTH} characters is not allowed")
        return replacement

    return compiled.sub(expand, string, count)


def _guarded_sub(pattern: Any, repl: Any, string: Any, count: int = 0, flags: int = 0) -> str:
    _guarded_regex(lambda *_: None)(pattern, string)  # the same pattern and text checks as the other re functions
    return _re_sub(pattern, repl, string, count, flags)


def _json_dumps(
    obj: Any, *, indent: Any = None, sort_keys: bool = False, ensure_ascii: bool = True, separators: Any = None
) -> str:
    if indent is not None and not (
        (isinstance(indent, int) and 0 <= indent <= MAX_JSON_INDENT)
        or (isinstance(indent, str) and len(indent) <= MAX_JSON_INDENT)
    ):
        raise _GuardError(f"json.dumps() indent must be None, an int or a str of at most {MAX_JSON_INDENT}")
    if separators is not None and any(len(str(part)) > MAX_JSON_INDENT for part in separators):
        raise _GuardError(f"json.dumps() separators longer than {MAX_JSON_INDENT} are not allowed")
    _check_text_size(obj, "json.dumps()")
    return json.dumps(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii, separators=separators)


class _IterationBudget:
    """Counts comprehension iterations of one evaluation and their wall-clock time (checked every 1,024)."""

    __slots__ = ("remaining", "deadline")

    def __init__(self) -> None:
        self.remaining = MAX_ITERATIONS
        self.deadline = time.monotonic() + MAX_SECONDS

    def iterate(self, iterable: Any) -> Iterator[Any]:
        for item in iterable:
            self.remaining -= 1
            if self.remaining < 0:
                raise _GuardError(f"comprehensions running more than {MAX_ITERATIONS} iterations are not allowed")
            if not self.remaining & 1023 and time.monotonic() > self.deadline:
                raise _GuardError(f"comprehensions running longer than {MAX_SECONDS:g} seconds are not allowed")
            yield item


# ---------------------------------------------------------------------------
# whitelists
# ---------------------------------------------------------------------------


class _Function(NamedTuple):
    implementation: Callable
    keywords: Optional[FrozenSet[str]]  # None: any keyword (dict(a=1))


def _fn(implementation: Callable, *keywords: str) -> _Function:
    return _Function(implementation, frozenset(keywords))


_FUNCTIONS: Dict[str, _Function] = {
    "len": _fn(len),
    "str": _fn(_guarded_str),
    "int": _fn(int, "base"),
    "float": _fn(float),
    "bool": _fn(bool),
    "abs": _fn(abs),
    "min": _fn(min, "key", "default"),
    "max": _fn(max, "key", "default"),
    "sum": _fn(_guarded_sum, "start"),
    "round": _fn(_guarded_round, "ndigits"),
    "sorted": _fn(_guarded_sorted, "key", "reverse"),
    "any": _fn(any),
    "all": _fn(all),
    "list": _fn(list),
    "dict": _Function(dict, None),
    "tuple": _fn(tuple),
    "set": _fn(set),
    "range": _fn(_guarded_range),
    "enumerate": _fn(enumerate, "start"),
    "zip": _fn(_guarded_zip, "strict"),
    "reversed": _fn(reversed),
}

_MODULES: Dict[str, Dict[str, _Function]] = {
    "re": {
        "search": _fn(_guarded_regex(re.search), "flags"),
        "match": _fn(_guarded_regex(re.match), "flags"),
        "fullmatch": _fn(_guarded_regex(re.fullmatch), "flags"),
        "findall": _fn(_guarded_regex(re.findall), "flags"),
        "split": _fn(_guarded_regex(re.split), "maxsplit", "flags"),
        "sub": _fn(_guarded_sub, "count", "flags"),
    },
    "math": {
        name: _fn(getattr(math, name))
        for name in ("floor", "ceil", "sqrt", "log", "log2", "log10", "exp", "isnan", "isinf", "fabs")
    },
    "itertools": {
        "product": _fn(_guarded_product, "repeat"),
        "chain": _fn(_guarded_chain),
        "combinations": _fn(_guarded_combinatorics(itertools.combinations)),
        "permutations": _fn(_guarded_combinatorics(itertools.permutations)),
    },
    "json": {
        "loads": _fn(json.loads),
        "dumps": _fn(_json_dumps, "indent", "sort_keys", "ensure_ascii", "separators"),
    },
}

# keywords whose value the function calls: must statically be a whitelisted function (or None)
_CALLABLE_KEYWORDS = frozenset({"key"})

_RESERVED_NAMES = frozenset(_FUNCTIONS) | frozenset(_MODULES)

_STR_METHODS: Dict[str, Callable] = {
    name: getattr(str, name)
    for name in (
        "lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines",
        "startswith", "endswith", "capitalize", "title", "casefold", "find", "rfind", "index", "count",
        "removeprefix", "removesuffix",
        "isdigit", "isalpha", "isalnum", "isspace", "isnumeric", "islower", "isupper",
    )
    if hasattr(str, name)
}  # fmt: skip
_STR_METHODS["replace"] = _str_replace
_STR_METHODS["join"] = _str_join

_SEQUENCE_METHODS = {"index", "count"}
_METHODS_BY_TYPE: Dict[type, Dict[str, Callable]] = {
    str: _STR_METHODS,
    dict: {name: getattr(dict, name) for name in ("get", "keys", "values", "items")},
    list: {name: getattr(list, name) for name in _SEQUENCE_METHODS},
    tuple: {name: getattr(tuple, name) for name in _SEQUENCE_METHODS},
    re.Match: {name: getattr(re.Match, name) for name in ("group", "groups", "groupdict", "start", "end", "span")},
}
_METHOD_NAMES = frozenset(name for table in _METHODS_BY_TYPE.values() for name in table)
_FORMAT_METHODS = frozenset({"format", "format_map"})


def _call_method(obj: Any, name: str, /, *args: Any, **kwargs: Any) -> Any:
    """Call the whitelisted method `name` of the builtin type of `obj` (never `obj.name`)."""
    table = _METHODS_BY_TYPE.get(type(obj))
    if table is None:
        for base, candidate in _METHODS_BY_TYPE.items():
            if isinstance(obj, base):
                table = candidate
                break
    method = table.get(name) if table is not None else None
    if method is None:
        raise _GuardError(f"method '{name}' is not allowed on a value of type '{type(obj).__name__}'")
    return method(obj, *args, **kwargs)
