"""Dialog operators of the original catalog format: building dialogs from lists or question/answer pairs,
serialising them into text with a format's demo layout, and finding IOB entity spans in a text.
"""

from typing import Any, Dict, List, Optional

from ..dict_utils import dict_get, dict_set
from ..errors import InstanceTypeError, UnitxtError
from ..formats.base import Format
from ..operator import FieldOperator, InstanceOperator
from ..module_aliases import moved_classes


class ToDialog(FieldOperator):
    """[[question, answer], ...] -> [{"role": "user", ...}, {"role": "agent", ...}, ...]."""

    def process_value(self, value: Any) -> Any:
        dialog = []
        for pair in value:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise InstanceTypeError(f"ToDialog needs [question, answer] pairs, got {pair!r:.100}.",
                                        artifact=self.artifact_name, field=self.field)
            dialog.append({"role": "user", "content": pair[0]})
            dialog.append({"role": "agent", "content": pair[1]})
        return dialog


class InterleaveListsToDialogOperator(InstanceOperator):
    """Interleave user turns and assistant turns (the user list may have one more) into [[role, text], ...]."""

    user_turns_field: str
    assistant_turns_field: str
    to_field: str
    user_role_label: str = "user"
    assistant_role_label: str = "assistant"

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        users = dict_get(instance, self.user_turns_field)
        assistants = dict_get(instance, self.assistant_turns_field)
        if len(users) - len(assistants) not in (0, 1):
            raise InstanceTypeError(f"'{self.user_turns_field}' must have as many turns as '{self.assistant_turns_field}'"
                                    f" or one more, got {len(users)} and {len(assistants)}.", artifact=self.artifact_name)
        dialog = []
        for index, user in enumerate(users):
            dialog.append([self.user_role_label, user])
            if index < len(assistants):
                dialog.append([self.assistant_role_label, assistants[index]])
        dict_set(instance, self.to_field, dialog)
        return instance


class SerializeDialog(FieldOperator):
    """A dialog of {"user", "system"} turns written as text with a format's `demo_format` per turn ({source} is the
    user text, {target} the system answer). With `slice_first_and_last_turns_format`, the first turn starts at its
    user text and the last ends after its answer; with `last_response_to_field`, the last answer is left out of the
    text and written to that field instead. `context_field` text (then `context_separator`) comes first."""

    format: Optional[Format] = None
    last_response_to_field: Optional[str] = None
    context_field: Optional[str] = None
    context_separator: str = " "
    slice_first_and_last_turns_format: bool = True

    def standardize_format(self, demo_format: str) -> str:
        """Hook: a format's demo layout as a turn layout ({source} -> {user}, {target} -> {system}, no prefix)."""
        return demo_format.replace("{source}", "{user}").replace("{target}", "{system}").replace("{target_prefix}", "")

    def slice_first_turn(self, turn_format: str) -> str:
        """Hook: the first turn's layout, starting at the user text."""
        return turn_format[turn_format.index("{user}"):]

    def slice_last_turn(self, turn_format: str) -> str:
        """Hook: the last turn's layout, ending after the system answer."""
        return turn_format[:turn_format.index("{system}") + len("{system}")]

    def slice_last_response(self, turn_format: str) -> str:
        """Hook: the last turn's layout without its answer (it goes to `last_response_to_field`)."""
        return turn_format[:turn_format.index("{user}") + len("{user}")]

    def get_turn_format(self, turn_format: str, step: int, length: int) -> str:
        """Hook: the layout of turn `step` of `length` turns (the first and last ones sliced)."""
        if step == 0 and self.slice_first_and_last_turns_format:
            turn_format = self.slice_first_turn(turn_format)
        if step == length - 1:
            if self.slice_first_and_last_turns_format:
                turn_format = self.slice_last_turn(turn_format)
            if self.last_response_to_field is not None:
                turn_format = self.slice_last_response(turn_format)
        return turn_format

    def get_general_turn_format(self, instance: Dict[str, Any]) -> str:
        """Hook: the turn layout of `format`, else of the recipe's format recorded in recipe_metadata."""
        chosen = self.format
        if chosen is None:  # as in the original: the recipe's format, which the recipe records in recipe_metadata
            metadata = instance.get("recipe_metadata")
            chosen = metadata.get("format") if isinstance(metadata, dict) else None
        if chosen is None:
            raise UnitxtError(f"{type(self).__name__} needs `format` (a SystemFormat whose demo_format lays out a "
                              "turn), or a recipe's format in recipe_metadata.", artifact=self.artifact_name,
                              field="format")
        return self.standardize_format(getattr(chosen, "demo_format", "{source}\n{target_prefix}{target}\n\n"))

    def turns(self, value: Any) -> List[Dict[str, str]]:
        """The dialog as {"user", "system"} turns."""
        return value

    def process_instance_value(self, structured_dialog: Any, instance: Dict[str, Any]) -> str:
        """The dialog of one instance as text (the last answer written to `last_response_to_field` when set)."""
        turns = self.turns(structured_dialog)
        layout = self.get_general_turn_format(instance)
        text = "" if self.context_field is None else str(dict_get(instance, self.context_field)) + self.context_separator
        for index, turn in enumerate(turns):
            current = self.get_turn_format(layout, index, len(turns))
            text += current.replace("{user}", turn.get("user", "")).replace("{system}", turn.get("system", ""))
        if self.last_response_to_field is not None and turns:
            dict_set(instance, self.last_response_to_field, turns[-1].get("system", ""))
        return text

    def process_instance_fields(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        for source, target in self._pairs:
            dict_set(instance, target, self.process_instance_value(dict_get(instance, source), instance))
        return instance


class SerializeOpenAiFormatDialog(SerializeDialog):
    """SerializeDialog for OpenAI-style [{"role": "user"|"assistant", "content"}] dialogs starting with the user:
    consecutive turns of one role are merged (joined by a space), then paired into {"user", "system"} turns (a
    final unanswered user turn gets an empty answer)."""

    is_last_turn_user_only: bool = True

    def turns(self, value: Any) -> List[Dict[str, str]]:
        return self.transform_dialog_to_standard_format(value)

    @staticmethod
    def validate_openai_dialog_format(dialog: List[Dict[str, str]]) -> None:
        """Raise InstanceTypeError unless `dialog` is a non-empty list of {role: user|assistant, content: str}
        turns starting with the user."""
        where = {"artifact": "SerializeOpenAiFormatDialog", "field": "dialog"}
        if not isinstance(dialog, list) or not dialog:
            raise InstanceTypeError("The dialog must be a non-empty list of {role, content} turns.", **where)
        for index, turn in enumerate(dialog):
            if not isinstance(turn, dict) or not isinstance(turn.get("content"), str) \
                    or str(turn.get("role", "")).lower() not in ("user", "assistant"):
                raise InstanceTypeError(f"Turn {index} must be {{role: user|assistant, content: str}}, got "
                                        f"{turn!r:.100}.", **where)
        if dialog[0]["role"].lower() != "user":
            raise InstanceTypeError("The dialog must start with a user turn.", **where)

    @staticmethod
    def merge_dialog_entries(dialog: List[Dict[str, str]]) -> List[Dict[str, str]]:
        """The dialog with consecutive turns of one role merged into one (contents joined by a space)."""
        merged: List[Dict[str, str]] = []
        for turn in dialog:
            if merged and merged[-1]["role"] == turn["role"]:
                merged[-1] = {**merged[-1], "content": merged[-1]["content"] + " " + turn["content"]}
            else:
                merged.append(dict(turn))
        return merged

    def transform_dialog_to_standard_format(self, value: Any) -> List[Dict[str, str]]:
        """[{"user", "system"}] turns of an OpenAI-style dialog (an InstanceTypeError when it is not one)."""
        self.validate_openai_dialog_format(value)
        merged = self.merge_dialog_entries(value)
        pairs = [{"user": merged[index]["content"], "system": merged[index + 1]["content"]}
                 for index in range(0, len(merged) - 1, 2)]
        if len(merged) % 2:
            pairs.append({"user": merged[-1]["content"], "system": ""})
        return pairs


class IobExtractor(InstanceOperator):
    """Entity spans from IOB tags: reads `labels` (tags), `tokens` and `text`, finds each token in the text in
    order, and writes `spans` [{start, end, label, text}] where a begin tag opens a span of
    labels[begin_labels.index(tag)] and inside tags extend the last one."""

    labels: List[str]
    begin_labels: List[str]
    inside_labels: List[str]
    outside_label: Any = "O"

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        text = dict_get(instance, "text")
        spans: List[Dict[str, Any]] = []
        position = 0
        for tag, token in zip(dict_get(instance, "labels"), dict_get(instance, "tokens")):
            start = text.find(token, position)
            if start == -1:
                raise InstanceTypeError(f"Token {token!r} is not in the text after position {position}.",
                                        artifact=self.artifact_name, field="tokens")
            end = start + len(token)
            if tag in self.begin_labels:
                spans.append({"start": start, "label": self.labels[self.begin_labels.index(tag)], "end": end})
            elif tag in self.inside_labels and spans:
                spans[-1]["end"] = end
            position = end
        for span in spans:
            span["text"] = text[span["start"]:span["end"]]
        instance["spans"] = spans
        return instance


__all__ = ["ToDialog", "InterleaveListsToDialogOperator", "SerializeDialog", "SerializeOpenAiFormatDialog",
           "IobExtractor"]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
