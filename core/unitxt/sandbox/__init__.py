"""The sandbox for strings users write in data: expressions (parsed, checked, run with no builtins and no attribute
escapes, under time and size budgets) and format strings (placeholders filled without str.format's attribute access).
Layer 1 of README "Layout" (foundations): imports only `errors` and the standard library.

Modules: `expressions` (compile and evaluate), `validation` (what an expression may contain), `runtime` (budgets and
safe operations), `format_strings` (template and format placeholders).
"""
