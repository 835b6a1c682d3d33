"""The system prompt and format of a recipe, applied to a rendered instance and its demos: inline for a plain text
format with a fixed system prompt (the common case), else as operators (chat formats, media, custom prompts)."""

from typing import Any, Dict, List, Optional

from ..formats.base import SystemFormat
from ..formats.system_prompts import SystemPrompt
from ..image_utils import to_content_parts
from ..logging_utils import get_logger


def default_format() -> SystemFormat:
    """The format used when a recipe names none: instruction, demos, source and target prefix on their own lines."""
    return SystemFormat(model_input_format="{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}")


def _static_system_prompt(system_prompt: Optional[SystemPrompt]) -> Optional[str]:
    """The fixed text of a plain textual/empty system prompt, or None when it must run as an operator."""
    from ..formats.system_prompts import EmptySystemPrompt, TextualSystemPrompt

    if system_prompt is None or type(system_prompt) is EmptySystemPrompt:
        return ""
    if type(system_prompt) is TextualSystemPrompt:
        return system_prompt.text
    return None


class PromptAssembler:
    """A recipe's format and system prompt, prepared once; `general` assembles the model input of one instance."""

    def __init__(self, recipe: Any):
        self.chat_parts = recipe.produces_chat_source() and recipe.produces_media()
        self.format_gets_media = self.chat_parts or not recipe.produces_chat_source()
        self.format = recipe.format if recipe.format is not None else default_format()
        self.system_prompt = recipe.system_prompt
        # the fixed system prompt text for the inline path (None: the system prompt must run as an operator)
        self.static_system_prompt = (_static_system_prompt(self.system_prompt)
                                     if isinstance(self.format, SystemFormat) else None)
        self._format_process = self.format._raw_process()
        self._system_prompt_process = self.system_prompt._raw_process() if self.system_prompt is not None else None
        self._warned_chat_media = False

    def general(self, rendered: Dict[str, Any], demos: List[Dict[str, Any]], media: Optional[Dict[str, Any]]) -> Any:
        """System prompt and format applied as operators (chat formats, media, custom system prompts)."""
        prompt = {
            "source": rendered["source"],
            "instruction": rendered["instruction"],
            "target_prefix": rendered["target_prefix"],
            "system_prompt": "",
            "demos": demos,
        }
        if media is not None and self.format_gets_media:
            prompt["media"] = media  # chat formats turn placeholders into content parts (only if the schema has them)
        if self.system_prompt is not None:
            prompt = self._system_prompt_process(prompt, None)
        prompt = self._format_process(prompt, None)
        source = prompt["source"]
        if isinstance(source, list):
            if self.chat_parts:
                source = to_content_parts(source, media)
            elif media is not None and not self._warned_chat_media:
                self._warned_chat_media = True
                get_logger().warning(
                    "Rows carry media but the recipe was not detected as multimodal, so chat contents stay text with "
                    "<img src=...> placeholders. Declare Image/Audio task fields or use ImageToText in the card."
                )
        return source
