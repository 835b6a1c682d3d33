"""Templates verbalise a task instance into the model input and targets: `base` (Template, InputOutputTemplate,
MultiReferenceTemplate, KeyValTemplate, NullTemplate), `choice` (MultipleChoiceTemplate, YesNoTemplate),
`collections` (TemplatesList, TemplatesDict, keyed_templates), `spans` (span labeling) and `judging` (templates of
judging and structured targets). The LLM-as-judge templates are in `unitxt.judges.template_judges`.
Layer 4 of README "Layout" (prompts): may import layers 1-3 and task/card; never rendering, metrics or above.

`from unitxt.templates import X` works for every built-in template class and the helpers below; names are imported
lazily, on first use, from the one module that defines them.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "ENUMERATORS": ".choice",
    "TemplateFormatKeyError": ".base",
    "keyed_templates": ".collections",
    "default_serialize": "..serializers",
    "escape_chars": ".spans",
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "templates.")
