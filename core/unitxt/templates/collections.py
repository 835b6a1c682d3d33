"""Template collections: TemplatesList and TemplatesDict (a card's several templates) and `keyed_templates`, the
one place any template spec (one, a list, a dict or a collection) is unpacked into (key, template) pairs; and the
original's generic ListCollection / DictCollection (its `unitxt.collections`)."""

from typing import Any, Dict, List, Tuple

from ..artifact import Artifact
from ..errors import UnitxtError
from .base import Template
from ..module_aliases import moved_classes
from ..artifact import InertField


class CollectionItemError(UnitxtError, LookupError):
    """An item a collection does not hold."""


class Collection(Artifact):
    """Base of the original's generic collections: `items`, read by key or position."""

    __abstract__ = True
    items: Any = None

    def __getitem__(self, key: Any) -> Any:
        try:
            return self.items[key]
        except (LookupError, TypeError):
            raise CollectionItemError(f"Cannot find item {key!r} in {type(self).__name__} (it holds "
                                      f"{len(self.items)} items).", artifact=self.artifact_name) from None

    def keys(self) -> List[Any]:
        """The keys the items are read by (positions of a list, keys of a dict)."""
        return list(range(len(self.items))) if isinstance(self.items, list) else list(self.items)

    def __len__(self) -> int:
        return len(self.items)


class ListCollection(Collection):
    """Items by position."""

    items: List[Any] = []
    _positional_args = ("items",)

    def append(self, item: Any) -> None:
        """One more item at the end."""
        self.items.append(item)

    def extend(self, other: "ListCollection") -> None:
        """The items of another list collection added at the end."""
        self.items.extend(other.items)

    def __add__(self, other: "ListCollection") -> "ListCollection":
        return ListCollection(items=list(self.items) + list(other.items))


class DictCollection(Collection):
    """Items by key."""

    items: Dict[Any, Any] = {}
    _positional_args = ("items",)

    def len(self) -> int:
        """The number of items (the original's spelling besides len())."""
        return len(self.items)


class TemplatesList(Artifact):
    """A list of templates (strings are catalog names, resolved when read)."""

    items: List[Template] = []
    _positional_args = ("items",)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Template:
        return self.items[index]


class TemplatesDict(Artifact):
    """Named templates (strings are catalog names, resolved when read)."""

    items: Dict[str, Template] = {}
    _positional_args = ("items",)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, key: str) -> Template:
        return self.items[key]

    def keys(self):
        return self.items.keys()

    def values(self):
        return self.items.values()


def keyed_templates(spec: Any) -> List[Tuple[str, Any]]:
    """(key, template) pairs of any template spec: one template, a list, a dict, a TemplatesList or a TemplatesDict;
    keys are the list positions as strings, or the dict keys. The one place template collections are unpacked."""
    if spec is None:
        return []
    if isinstance(spec, (TemplatesList, TemplatesDict)):
        spec = spec.items
    if isinstance(spec, dict):
        return [(str(key), template) for key, template in spec.items()]
    if isinstance(spec, (list, tuple)):
        return [(str(index), template) for index, template in enumerate(spec)]
    return [("0", spec)]


class ItemPicker(Artifact):
    """Picks `item` of a collection: by position when it reads as an integer, else by key."""

    item: Any = None

    def __call__(self, collection: Any) -> Any:
        try:
            return collection[int(self.item)]
        except (SyntaxError, LookupError, ValueError, TypeError):
            return collection[self.item]


class RandomPicker(Artifact):
    """Picks a random item of a list or dict collection (seeded: the same sequence of picks on every run)."""

    random_generator: Any = InertField(
        default=None, reason='the order is drawn from the seeded generator of this library here')

    def prepare(self) -> None:
        super().prepare()
        from ..random_utils import new_random_generator

        self.__dict__["random_generator"] = new_random_generator(sub_seed="random_picker")

    def __call__(self, collection: Any) -> Any:
        if isinstance(collection, ListCollection):
            return self.random_generator.choice(list(collection.items))
        if isinstance(collection, DictCollection):
            return self.random_generator.choice(list(collection.items.values()))
        return None


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
