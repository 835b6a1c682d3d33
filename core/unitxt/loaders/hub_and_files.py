"""Loaders reading Hugging Face datasets and files (CSV, JSON/JSONL, any fsspec URL, compressed or not)."""

import json
import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Union


from .base import Loader, LoaderError
from ..artifact import InertField


def _rows_from_hf_dataset(dataset: Any, limit: Optional[int]) -> Iterator[Dict[str, Any]]:
    """Iterate an HF Dataset quickly (column batches -> row dicts); IterableDatasets row by row."""
    if hasattr(dataset, "iter") and hasattr(dataset, "__len__"):
        count = len(dataset) if limit is None else min(limit, len(dataset))
        if count < len(dataset):
            dataset = dataset.select(range(count))
        for batch in dataset.iter(batch_size=1000):
            keys = list(batch)
            for values in zip(*batch.values()):
                yield dict(zip(keys, values))
        return
    for index, row in enumerate(dataset):
        if limit is not None and index >= limit:
            return
        yield dict(row)


class UnitxtUnverifiedCodeError(LoaderError):
    """A dataset needs to run code from the Hub, which the settings do not allow."""

    def __init__(self, path: str):
        super().__init__(f"Loader cannot load and run remote code from {path} in huggingface without setting "
                         "unitxt.settings.allow_unverified_code=True or by setting environment variable: "
                         "UNITXT_ALLOW_UNVERIFIED_CODE.")


def hf_load_dataset(path: str, *args: Any, **kwargs: Any) -> Any:
    """datasets.load_dataset as the loaders call it: under settings.hf_offline_datasets_path when set, re-downloaded
    when settings.disable_hf_datasets_cache, without split verification."""
    import datasets

    from ..settings_utils import settings

    offline_root = getattr(settings, "hf_offline_datasets_path", None)
    if offline_root is not None:
        path = os.path.join(offline_root, path)
    if settings.disable_hf_datasets_cache:
        kwargs["download_mode"] = "force_redownload"
    if int(datasets.__version__.split(".")[0]) < 4:
        kwargs.setdefault("trust_remote_code", True)
    return datasets.load_dataset(path, *args, verification_mode="no_checks", **kwargs)


def hf_get_dataset_splits(path: str, name: str, revision: Optional[str] = None) -> List[str]:
    """The split names of a Hugging Face dataset configuration (FileNotFoundError when offline and not cached)."""
    import datasets

    try:
        return datasets.get_dataset_split_names(path=path, config_name=name, revision=revision)
    except Exception as error:
        if "Couldn't find cache" in str(error):
            raise FileNotFoundError(f"Dataset cache path={path}, name={name} was not found.") from error
        raise


def read_file(source: Any) -> bytes:
    """The bytes of a file-like object, an http(s) URL or a local path."""
    if hasattr(source, "read"):
        return source.read()
    if isinstance(source, str) and source.startswith(("http://", "https://")):
        from urllib import request

        with request.urlopen(source) as response:  # noqa: S310 - http(s) only, checked above
            return response.read()
    with open(source, "rb") as handle:
        return handle.read()


_LAMBDAS: Dict[str, Callable[[Any], Any]] = {}


def _compiled_lambda(text: str, compile_lambda: Callable[[str], Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """A row filter compiled once per text (the compiled lambda holds no state), so fetching a card again is fast."""
    if text not in _LAMBDAS:
        if len(_LAMBDAS) >= 2048:
            _LAMBDAS.clear()
        _LAMBDAS[text] = compile_lambda(text)
    return _LAMBDAS[text]


class LoadHF(Loader):
    """Load a dataset with `datasets.load_dataset` (Hub name or local folder in the Hub layout)."""

    path: str
    name: Optional[str] = None
    data_dir: Optional[str] = None
    split: Optional[str] = None
    data_files: Optional[Union[str, List[str], Dict[str, Union[str, List[str]]]]] = None
    revision: Optional[str] = None
    trust_remote_code: bool = False
    filtering_lambda: Optional[str] = None  # "lambda x: x['label'] != -1", evaluated in the expression sandbox
    splits: Optional[List[str]] = None  # the splits to provide (others are dropped); every one must exist
    num_proc: Optional[int] = None
    _default_policy = ["public"]

    def prepare(self) -> None:
        super().prepare()
        self._row_filter = None
        if self.filtering_lambda is not None:
            from ..sandbox.expressions import SandboxError, compile_lambda

            try:
                self._row_filter = _compiled_lambda(self.filtering_lambda, compile_lambda)
            except SandboxError as error:
                raise LoaderError(f"filtering_lambda is not a valid sandboxed lambda: {error}",
                                  artifact=type(self).__name__, field="filtering_lambda") from None

    def data_policy(self) -> List[str]:
        if self.data_classification_policy:
            return list(self.data_classification_policy)
        if os.path.exists(self.path):
            return ["proprietary"]  # local files
        return ["public"]

    def is_streaming(self) -> bool:
        """Hook: whether the dataset is read as a streaming (iterable) dataset."""
        return bool(self.streaming)

    def load_dataset(self, split: Optional[str], streaming: Optional[bool] = None,
                     disable_memory_caching: bool = False) -> Any:
        """Hook: `datasets.load_dataset` of this loader's dataset: one split's dataset, or (split None) the dict of
        all; `streaming` None follows `is_streaming()` (the datasets are read from datasets' cache, never kept in
        memory here, so disable_memory_caching changes nothing)."""
        import datasets

        streaming = self.is_streaming() if streaming is None else streaming
        kwargs: Dict[str, Any] = {"path": self.path}
        for key in ("name", "data_dir", "data_files", "revision"):
            if getattr(self, key) is not None:
                kwargs[key] = getattr(self, key)
        if split is not None:
            kwargs["split"] = split
        if streaming:
            kwargs["streaming"] = True
        if self.trust_remote_code and int(datasets.__version__.split(".")[0]) < 4:
            kwargs["trust_remote_code"] = True
        if self.num_proc is not None and not streaming:
            kwargs["num_proc"] = self.num_proc
        try:
            loaded = datasets.load_dataset(**kwargs)
        except Exception as error:  # noqa: BLE001 - surface the cause with our context
            raise LoaderError(
                f"datasets.load_dataset({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}) failed: "
                f"{type(error).__name__}: {error}",
                artifact=self.artifact_name,
                stage="loading",
            ) from error
        return loaded

    def _load(self) -> Any:
        loaded = self.load_dataset(self.split)
        if self.split is not None:
            return {self.split: loaded}
        loaded = dict(loaded)
        if self.splits is not None:
            missing = [name for name in self.splits if name not in loaded]
            if missing:
                raise LoaderError(f"Split(s) {missing} listed in 'splits' are not in the dataset (it has "
                                  f"{sorted(loaded)}).", artifact=self.artifact_name, field="splits")
            loaded = {name: loaded[name] for name in self.splits}
        return loaded

    def _rows(self, dataset: Any) -> Iterator[Dict[str, Any]]:
        """The dataset's rows; with filtering_lambda, only those it accepts (the limit counts kept rows)."""
        if self._row_filter is None:
            yield from _rows_from_hf_dataset(dataset, self.get_limit())
            return
        yield from self.filter_load(dataset)

    def filter_load(self, dataset: Any) -> Iterator[Dict[str, Any]]:
        """Hook: the rows of a loaded split that `filtering_lambda` accepts (evaluated in the expression sandbox)."""
        accept = self._row_filter
        return (row for row in _rows_from_hf_dataset(dataset, None) if accept(row))

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        splits = self._load()
        return {name: (lambda dataset=dataset: self._rows(dataset)) for name, dataset in splits.items()}


def _open_text(url: str, compression: Optional[str] = None, indirect_read: bool = False):
    """Open a local path or any fsspec URL for reading text (`compression`: gzip, bz2, xz, zip, infer...).
    `indirect_read` opens an http(s) URL with urllib first (some servers refuse the fsspec client)."""
    if indirect_read and url.startswith(("http://", "https://")):
        import io
        from urllib import request

        with request.urlopen(url) as response:  # noqa: S310 - only http(s), checked above
            data = response.read()
        return io.StringIO(_decompress(data, compression, url).decode("utf-8"), newline="")
    if compression or ("://" in url and not url.startswith("file://")):
        import fsspec

        return fsspec.open(url, "rt", encoding="utf-8", compression=compression).open()
    path = url[len("file://") :] if url.startswith("file://") else url
    return open(path, encoding="utf-8", newline="")


def _decompress(data: bytes, compression: Optional[str], url: str) -> bytes:
    """Bytes read in one go (indirect_read), decompressed as `compression` says."""
    if not compression:
        return data
    import bz2
    import gzip
    import io
    import lzma
    import zipfile

    if compression == "infer":
        compression = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz", ".zip": "zip"}.get(os.path.splitext(url)[1])
    if compression in ("gzip", "gz"):
        return gzip.decompress(data)
    if compression == "bz2":
        return bz2.decompress(data)
    if compression in ("xz", "lzma"):
        return lzma.decompress(data)
    if compression == "zip":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.read(archive.namelist()[0])
    if compression is None:
        return data
    raise LoaderError(f"Unsupported compression {compression!r} for {url}; use gzip, bz2, xz, zip or infer.")


def _expand(url: str) -> List[str]:
    """Expand glob patterns (local or fsspec) into a sorted list of files."""
    if not any(char in url for char in "*?["):
        return [url]
    import fsspec

    filesystem, _, paths = fsspec.get_fs_token_paths(url)
    protocol = filesystem.protocol if isinstance(filesystem.protocol, str) else filesystem.protocol[0]
    expanded = sorted(paths)
    if not expanded:
        raise LoaderError(f"No files match {url!r}.")
    if protocol in ("file", "local"):
        return expanded
    return [f"{protocol}://{path}" for path in expanded]


_JSON_DECODER = json.JSONDecoder()
_JSON_WHITESPACE = " \t\n\r"


def _parse_json_line(line: str) -> Any:
    """`json.loads(line)`, at about half the cost: `raw_decode` of the line without JSON whitespace skips the
    wrapper's regular expressions. A malformed line goes through json.loads, which raises its usual error."""
    text = line.strip(_JSON_WHITESPACE)
    try:
        value, end = _JSON_DECODER.raw_decode(text)
    except json.JSONDecodeError:
        return json.loads(line)
    if end != len(text):
        return json.loads(line)  # trailing data: "Extra data" error
    return value


def _read_jsonl(url: str, **open_args: Any) -> Iterator[Dict[str, Any]]:
    """The file's rows; blank lines are skipped. A well-formed line is decoded inline (`_parse_json_line`'s
    `raw_decode`), any other goes through `_parse_json_line` for its error or value."""
    decode, whitespace = _JSON_DECODER.scan_once, _JSON_WHITESPACE  # raw_decode's scanner, called directly
    with _open_text(url, **open_args) as handle:
        for line_number, line in enumerate(handle, start=1):
            text = line.strip(whitespace)
            if not text:
                continue
            try:
                value, end = decode(text, 0)
            except (json.JSONDecodeError, StopIteration):  # (raw_decode turns the latter into "Expecting value")
                end = -1
            if end != len(text):
                if not line.strip():  # other whitespace only: a blank line too
                    continue
                try:
                    value = _parse_json_line(line)
                except json.JSONDecodeError as error:
                    raise LoaderError(f"{url} line {line_number} is not valid JSON: {error}") from None
            yield value


def _read_json(url: str, data_field: Optional[str], **open_args: Any) -> Iterator[Dict[str, Any]]:
    with _open_text(url, **open_args) as handle:
        try:
            content = json.load(handle)
        except json.JSONDecodeError as error:
            raise LoaderError(f"{url} is not valid JSON: {error}") from None
    if data_field:
        for key in data_field.split("/"):
            content = content[key]
    if isinstance(content, dict) and not data_field:
        content = [content]  # a file holding one object is one instance
    if not isinstance(content, list):
        raise LoaderError(f"{url} must contain a list of objects (or set data_field), got {type(content).__name__}.")
    yield from content


def _read_csv(url: str, sep: str, **open_args: Any) -> Iterator[Dict[str, Any]]:
    from .csv_table import typed_csv_rows

    with _open_text(url, **open_args) as handle:
        text = handle.read()
    yield from typed_csv_rows(text, sep)


class LoadFiles(Loader):
    """Load splits from files or fsspec URLs (`files={"train": "data/train.jsonl", "test": "s3://b/t-*.jsonl"}`)."""

    files: Dict[str, Union[str, List[str]]]
    file_format: Optional[str] = None  # "jsonl", "json" or "csv"; inferred from the extension when None
    data_field: Optional[str] = None
    sep: str = ","
    compression: Optional[str] = None  # as fsspec names it: "gzip", "bz2", "xz", "zip", "infer", ...
    indirect_read: bool = False  # open http(s) URLs with urllib first

    def _format_of(self, url: str) -> str:
        if self.file_format:
            return self.file_format
        lowered = url.lower().split("?")[0]
        for suffix, kind in ((".jsonl", "jsonl"), (".ndjson", "jsonl"), (".json", "json"), (".csv", "csv"), (".tsv", "tsv")):
            if lowered.endswith(suffix):
                return kind
        raise LoaderError(
            f"Can not infer the format of {url!r}; set file_format to 'jsonl', 'json' or 'csv'.",
            artifact=self.artifact_name,
            field="file_format",
        )

    def _rows(self, urls: List[str]) -> Iterator[Dict[str, Any]]:
        by_dataframe = type(self).read_dataframe is not LoadFiles.read_dataframe  # a subclass reads with pandas
        for pattern in urls:
            for url in _expand(pattern):
                if by_dataframe:
                    yield from self.read_dataframe(url).to_dict("records")
                else:
                    yield from self._file_rows(url)

    def _file_rows(self, url: str) -> Iterator[Dict[str, Any]]:
        kind = self._format_of(url)
        open_args = {"compression": self.compression, "indirect_read": self.indirect_read}
        if kind == "jsonl":
            yield from _read_jsonl(url, **open_args)
        elif kind == "json":
            yield from _read_json(url, self.data_field, **open_args)
        elif kind in ("csv", "tsv"):
            yield from _read_csv(url, "\t" if kind == "tsv" else self.sep, **open_args)
        else:
            raise LoaderError(f"Unknown file_format {kind!r}.", artifact=self.artifact_name)

    def read_dataframe(self, file: str) -> Any:
        """Hook: one file's rows as a pandas DataFrame (pandas needed; a subclass overriding it is read this way)."""
        from .pandas_files import require_pandas

        return require_pandas(type(self).__name__).DataFrame(list(self._file_rows(file)))

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        generators = {}
        for split, urls in self.files.items():
            url_list = [urls] if isinstance(urls, str) else list(urls)
            generators[split] = lambda url_list=url_list: self._rows(url_list)
        return generators


class LoadJsonFile(LoadFiles):
    """Load JSON (a list of objects or one object, optionally under `data_field`) or JSON Lines files
    (`lines=True`; when unset, a .jsonl/.ndjson extension means JSON Lines)."""

    chunksize: Any = InertField(default=1000, reason='files are read whole here')
    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    lines: Optional[bool] = None

    def verify(self) -> None:
        super().verify()
        if self.lines and self.data_field:
            raise LoaderError("data_field can not be used with lines=True (each line is one instance).",
                              artifact=type(self).__name__, field="data_field")

    def _format_of(self, url: str) -> str:
        if self.file_format:
            return self.file_format
        if self.lines is not None:
            return "jsonl" if self.lines else "json"
        return "jsonl" if url.lower().endswith((".jsonl", ".ndjson")) else "json"


class LoadCSV(LoadFiles):
    """Load CSV files, values typed as the original's pandas reader types them (ints, floats, booleans, strings;
    empty cells NaN). `sep` sets the delimiter."""

    chunksize: Any = InertField(default=1000, reason='files are read whole here')
    column_names: Any = InertField(default=None, reason='column names are read from the file here')
    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    file_format: Optional[str] = "csv"


class LoadFromFsspec(LoadFiles):
    """Generic loader for any URL fsspec understands (file://, memory://, s3://, gs://, ...), globs allowed."""
