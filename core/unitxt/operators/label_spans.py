"""More built-in operators for catalog cards: class lists collected from the data, BIO/IOB tags to character spans.

Both are generic, declarative and run no user code.
"""

import json
import random
from typing import Any, Dict, Generator, List, Optional

from ..dict_utils import dict_get, dict_set
from ..errors import InstanceTypeError, UnitxtError
from ..operator import FieldSelectionFields, InstanceOperator, MultiStreamOperator
from ..random_utils import new_random_generator
from ..stream import GeneratorStream, MultiStream
from ..module_aliases import moved_classes


class SetClassesFromData(MultiStreamOperator):
    """Collect the distinct values of `field` over the streams `from_streams` (default: all) and store their sorted
    list in `to_field` of every instance (for datasets whose label set is not published as a list).

    Needs one extra pass over the source streams (only the distinct values are kept in memory). List values
    (multi-label fields) contribute each element.
    """

    field: str = "label"
    to_field: str = "classes"
    from_streams: Optional[List[str]] = None

    def process(self, multi_stream: MultiStream) -> MultiStream:
        names = self.from_streams if self.from_streams is not None else sorted(multi_stream)
        missing = [name for name in names if name not in multi_stream]
        if missing:
            raise UnitxtError(f"from_streams {missing} are not in the data (available: {sorted(multi_stream)}).",
                              artifact=self.artifact_name, field="from_streams")
        cache: Dict[str, List[Any]] = {}

        def classes() -> List[Any]:
            if "classes" not in cache:
                values = set()
                for name in names:
                    for instance in multi_stream[name]:
                        value = dict_get(instance, self.field)
                        values.update(value if isinstance(value, list) else [value])
                cache["classes"] = sorted(values, key=str)
            return cache["classes"]

        def generate(stream) -> Generator:
            found = classes()
            for instance in stream:
                dict_set(instance, self.to_field, list(found))
                yield instance

        return MultiStream(
            {name: GeneratorStream(generate, {"stream": stream}) for name, stream in multi_stream.items()}
        )


class IobToSpans(InstanceOperator):
    """Turn token-level BIO/IOB2 tags into entity spans over the space-joined text.

    Reads the tokens in `tokens_field` and their tags in `tags_field` (tag strings such as "B-PER", or ints mapped
    through `tag_names`; a text of space-separated tags is split). Writes the joined text (tokens separated by
    `separator`) to `text_field` and, per entity, its character start and (exclusive) end and its type (the tag
    without the "B-"/"I-" prefix, renamed through `type_names` when given) to `starts_field`, `ends_field` and
    `labels_field`. An "I-" tag that does not continue an entity of the same type starts a new one (IOB1 style).
    """

    tokens_field: str = "tokens"
    tags_field: str = "ner_tags"
    tag_names: Optional[List[str]] = None
    type_names: Optional[Dict[str, str]] = None
    separator: str = " "
    text_field: str = "text"
    starts_field: str = "spans_starts"
    ends_field: str = "spans_ends"
    labels_field: str = "labels"
    outside_tag: str = "O"

    def _tags(self, instance: Dict[str, Any], count: int) -> List[str]:
        tags = dict_get(instance, self.tags_field)
        if isinstance(tags, str):
            tags = tags.split()
        if not isinstance(tags, list):
            raise InstanceTypeError(f"Tags must be a list (or a space-separated text), got {type(tags).__name__}.",
                                    artifact=self.artifact_name, field=self.tags_field)
        if len(tags) != count:
            raise InstanceTypeError(f"{len(tags)} tags for {count} tokens.", artifact=self.artifact_name,
                                    field=self.tags_field)
        if self.tag_names is not None:
            try:
                tags = [tag if isinstance(tag, str) else self.tag_names[tag] for tag in tags]
            except (IndexError, TypeError):
                raise InstanceTypeError(f"Tag ids {tags!r} do not index tag_names ({len(self.tag_names)} names).",
                                        artifact=self.artifact_name, field=self.tags_field) from None
        return [str(tag) for tag in tags]

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        tokens = dict_get(instance, self.tokens_field)
        if isinstance(tokens, str):
            tokens = tokens.split()
        tags = self._tags(instance, len(tokens))
        starts: List[int] = []
        ends: List[int] = []
        labels: List[str] = []
        position = 0
        current: Optional[str] = None
        for index, (token, tag) in enumerate(zip(tokens, tags)):
            if index:
                position += len(self.separator)
            begin, finish = position, position + len(token)
            position = finish
            if tag == self.outside_tag or tag == "":
                current = None
                continue
            prefix, _, kind = tag.partition("-")
            if not kind:  # a tag without a B-/I- prefix names the type itself
                prefix, kind = "B", tag
            if prefix == "I" and current == kind:
                ends[-1] = finish
                continue
            current = kind
            starts.append(begin)
            ends.append(finish)
            labels.append(self.type_names.get(kind, kind) if self.type_names else kind)
        dict_set(instance, self.text_field, self.separator.join(tokens))
        dict_set(instance, self.starts_field, starts)
        dict_set(instance, self.ends_field, ends)
        dict_set(instance, self.labels_field, labels)
        return instance


class ShuffleFieldValues(FieldSelectionFields):
    """Shuffle the list in `field` (into `to_field`, default in place) with a permutation seeded by content: by
    default the list itself under the global seed (the original's seeding, so the same choices get the same order as
    there); with `seed_fields`, those fields of the instance and `seed`. Same instance, same order, on every run and
    machine. Useful when a dataset lists the right answer at a fixed position."""

    field: str
    to_field: Optional[str] = None
    seed_fields: Optional[List[str]] = None
    seed: int = 0
    _positional_args = ("field",)

    def __init__(self, *args: Any, **kwargs: Any):
        if (args and isinstance(args[0], (list, tuple)) and len(args[0]) == 1 and isinstance(args[0][0], (list, tuple))
                and len(args[0][0]) == 2):
            # the original's positional field_to_field form, ShuffleFieldValues([["from", "to"]])
            (source, target), args = args[0][0], args[1:]
            kwargs.setdefault("to_field", target)
            args = (source,) + tuple(args)
        super().__init__(*args, **kwargs)

    def process_value(self, value: List[Any]) -> List[Any]:
        """A shuffled copy of the list `value`, seeded by its content as the original seeds it."""
        shuffled = list(value)
        new_random_generator(sub_seed=list(value)).shuffle(shuffled)
        return shuffled

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        values = dict_get(instance, self.field)
        if not isinstance(values, list):
            raise InstanceTypeError(f"ShuffleFieldValues needs a list, got {type(values).__name__}.",
                                    artifact=self.artifact_name, field=self.field)
        shuffled = list(values)
        if self.seed_fields:
            content = json.dumps([dict_get(instance, key) for key in self.seed_fields], sort_keys=True,
                                 ensure_ascii=False, default=str)
            random.Random(f"{self.seed}|{content}").shuffle(shuffled)
        else:
            shuffled = self.process_value(values)
        dict_set(instance, self.to_field or self.field, shuffled)
        return instance


__all__ = ["SetClassesFromData", "IobToSpans", "ShuffleFieldValues"]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
