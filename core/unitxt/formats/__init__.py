"""Formats: the model-input layout of a rendered instance - system prompt, demos, instruction and chat messages
(`base`: Format, SystemFormat, ChatAPIFormat, OpenAIFormat), tokenizer chat templates (`tokenizer`), system prompts.
Layer 3 of README "Layout" (data): may import layers 1-2 and the other data modules; never task, templates or above.

`from unitxt.formats import SystemFormat` works for every format class and the names below; each is imported on
first use from the module that defines it.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "DEMO_PLACEHOLDERS": ".base",
    "MODEL_INPUT_PLACEHOLDERS": ".base",
    "apply_capital_new_line_notation": ".base",
    **{name: ".base" for name in ("TextContent", "ImageUrlContent", "ImageFileContent", "Content", "Message")},
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "formats.")
