"""Access to nested instance fields by `/`-separated paths (`translation/en`, `answer/0`, `spans/*/start`).

Path rules (the original's): a key that literally holds `/` is found as is; a leading `/` and doubled `/` are
ignored; a trailing `/` means every element (`*`); numeric parts index lists (negative allowed) and strings."""

import copy
import re
from typing import Any, Dict, List, Tuple, Union

from .errors import MissingFieldError
from .module_aliases import moved_classes

PathParts = List[Union[str, int]]
_PART = re.compile(r"^(\*|[\w\-. ]+)$")
_INT = re.compile(r"^-?\d+$")


class _Fail(Exception):
    """A path that does not lead anywhere (internal; becomes MissingFieldError or the default)."""


class _SizeMismatch(_Fail):
    """set_multiple: the values do not fit the elements (the original leaves the data untouched, without an error)."""


def split_path(path: str) -> PathParts:
    """Split a field path into its parts; numeric parts become ints. Raises MissingFieldError (a ValueError) for a
    path that names nothing ('/') or holds characters other than letters, digits, '_', '-', '.', ' ' and a lone '*'."""
    if not isinstance(path, str):
        raise MissingFieldError(f"A field path must be a string, got {type(path).__name__} {path!r}.", field=path)
    text = path.strip()
    if text.endswith("/") and text.strip("/"):
        text += "*"
    parts: PathParts = []
    for raw in text.split("/"):
        part = raw.strip()
        if not part:
            continue
        if not _PART.match(part):
            raise MissingFieldError(f"Field path '{path}' is malformed: part '{part}' may hold only letters, digits, "
                                    "'_', '-', '.', spaces, or be a lone '*'.", field=path)
        parts.append(int(part) if _INT.match(part) else part)
    if not parts:
        raise MissingFieldError(f"Field path '{path}' names no field.", field=path)
    return parts


class DefaultPlaceHolder:
    """The original's class of "no default given" markers: its operators compare a default with an instance of it."""


def _dict_key(container: Dict[Any, Any], part: Union[str, int]) -> Any:
    """The dict key for a path part: an int part matches an int key, else its string form."""
    if isinstance(part, int) and part not in container and str(part) in container:
        return str(part)
    return part


def _get(node: Any, parts: PathParts) -> Any:
    head, rest = parts[0], parts[1:]
    if head == "*":
        if not isinstance(node, (dict, list)):
            raise _Fail
        children = list(node.values()) if isinstance(node, dict) else list(node)
        if not rest:
            return children
        if not children:
            raise _Fail
        found = []
        for child in children:
            try:
                found.append(_get(child, rest))
            except _Fail:
                continue
        if not found:
            raise _Fail
        return found
    if isinstance(node, dict):
        key = _dict_key(node, head)
        if key not in node:
            raise _Fail
        value = node[key]
    elif isinstance(node, (list, tuple, str)) and isinstance(head, int):
        try:
            value = node[head]
        except IndexError:
            raise _Fail from None
    else:
        raise _Fail
    return _get(value, rest) if rest else value


def dict_get(dic: Any, query: str, not_exist_ok: bool = False, default: Any = None,
             allow_int_index: bool = True) -> Any:
    """Value at path. A missing path raises MissingFieldError naming it and the available keys, unless `not_exist_ok`
    (then `default`), as the original. `*` collects the values under every element that has the rest of the path
    (`spans/*/start`). The empty path is the instance itself."""
    instance, path = dic, query
    key = path.strip() if isinstance(path, str) else path
    if key == "":
        return instance
    if isinstance(instance, dict) and key in instance:
        return instance[key]
    parts = split_path(path)
    try:
        if len(parts) == 1:
            if not isinstance(instance, dict) or parts[0] == "*":
                raise _Fail
            return _get(instance, parts)
        return _get(instance, parts)
    except _Fail:
        if not_exist_ok:
            return default
        raise _missing(instance, path) from None


def dict_has(instance: Dict[str, Any], path: str) -> bool:
    marker = object()
    return dict_get(instance, path, not_exist_ok=True, default=marker) is not marker


def _fresh(following: Union[str, int]) -> Any:
    """A new container for a part to go into: a list for an index or `*`, else a dict."""
    return [] if following == "*" or isinstance(following, int) else {}


def _put(node: Any, parts: PathParts, value: Any, create: bool, spread: bool) -> Any:
    """Set value at parts under node; returns node (or the container that replaced it). `spread`: the first `*`
    hands the i-th item of value to the i-th element. Raises _Fail where the path is missing and not `create`."""
    head, rest = parts[0], parts[1:]
    if isinstance(node, tuple):  # e.g. a pair ZipFieldValues made: a list with its items, so one can be set
        node = list(node)

    def below(child: Any, item: Any, spread_on: bool) -> Any:
        return _put(child, rest, item, create, spread_on) if rest else item

    if head == "*":
        if not isinstance(node, (dict, list)):
            if not create:
                raise _Fail
            node = []
        keys = (sorted(node) if spread else list(node)) if isinstance(node, dict) else list(range(len(node)))
        if spread:
            if len(value) != len(keys):
                if not create:
                    raise _Fail
                if isinstance(node, dict) or len(node) > len(value):
                    raise _SizeMismatch
                node.extend([None] * (len(value) - len(node)))
                keys = list(range(len(node)))
            for index, key in enumerate(keys):
                node[key] = below(node[key], value[index], False)
            return node
        if isinstance(node, list) and not node:
            node.append(below(None, value, False))
            return node
        done = 0
        for key in keys:
            try:
                node[key] = below(node[key], value, False)
                done += 1
            except _Fail:
                continue
        if keys and not done:
            raise _Fail
        return node
    if isinstance(node, dict) and (not isinstance(head, int) or _dict_key(node, head) in node):
        key = _dict_key(node, head)
        if key not in node and not create:
            raise _Fail
        child = node.get(key)
        node[key] = below(child if key in node else None, value, spread)
        return node
    if isinstance(node, list) and isinstance(head, int):
        if -len(node) <= head < len(node):
            node[head] = below(node[head], value, spread)
        elif not create:
            raise _Fail
        elif head >= len(node):
            node.extend([None] * (head - len(node)))
            node.append(below(None, value, spread))
        return node
    if not create:
        raise _Fail
    return _put(_fresh(head), parts, value, create, spread)


def dict_set(dic: Any, query: str, value: Any, not_exist_ok: bool = True, set_multiple: bool = False,
             allow_int_index: bool = True) -> None:
    """Set the value at path. With `not_exist_ok` (the default) missing parts are created (a list where the next part
    is an index or `*`, padded with None; else a dict) and a non-container in the way is replaced; without it the
    path must exist and nothing changes on failure. A `*` sets every element; with `set_multiple` the i-th item of
    the list `value` goes to the i-th element (dict keys in sorted order). The empty path replaces the instance's
    content by value (same container type)."""
    instance, path = dic, query
    key = path.strip() if isinstance(path, str) else path
    if key == "":
        if isinstance(instance, dict) and isinstance(value, dict):
            instance.clear()
            instance.update(value)
        elif isinstance(instance, list) and isinstance(value, list):
            instance[:] = value
        else:
            raise MissingFieldError(f"Setting the empty path replaces the whole {type(instance).__name__}, so the new "
                                    f"value must be one too, got {type(value).__name__}.", field=path)
        return
    if isinstance(instance, dict) and key in instance:
        instance[key] = value
        return
    parts = split_path(path)
    if set_multiple and not isinstance(value, list):
        raise MissingFieldError(f"set_multiple needs a list of values for '{path}', got {type(value).__name__}.",
                                field=path)
    if not isinstance(instance, (dict, list)):
        raise _missing(instance, path)
    if not not_exist_ok:
        try:
            _put(copy.deepcopy(instance), parts, value, False, set_multiple)
        except _Fail:
            raise _missing(instance, path) from None
    try:
        _put(instance, parts, value, not_exist_ok, set_multiple)
    except _SizeMismatch:
        return  # as the original: such a mismatch leaves the data untouched
    except _Fail:
        raise _missing(instance, path) from None


def _empty(value: Any) -> bool:
    return isinstance(value, (dict, list)) and not value


def _remove(node: Any, parts: PathParts, prune: bool) -> None:
    head, rest = parts[0], parts[1:]
    if head == "*":
        if not isinstance(node, (dict, list)):
            raise _Fail
        if not rest:
            node.clear()
            return
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        done = [key for key in keys if _try_remove(node[key], rest, prune)]
        if not done:
            raise _Fail
        if prune:
            for key in reversed(done):
                if _empty(node[key]):
                    del node[key]
        return
    if isinstance(node, dict):
        key = _dict_key(node, head)
        if key not in node:
            raise _Fail
    elif isinstance(node, list) and isinstance(head, int) and -len(node) <= head < len(node):
        key = head
    else:
        raise _Fail
    if not rest:
        del node[key]
        return
    _remove(node[key], rest, prune)
    if prune and _empty(node[key]):
        del node[key]


def _try_remove(node: Any, parts: PathParts, prune: bool) -> bool:
    try:
        _remove(node, parts, prune)
        return True
    except _Fail:
        return False


def dict_delete(dic: Any, query: str, not_exist_ok: bool = False, remove_empty_ancestors: bool = False,
                allow_int_index: bool = True) -> None:
    """Remove the value at path (`*` removes it under every element that has it). With `remove_empty_ancestors`,
    containers left empty by the removal go too."""
    instance, path = dic, query
    key = path.strip() if isinstance(path, str) else path
    if key == "" or not isinstance(instance, (dict, list)):
        raise MissingFieldError(f"Can not delete '{path}' from a {type(instance).__name__}: the path must name a "
                                "field of a dict or list.", field=path)
    if isinstance(instance, dict) and key in instance:
        del instance[key]
        return
    parts = split_path(path)
    if not _try_remove(instance, parts, remove_empty_ancestors) and not not_exist_ok:
        raise _missing(instance, path)


def dict_diff_string(dict1: Dict[str, Any], dict2: Dict[str, Any], max_diff: int = 200) -> str:
    """The keys added, removed and changed from dict1 to dict2, one " - key (kind): value" line each (values whose
    text is longer than `max_diff` characters are left out): how a changed catalog artifact is reported."""
    def line(key: Any, value: Any, label: str) -> str:
        text = str(value)
        return f" - {key} ({label}): {text}" if len(text) <= max_diff else f" - {key} ({label})"

    lines = [line(key, dict2[key], "added") for key in dict2.keys() - dict1.keys()]
    lines += [line(key, dict1[key], "removed") for key in dict1.keys() - dict2.keys()]
    for key in dict1.keys() & dict2.keys():
        before, after = str(dict1[key]), str(dict2[key])
        if before != after:
            short = len(before) <= max_diff and len(after) <= 200  # the original caps the new value at 200
            lines.append(f" - {key} (changed): {before} -> {after}" if short else f" - {key} (changed)")
    return "\n".join(lines)


def _missing(instance: Any, path: str) -> MissingFieldError:
    """The error of a path that matches nothing: the original's words, with the instance shown field by field."""
    if not isinstance(instance, dict):
        return MissingFieldError(f"Field '{path}' not found in a {type(instance).__name__}.", field=path)
    from .text_utils import to_pretty_string

    return MissingFieldError(f'query "{path}" did not match any item in dict:\n' + to_pretty_string(instance),
                             field=path)


_INDEX = re.compile(r"^-?\d+$")
_NAME = re.compile(r"^[\w. -]+$")


def is_index(string: str) -> bool:
    """Whether a path component is a (possibly negative) list index."""
    return bool(_INDEX.match(string))


def is_name(string: str) -> bool:
    """Whether a path component is a field name of the original's path syntax (word characters, '.', ' ', '-')."""
    return bool(_NAME.match(string))


def is_wildcard(string: str) -> bool:
    return string == "*"


def validate_query_and_break_to_components(query: str, allow_int_index: bool = True) -> List[str]:
    """The components of a path in the original's strict syntax ("a/0/*"): a leading "/" is dropped, a trailing one
    means "/*"; ValueError for an empty query or a component that is no name, index or "*"."""
    if not isinstance(query, str) or not query:
        raise ValueError(f"invalid query: either not a string or an empty string: {query}")
    query = query.replace("//", "/").strip()
    query = query[1:] if query.startswith("/") else query
    query = query + "*" if query.endswith("/") else query
    components = [component.strip() for component in query.split("/")]
    for component in components:
        if not (is_name(component) or is_wildcard(component) or (allow_int_index and is_index(component))):
            raise ValueError(f"Component {component} in input query is none of: valid field-name, non-neg-int, or '*'")
    return components


def is_subpath(subpath: str, fullpath: str, allow_int_index: bool = True) -> bool:
    """Whether path `fullpath` starts with the components of `subpath`."""
    sub = validate_query_and_break_to_components(subpath, allow_int_index)
    return validate_query_and_break_to_components(fullpath, allow_int_index)[:len(sub)] == sub


# The original's recursive steps behind dict_get / dict_set / dict_delete: they walk `query` (a list of components,
# from validate_query_and_break_to_components) from position `index_into_query` (negative, counted from the end, as
# the original starts them at -len(query)) and return (whether the path matched, the resulting value or element).
def _remaining_parts(query: List[str], index_into_query: int, allow_int_index: bool) -> PathParts:
    """The components still to walk, indexes as ints (when allowed)."""
    return [int(part) if allow_int_index and is_index(part) else part for part in query[index_into_query:]]


def get_values(current_element: Any, query: List[str], index_into_query: int,
               allow_int_index: bool = True) -> Tuple[bool, Any]:
    """(True, the value the rest of the query leads to; a list under `*`) or (False, None)."""
    if index_into_query == 0:
        return True, current_element
    try:
        return True, _get(current_element, _remaining_parts(query, index_into_query, allow_int_index))
    except _Fail:
        return False, None


def set_values(current_element: Any, value: Any, index_into_query: int, fixed_parameters: dict,
               set_multiple: bool = False, allow_int_index: bool = True) -> Tuple[bool, Any]:
    """Set `value` where the rest of fixed_parameters["query"] leads, creating missing parts when
    fixed_parameters["generate_if_not_exists"]; (True, the updated element) or (False, None)."""
    if index_into_query == 0:
        return True, value
    parts = _remaining_parts(fixed_parameters["query"], index_into_query, allow_int_index)
    try:
        return True, _put(current_element, parts, value, bool(fixed_parameters["generate_if_not_exists"]),
                          set_multiple)
    except (_Fail, TypeError, IndexError):
        return False, None


def delete_values(current_element: Any, query: List[str], index_into_query: int, remove_empty_ancestors: bool = False,
                  allow_int_index: bool = True) -> Tuple[bool, Any]:
    """Remove what the rest of the query leads to; (True, the updated element) or (False, None)."""
    try:
        _remove(current_element, _remaining_parts(query, index_into_query, allow_int_index), remove_empty_ancestors)
        return True, current_element
    except (_Fail, TypeError):
        return False, None


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
