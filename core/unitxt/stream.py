"""Lazy, re-iterable streams of instances (dicts) and named collections of them (MultiStream)."""

import copy
from typing import Any, Callable, Dict, Generator, Iterable, Iterator, List, Optional

from .errors import OperatorError, UnitxtError
from .module_aliases import moved_classes


class Stream:
    """A re-iterable sequence of instances; each iteration starts from the beginning."""

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        """Abstract: a fresh iterator over the instances (streams are re-iterable)."""
        raise NotImplementedError(f"{type(self).__name__} does not define how to iterate")

    def peek(self) -> Dict[str, Any]:
        """The first instance (runs the stream only as far as needed)."""
        for instance in self:
            return instance
        raise UnitxtError("Can not peek into an empty stream.")

    def take(self, n: int) -> Generator[Dict[str, Any], None, None]:
        for index, instance in enumerate(self):
            if index >= n:
                break
            yield instance

    def set_copying(self, copying: bool) -> None:
        """Whether iterating yields copies of the instances (streams that always copy or never do ignore it)."""

    def to_list(self) -> List[Dict[str, Any]]:
        """Materialise the stream (use only for small streams)."""
        return list(self)

    def to_dataset(self, disable_cache: bool = False, cache_dir: Optional[str] = None, features: Any = None) -> Any:
        """A `datasets.Dataset` of the instances: in memory with `disable_cache`, else written to the Arrow cache
        (in `cache_dir`, or the datasets default)."""
        import datasets

        if disable_cache:
            return datasets.Dataset.from_list(list(self), features=features)
        return datasets.Dataset.from_generator(self.__iter__, cache_dir=cache_dir, features=features)

    def to_iterable_dataset(self, features: Any = None) -> Any:
        """A lazy `datasets.IterableDataset` of the instances."""
        import datasets

        return datasets.IterableDataset.from_generator(self.__iter__, features=features)


class GeneratorStream(Stream):
    """A stream whose instances are produced by calling `generator(**gen_kwargs)`: on every iteration, or only on the
    first one when `caching` (later passes replay that pass); `copying` yields copies of the instances."""

    def __init__(self, generator: Callable[..., Iterable[Dict[str, Any]]], gen_kwargs: Optional[Dict[str, Any]] = None,
                 caching: bool = False, copying: bool = False):
        self.generator = generator
        self.gen_kwargs = gen_kwargs or {}
        self.caching, self.copying = caching, copying
        self._cache: Optional[List[Dict[str, Any]]] = None

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        if self._cache is None:
            instances = iter(self.generator(**self.gen_kwargs))
            if not self.caching:
                return (copy.deepcopy(instance) for instance in instances) if self.copying else instances
            self._cache = list(instances)
        return iter(copy.deepcopy(self._cache) if self.copying else self._cache)

    def set_copying(self, copying: bool) -> None:
        """Switch copying of the yielded instances on or off."""
        self.copying = copying


class ListStream(Stream):
    """A stream over an in-memory list; yields copies so downstream operators can not alter the source."""

    def __init__(self, instances_list: List[Dict[str, Any]], copying: bool = True):
        self.instances_list = instances_list
        self.copying = copying

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        if not self.copying:
            return iter(self.instances_list)
        return (copy.deepcopy(instance) for instance in self.instances_list)

    def __len__(self) -> int:
        return len(self.instances_list)

    def set_copying(self, copying: bool) -> None:
        """Switch copying of the yielded instances on or off."""
        self.copying = copying


class CachingStream(Stream):
    """Wraps a stream so that it runs once: the first complete pass is kept and later passes replay it (the
    operators' `caching=True`); a pass stopped early is not kept."""

    def __init__(self, stream: Iterable[Dict[str, Any]]):
        self.stream = stream
        self.cache: Optional[List[Dict[str, Any]]] = None

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        if self.cache is not None:
            return iter(self.cache)
        return self._first_pass()

    def _first_pass(self) -> Generator[Dict[str, Any], None, None]:
        seen = []
        for instance in self.stream:
            seen.append(instance)
            yield instance
        self.cache = seen


class DynamicStream(GeneratorStream):
    """The original's name for a generator stream with the `caching` and `copying` options."""


def instance_generator(instance: Dict[str, Any]) -> Generator[Dict[str, Any], None, None]:
    """Yield the one instance (the generator of `stream_single`)."""
    yield instance


def stream_single(instance: Dict[str, Any]) -> "DynamicStream":
    """A stream of one instance, so a stream operator can run on a single instance."""
    return DynamicStream(generator=instance_generator, gen_kwargs={"instance": instance})


def instance_result(result_stream: Iterable[Dict[str, Any]]) -> Any:
    """What a stream gave back for one instance: None if nothing, the instance if one, else the list."""
    result = list(result_stream)
    if not result:
        return None
    return result[0] if len(result) == 1 else result


class ReusableGenerator:
    """A generator function with its arguments that can be run again and again (`iter()` or call it)."""

    def __init__(self, generator: Callable[..., Iterable[Any]], gen_argv: Optional[List[Any]] = None,
                 gen_kwargs: Optional[Dict[str, Any]] = None):
        self.generator = generator
        self.gen_argv = list(gen_argv or [])
        self.gen_kwargs = dict(gen_kwargs or {})

    def activate(self) -> Iterable[Any]:
        return self.generator(*self.gen_argv, **self.gen_kwargs)

    def __iter__(self) -> Iterator[Any]:
        yield from self.activate()

    def __call__(self) -> Iterator[Any]:
        yield from iter(self)


class CopyingReusableGenerator(ReusableGenerator):
    """A ReusableGenerator that yields deep copies of what its generator yields."""

    def __iter__(self) -> Iterator[Any]:
        for item in self.activate():
            yield copy.deepcopy(item)


class FaultyStreamError(UnitxtError):
    """A stream is not as expected (the base of the two below)."""


class MissingStreamError(FaultyStreamError):
    """A required stream is missing."""


class EmptyStreamError(FaultyStreamError):
    """A stream is unexpectedly empty."""


def eager_failed() -> None:
    """Report that running a stream eagerly failed (the error is printed above the warning)."""
    import traceback
    import warnings

    traceback.print_exc()
    warnings.warn("The eager execution has failed due to the error above.", stacklevel=2)


class MultiStream(dict):
    """Named streams (usually splits: train / validation / test)."""

    def __init__(self, streams: Optional[Dict[str, Any]] = None):
        super().__init__()
        for name, stream in (streams or {}).items():
            # a plain list is used as it is (as the original: operators change its instances in place)
            self[name] = stream if isinstance(stream, Stream) else ListStream(
                stream if isinstance(stream, list) else list(stream), copying=False)

    def get_generator(self, key: str) -> Iterator[Dict[str, Any]]:
        """The instances of one stream, as a generator."""
        yield from self[key]

    def set_caching(self, caching: bool) -> None:
        """Whether each stream keeps its instances after the first pass (streams that can)."""
        for stream in self.values():
            stream.caching = caching

    def set_copying(self, copying: bool) -> None:
        """Whether each stream yields copies of its instances."""
        for stream in self.values():
            stream.set_copying(copying)

    @classmethod
    def from_iterables(cls, iterables: Dict[str, Iterable[Dict[str, Any]]], copying: bool = True) -> "MultiStream":
        return cls({name: ListStream(list(items), copying=copying) for name, items in iterables.items()})

    @classmethod
    def from_generators(cls, generators: Dict[str, Callable[[], Iterable[Dict[str, Any]]]]) -> "MultiStream":
        return cls({name: GeneratorStream(generator) for name, generator in generators.items()})

    def to_dataset(self, disable_cache: bool = True, cache_dir: Optional[str] = None, features: Any = None) -> Any:
        """Convert to a `datasets.DatasetDict`: each split materialised in memory (`disable_cache`, the default) or
        written to the Arrow cache in `cache_dir`."""
        import datasets

        return datasets.DatasetDict({name: Stream.to_dataset(stream, disable_cache, cache_dir, features)
                                     for name, stream in self.items()})

    def to_iterable_dataset(self, features: Any = None) -> Any:
        """Convert to a lazy `datasets.IterableDatasetDict` (nothing is materialised)."""
        import datasets

        def generate(stream):
            yield from stream

        return datasets.IterableDatasetDict(
            {
                name: datasets.IterableDataset.from_generator(generate, gen_kwargs={"stream": stream}, features=features)
                for name, stream in self.items()
            }
        )


def apply_fused_operators(operators: List[Any], multi_stream: MultiStream) -> MultiStream:
    """The streams with instance operators applied in order; each stream runs the ones that apply to it in one loop
    (operator.SequentialOperator fuses consecutive InstanceOperators this way)."""
    result = MultiStream()
    for name, stream in multi_stream.items():
        applying = [operator for operator in operators if operator.applies_to(name)]
        if not applying:
            result[name] = stream
        elif len(applying) == 1:
            result[name] = GeneratorStream(applying[0]._run_stream, {"stream": stream, "stream_name": name})
        else:
            result[name] = GeneratorStream(_run_fused, {"operators": applying, "stream": stream, "stream_name": name})
    return result


def _run_fused(operators: List[Any], stream: "Stream", stream_name: str) -> Generator:
    """InstanceOperator._run_stream for several operators at once.

    Errors name the operator that failed; an error from the upstream stream is attributed to the first operator, as
    the innermost of separate per-operator generators would do. A task with the field moves and constants just before
    it (Rename, Set) runs as one step (`_fused_stages`); a row that step declines goes through them one by one."""
    stages = _fused_stages([(operator, operator._instance_function(), operator.effective_policy(), None)
                            for operator in operators])
    first = current = operators[0]
    index = -1
    try:
        for index, instance in enumerate(stream):
            for current, process, allowed, one_by_one in stages:
                if allowed is not None:
                    current.check_instance_policy(instance, allowed)
                result = process(instance, stream_name)
                if result is None and one_by_one is not None:  # declined by the fused step
                    for current, process, allowed, _ in one_by_one:
                        instance = process(instance, stream_name)
                else:
                    instance = result
            current = first
            yield instance
    except UnitxtError as error:
        raise error.with_context(
            artifact=current.artifact_name, stage=f"stream '{stream_name}', instance {index}"
        ) from None
    except Exception as error:  # noqa: BLE001
        raise OperatorError(
            f"{type(error).__name__}: {error}",
            artifact=current.artifact_name,
            stage=f"stream '{stream_name}', instance {index}",
        ) from error


def _fused_stages(stages: List[tuple]) -> List[tuple]:
    """The stages with a task and the run of operators before it that it can fuse with (`_fused_instance_function`)
    replaced by one stage: (task, fused step, None, the replaced stages). Stages with a policy check are not fused."""
    for position, (operator, _, allowed, _) in enumerate(stages):
        fuse = getattr(operator, "_fused_instance_function", None)
        if fuse is None or allowed is not None:
            continue
        start = position
        while start > 0 and stages[start - 1][2] is None:
            start -= 1
        fused = fuse([stage[0] for stage in stages[start:position]])
        if fused is not None:
            count, step = fused
            start = position - count
            return [*stages[:start], (operator, step, None, stages[start:position + 1]), *stages[position + 1:]]
    return stages


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
