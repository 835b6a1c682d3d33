"""Explore Unitxt: a web page to browse the catalog, compose a recipe and see the prompts it produces.

`python -m unitxt.explore` starts it (Gradio, the optional extra `unitxt[ui]`). The page logic lives in
`catalog_browser` (listing and showing artifacts) and `preview` (compatible choices, rendering, code snippets), which
need no UI package; `app` builds the Gradio page on top of them.
`launch()` / `launch_without_header()` are the original's `unitxt.ui` entry points (that path leads here); the
original's page modules are here under their names too: `settings`, `load_catalog_data`, `gradio_utils`, `ui_utils`,
`run`, `ui_tester`.
Layer 9 of README "Layout" (entry points): may import every other layer.
"""

from typing import Any, Dict, Optional

from ..module_aliases import moved_classes


def launch(demo_settings: Optional[Dict[str, Any]] = None) -> Any:
    """Start the explorer page (blocking), after setting the page constants `demo_settings` names (see
    `explore.settings`); as the original, loaders read at most 300 rows and the HF datasets cache is on."""
    from ..errors import UnitxtError
    from ..settings_utils import get_settings
    from . import settings
    from .app import _gradio, launch as launch_app

    _gradio()  # the install hint comes before anything changes
    for key, value in (demo_settings or {}).items():
        if not key.isupper() or not hasattr(settings, key):
            known = sorted(name for name in vars(settings) if name.isupper())
            raise UnitxtError(f"launch's demo_settings names '{key}', not a setting of the explorer page; expected "
                              f"one of {known}.", artifact="unitxt.ui.launch", field="demo_settings")
        setattr(settings, key, value)
    unitxt_settings = get_settings()
    unitxt_settings.global_loader_limit = 300
    unitxt_settings.disable_hf_datasets_cache = False
    return launch_app(header_visible=settings.HEADER_VISIBLE)


def launch_without_header(demo_settings: Optional[Dict[str, Any]] = None) -> Any:
    """`launch` with the page's header hidden (HEADER_VISIBLE=False, unless demo_settings says otherwise)."""
    return launch({"HEADER_VISIBLE": False, **(demo_settings or {})})


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
