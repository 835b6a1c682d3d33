"""The single place where the unitxt version is defined.

A plain MAJOR.MINOR.PATCH of integers (clients compare `tuple(map(int, version.split(".")))`). It states the edition
of the documented API this library implements: 2.x is the edition after the original 1.x line (lm-evaluation-harness,
for one, requires >= 1.17.2), so code written for the documented API accepts it.
"""

version = "2.0.0"
