r"""Formats: lay out the final model input from the template's parts (system prompt, instruction, demos, source).

A format reads `source`, `instruction`, `target_prefix`, `system_prompt` (default "") and the demos (default []:
a list of `{source, target, target_prefix, instruction}` dicts, as rendered by the template), writes the final
`source` and removes the other parts from the instance. `SystemFormat` produces one string; `ChatAPIFormat`
produces a list of chat messages (`[{"role": ..., "content": ...}, ...]`).

Format strings may use the conditional newline `\N` (see `format_utils`): it becomes a newline only when the text
produced so far by that format string is non-empty and does not already end with one.
"""

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

from ..errors import ArtifactDefinitionError, MissingFieldError, UnitxtError
from ..operator import InstanceOperator
from ..sandbox.format_strings import CompiledFormat, check_placeholders, compile_format

DEMO_PLACEHOLDERS = ("source", "target", "target_prefix", "instruction")
MODEL_INPUT_PLACEHOLDERS = ("system_prompt", "instruction", "demos", "source", "target_prefix")


class Format(InstanceOperator):
    """Base of formats: `take_parts` pops the template's parts out of the instance."""

    demos_field: str = "demos"

    def take_parts(self, instance: Dict[str, Any]) -> Tuple[Any, str, str, str, List[Dict[str, Any]]]:
        """Pop and return (source, instruction, target_prefix, system_prompt, demos); `source` stays in place."""
        if "source" not in instance:
            raise MissingFieldError(
                f"{type(self).__name__} needs the field 'source' (apply a template first); the instance has: "
                f"{', '.join(sorted(instance))}.",
                artifact=self.artifact_name,
                field="source",
            )
        instruction = instance.pop("instruction", "") or ""
        target_prefix = instance.pop("target_prefix", "") or ""
        system_prompt = instance.pop("system_prompt", "") or ""
        demos = instance.pop(self.demos_field, None) or []
        return instance["source"], instruction, target_prefix, system_prompt, demos

    def demo_values(self, demo: Dict[str, Any], index: int) -> Dict[str, Any]:
        """The placeholders a demo offers: source and target (required), target_prefix and instruction ("")."""
        try:
            return {
                "source": demo["source"],
                "target": demo["target"],
                "target_prefix": demo.get("target_prefix", ""),
                "instruction": demo.get("instruction", ""),
            }
        except KeyError as error:
            raise MissingFieldError(
                f"Demo {index} has no '{error.args[0]}' (demos must be rendered by a template first; keys: "
                f"{', '.join(sorted(map(str, demo)))}).",
                artifact=self.artifact_name,
                field=self.demos_field,
            ) from None
        except (TypeError, AttributeError):
            raise MissingFieldError(
                f"Demo {index} must be a dict, got {type(demo).__name__}.",
                artifact=self.artifact_name,
                field=self.demos_field,
            ) from None


class BaseFormat(Format):
    """The original's base of formats: `process` gathers the instance's parts (`_prepare_instance_fields`: source,
    instruction, system prompt and target prefix popped; media; turns; the demos' source, target and target prefix)
    and a subclass lays them out in `_format_instance_to_source`."""

    __abstract__ = True

    @staticmethod
    def _pop_field(instance: Dict[str, Any], field_name: Optional[str], do_pop: bool = True) -> Any:
        if field_name is None or field_name not in instance:
            return ""
        value = instance.pop(field_name) if do_pop else instance[field_name]
        if value is None:
            raise MissingFieldError(f"Value in field '{field_name}' should not be none. Received instance: {instance}",
                                    field=field_name)
        return value

    def _prepare_instance_fields(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        fields: Dict[str, Any] = {}
        if "__turns__" in instance:
            fields["turns"] = instance["__turns__"]
        for name in ("source", "instruction", "system_prompt", "target_prefix"):
            fields[name] = self._pop_field(instance, name)
        fields["media"] = self._pop_field(instance, "media", do_pop=False) or {"images": [], "audios": []}
        fields["demos"] = []
        if self.demos_field is not None and self.demos_field in instance:
            demos = instance[self.demos_field]
            if not isinstance(demos, list) or not all(isinstance(demo, dict) for demo in demos):
                raise MissingFieldError(f"A list of dict-s is expected in field '{self.demos_field}'. Received "
                                        f"instance: {instance}", artifact=self.artifact_name, field=self.demos_field)
            fields["demos"] = [{name: self._pop_field(demo, name, do_pop=False)
                                for name in ("source", "target", "target_prefix")} for demo in demos]
        return fields

    def _format_instance_to_source(self, system_prompt: str, instruction: str, source: str, target_prefix: str,
                                   demos: List[Dict[str, Any]], media: Optional[Dict[str, Any]] = None,
                                   turns: Optional[Any] = None) -> Any:
        raise NotImplementedError(f"{type(self).__name__}._format_instance_to_source(...) is not implemented")

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        instance["source"] = self._format_instance_to_source(**self._prepare_instance_fields(instance))
        return instance


def _compile_checked(owner: "Format", text: str, where: str, allowed: List[str]) -> CompiledFormat:
    label = f"{type(owner).__name__}.{where}"
    compiled = compile_format(text, where=label, allow_newline_marker=True)
    check_placeholders(compiled, allowed, where=label)
    return compiled


class SystemFormat(BaseFormat):
    """Renders each demo with `demo_format`, then the whole input with `model_input_format`.

    `model_input_format` may use {system_prompt}, {instruction}, {demos} (the formatted demos concatenated),
    {source} and {target_prefix}; `demo_format` may use {source}, {target}, {target_prefix} and {instruction} (the
    demo's own). Both may use the keys of `format_args` (constant strings). Unknown placeholders are rejected when
    the format is constructed.
    """

    # the original's defaults: `\N` puts one newline after a part only when that part is not empty
    demo_format: str = "{source}\\N{target_prefix}{target}\n\n"
    model_input_format: str = "{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}"
    format_args: Dict[str, str] = {}

    def prepare(self) -> None:
        super().prepare()
        clash = [key for key in self.format_args if key in MODEL_INPUT_PLACEHOLDERS or key in DEMO_PLACEHOLDERS]
        if clash:
            raise ArtifactDefinitionError(
                f"{type(self).__name__}.format_args key '{clash[0]}' clashes with a built-in placeholder "
                f"({', '.join(sorted(set(MODEL_INPUT_PLACEHOLDERS + DEMO_PLACEHOLDERS)))}).",
                field="format_args",
            )
        extra = list(self.format_args)
        self._demo = _compile_checked(self, self.demo_format, "demo_format", [*DEMO_PLACEHOLDERS, *extra])
        self._model = _compile_checked(
            self, self.model_input_format, "model_input_format", [*MODEL_INPUT_PLACEHOLDERS, *extra]
        )

    def format_demos(self, demos: List[Dict[str, Any]]) -> str:
        """The demos formatted with `demo_format` and concatenated."""
        render = self._demo.render
        format_args = self.format_args
        parts = []
        for index, demo in enumerate(demos):
            values = self.demo_values(demo, index)
            if format_args:
                values.update(format_args)
            parts.append(render(values, "demo_format"))
        return "".join(parts)

    def render_prompt(self, source: str, instruction: str, target_prefix: str, system_prompt: str, demos_text: str) -> str:
        """The model input from its parts, with the demos already formatted (lets callers cache demo text)."""
        values = {
            "system_prompt": system_prompt,
            "instruction": instruction,
            "demos": demos_text,
            "source": source,
            "target_prefix": target_prefix,
        }
        if self.format_args:
            values.update(self.format_args)
        try:
            return self._model.render(values, "model_input_format")
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        source, instruction, target_prefix, system_prompt, demos = self.take_parts(instance)
        demos_text = self.format_demos(demos) if demos else ""
        instance["source"] = self.render_prompt(source, instruction, target_prefix, system_prompt, demos_text)
        return instance


class ChatAPIFormat(BaseFormat):
    """Chat messages: a system turn (system prompt and instruction, one per line; omitted when both are empty), then
    per demo a user turn (its source) and an assistant turn (the instance's target_prefix + the demo's target), then
    the user's source.

    With `demos_in_one_turn`, the demos are formatted with `demo_format` and concatenated in front of the source in a
    single user turn (no assistant turns), which keeps user/assistant turns alternating.

    With `place_instruction_in_user_turns`, the instruction leads every user turn ("<instruction>\n<text>", demos
    included) instead of the system turn, which then holds the system prompt only (omitted when that is empty): some
    chat templates drop the model's default system prompt when the messages carry a system turn of their own.
    """

    produces_chat_messages = True
    demos_in_one_turn: bool = False
    place_instruction_in_user_turns: bool = False
    demo_format: str = "{source}\n{target_prefix}{target}\n\n"

    def prepare(self) -> None:
        super().prepare()
        self._demo = _compile_checked(self, self.demo_format, "demo_format", list(DEMO_PLACEHOLDERS))

    def system_content(self, system_prompt: str, instruction: str) -> str:
        """System prompt and instruction, stripped, joined by a newline (empty parts left out)."""
        return "\n".join(part for part in (system_prompt.strip(), instruction.strip()) if part)

    def to_content(self, text: str, media: Optional[Dict[str, Any]]) -> Union[str, List[Dict[str, Any]]]:
        """Hook: a turn's content: the text, or OpenAI content parts when the instance carries images or audio (its
        media placeholders become image / audio parts)."""
        if media and (media.get("images") or media.get("audios")):
            from ..image_utils import content_parts

            return content_parts(text, media)
        return text

    def to_chat(self, system_prompt: str, instruction: str, source: str, target_prefix: str,
                demos: List[Dict[str, Any]], media: Optional[Dict[str, Any]] = None,
                turns: Optional[List[Dict[str, Any]]] = None) -> List[Dict[str, Any]]:
        """Hook: the chat messages of an instance (system turn, demo turns, then the user's source, or the given
        dialog `turns` in its place)."""
        messages: List[Dict[str, Any]] = []
        in_user_turns = self.place_instruction_in_user_turns and bool(instruction)

        def turn(role: str, text: str) -> Dict[str, Any]:
            return {"role": role, "content": self.to_content(text, media)}

        def user_turn(text: str) -> Dict[str, Any]:
            return turn("user", f"{instruction}\n{text}" if in_user_turns else text)

        system = self.system_content(system_prompt, "" if in_user_turns else instruction)
        if system:
            messages.append(turn("system", system))
        if self.demos_in_one_turn and demos:
            try:
                demos_text = "".join(
                    self._demo.render(self.demo_values(demo, index), "demo_format") for index, demo in enumerate(demos)
                )
            except UnitxtError as error:
                raise error.with_context(artifact=self.artifact_name) from None
            source = demos_text + source
        else:
            for index, demo in enumerate(demos):
                values = self.demo_values(demo, index)
                messages.append(user_turn(values["source"]))
                # the instance's target prefix leads every answer (as the original; demos of one template share it)
                messages.append(turn("assistant", target_prefix + values["target"]))
        if turns is not None:
            messages.extend(turns)
        else:
            messages.append(user_turn(source))
        return messages

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        source, instruction, target_prefix, system_prompt, demos = self.take_parts(instance)
        instance["source"] = self.to_chat(system_prompt, instruction, source, target_prefix, demos,
                                          instance.get("media"))
        return instance


class OpenAIFormat(ChatAPIFormat):
    """Same as ChatAPIFormat (the OpenAI chat completion message list)."""


class TextContent(TypedDict):
    """A text part of a chat message's content (OpenAI's schema)."""

    type: Literal["text"]
    text: str


class ImageUrlContent(TypedDict):
    """An image part given by URL (a data URL for inline images)."""

    type: Literal["image_url"]
    image_url: Dict[Literal["url"], str]


class ImageFileContent(TypedDict):
    """An image part given by an uploaded file's id."""

    type: Literal["image_file"]
    image_file: Dict[Literal["file_id"], str]


Content = Union[TextContent, ImageUrlContent, ImageFileContent]


class Message(TypedDict):
    """A chat message as the chat formats produce it: a role and a text or a list of content parts."""

    role: Literal["system", "user", "assistant"]
    content: Union[str, List[Content]]


__all__ = ["Format", "SystemFormat", "ChatAPIFormat", "OpenAIFormat", "DEMO_PLACEHOLDERS", "MODEL_INPUT_PLACEHOLDERS"]


def apply_capital_new_line_notation(text: str) -> str:
    """Resolve the `\\N` marker of format strings: exactly one newline there (newlines already before it are
    merged into it), none at the very start of the text."""
    pieces = text.split("\\N")
    result = pieces[0]
    for piece in pieces[1:]:
        result = result.rstrip("\n")
        result = (result + "\n" if result else "") + piece
    return result
