"""Stand-ins for the downloads of cards whose source is not a Hub dataset, shared by both sides of the card comparison
(imported by oracle_runner.py in the oracle's interpreter and by test_same_cards.py in ours; it imports no unitxt module
at load time, so the same code patches whichever package runs).

A source may carry `"intercept": {...}` with any of:
- "sklearn": {"name": "20newsgroups", "splits": {split: {"data": [...], "target": [...], "target_names": [...]}}} -
  `sklearn.datasets.fetch_<name>(subset=split)` answers a Bunch of that shape (target as a numpy array);
- "kaggle_files": [{"name", "text"}] - the `opendatasets` download writes those files into <folder>/<dataset slug>/
  (as the real package does), a ./kaggle.json exists, and a local folder is read with the `datasets` file builders;
- "hub_files": {repo_id: {filename: text}} - `huggingface_hub.hf_hub_download` answers a local copy of the text;
- "wikipedia": true - `wikipediaapi.Wikipedia(...).page(title)` answers a page whose text and summary derive from the
  title (no network).
Optional-package checks of the intercepted classes (LoadFromKaggle, WikipediaFetcher) are skipped inside the context.
"""

import contextlib
import os
import sys
import tempfile
import types
from typing import Any, Callable, Dict, List


def _set(owner: Any, name: str, value: Any, undo: List[Callable]) -> None:
    """owner.name = value, with the previous state restored by undo."""
    missing = object()
    previous = owner.__dict__.get(name, missing) if isinstance(owner, type) else getattr(owner, name, missing)
    setattr(owner, name, value)
    undo.append(lambda: delattr(owner, name) if previous is missing else setattr(owner, name, previous))


def _module(name: str, undo: List[Callable], **attributes: Any) -> None:
    """A stand-in module in sys.modules (the real one, if any, restored by undo)."""
    previous = sys.modules.get(name)
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module
    undo.append(lambda: sys.modules.__setitem__(name, previous) if previous else sys.modules.pop(name, None))


def _no_requirement_check(cls: type, undo: List[Callable]) -> None:
    _set(cls, "check_missing_requirements", lambda self, requirements=None: None, undo)


def _sklearn(given: Dict[str, Any], undo: List[Callable]) -> None:
    import numpy
    import sklearn.datasets
    from sklearn.utils import Bunch

    def fetch(subset="train", **_):
        split = given["splits"][subset]
        return Bunch(data=list(split["data"]), target=numpy.array(split["target"]),
                     target_names=list(split["target_names"]))

    _set(sklearn.datasets, f"fetch_{given['name']}", fetch, undo)


def read_local_folder(path: str):
    """A local folder as `datasets.load_dataset(folder)` reads a single data file: its one split, "train"."""
    import datasets

    files = sorted(os.path.join(root, name) for root, _, names in os.walk(path) for name in names)
    by_format = {".json": datasets.Dataset.from_json, ".jsonl": datasets.Dataset.from_json,
                 ".csv": datasets.Dataset.from_csv}
    read = by_format[os.path.splitext(files[0])[1]]
    return datasets.DatasetDict({"train": read(files, keep_in_memory=True)})


def _local_folders_first(load: Callable) -> Callable:
    def answer(path, *args, **kwargs):
        if isinstance(path, str) and os.path.isdir(path):
            return read_local_folder(path)
        return load(path, *args, **kwargs)

    return answer


def _kaggle(files: List[Dict[str, str]], undo: List[Callable]) -> None:
    import datasets
    import unitxt.loaders as loaders

    def download(url, folder=".", **_):
        target = os.path.join(folder, url.rstrip("/").rsplit("/", 1)[-1])
        os.makedirs(target, exist_ok=True)
        for file in files:
            with open(os.path.join(target, file["name"]), "w", encoding="utf-8") as handle:
                handle.write(file["text"])

    _module("opendatasets", undo, download=download)
    _no_requirement_check(loaders.LoadFromKaggle, undo)
    if hasattr(loaders, "hf_load_dataset"):  # the original reads the folder through its module-level wrapper
        _set(loaders, "hf_load_dataset", _local_folders_first(loaders.hf_load_dataset), undo)
    _set(datasets, "load_dataset", _local_folders_first(datasets.load_dataset), undo)
    folder, previous = tempfile.mkdtemp(), os.getcwd()
    with open(os.path.join(folder, "kaggle.json"), "w", encoding="utf-8") as handle:
        handle.write('{"username": "synthetic", "key": "synthetic"}')
    os.chdir(folder)
    undo.append(lambda: os.chdir(previous))


def _hub_files(given: Dict[str, Dict[str, str]], undo: List[Callable]) -> None:
    import huggingface_hub

    folder = tempfile.mkdtemp()

    def download(repo_id, filename=None, **_):
        path = os.path.join(folder, repo_id, filename)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(given[repo_id][filename])
        return path

    _set(huggingface_hub, "hf_hub_download", download, undo)


class _Page:
    def __init__(self, title: str):
        self.title = title
        self.summary = f"{title.replace('_', ' ')} is the subject of this page."
        self.text = self.summary + f" More about {title.replace('_', ' ')} follows here."


def _wikipedia(undo: List[Callable]) -> None:
    from unitxt.operators import WikipediaFetcher

    class Wikipedia:
        def __init__(self, *args, **kwargs):
            pass

        def page(self, title):
            return _Page(title)

    _module("wikipediaapi", undo, Wikipedia=Wikipedia)
    _no_requirement_check(WikipediaFetcher, undo)


@contextlib.contextmanager
def intercepted(sources: List[Dict[str, Any]]):
    """The stand-ins the sources ask for (see the module docstring), in place while the context runs."""
    given: Dict[str, Any] = {}
    for source in sources:
        given.update(source.get("intercept") or {})
    undo: List[Callable] = []
    try:
        if "sklearn" in given:
            _sklearn(given["sklearn"], undo)
        if "kaggle_files" in given:
            _kaggle(given["kaggle_files"], undo)
        if "hub_files" in given:
            _hub_files(given["hub_files"], undo)
        if given.get("wikipedia"):
            _wikipedia(undo)
        yield
    finally:
        for step in reversed(undo):
            step()
