"""Helpers for testing what you add (developer tools, not shipped in the Hub release): `card` (test_card,
test_adding_to_catalog), `metrics` (test_metric, apply_metric) and `operators` (check_operator).
Layer 9 of README "Layout" (entry points): may import every other layer."""
