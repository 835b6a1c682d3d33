"""Operators that prepare data: `fields` (instance and field operators), `streams` (stream operators), `field_edits`
(arithmetic, text and collection edits of a field), `splits_and_streams` (split joins, balancing, numbering, Apply),
`label_spans` (class lists from data, BIO/IOB tags to spans), `dialog`, `struct_data` (tables, key-value pairs,
triples), `images` and `external` (files, URLs, Wikipedia, tool schemas). The base classes are in `unitxt.operator`.

`from unitxt.operators import X` works for every built-in operator class and the base classes; names are imported
lazily, on first use, from the one module that defines them.
"""

import importlib
from typing import Any, Dict

_EXPORTS: Dict[str, str] = {
    "fast_copy": ".fields",
    **{name: "..operator" for name in ("Operator", "FieldOperator", "InstanceOperator", "StreamOperator",
                                      "MultiStreamOperator", "PagedStreamOperator", "SequentialOperator",
                                      "SourceOperator")},
    "LiteralEval": "..processors",  # one literal_eval type, also importable from here
}


def _module_of(name: str) -> str:
    """The module defining `name`: the table above, else the generated type index (operator classes only)."""
    if name in _EXPORTS:
        return _EXPORTS[name]
    if not name[:1].isupper():
        return ""
    from .._type_index import TYPE_MODULES
    from ..artifact import camel_to_snake

    module = TYPE_MODULES.get(camel_to_snake(name), "")
    return "." + module[len("operators."):] if module.startswith("operators.") else ""


def __getattr__(name: str) -> Any:
    module = _module_of(name)
    if not module:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_EXPORTS))
