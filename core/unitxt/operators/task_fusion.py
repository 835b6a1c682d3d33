"""A Task fused with the field moves and constants before it (Rename, Set): each row's task instance built in one
step from the loaded row, without renaming and setting its fields one operator at a time.

The operators before the task describe what they do to fields (`_field_moves`: Rename's (source, target) pairs;
`_field_constants`: Set's (field, value, copier) triples), which gives each task field's origin: a key of the loaded
row, or a constant. A row whose values the task's quick checks accept is reshaped directly, the constants checked once;
any other row (a key missing, a value of another type, a production row) goes through the operators one by one, which
give the result or raise their own error."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

_GONE = ("gone",)  # a field moved away
_CARRIED = ("media", "groups", "subset")  # the instance fields a task row keeps when present
_ONLY_STR = frozenset([str])


def _field_flow(operator: Any) -> Optional[Tuple[str, list]]:
    """("moves", Rename's (source, target) pairs) or ("constants", Set's (field, value, copier) triples) for a plain
    Rename / Set, else None."""
    for kind, hook in (("moves", "_field_moves"), ("constants", "_field_constants")):
        described = getattr(operator, hook, lambda: None)()
        if described is not None:
            return kind, described
    return None


def _origins(flows: Sequence[Tuple[str, list]]) -> Optional[Tuple[Dict[str, tuple], List[str]]]:
    """(field -> ("row", key) / ("const", value, copier) / _GONE for the fields the flows touch, the row keys their
    moves need), or None when a field moved away is moved again."""
    state: Dict[str, tuple] = {}
    required: List[str] = []
    for kind, described in flows:
        if kind == "moves":
            for source, target in described:
                origin = state.get(source, ("row", source))
                if origin is _GONE:
                    return None  # a second move of a field moved away: the operator's own path decides
                if origin[0] == "row":
                    required.append(origin[1])
                state[source] = _GONE
                state[target] = origin
        else:
            for field, value, copier in described:
                state[field] = ("const", value, copier)
    return state, required


def _accepts(task: Any, field: str, value: Any) -> bool:
    """The task's quick check of one field's value (the one its reshape applies)."""
    if field in task._text_fields:
        return type(value) is str
    if field in task._text_list_fields:
        return type(value) is list and set(map(type, value)) <= _ONLY_STR
    return all(checker(value) for name, checker in task._other_checks if name == field)


def fused_reshape(task: Any, operators: Sequence[Any]) -> Optional[Tuple[int, Callable[[Dict[str, Any], str], Any]]]:
    """(how many of the last `operators` before the task are fused with it, a `(row, stream_name) -> task instance, or
    None` step: None when the row needs those operators one by one), or None when none can be fused."""
    flows = []
    for operator in reversed(operators):  # the run of plain Renames and Sets just before the task
        flow = _field_flow(operator)
        if flow is None:
            break
        flows.insert(0, flow)
    found = _origins(flows) if flows else None
    if found is None:
        return None
    state, required = found
    checks: List[Tuple[str, str]] = []  # (row key, field): the row values the task's checks apply to
    parts = []
    for names in (tuple(task._input_types), tuple(task._reference_types)):
        template: Dict[str, Any] = {}
        from_row: List[Tuple[str, str]] = []
        copied: List[Tuple[str, Any, Callable]] = []
        for field in names:
            origin = state.get(field, ("row", field))
            if origin is _GONE:
                return None
            if origin[0] == "const":
                _, value, copier = origin
                if not _accepts(task, field, value):
                    return None
                template[field] = value
                if copier is not None:
                    copied.append((field, value, copier))
            else:
                template[field] = None  # placeholder: keeps the declared order
                from_row.append((field, origin[1]))
                checks.append((origin[1], field))
        parts.append((template, tuple(from_row), tuple(copied)))
    (inputs_template, inputs_from_row, inputs_copied), (references_template, references_from_row,
                                                         references_copied) = parts
    text_keys = tuple(key for key, field in checks if field in task._text_fields)
    list_keys = tuple(key for key, field in checks if field in task._text_list_fields)
    other_keys = tuple((key, checker) for key, field in checks for name, checker in task._other_checks
                       if name == field)
    carried = tuple((name, state.get(name, ("row", name))) for name in _CARRIED if state.get(name) is not _GONE)
    policy_origin = state.get("data_classification_policy", ("row", "data_classification_policy"))
    required_keys, metrics, inference_stream = tuple(required), task.metrics, task._inference_stream

    def reshape(row: Dict[str, Any], stream_name: str) -> Optional[Dict[str, Any]]:
        if stream_name == inference_stream or type(row) is not dict:
            return None
        try:
            for key in required_keys:
                row[key]
            for key in text_keys:
                if type(row[key]) is not str:
                    return None
            for key in list_keys:
                value = row[key]
                if type(value) is not list or not set(map(type, value)) <= _ONLY_STR:
                    return None
            for key, checker in other_keys:
                if not checker(row[key]):
                    return None
            inputs = inputs_template.copy()
            for field, key in inputs_from_row:
                inputs[field] = row[key]
            references = references_template.copy()
            for field, key in references_from_row:
                references[field] = row[key]
        except KeyError:
            return None
        for field, value, copier in inputs_copied:
            inputs[field] = copier(value)
        for field, value, copier in references_copied:
            references[field] = copier(value)
        if policy_origin is _GONE:
            policy = []
        elif policy_origin[0] == "row":
            policy = row.get(policy_origin[1]) or []
        else:
            policy = policy_origin[2](policy_origin[1]) if policy_origin[2] else policy_origin[1]
            policy = policy or []
        result = {"input_fields": inputs, "reference_fields": references, "metrics": metrics,
                  "data_classification_policy": policy}
        for name, origin in carried:
            if origin[0] == "row":
                if origin[1] in row:
                    result[name] = row[origin[1]]
            else:
                result[name] = origin[2](origin[1]) if origin[2] else origin[1]
        return result

    return len(flows), reshape
