"""The UnitxtError hierarchy: every user-facing failure names the artifact, the stage and the field involved."""

import contextlib
import logging
import platform
import re
import warnings
from typing import Any, Iterator, List, Optional

from .module_aliases import moved_classes

DOCUMENTATION_URL = "https://www.unitxt.ai/en/latest/"


class Documentation:
    """Documentation pages an error can point at (the original's `error_utils.Documentation` names)."""

    URL = DOCUMENTATION_URL
    HUGGINGFACE_METRICS = "docs/adding_metric.html#adding-a-hugginface-metric"
    ADDING_TASK = "docs/adding_task.html"
    ADDING_TEMPLATE = "docs/adding_template.html"
    POST_PROCESSORS = "docs/adding_template.html#post-processors"
    MULTIPLE_METRICS_OUTPUTS = "docs/adding_metric.html#metric-outputs-with-multiple-metrics"
    EVALUATION = "docs/evaluating_datasets.html"
    BENCHMARKS = "docs/benchmark.html"
    DATA_CLASSIFICATION_POLICY = "docs/data_classification_policy.html"
    CATALOG = "docs/saving_and_loading_from_catalog.html"
    SETTINGS = "docs/settings.html"


def additional_info(path: str) -> str:
    """The 'for more information' line appended to a message that names a documentation page."""
    return f"\nFor more information: see {DOCUMENTATION_URL}/{path} \n"


class UnitxtError(Exception):
    """Base class of all errors raised by unitxt for bad input, configuration or data."""

    def __init__(
        self,
        message: str,
        artifact: Optional[str] = None,
        stage: Optional[str] = None,
        field: Optional[str] = None,
        additional_info_id: Optional[str] = None,
    ):
        if isinstance(artifact, str) and artifact.startswith("docs/") and ".html" in artifact:
            artifact, additional_info_id = None, artifact  # the original's 2nd positional: a documentation page
        if additional_info_id is not None:
            message += additional_info(additional_info_id)
        self.message = message
        self.artifact = artifact
        self.stage = stage
        self.field = field
        super().__init__(self._compose())

    def _compose(self) -> str:
        context = []
        if self.artifact and self.artifact not in self.message:  # a message that names its artifact is not prefixed
            context.append(f"artifact '{self.artifact}'")
        if self.stage:
            context.append(f"stage '{self.stage}'")
        if self.field:
            context.append(f"field '{self.field}'")
        if not context:
            return self.message
        return f"[{', '.join(context)}] {self.message}"

    @property
    def original_error(self) -> Exception:
        """The error with its bare message (no artifact/stage prefix, no context box), as the original keeps it."""
        kept = self.__dict__.get("_original_error")
        if kept is not None:
            return kept
        try:
            return type(self)(self.message)
        except Exception:  # noqa: BLE001 - a subclass with another signature
            return Exception(self.message)

    @original_error.setter
    def original_error(self, error: Exception) -> None:
        self.__dict__["_original_error"] = error

    def with_context(self, artifact: Optional[str] = None, stage: Optional[str] = None) -> "UnitxtError":
        """Fill in missing context (used when the error passes through a pipeline stage)."""
        if artifact and not self.artifact:
            self.artifact = artifact
        if stage and not self.stage:
            self.stage = stage
        self.args = (self._compose(),)
        return self


class UnitxtWarning:
    """A warning logged through the unitxt logger (and Python's `warnings`), optionally naming a documentation page."""

    def __init__(self, message: str, additional_info_id: Optional[str] = None):
        if additional_info_id is not None:
            message += additional_info(additional_info_id)
        self.message = message
        logging.getLogger("unitxt").warning(message)
        warnings.warn(message, UserWarning, stacklevel=2)


CONTEXT_BOX_TITLE = "\U0001F984 Unitxt Error Context"
# context keys shown first, in this order (matched case-insensitively); the others follow in the order given
_LEADING_CONTEXT_KEYS = ("python", "unitxt", "stage", "stream", "index", "instance", "object", "action")


def _display_width(text: str) -> int:
    """Columns a terminal gives `text` (wide East Asian characters and emoji take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(char) in ("F", "W") or 0x1F300 <= ord(char) <= 0x1F9FF else 1
               for char in text)


def _context_lines(context_object: Any, context: dict) -> List[str]:
    """'Key: value' lines of an error's context: leading keys, the object's class, the rest, then help links."""
    def line(key: str, value: Any) -> str:
        return f"{key.replace('_', ' ').title()}: {'unknown' if value is None else value}"

    lines, shown = [], set()
    for wanted in _LEADING_CONTEXT_KEYS:
        key = next((key for key in context if key.lower() == wanted), None)
        if key is not None:
            lines.append(line(key, context[key]))
            shown.add(key)
    if context_object is not None and not any(key.lower() == "object" for key in shown):
        lines.append(f"Object: {type(context_object).__name__}")
    lines.extend(line(key, value) for key, value in context.items() if key not in shown and key != "help")
    links = context.get("help", DOCUMENTATION_URL)
    for entry in links if isinstance(links, list) else [links]:
        if isinstance(entry, dict):
            lines.extend(f"Help ({label}): {url}" for label, url in entry.items())
        else:
            lines.append(f"Help: {entry}")
    return lines


def context_box(lines: List[str]) -> str:
    """The framed block of context lines put in front of an error message."""
    width = max(_display_width(text) for text in [CONTEXT_BOX_TITLE, *lines]) + 4
    rows = ["\u250c" + "\u2500" * width + "\u2510",
            f"\u2502 {CONTEXT_BOX_TITLE}{' ' * (width - _display_width(CONTEXT_BOX_TITLE) - 1)}\u2502",
            f"\u2502 {'-' * (width - 2)} \u2502"]
    rows.extend(f"\u2502  - {text}{' ' * (width - _display_width(text) - 4)}\u2502" for text in lines)
    rows.append("\u2514" + "\u2500" * width + "\u2518")
    return "\n".join(rows)


def add_error_context(error: Exception, context_object: Any = None, **context: Any) -> None:
    """Put a context box in front of `error`'s message and keep the parts on it: `context_object`, `context` (with
    the versions), `original_error` (same type, the bare message). An error passing through nested contexts keeps its
    innermost object; an outer context's keys override an inner one's."""
    previous = getattr(error, "__error_context__", None)
    if previous is None:
        message, inner_object, inner_context = str(error), None, {}
    else:
        message, inner_object, inner_context = previous
    from .version import version

    merged = {"Unitxt": version, "Python": platform.python_version(), **inner_context, **context}
    owner = inner_object if inner_object is not None else context_object
    try:
        error.__error_context__ = (message, owner, merged)
        error.context_object, error.context = owner, merged
        try:
            error.original_error = type(error)(message)
        except Exception:  # noqa: BLE001 - an error class with another signature
            error.original_error = Exception(message)
        error.args = (f"\n{context_box(_context_lines(owner, merged))}\n\n{message}",)
        if isinstance(error, UnitxtError):
            error.message = error.args[0]
    except (AttributeError, TypeError):  # immutable exception objects keep their message
        pass


@contextlib.contextmanager
def error_context(context_object: Any = None, **context: Any) -> Iterator[None]:
    """Re-raise an error raised inside the block with a context box (versions, the object's class, each keyword as
    'Title Case: value', None as 'unknown', `help` as links) in front of its message; the error keeps its type, so
    `except ValueError` still catches a ValueError raised there."""
    try:
        yield
    except Exception as error:
        add_error_context(error, context_object, **context)
        raise


class ArtifactDefinitionError(UnitxtError, TypeError, ValueError):
    """An artifact was constructed with missing, unknown or wrongly typed fields (an `except TypeError` or `except
    ValueError` written for the original catches it: it raises one or the other for these mistakes)."""


class ArtifactConfigurationError(ArtifactDefinitionError, AssertionError):
    """An artifact's fields contradict each other or leave it nothing to do (the original asserts these)."""


class UnknownArtifactTypeError(UnitxtError, TypeError, ValueError):
    """A serialised artifact names a `__type__` that is not a registered artifact class (the original raises a
    ValueError, `UnrecognizedArtifactTypeError`, for this: that name is this class)."""


UnrecognizedArtifactTypeError = UnknownArtifactTypeError


class MissingArtifactTypeError(ArtifactDefinitionError):
    """Data given as a serialised artifact has no `__type__` (the original's name; a ValueError there too)."""


class CatalogError(UnitxtError, LookupError):
    """A catalog name is unknown, invalid, or can not be written."""


class CatalogEntryExistsError(CatalogError, AssertionError):
    """add_to_catalog would replace an existing entry without overwrite=True (the original asserts this)."""


class OverrideSyntaxError(UnitxtError, ValueError):
    """A `name[key=value]` override or a recipe string is malformed."""


class RecipeError(UnitxtError, ValueError):
    """A recipe is inconsistent (unknown key, impossible demo settings, ...)."""


class RecipeArgumentConflictError(RecipeError, AssertionError):
    """Two recipe arguments that exclude each other were both given (the original asserts this)."""


class MissingFieldError(UnitxtError, KeyError, ValueError):
    """An instance lacks a field an operator, task or template needs (the original raises ValueError there)."""

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return self.args[0] if self.args else ""


class FilteredAllError(UnitxtError, RuntimeError):
    """A filter removed every instance of a stream (the original raises RuntimeError there)."""


class InstanceTypeError(UnitxtError, TypeError, ValueError):
    """An instance field has a value of the wrong type (or one that can not be cast: the original's ValueError)."""


class InstanceValueError(UnitxtError, ValueError):
    """An instance field has a value the operator can not handle (e.g. not in a strict mapping)."""


class InvalidCatalogNameError(OverrideSyntaxError, AssertionError):
    """A catalog name is not dot-separated words (the original asserts a legal name)."""


class SandboxError(UnitxtError, ValueError):
    """An expression uses a construct the sandboxed evaluator does not allow."""


class DataClassificationPolicyError(UnitxtError, PermissionError):
    """A component was given data whose classification it is not allowed to process."""


class MissingRequirementError(UnitxtError, ImportError):
    """An optional package needed by a component is not installed."""


class MissingRequirementsError(MissingRequirementError):
    """Packages a component declares (`_requirements_list`) are absent or of the wrong version; lists them
    (`missing_packages`, `version_mismatched_packages`) with one installation hint each (`installation_instructions`),
    as the original's error of this name."""

    def __init__(self, class_name: str, missing_packages: List[str], version_mismatched_packages: List[str],
                 installation_instructions: List[str]):
        self.class_name = class_name
        self.missing_packages = list(missing_packages)
        self.version_mismatched_packages = list(version_mismatched_packages)
        self.installation_instructions = list(installation_instructions)
        lines = [f"{class_name} needs packages that are not available:"]
        if self.missing_packages:
            lines.append(f"Missing package(s): {', '.join(self.missing_packages)}.")
        if self.version_mismatched_packages:
            lines.append(f"Version mismatch(es): {', '.join(self.version_mismatched_packages)}.")
        lines.extend(self.installation_instructions)
        wanted = self.missing_packages + [entry.split(" (installed", 1)[0] for entry in self.version_mismatched_packages]
        if wanted:
            lines.append("Install with: pip install " + " ".join(
                name if re.fullmatch(r"[\w.\-\[\]]+", name) else f"'{name}'" for name in wanted))
        super().__init__("\n".join(lines), artifact=class_name)


class MetricError(UnitxtError, ValueError):
    """Predictions or references do not fit a metric."""


def type_name_of(value: Any) -> str:
    """A short human readable type name for error messages."""
    return type(value).__name__


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)


class OperatorError(UnitxtError):
    """An operator failed on an instance (the original error is chained). Made by `from_exception` it keeps the
    failing `exception` and the chain of `operators` it passed through (`from_operator_error` adds the next one)."""

    exception: Optional[BaseException] = None
    operators: list = []

    @classmethod
    def from_exception(cls, exception: BaseException, operator: Any) -> "OperatorError":
        """The error of `operator` failing with `exception`."""
        return cls._of(exception, [operator])

    @classmethod
    def from_operator_error(cls, exception: "OperatorError", operator: Any) -> "OperatorError":
        """An OperatorError raised inside `operator` (e.g. a step of a sequence), with `operator` added to its chain."""
        return cls._of(exception.exception, [*exception.operators, operator])

    @classmethod
    def _of(cls, exception: BaseException, operators: list) -> "OperatorError":
        names = ",\n".join(str(operator) for operator in operators)
        error = cls(f"{type(exception).__name__}: {exception}. This error was raised by the following operators: "
                    f"{names}.", artifact=getattr(operators[0], "artifact_name", None))
        error.exception, error.operators = exception, operators
        error.__cause__ = exception
        return error
