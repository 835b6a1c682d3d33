"""General-purpose helpers with no unitxt concept of their own (copying, JSON files, retries, caches, package
checks) - the original's `unitxt.utils`, served here as `helpers`.
Layer 1 of README "Layout" (foundations): imports only `errors`, `settings_utils` and the standard library.
"""
