"""Explore Unitxt: a web page to browse the catalog, compose a recipe and see the prompts it produces.

`python -m unitxt.explore` starts it (Gradio, the optional extra `unitxt[ui]`). The page logic lives in
`catalog_browser` (listing and showing artifacts) and `preview` (compatible choices, rendering, code snippets), which
need no UI package; `app` builds the Gradio page on top of them.
Layer 9 of README "Layout" (entry points): may import every other layer.
"""
