"""Field declarations of artifact classes: `Field` and the original's field kinds (`unitxt.dataclass`: Optional,
Required, Abstract, Final, NonPositional, Internal), their class-definition checks and `fields()`/`fields_names()`.
The artifact base (unitxt.artifact) applies them; this module knows nothing of artifacts, only of declarations."""

import copy
import dataclasses
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import ArtifactDefinitionError

MISSING = object()  # no default given


class Field:
    """Optional field declaration: `x: List[str] = Field(default_factory=list)`."""

    def __init__(self, default: Any = MISSING, default_factory: Optional[Callable[[], Any]] = None, **_: Any):
        self.default = default
        self.default_factory = default_factory

    def make_default(self) -> Any:
        if self.default_factory is not None:
            return self.default_factory()
        return copy.deepcopy(self.default)

    @property
    def required(self) -> bool:
        return self.default is MISSING and self.default_factory is None


class OptionalField(Field):
    """A field that must declare a default (MissingDefaultError at class definition otherwise)."""


class RequiredField(Field):
    """A field every instance must be given."""


class AbstractField(Field):
    """A field a subclass must re-declare (annotation or value) before the class can be instantiated."""


class FinalField(Field):
    """A field whose value no subclass may override (FinalFieldError at class definition)."""


class NonPositionalField(Field):
    """A field that can only be given by name, never positionally."""


class InternalField(Field):
    """A field for the class's own bookkeeping (the original's internal fields), not meant to be set by users."""


class FinalFieldError(ArtifactDefinitionError):
    """A subclass overrides a FinalField."""


class AbstractFieldError(ArtifactDefinitionError):
    """A class with a field still declared AbstractField was instantiated."""


class MissingDefaultError(ArtifactDefinitionError):
    """An OptionalField declared without a default."""


def declaration_of(value: Any) -> Any:
    """The Field behind a class attribute (also through an artifact-field reference); other values unchanged;
    a `dataclasses.field(...)` as the equivalent Field."""
    value = getattr(value, "declaration", value)
    if isinstance(value, dataclasses.Field):
        factory = None if value.default_factory is dataclasses.MISSING else value.default_factory
        default = MISSING if value.default is dataclasses.MISSING else value.default
        return Field(default=default, default_factory=factory)
    return value


def check_class_declarations(cls: type) -> None:
    """At class definition: an OptionalField needs a default, and no attribute may override a base's FinalField."""
    for name, value in list(vars(cls).items()):
        declaration = declaration_of(value)
        if isinstance(declaration, OptionalField) and declaration.required:
            raise MissingDefaultError(f"OptionalField '{name}' of {cls.__name__} has no default.",
                                      artifact=cls.__name__, field=name)
        if name.startswith("_"):
            continue
        for base in cls.__mro__[1:]:
            if name in vars(base):
                if isinstance(declaration_of(vars(base)[name]), FinalField):
                    raise FinalFieldError(f"{cls.__name__} overrides '{name}', a final field of {base.__name__}.",
                                          artifact=cls.__name__, field=name)
                break


def check_no_abstract_fields(cls: type, declared: Dict[str, Any]) -> None:
    """At instantiation: no field may still be an AbstractField (a subclass must re-declare it first)."""
    abstract = [name for name, spec in declared.items() if isinstance(spec.declaration, AbstractField)]
    if abstract:
        raise AbstractFieldError(f"{cls.__name__} can not be instantiated: abstract field(s) {', '.join(abstract)} "
                                 "not declared by a subclass.", artifact=cls.__name__)


def positional_field_names(cls: type) -> Tuple[str, ...]:
    """The fields that can be given positionally, in declaration order (base classes first), as the original's
    dataclasses: all but the NonPositionalField and InternalField ones."""
    return tuple(name for name, spec in cls.get_fields().items()
                 if not isinstance(spec.declaration, (NonPositionalField, InternalField)))


def fields(cls_or_instance: Any) -> List[Any]:
    """The declared fields (objects with .name, .annotation, .declaration) of an artifact/Dataclass class or instance."""
    return list(cls_or_instance.get_fields().values())


def fields_names(cls_or_instance: Any) -> List[str]:
    """The names of the declared fields, base classes' first."""
    return [spec.name for spec in fields(cls_or_instance)]
