"""check_operator: run an operator on instances and compare the outputs with the expected ones."""

from ..operator import check_operator

__all__ = ["check_operator"]
