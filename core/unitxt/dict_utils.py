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


_MISSING = MissingFieldError  # the "no default given" marker


def _every_element(path: str) -> str:
    """A trailing '/' (`references/`) means every element, as `references/*` (the original's reading)."""
    return path + "*" if path.endswith("/") and len(path) > 1 else path


def dict_get(instance: Dict[str, Any], path: str, not_exist_ok: bool = False, default: Any = _MISSING,
             allow_int_index: bool = True) -> Any:
    """Value at path; raises MissingFieldError naming the path and the available keys, unless `not_exist_ok` (then
    `default`, None if not given) or a `default` is given. A `*` part (or a trailing '/') collects the values under
    every element: `spans/*/start` -> [start of each span]."""
    if default is _MISSING and not_exist_ok:
        default = None
    path = _every_element(path)
    if "*" in path:
        try:
            concrete = _wildcard_paths(instance, path)
        except MissingFieldError:
            if default is not _MISSING:
                return default
            raise
        if concrete is not None:
            return [dict_get(instance, item, default=default) for item in concrete]
    if "/" not in path:
        try:
            return instance[path]
        except (KeyError, TypeError):
            if default is not _MISSING:
                return default
            raise _missing(instance, path) from None
    value: Any = instance
    for part in split_path(path):
        try:
            value = _step(value, part)
        except (KeyError, IndexError, TypeError):
            if default is not _MISSING:
                return default
            raise _missing(instance, path) from None
    return value


def dict_has(instance: Dict[str, Any], path: str) -> bool:
    marker = object()
    return dict_get(instance, path, default=marker) is not marker


def dict_set(instance: Dict[str, Any], path: str, value: Any, not_exist_ok: bool = True, set_multiple: bool = False,
             allow_int_index: bool = True) -> None:
    """Set the value at path. With `not_exist_ok` (the default) missing parts are created: a list where the next part
    is an index (padded with None up to it), else a dict; without it the path must already exist. A `*` part (or a
    trailing '/') sets every element: the same value, or with `set_multiple` the i-th item of the list `value` in the
    i-th element."""
    path = _every_element(path)
    concrete = _wildcard_paths(instance, path) if "*" in path else None
    if concrete is not None:
        if set_multiple:
            if not isinstance(value, list) or len(value) != len(concrete):
                raise MissingFieldError(f"set_every_value needs a list of {len(concrete)} values for '{path}', got "
                                        f"{type(value).__name__} {str(value)[:80]}.", field=path)
            for item_path, item in zip(concrete, value):
                dict_set(instance, item_path, item, not_exist_ok)
        else:
            for item_path in concrete:
                dict_set(instance, item_path, value, not_exist_ok)
        return
    if not not_exist_ok and not dict_has(instance, path):
        raise _missing(instance, path)
    if "/" not in path:
        instance[path] = value
        return
    parts = split_path(path)
    container: Any = instance
    for part, following in zip(parts[:-1], parts[1:]):
        make = list if isinstance(following, int) and following >= 0 else dict
        container = _child(container, part, make, instance, path)
    _assign(container, parts[-1], value, instance, path)


def _child(container: Any, part: Union[str, int], make: Any, instance: Dict[str, Any], path: str) -> Any:
    """The container under `part`, created (by `make`) when missing; a tuple there becomes a list (with the same
    items) so that an item can be set in it (e.g. in the pairs ZipFieldValues makes)."""
    if isinstance(container, dict):
        key = _dict_key(container, part)
        if container.get(key) is None:
            container[key] = make()
        elif isinstance(container[key], tuple):
            container[key] = list(container[key])
        return container[key]
    if isinstance(container, list) and isinstance(part, int):
        if part >= len(container):
            _assign(container, part, make(), instance, path)
        elif container[part] is None:
            container[part] = make()
        elif isinstance(container[part], tuple):
            container[part] = list(container[part])
        return container[part]
    raise _missing(instance, path)


def _assign(container: Any, part: Union[str, int], value: Any, instance: Dict[str, Any], path: str) -> None:
    if isinstance(container, list) and isinstance(part, int):
        if part >= len(container):
            container.extend([None] * (part - len(container)))
            container.append(value)
        else:
            try:
                container[part] = value
            except IndexError:
                raise _missing(instance, path) from None
    elif isinstance(container, dict):
        container[_dict_key(container, part)] = value
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
