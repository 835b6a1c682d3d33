"""General-purpose helpers with no unitxt concept of their own (copying, JSON files, retries, caches, package
checks) - the original's `unitxt.utils`, served here as `helpers`; `dataclass_fields` (field declarations and
the original's field kinds, used by unitxt.artifact); `deprecation` (the original's `deprecation_utils`); `processes` (whether
the process that left a journal or temporary file behind still runs).
Layer 1 of README "Layout" (foundations): imports only `errors`, `settings_utils` and the standard library.
"""
