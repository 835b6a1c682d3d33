"""The original's other kinds of stream operator (served from `unitxt.operator` by name): operators run for their
side effect (DownloadOperator, ExtractZipFile), operators that start a pipeline from arguments
(StreamInitializerOperator, SequentialOperatorInitializer) or from a source step (SourceSequentialOperator),
per-stream reducers, instance operators with access to every stream, and validated instance operators.
"""

from typing import Any, Dict, Generator, Optional

from ..errors import UnitxtError
from ..general.requirements import PackageRequirementsMixin
from ..operator import (InstanceOperator, Operator, OperatorError, SequentialMixin,
                        SequentialOperator, SourceOperator, StreamOperator)
from ..stream import DynamicStream, EmptyStreamError, MultiStream, Stream


class StreamingOperator(Operator, PackageRequirementsMixin):
    """An operator called as a whole: `__call__(multi_stream) -> MultiStream` (the base of the kinds below)."""

    __abstract__ = True

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        raise NotImplementedError(f"{type(self).__name__}.__call__(multi_stream) is not implemented")


class SideEffectOperator(StreamingOperator):
    """Runs `process()` for its effect (a download, an extraction) and passes the streams on unchanged."""

    __abstract__ = True

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        self.process()
        return multi_stream

    def process(self) -> None:
        raise NotImplementedError(f"{type(self).__name__}.process() is not implemented")


class SingleStreamOperator(StreamOperator):
    """The original's name of an operator applied to each stream separately (a StreamOperator)."""

    __abstract__ = True


class SingleStreamReducer(StreamingOperator):
    """Reduces each stream to one value: `__call__(multi_stream) -> {stream name: process(stream)}`."""

    __abstract__ = True

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> Dict[str, Any]:  # type: ignore[override]
        return {name: self.process(stream) for name, stream in (multi_stream or {}).items()}

    def process(self, stream: Stream) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.process(stream) is not implemented")


class InstanceOperatorValidator(InstanceOperator):
    """An instance operator whose first result in each stream is checked by `validate(instance, stream_name)`; an
    empty stream is an error."""

    __abstract__ = True

    def validate(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> None:
        raise NotImplementedError(f"{type(self).__name__}.validate(instance, stream_name) is not implemented")

    def _run_stream(self, stream: Stream, stream_name: str) -> Generator:
        first = True
        for result in super()._run_stream(stream, stream_name):
            if first:
                self.validate(result, stream_name)
                first = False
            yield result
        if first:
            raise EmptyStreamError(f"Stream '{stream_name}' is empty", artifact=self.artifact_name)


class InstanceOperatorWithMultiStreamAccess(StreamingOperator):
    """Processes each instance with the whole MultiStream at hand: `process(instance, multi_stream) -> instance`."""

    __abstract__ = True

    def __call__(self, multi_stream: Optional[MultiStream] = None, **instance: Any) -> MultiStream:
        if instance:
            raise OperatorError("Instance mode is not supported", artifact=self.artifact_name)
        multi_stream = multi_stream if multi_stream is not None else MultiStream()
        return MultiStream({name: DynamicStream(self.generator, {"stream": stream, "multi_stream": multi_stream})
                            for name, stream in multi_stream.items()})

    def generator(self, stream: Stream, multi_stream: MultiStream) -> Generator:
        for instance in stream:
            yield self.process(self.verify_instance(instance), multi_stream)

    def process(self, instance: Dict[str, Any], multi_stream: MultiStream) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.process(instance, multi_stream) is not implemented")


class StreamInitializerOperator(SourceOperator):
    """A source that takes arguments: `__call__(*args, **kwargs)` gives `process(*args, **kwargs)`."""

    __abstract__ = True

    def __call__(self, *args: Any, **kwargs: Any) -> MultiStream:  # type: ignore[override]
        try:
            return self._cached(self.process(*args, **kwargs))
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None

    def process(self, *args: Any, **kwargs: Any) -> MultiStream:  # type: ignore[override]
        raise NotImplementedError(f"{type(self).__name__}.process(*args, **kwargs) is not implemented")


def _check_steps(operator: SequentialMixin, kind: str) -> None:
    if operator.num_steps() == 0:
        raise OperatorError(f"Calling process on a {kind} without any steps", artifact=operator.artifact_name,
                            field="steps")


class SourceSequentialOperator(SourceOperator, SequentialMixin):
    """Steps whose first is a source: it makes the MultiStream the others then process."""

    def process(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:  # type: ignore[override]
        _check_steps(self, "SourceSequentialOperator")
        multi_stream = self.steps[0]()
        for operator in self.steps[1:self._get_max_steps()]:
            multi_stream = operator(multi_stream)
        return multi_stream


class SequentialOperatorInitializer(SequentialOperator):
    """Steps whose first is a StreamInitializerOperator: the call's arguments go to it, its streams to the rest."""

    def __call__(self, *args: Any, **kwargs: Any) -> MultiStream:  # type: ignore[override]
        return self.process(*args, **kwargs)

    def process(self, *args: Any, **kwargs: Any) -> MultiStream:  # type: ignore[override]
        _check_steps(self, "SequentialOperatorInitializer")
        if not isinstance(self.steps[0], StreamInitializerOperator):
            raise OperatorError("The first step in a SequentialOperatorInitializer must be a "
                                f"StreamInitializerOperator, got {type(self.steps[0]).__name__}",
                                artifact=self.artifact_name, field="steps")
        multi_stream = self.steps[0](*args, **kwargs)
        for operator in self.steps[1:self._get_max_steps()]:
            multi_stream = operator(multi_stream)
        return multi_stream


class DownloadOperator(SideEffectOperator):
    """Downloads `source` (a URL) to the file `target` when the streams pass."""

    source: str
    target: str

    def process(self) -> None:
        from urllib import request

        if not self.source.startswith(("http://", "https://")):
            raise OperatorError(f"DownloadOperator downloads http(s) URLs, got source={self.source!r}",
                                artifact=self.artifact_name, field="source")
        with request.urlopen(self.source) as response:  # noqa: S310 - http(s) only, checked above
            if response.status != 200:
                raise OperatorError(f"Download of {self.source} failed with HTTP status {response.status}",
                                    artifact=self.artifact_name, field="source")
            data = response.read()
        with open(self.target, "wb") as handle:
            handle.write(data)


class ExtractZipFile(SideEffectOperator):
    """Extracts the zip archive `zip_file` into the folder `target_dir` when the streams pass (zipfile keeps every
    member inside the folder: absolute paths and `..` parts are dropped)."""

    zip_file: str
    target_dir: str

    def process(self) -> None:
        import zipfile

        with zipfile.ZipFile(self.zip_file) as archive:
            archive.extractall(self.target_dir)


__all__ = ["StreamingOperator", "SideEffectOperator", "SingleStreamOperator", "SingleStreamReducer",
           "InstanceOperatorValidator", "InstanceOperatorWithMultiStreamAccess", "StreamInitializerOperator",
           "SourceSequentialOperator", "SequentialOperatorInitializer", "DownloadOperator", "ExtractZipFile"]
