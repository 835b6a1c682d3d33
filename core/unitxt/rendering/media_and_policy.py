"""A recipe's media fields, serializers and data-classification checks (used by instance_renderer and demo_pool).

Kept apart from the renderer so the renderer's hot path stays small: everything here runs once per recipe, except
`encode_media_fields`, which runs per instance only for tasks with Image/Audio/Video fields.
"""

import copy
import typing
from typing import Any, Dict, List, Optional, Tuple, Union

from ..types.checking import mentions_media_type, to_type
from ..types.definitions import is_audio_value, is_image_value


def _admits_anything(tp: Any) -> bool:
    """A field declared `Any` (or `object`) may hold an Image or Audio value (tasks.key_value_extraction's input)."""
    return tp in (Any, object, "Any", "object")


def media_field_names(task: Any) -> List[str]:
    """The task's input fields that may hold media: declared types mentioning Image, Audio or Video, and fields
    declared `Any` (their media values are serialised as media, as the original's default serializers do, and
    task_data holds them as data URLs, so rows stay JSON)."""
    types = getattr(task, "input_types", None) or {}
    return [name for name, tp in types.items() if mentions_media_type(tp) or _admits_anything(tp)]


def task_has_media_fields(task: Any) -> bool:
    return bool(media_field_names(task))


def _steps(operators: Any) -> List[Any]:
    """Operators of a step list, with nested SequentialOperator steps flattened."""
    result = []
    for operator in operators or []:
        result.append(operator)
        result.extend(_steps(getattr(operator, "steps", None)))
    return result


def recipe_produces_media(recipe: Any) -> bool:
    """Whether the recipe's rows may carry media: the task declares a media field (Image, Audio, Video, or Any), or
    the card's preprocessing moves images into media. A field whose type also admits text (the original's
    `Union[Text, Image, ...]` of relation or context fields) counts only when the data puts media there: the first
    instance of each split decides, so text cards over such tasks keep text chat contents (once per recipe)."""
    cached = recipe.__dict__.get("_produces_media")
    if cached is None:
        cached = recipe.__dict__["_produces_media"] = _detect_media(recipe)
    return cached


def _detect_media(recipe: Any) -> bool:
    try:
        task = recipe.get_task()
    except Exception:  # noqa: BLE001 - a recipe without a task produces no media we can know of
        task = None
    card = getattr(recipe, "card", None)
    steps = _steps(getattr(card, "preprocess_steps", None)) if card is not None else []
    if any(getattr(step, "produces_media", False) for step in steps):
        return True
    names = media_field_names(task) if task is not None else []
    types = getattr(task, "input_types", None) or {}
    if any(not _admits_text(types[name]) for name in names):
        return True
    return bool(names) and _first_instances_hold_media(recipe, names)


def _admits_text(tp: Any) -> bool:
    """Whether a declared type accepts a plain text (str, Text, or a Union holding one); `Any` counts as media."""
    if isinstance(tp, str):
        try:
            tp = to_type(tp)
        except Exception:  # noqa: BLE001 - an unparsable type: treated as media, as before
            return False
    while getattr(tp, "__supertype__", None) is not None:
        tp = tp.__supertype__
    if tp is str:
        return True
    return typing.get_origin(tp) is Union and any(_admits_text(arg) for arg in typing.get_args(tp))


def _holds_media(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_holds_media(item) for item in value)
    return is_image_value(value) or is_audio_value(value)


def _first_instances_hold_media(recipe: Any, names: List[str]) -> bool:
    """Whether the first instance of any split holds an image or audio in one of `names` (a failing read: assume
    media, as for declared media fields)."""
    standardized = getattr(recipe, "standardized", None)
    if standardized is None:
        return True
    try:
        for stream in standardized().values():
            for instance in stream:
                inputs = instance.get("input_fields") or {}
                if any(_holds_media(inputs.get(name)) for name in names):
                    return True
                break
    except Exception:  # noqa: BLE001 - the recipe's own run reports the error; the schema keeps media then
        return True
    return False


def _encode(value: Any) -> Any:
    from ..image_utils import encode_audio, encode_image

    if isinstance(value, str) and value.startswith("data:"):
        return value
    if is_image_value(value):
        return encode_image(value)
    if is_audio_value(value):
        return encode_audio(value)
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    return value


def encode_media_fields(instance: Dict[str, Any], names: List[str]) -> Dict[str, Any]:
    """A copy of the instance whose media-typed input fields hold data URLs (JSON-able, content-seeded)."""
    inputs = dict(instance["input_fields"])
    for name in names:
        if name in inputs:
            inputs[name] = _encode(inputs[name])
    return dict(instance, input_fields=inputs)


def with_serializers(template: Any, recipe_serializer: Any, media_fields: bool) -> Any:
    """The template to render with: recipe serializers first, then the template's own, then media serializers.

    The template is shallow-copied (never re-serialised) when its serializer changes, so in-memory serializers work.
    """
    if not hasattr(template, "serializer"):
        return template
    from ..serializers import MultiTypeSerializer, media_serializers

    chain: List[Any] = []
    if recipe_serializer is not None:
        chain.extend(recipe_serializer if isinstance(recipe_serializer, list) else [recipe_serializer])
    if not chain and not media_fields:
        return template
    own = template.serializer
    if own is not None:
        chain.extend(own.serializers if type(own) is MultiTypeSerializer else [own])
    if media_fields:
        chain.extend(media_serializers())
    new = copy.copy(template)
    new._given_fields = set(template._given_fields) | {"serializer"}
    new.serializer = chain[0] if len(chain) == 1 else MultiTypeSerializer(serializers=chain)
    return new


def policy_checks(components: List[Any]) -> List[Tuple[Any, List[str]]]:
    """(component, allowed classifications) for every component that restricts the data it may process."""
    checks = []
    seen = set()
    for component in components:
        if component is None or id(component) in seen or not hasattr(component, "effective_policy"):
            continue
        seen.add(id(component))
        allowed: Optional[List[str]] = component.effective_policy()
        if allowed is not None:
            checks.append((component, allowed))
        for inner in getattr(component, "serializers", None) or []:
            if id(inner) not in seen and hasattr(inner, "effective_policy"):
                seen.add(id(inner))
                inner_allowed = inner.effective_policy()
                if inner_allowed is not None:
                    checks.append((inner, inner_allowed))
    return checks


__all__ = [
    "media_field_names",
    "task_has_media_fields",
    "recipe_produces_media",
    "encode_media_fields",
    "with_serializers",
    "policy_checks",
]
