"""System prompts: operators that set instance["system_prompt"], the task-independent opening text a Format places."""

from typing import Any, Dict, Optional

from ..artifact import Artifact, NonPositionalField
from ..operator import InstanceOperator
from ..module_aliases import moved_classes


class SystemPrompt(InstanceOperator):
    """Base: sets instance["system_prompt"] to `get_system_prompt(instance)` (kept when the instance has one and
    `skip_rendered_instance`)."""

    skip_rendered_instance: bool = NonPositionalField(default=True)

    def get_system_prompt(self, instance: Dict[str, Any]) -> str:
        raise NotImplementedError(f"{type(self).__name__}.get_system_prompt(instance) is not implemented")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if self.skip_rendered_instance and "system_prompt" in instance:
            return instance
        instance["system_prompt"] = self.get_system_prompt(instance)
        return instance


class TextualSystemPrompt(SystemPrompt):
    """A fixed system prompt text (used verbatim: braces are not placeholders). `TextualSystemPrompt("...")` works."""

    text: str
    _positional_args = ("text",)

    def get_system_prompt(self, instance: Dict[str, Any]) -> str:
        return self.text


class EmptySystemPrompt(SystemPrompt):
    """No system prompt (sets it to "")."""

    def get_system_prompt(self, instance: Dict[str, Any]) -> str:
        return ""


__all__ = ["SystemPrompt", "TextualSystemPrompt", "EmptySystemPrompt"]


class TextualInstruction(Artifact):
    """An instruction text kept in the catalog (the original's `instructions.TextualInstruction`): templates put it
    in the instance's "instruction" field."""

    text: str

    def get_instruction(self) -> str:
        return self.text


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
