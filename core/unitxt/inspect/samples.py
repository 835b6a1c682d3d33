"""Unitxt rows as Inspect samples: the rendered prompt as input, the references as target, task_data as metadata."""

import json
from typing import Any, Dict, List, Optional, Sequence

from ..errors import UnitxtError

_CHAT_ROLES = ("system", "user", "assistant")


def chat_messages(source: Any) -> Optional[List[Dict[str, str]]]:
    """The chat messages of a row's source (a list of {role, content}, or that list as JSON text); None for a plain
    prompt."""
    messages = source
    if isinstance(source, str):
        text = source.lstrip()
        if not (text.startswith("[") and '"role"' in text[:200]):
            return None
        try:
            messages = json.loads(text)
        except ValueError:
            return None
    if not isinstance(messages, list) or not messages:
        return None
    if not all(isinstance(message, dict) and "role" in message and "content" in message for message in messages):
        return None
    return [{"role": message["role"], "content": _text_of(message["content"])} for message in messages]


def _text_of(content: Any) -> str:
    """The text of a message content: a string, or the text parts of a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict) and part.get("type") == "text")
    return str(content)


def inspect_input(source: Any) -> Any:
    """The Sample input of a row: the prompt text, or Inspect chat messages (the system message first)."""
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

    messages = chat_messages(source)
    if messages is None:
        return source if isinstance(source, str) else str(source)
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}
    unknown = sorted({message["role"] for message in messages} - set(_CHAT_ROLES))
    if unknown:
        raise UnitxtError(f"The rendered chat has messages of role(s) {unknown}; Inspect takes {list(_CHAT_ROLES)}.",
                          field="source", stage="inspect task")
    systems = [message for message in messages if message["role"] == "system"]
    others = [message for message in messages if message["role"] != "system"]
    return [kinds[message["role"]](content=message["content"]) for message in systems + others]


def task_data_of(row: Dict[str, Any]) -> Dict[str, Any]:
    """A row's task_data as a dict (rows carry it as JSON text)."""
    task_data = row.get("task_data")
    if isinstance(task_data, str):
        return json.loads(task_data)
    return dict(task_data or {})


def to_samples(rows: Sequence[Dict[str, Any]]) -> List[Any]:
    """One Inspect Sample per row: id = the row's position in the split, so a score leads back to its row."""
    from inspect_ai.dataset import Sample

    samples = []
    for index, row in enumerate(rows):
        references = [str(reference) for reference in row.get("references") or []]
        samples.append(Sample(id=index, input=inspect_input(row["source"]), target=references,
                              metadata=task_data_of(row)))
    return samples


def row_key(recipe: str, split: str, limit: Optional[int]) -> str:
    """The key of a task's rows in this process."""
    return json.dumps([recipe, split, limit])


def load_rows(recipe: str, split: str = "test", limit: Optional[int] = None) -> List[Dict[str, Any]]:
    """The recipe's rows of one split (the first `limit` of them), as dicts."""
    from ..api import load_dataset

    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise UnitxtError(f"limit is the number of rows to take, a non-negative integer; got {limit!r}.",
                          field="limit", stage="inspect task")
    dataset = load_dataset(recipe, split=split)
    if limit is not None and limit < len(dataset):
        dataset = dataset.select(range(limit))
    return [dict(row) for row in dataset]
