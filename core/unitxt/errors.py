"""The UnitxtError hierarchy: every user-facing failure names the artifact, the stage and the field involved."""

from typing import Any, Optional


class UnitxtError(Exception):
    """Base class of all errors raised by unitxt for bad input, configuration or data."""

    def __init__(
        self,
        message: str,
        artifact: Optional[str] = None,
        stage: Optional[str] = None,
        field: Optional[str] = None,
    ):
        self.message = message
        self.artifact = artifact
        self.stage = stage
        self.field = field
        super().__init__(self._compose())

    def _compose(self) -> str:
        context = []
        if self.artifact:
            context.append(f"artifact '{self.artifact}'")
        if self.stage:
            context.append(f"stage '{self.stage}'")
        if self.field:
            context.append(f"field '{self.field}'")
        if not context:
            return self.message
        return f"[{', '.join(context)}] {self.message}"

    def with_context(self, artifact: Optional[str] = None, stage: Optional[str] = None) -> "UnitxtError":
        """Fill in missing context (used when the error passes through a pipeline stage)."""
        if artifact and not self.artifact:
            self.artifact = artifact
        if stage and not self.stage:
            self.stage = stage
        self.args = (self._compose(),)
        return self


class ArtifactDefinitionError(UnitxtError, TypeError):
    """An artifact was constructed with missing, unknown or wrongly typed fields."""


class UnknownArtifactTypeError(UnitxtError, TypeError):
    """A serialised artifact names a `__type__` that is not a registered artifact class."""


class CatalogError(UnitxtError, LookupError):
    """A catalog name is unknown, invalid, or can not be written."""


class OverrideSyntaxError(UnitxtError, ValueError):
    """A `name[key=value]` override or a recipe string is malformed."""


class RecipeError(UnitxtError, ValueError):
    """A recipe is inconsistent (unknown key, impossible demo settings, ...)."""


class MissingFieldError(UnitxtError, KeyError):
    """An instance lacks a field an operator, task or template needs."""

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return self.args[0] if self.args else ""


class InstanceTypeError(UnitxtError, TypeError):
    """An instance field has a value of the wrong type."""


class SandboxError(UnitxtError, ValueError):
    """An expression uses a construct the sandboxed evaluator does not allow."""


class DataClassificationPolicyError(UnitxtError, PermissionError):
    """A component was given data whose classification it is not allowed to process."""


class MissingRequirementError(UnitxtError, ImportError):
    """An optional package needed by a component is not installed."""


class MetricError(UnitxtError, ValueError):
    """Predictions or references do not fit a metric."""


def type_name_of(value: Any) -> str:
    """A short human readable type name for error messages."""
    return type(value).__name__
