"""Loaders: source operators that read data. `base` (Loader, LoaderError, LoadFromDictionary, MultipleSourceLoader),
`hub_and_files` (LoadHF, LoadCSV, LoadJsonFile, LoadFromFsspec: Hugging Face datasets and files at any fsspec URL),
`other_sources` (IOB/CoNLL files, Hugging Face Spaces, Kaggle, scikit-learn, TURL tables).
Layer 3 of README "Layout" (data): may import layers 1-2 and the other data modules; never task, templates or above.

`from unitxt.loaders import X` works for every built-in loader class; names are imported lazily, on first use, from
the one module that defines them.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "Loader": ".base", "LoaderError": ".base", "MissingKaggleCredentialsError": ".other_sources",
    **{name: ".hub_and_files" for name in ("UnitxtUnverifiedCodeError", "hf_load_dataset", "hf_get_dataset_splits",
                                           "read_file")},
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "loaders.")
