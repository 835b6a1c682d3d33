"""LoadWithPandas: the original's base for loaders that read each split's file into a pandas DataFrame (pandas is
imported only when a subclass reads). A subclass implements `read_dataframe(file)`; `get_args()` gives the pandas
reader arguments the loader's settings imply (compression, and nrows when a limit applies)."""

from abc import abstractmethod
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from ..errors import MissingRequirementError
from ..general.dataclass_fields import AbstractMethodsGuard
from .base import Loader, LoaderError
from ..artifact import InertField


def require_pandas(component: str) -> Any:
    """The pandas module, or an install hint naming the component that needs it."""
    try:
        import pandas
    except ImportError:
        raise MissingRequirementError(f"{component} reads files with pandas: pip install pandas.",
                                      artifact=component) from None
    return pandas


class LoadWithPandas(AbstractMethodsGuard, Loader):
    """Reads `files` ({split: path or fsspec URL}) with the subclass's `read_dataframe`; each split's rows are the
    DataFrame's records (cut to the loader limit), classified `proprietary` by default as local files are."""

    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    __abstract__ = True  # implemented by subclasses; refused as a __type__ in data

    files: Dict[str, str]
    chunksize: int = 1000
    loader_limit: Optional[int] = None
    streaming: bool = True
    compression: Optional[str] = None
    indirect_read: bool = False

    def get_splits(self) -> List[str]:
        return list(self.files.keys())

    def get_args(self) -> Dict[str, Any]:
        """pandas reader arguments: compression when set, nrows when a loader limit applies."""
        args: Dict[str, Any] = {}
        if self.compression is not None:
            args["compression"] = self.compression
        if self.get_limit() is not None:
            args["nrows"] = self.get_limit()
        return args

    @abstractmethod
    def read_dataframe(self, file: Any) -> Any:
        """The DataFrame of one file (a path or URL; an open text file when the path form failed)."""

    def dataframe_of(self, split: str) -> Any:
        """The split's DataFrame: read from its path, else (a ValueError, e.g. a URL pandas does not open) from the
        file opened through fsspec."""
        require_pandas(type(self).__name__)
        file = self.files[split]
        try:
            try:
                return self.read_dataframe(file)
            except ValueError:
                import fsspec

                with fsspec.open(file, mode="rt") as handle:
                    return self.read_dataframe(handle)
        except (OSError, ValueError) as error:
            raise LoaderError(f"Can not read split '{split}' from {file!r}: {type(error).__name__}: {error}",
                              artifact=self.artifact_name, field="files") from error

    def split_rows(self, split: str) -> Iterator[Dict[str, Any]]:
        dataframe = self.dataframe_of(split)
        limit = self.get_limit()
        if limit is not None and len(dataframe) > limit:
            dataframe = dataframe.head(limit)
        yield from dataframe.to_dict("records")

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        return {split: (lambda split=split: self.split_rows(split)) for split in self.files}
