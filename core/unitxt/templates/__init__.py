"""Templates verbalise a task instance into the model input and targets: `base` (Template, InputOutputTemplate,
MultiReferenceTemplate, KeyValTemplate, NullTemplate), `choice` (MultipleChoiceTemplate, YesNoTemplate),
`collections` (TemplatesList, TemplatesDict, keyed_templates), `spans` (span labeling) and `judging` (templates of
judging and structured targets). The LLM-as-judge templates are in `unitxt.llm_as_judge_templates`.

`from unitxt.templates import X` works for every built-in template class and the helpers below; names are imported
lazily, on first use, from the one module that defines them.
"""

import importlib
from typing import Any, Dict

_EXPORTS: Dict[str, str] = {
    "ENUMERATORS": ".choice",
    "keyed_templates": ".collections",
    "default_serialize": "..serializers",
}


def _module_of(name: str) -> str:
    """The module defining `name`: the table above, else the generated type index (template classes only)."""
    if name in _EXPORTS:
        return _EXPORTS[name]
    if not name[:1].isupper():
        return ""
    from .._type_index import TYPE_MODULES
    from ..artifact import camel_to_snake

    module = TYPE_MODULES.get(camel_to_snake(name), "")
    return "." + module[len("templates."):] if module.startswith("templates.") else ""


def __getattr__(name: str) -> Any:
    module = _module_of(name)
    if not module:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_EXPORTS))
