"""Loaders of the original catalog format for other sources: IOB/CoNLL files, files of a Hugging Face Space, Kaggle
datasets, scikit-learn datasets, and the TURL column-type tables. Packages outside the runtime dependencies
(opendatasets, scikit-learn) are imported only when data is loaded; a missing one is an error with an install hint.
"""

import io
import json
import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from .base import Loader, LoaderError
from .hub_and_files import _open_text
from ..operator import PackageRequirementsMixin
from ..artifact import InertField


def parse_iob_sentences(lines: Iterable[str], column_names: Sequence[str]) -> Iterator[Dict[str, Any]]:
    """CoNLL-style text -> sentences: {"metadata": {key: value} from "# key = value" comments, "tokens": [{column:
    value}]}. Tab-separated columns are named by `column_names` ("_" means empty); a blank line ends a sentence."""
    metadata: Dict[str, str] = {}
    tokens: List[Dict[str, Optional[str]]] = []
    for raw in lines:
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip():
            if tokens:
                yield {"metadata": metadata, "tokens": tokens}
            metadata, tokens = {}, []
            continue
        if line.startswith("#"):
            key, separator, value = line[1:].partition("=")
            if separator:
                metadata[key.strip()] = value.strip()
            continue
        cells = line.split("\t")
        tokens.append({name: (None if index >= len(cells) or cells[index] == "_" else cells[index])
                       for index, name in enumerate(column_names)})
    if tokens:
        yield {"metadata": metadata, "tokens": tokens}


class LoadIOB(Loader):
    """IOB-tagged token files (CoNLL columns `column_names`, tab separated), one instance per sentence:
    {idx, text, tokens, ner_tags, annotator}. `idx` is the sentence's `sent_id` comment (else its position), `text`
    its `text` comment (else the tokens joined by spaces). With `fix_tags`, tags containing "OTH" and "B-O" become
    "O"."""

    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    files: Dict[str, str]
    column_names: List[str] = ["id", "token", "tag", "misc", "annotator"]
    fix_tags: bool = True
    encoding: str = "utf-8"

    def _instances(self, url: str) -> Iterator[Dict[str, Any]]:
        if self.encoding.lower().replace("-", "") != "utf8":
            with open(url, encoding=self.encoding) as handle:
                text = handle.read()
        else:
            with _open_text(url, indirect_read=url.startswith(("http://", "https://"))) as handle:
                text = handle.read()
        for position, sentence in enumerate(parse_iob_sentences(io.StringIO(text), self.column_names)):
            tokens = [token.get("token") or "" for token in sentence["tokens"]]
            tags = [token.get("tag") or "O" for token in sentence["tokens"]]
            if self.fix_tags:
                tags = ["O" if "OTH" in tag or tag == "B-O" else tag for tag in tags]
            yield {
                "idx": str(sentence["metadata"].get("sent_id", position)),
                "text": sentence["metadata"].get("text", " ".join(tokens)),
                "tokens": tokens,
                "ner_tags": tags,
                "annotator": [token.get("annotator") or "" for token in sentence["tokens"]],
            }

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        return {split: (lambda url=url: self._instances(url)) for split, url in self.files.items()}


def _hub_offline() -> bool:
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


class LoadFromHFSpace(Loader):
    """JSON Lines files of a Hugging Face Space (`space_name`, at `revision`): `data_files` is a file, a list, or
    {split: file(s)} (glob patterns match the Space's file list); a single file or list is the train split."""

    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')
    requirements_list: Any = InertField(default=None, reason="the space's own requirements are not installed here")

    space_name: str
    data_files: Union[str, List[str], Dict[str, Union[str, List[str]]]]
    path: Optional[str] = None  # local directory to download into (default: the Hub cache)
    revision: Optional[str] = None
    use_token: Optional[bool] = None
    token_env: Optional[str] = None  # the environment variable holding the token
    streaming: bool = True
    _default_policy: List[str] = ["public"]

    def _token(self) -> Optional[Union[bool, str]]:
        if self.token_env:
            return os.environ.get(self.token_env)
        return self.use_token

    def _files_of(self, files: Union[str, List[str]]) -> List[str]:
        import fnmatch

        listed: List[str] = []
        for pattern in [files] if isinstance(files, str) else files:
            if any(char in pattern for char in "*?["):
                from huggingface_hub import HfApi

                if not hasattr(self, "_space_files"):
                    self._space_files = self._local_files() if _hub_offline() else HfApi().list_repo_files(
                        self.space_name, repo_type="space", revision=self.revision)
                listed.extend(fnmatch.filter(self._space_files, pattern))
            else:
                listed.append(pattern)
        return listed

    def _local_files(self) -> List[str]:
        """Offline, glob patterns match the files already on disk: `path`, else the Space's cached snapshot."""
        folder = self.path
        if not folder:
            from huggingface_hub import snapshot_download

            try:
                folder = snapshot_download(self.space_name, repo_type="space", revision=self.revision,
                                           local_files_only=True)
            except Exception as error:  # noqa: BLE001 - nothing cached for this Space
                raise LoaderError(f"Offline, and the Space '{self.space_name}' (revision {self.revision}) is not in "
                                  f"the Hugging Face cache, so its file patterns cannot be listed.",
                                  artifact=self.artifact_name, field="data_files") from error
        root = os.path.abspath(folder)
        return sorted(os.path.relpath(os.path.join(base, name), root).replace(os.sep, "/")
                      for base, _, names in os.walk(root) for name in names)

    def _rows(self, files: Union[str, List[str]]) -> Iterator[Dict[str, Any]]:
        from huggingface_hub import hf_hub_download

        for name in self._files_of(files):
            try:
                local = hf_hub_download(repo_id=self.space_name, filename=name, repo_type="space",
                                        revision=self.revision, token=self._token(), local_dir=self.path)
            except Exception as error:  # noqa: BLE001 - report which file of which Space failed
                raise LoaderError(f"Could not download '{name}' from the Space '{self.space_name}': "
                                  f"{type(error).__name__}: {error}", artifact=self.artifact_name) from error
            with open(local, encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        yield json.loads(line)

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        splits = self.data_files if isinstance(self.data_files, dict) else {"train": self.data_files}
        return {split: (lambda files=files: self._rows(files)) for split, files in splits.items()}


class MissingKaggleCredentialsError(LoaderError):
    """LoadFromKaggle found no ./kaggle.json."""


class LoadFromKaggle(PackageRequirementsMixin, Loader):
    """A Kaggle dataset (`url`), downloaded with the `opendatasets` package and read with `datasets`. Needs Kaggle
    credentials in ./kaggle.json."""

    url: str
    _requirements_list = {"opendatasets": "downloads Kaggle datasets"}
    _default_policy: List[str] = ["public"]

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        self.check_missing_requirements()
        if not os.path.isfile("kaggle.json"):
            raise MissingKaggleCredentialsError("LoadFromKaggle needs Kaggle credentials in ./kaggle.json (see kaggle.com > Account > "
                              "API).", artifact=self.artifact_name)
        import tempfile

        import datasets
        from opendatasets import download

        folder = tempfile.mkdtemp(prefix="unitxt-kaggle-")
        download(self.url, folder)
        loaded = datasets.load_dataset(folder)
        return {split: (lambda data=data: (dict(row) for row in data)) for split, data in loaded.items()}


class LoadFromSklearn(PackageRequirementsMixin, Loader):
    """A scikit-learn dataset fetched by `sklearn.datasets.fetch_<dataset_name>(subset=split)`, as {data, target}
    rows with the target's name."""

    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    dataset_name: str
    splits: List[str] = ["train", "test"]
    _requirements_list = {"sklearn": "pip install scikit-learn"}
    _default_policy: List[str] = ["public"]

    def _rows(self, split: str) -> Iterator[Dict[str, Any]]:
        from sklearn import datasets as sklearn_datasets

        fetch = getattr(sklearn_datasets, f"fetch_{self.dataset_name}", None)
        if fetch is None:
            raise LoaderError(f"scikit-learn has no fetch_{self.dataset_name}.", artifact=self.artifact_name,
                              field="dataset_name")
        import inspect

        where = f"fetch_{self.dataset_name}"
        if "subset" not in inspect.signature(fetch).parameters:
            raise LoaderError(f"scikit-learn's {where} has no subsets (it takes no 'subset'), so split '{split}' "
                              f"of `splits` can not be fetched; LoadFromSklearn needs a dataset with train/test "
                              f"subsets (e.g. 20newsgroups).", artifact=self.artifact_name, field="splits")
        constraint = getattr(fetch, "_skl_parameter_constraints", {}).get("subset") or []
        valid = sorted(next((getattr(item, "options", None) for item in constraint
                             if getattr(item, "options", None)), None) or [])
        if valid and split not in valid:
            raise LoaderError(f"scikit-learn's {where} has no subset '{split}' (a name of `splits`); its subsets are "
                              f"{', '.join(repr(name) for name in valid)}.", artifact=self.artifact_name,
                              field="splits")
        try:
            bunch = fetch(subset=split)
        except (TypeError, ValueError) as error:
            raise LoaderError(f"scikit-learn's {where}(subset={split!r}) failed: {type(error).__name__}: {error}",
                              artifact=self.artifact_name, field="splits") from None
        names = bunch["target_names"]
        for data, target in zip(bunch["data"], bunch["target"]):
            yield {"data": data, "target": names[target]}

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        self.check_missing_requirements()
        return {split: (lambda split=split: self._rows(split)) for split in self.splits}


def turl_table(table_data: List[Any]) -> Dict[str, Any]:
    """The table of one TURL record: header = item 5; item 6 holds one list per column of [[row, col], [id, text]]
    cells; rows with only empty cells are dropped."""
    header, columns = table_data[5], table_data[6]
    if not columns:
        return {"header": header, "rows": []}
    row_count = max(column[-1][0][0] for column in columns if column)
    rows = []
    for row_index in range(row_count):
        row = [next((cell[1][1] for cell in column if cell[0][0] == row_index), "") for column in columns]
        if any(row):
            rows.append(row)
    return {"header": header, "rows": rows}


class TURLColumnTypeAnnotationLoader(Loader):
    """TURL column type annotation (from the HELM scenarios dataset on the Hub): one instance per table column with
    page_title, section_title, table_caption, table, colname and its annotations."""

    split: Any = InertField(default=None, reason='this loader reads every split, each on first use')

    _default_policy: List[str] = ["public"]

    def _rows(self, split: str) -> Iterator[Dict[str, Any]]:
        from huggingface_hub import hf_hub_download

        local = hf_hub_download("stanford-crfm/helm-scenarios", repo_type="dataset", revision="main",
                                filename=f"turl-column-type-annotation/{'dev' if split == 'validation' else split}"
                                         ".table_col_type.json")
        with open(local, encoding="utf-8") as handle:
            records = json.load(handle)
        for record in records:
            table = turl_table(record)
            for index, column_name in enumerate(record[5]):
                yield {"page_title": record[1], "section_title": record[3], "table_caption": record[4],
                       "table": table, "colname": column_name, "annotations": record[7][index]}

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        return {split: (lambda split=split: self._rows(split)) for split in ("train", "validation", "test")}


__all__ = ["LoadIOB", "LoadFromHFSpace", "LoadFromKaggle", "LoadFromSklearn", "TURLColumnTypeAnnotationLoader",
           "parse_iob_sentences", "turl_table"]
