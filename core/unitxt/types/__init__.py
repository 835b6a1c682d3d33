"""Types of task fields: the built-in data types (`definitions`: Text, Dialog, Table, Image...) and type strings
(`checking`: a safe parser, compiled checkers, the registry of names).
Layer 1 of README "Layout" (foundations): imports only `errors` and the standard library.

`from unitxt.types import Dialog` (the original's path; also this library's older `unitxt.data_types`) works for
the names below, each imported on first use.
"""

from typing import Dict

from ..lazy_imports import lazy_exports
from .definitions import __all__ as _DEFINED

_EXPORTS: Dict[str, str] = {
    **{name: ".definitions" for name in _DEFINED},
    **{name: ".checking" for name in ("register_builtin_types", "mentions_media_type", "register_type", "to_type",
                                      "isoftype", "parse_type_string", "type_to_string", "make_checker")},
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "types.")
