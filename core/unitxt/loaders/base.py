"""Loader base classes and in-memory loaders: `Loader` (a source operator; every loader tags each instance with
`data_classification_policy` and caps each split at `loader_limit`), LoadFromDictionary and MultipleSourceLoader."""

import copy
import functools
import itertools
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from ..errors import ArtifactDefinitionError, UnitxtError
from ..logging_utils import get_logger
from ..artifact import InertField, NonPositionalField
from ..operator import SourceOperator
from ..stream import GeneratorStream, MultiStream

_limit_notices_shown = set()


class LoaderError(UnitxtError):
    """Data could not be loaded."""


class Loader(SourceOperator):
    """Base loader. Subclasses implement `load_generators()` -> {split: zero-argument generator function}."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    loader_limit: Optional[int] = None
    streaming: bool = False
    num_proc: Optional[int] = InertField(default=None, reason="only LoadHF reads with several processes here")
    _default_policy: List[str] = ["proprietary"]

    _honours_global_limit = True  # settings.global_loader_limit caps this loader too (not in-memory data)

    def get_limit(self) -> Optional[int]:
        """The rows read per split: the smaller of `loader_limit` and settings.global_loader_limit (either may be
        unset), as in the original."""
        from ..settings_utils import settings

        global_limit = getattr(settings, "global_loader_limit", None) if self._honours_global_limit else None
        if global_limit is None:
            return self.loader_limit
        global_limit = int(global_limit)
        return global_limit if self.loader_limit is None else min(global_limit, self.loader_limit)

    def get_limiter(self) -> str:
        """What sets the limit: "<Loader>.loader_limit" or "unitxt.settings.global_loader_limit"."""
        from ..settings_utils import settings

        global_limit = getattr(settings, "global_loader_limit", None) if self._honours_global_limit else None
        if global_limit is not None and (self.loader_limit is None or int(global_limit) <= self.loader_limit):
            return "unitxt.settings.global_loader_limit"
        return f"{type(self).__name__}.loader_limit"

    def data_policy(self) -> List[str]:
        return list(self.data_classification_policy or self._default_policy)

    def verify(self) -> None:
        super().verify()
        if self.loader_limit is not None and self.loader_limit < 0:
            raise LoaderError("loader_limit must be >= 0.", artifact=type(self).__name__, field="loader_limit")

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        """Abstract hook: {split: zero-argument generator function} for each split the loader provides (or, as in
        the original, override `load_iterables`)."""
        if type(self).load_iterables is not Loader.load_iterables:
            iterables = self.load_iterables()
            # copies, as the original's MultiStream.from_iterables(copying=True): the given rows stay unchanged
            return {split: (lambda rows=rows: (copy.deepcopy(row) for row in rows)) for split, rows in iterables.items()}
        raise NotImplementedError(f"{type(self).__name__}.load_generators() (or load_iterables()) is not implemented")

    def load_iterables(self) -> Dict[str, Iterable[Dict[str, Any]]]:
        """The original's hook: {split: iterable of rows}. A subclass written for the original overrides it; here
        the default gives each split's rows as a re-readable stream."""
        return {split: GeneratorStream(generator) for split, generator in self.load_generators().items()}

    def load_data(self) -> MultiStream:
        """The splits as streams, before the data classification policy is set on the rows (the original's step)."""
        return MultiStream({split: GeneratorStream(generator) for split, generator in self.load_generators().items()})

    def get_splits(self) -> List[str]:
        """The names of the splits the loader gives."""
        return list(self.load_generators())

    def split_generator(self, split: str) -> Iterable[Dict[str, Any]]:
        """The rows of one split, read when iterated."""
        generators = self.load_generators()
        if split not in generators:
            raise LoaderError(f"No split '{split}' (the loader gives: {', '.join(generators) or 'none'}).",
                              artifact=self.artifact_name, field="split")
        return iter(generators[split]())

    def log_limited_loading(self) -> None:
        """Say once (per loader class) that loading is limited, and by which setting."""
        self._announce_limit()

    def set_default_data_classification(self, default_data_classification_policy: List[str],
                                        additional_info: Optional[str] = None) -> None:
        """Use this policy when none is set on the loader."""
        if self.data_classification_policy is None:
            self.data_classification_policy = list(default_data_classification_policy)

    def add_data_classification(self, multi_stream: MultiStream) -> MultiStream:
        """Every row of the streams gets the loader's data_classification_policy."""
        policy = self.data_policy()

        def classified(stream):
            for row in stream:
                row["data_classification_policy"] = list(policy)
                yield row

        return MultiStream({split: GeneratorStream(classified, {"stream": stream})
                            for split, stream in multi_stream.items()})

    def _announce_limit(self) -> None:
        key = type(self).__name__
        limit = self.get_limit()
        if limit is not None and key not in _limit_notices_shown:
            _limit_notices_shown.add(key)
            get_logger().info(f"Loading limited to {limit} instances by setting {self.get_limiter()};")

    def _split_stream(self, generator: Callable[[], Iterable[Dict[str, Any]]], policy: List[str]) -> Iterator:
        rows = generator()
        limit = self.get_limit()
        if limit is not None:
            rows = itertools.islice(rows, limit)  # reads no row past the limit
        for instance in rows:
            if not isinstance(instance, dict):
                raise LoaderError(f"Loaded rows must be dicts, got {type(instance).__name__}.", artifact=self.artifact_name)
            instance["data_classification_policy"] = list(policy)
            yield instance

    def process(self) -> MultiStream:
        self._announce_limit()
        policy = self.data_policy()
        generators = self.load_generators()
        return MultiStream(
            {
                split: GeneratorStream(self._split_stream, {"generator": generator, "policy": policy})
                for split, generator in generators.items()
            }
        )


class LazyLoader(Loader):
    """A loader that lists its splits (`get_splits`) and reads each one only when its stream is iterated
    (`split_generator(split)`); `split` restricts it to one split."""

    __abstract__ = True

    split: Optional[str] = NonPositionalField(default=None)

    def get_splits(self) -> List[str]:
        raise NotImplementedError(f"{type(self).__name__}.get_splits() is not implemented")

    def split_generator(self, split: str) -> Iterable[Dict[str, Any]]:
        raise NotImplementedError(f"{type(self).__name__}.split_generator(split) is not implemented")

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        splits = [self.split] if self.split is not None else self.get_splits()
        return {split: functools.partial(self.split_generator, split) for split in splits}


class LoadFromDictionary(Loader):
    """Load in-memory data: `data={"train": [{...}, ...], "test": [...]}`."""

    data: Dict[str, List[Dict[str, Any]]]
    _honours_global_limit = False  # in-memory data is given whole (the original's LoadFromDictionary too)

    def verify_field_types(self, names: Optional[List[str]] = None) -> None:
        data = self.__dict__.get("data")
        if not isinstance(data, dict) or not all(isinstance(rows, list) and all(isinstance(row, dict) for row in rows)
                                                 for rows in data.values()):
            raise ArtifactDefinitionError(  # the original's words
                "Passed data to LoadFromDictionary is not of type Dict[str, List[Dict[str, Any]]].\n"
                f"Expected data should map between split name and list of instances.\nReceived value: {data}\n",
                artifact=type(self).__name__, field="data")
        for split, rows in data.items():  # one split, one set of fields (the original refuses ragged rows too)
            if not rows:
                raise ArtifactDefinitionError(f"Split {split} has no instances.", artifact=type(self).__name__,
                                              field="data")
            odd = next((row for row in rows if row.keys() != rows[0].keys()), None)
            if odd is not None:
                raise ArtifactDefinitionError(
                    f"Not all instances in split '{split}' have the same fields.\n"
                    f"instance {odd} has different fields different from {rows[0]}",
                    artifact=type(self).__name__, field="data")
        super().verify_field_types(names)

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        import copy

        return {
            split: (lambda rows=rows: (copy.deepcopy(row) for row in rows)) for split, rows in self.data.items()
        }


class MultipleSourceLoader(Loader):
    """Concatenate the splits of several loaders."""

    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    sources: List[Loader]

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        streams: Dict[str, List[Any]] = {}
        for source in self.sources:
            for split, stream in source().items():
                streams.setdefault(split, []).append(stream)

        def chain(parts):
            for part in parts:
                yield from part

        return {split: (lambda parts=parts: chain(parts)) for split, parts in streams.items()}

    def data_policy(self) -> List[str]:
        if self.data_classification_policy:
            return list(self.data_classification_policy)
        return sorted({policy for source in self.sources for policy in source.data_policy()})

    def _split_stream(self, generator: Callable[[], Iterable[Dict[str, Any]]], policy: List[str]) -> Iterator:
        """Each source's instances keep the policy that source gave them (as the original), unless this loader sets
        its own."""
        if self.data_classification_policy:
            yield from super()._split_stream(generator, policy)
            return
        rows = generator()
        yield from (itertools.islice(rows, self.loader_limit) if self.loader_limit is not None else rows)
