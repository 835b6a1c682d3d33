"""Helpers for testing what you add (developer tools, not shipped in the Hub release): `card` (test_card,
test_adding_to_catalog), `metrics` (test_metric, apply_metric) and `operators` (check_operator)."""
