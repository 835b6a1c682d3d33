"""Access to nested instance fields by `/`-separated paths (`translation/en`, `answer/0`)."""

from typing import Any, Dict, List, Union

from .errors import MissingFieldError

PathParts = List[Union[str, int]]


def split_path(path: str) -> PathParts:
    """Split a field path into keys; numeric parts index lists (negative indices allowed)."""
    parts: PathParts = []
    for part in path.split("/"):
        if part.lstrip("-").isdigit():
            parts.append(int(part))
        else:
            parts.append(part)
    return parts


def _dict_key(container: Dict[Any, Any], part: Union[str, int]) -> Any:
    """The key to use in a dict for a path part: numeric parts match int keys, else their string form."""
    if isinstance(part, int) and part not in container:
        return str(part)
    return part


def _step(container: Any, part: Union[str, int]) -> Any:
    if isinstance(container, dict):
        return container[_dict_key(container, part)]
    if isinstance(container, (list, tuple)) and isinstance(part, int):
        return container[part]
    raise KeyError(part)


def _wildcard_paths(instance: Dict[str, Any], path: str) -> Union[List[str], None]:
    """For a path with a `*` part (`spans/*/start`), the concrete paths of the first `*`, one per list element (or
    dict key); None when the path has no wildcard. The rest of the path may hold further wildcards."""
    parts = path.split("/")
    if "*" not in parts:
        return None
    position = parts.index("*")
    prefix, rest = "/".join(parts[:position]), parts[position + 1:]
    container = dict_get(instance, prefix) if prefix else instance
    keys = range(len(container)) if isinstance(container, (list, tuple)) else list(container) \
        if isinstance(container, dict) else None
    if keys is None:
        raise MissingFieldError(f"Field path '{path}': '{prefix}' is a {type(container).__name__}, not a list or "
                                "dict, so '*' can not expand.", field=path)
    return ["/".join([part for part in [prefix, str(key), *rest] if part != ""]) for key in keys]


def dict_get(instance: Dict[str, Any], path: str, default: Any = MissingFieldError) -> Any:
    """Value at path; raises MissingFieldError naming the path and the available keys unless a default is given.
    A `*` part collects the values under every element: `spans/*/start` -> [start of each span]."""
    if "*" in path:
        try:
            concrete = _wildcard_paths(instance, path)
        except MissingFieldError:
            if default is not MissingFieldError:
                return default
            raise
        if concrete is not None:
            return [dict_get(instance, item, default) for item in concrete]
    if "/" not in path:
        try:
            return instance[path]
        except KeyError:
            if default is not MissingFieldError:
                return default
            raise _missing(instance, path) from None
    value: Any = instance
    for part in split_path(path):
        try:
            value = _step(value, part)
        except (KeyError, IndexError, TypeError):
            if default is not MissingFieldError:
                return default
            raise _missing(instance, path) from None
    return value


def dict_has(instance: Dict[str, Any], path: str) -> bool:
    marker = object()
    return dict_get(instance, path, default=marker) is not marker


def dict_set(instance: Dict[str, Any], path: str, value: Any, set_multiple: bool = False) -> None:
    """Set the value at path, creating intermediate dicts as needed (list indices must exist). A `*` part sets
    every element: the same value, or with `set_multiple` the i-th item of the list `value` in the i-th element."""
    concrete = _wildcard_paths(instance, path) if "*" in path else None
    if concrete is not None:
        if set_multiple:
            if not isinstance(value, list) or len(value) != len(concrete):
                raise MissingFieldError(f"set_every_value needs a list of {len(concrete)} values for '{path}', got "
                                        f"{type(value).__name__} {str(value)[:80]}.", field=path)
            for item_path, item in zip(concrete, value):
                dict_set(instance, item_path, item)
        else:
            for item_path in concrete:
                dict_set(instance, item_path, value)
        return
    if "/" not in path:
        instance[path] = value
        return
    parts = split_path(path)
    container: Any = instance
    for part in parts[:-1]:
        if isinstance(container, dict):
            key = _dict_key(container, part)
            if key not in container:
                container[key] = {}
            container = container[key]
        elif isinstance(container, list) and isinstance(part, int):
            container = container[part]
        else:
            raise _missing(instance, path)
    last = parts[-1]
    if isinstance(container, list) and isinstance(last, int):
        if last == len(container):
            container.append(value)
        else:
            container[last] = value
    elif isinstance(container, dict):
        container[_dict_key(container, last)] = value
    else:
        raise _missing(instance, path)


def dict_delete(instance: Dict[str, Any], path: str, not_exist_ok: bool = False) -> None:
    """Remove the value at path (a `*` part removes it under every element)."""
    concrete = _wildcard_paths(instance, path) if "*" in path else None
    if concrete is not None:
        for item_path in concrete:
            dict_delete(instance, item_path, not_exist_ok)
        return
    parts = split_path(path) if "/" in path else [path]
    container: Any = instance
    try:
        for part in parts[:-1]:
            container = _step(container, part)
        last = parts[-1]
        del container[_dict_key(container, last) if isinstance(container, dict) else last]
    except (KeyError, IndexError, TypeError):
        if not not_exist_ok:
            raise _missing(instance, path) from None


def _missing(instance: Any, path: str) -> MissingFieldError:
    available = ", ".join(map(str, instance.keys())) if isinstance(instance, dict) else type(instance).__name__
    return MissingFieldError(f"Field '{path}' not found in instance. Available fields: {available}.", field=path)
