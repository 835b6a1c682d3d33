"""Field declarations of artifact classes: `Field` and the original's field kinds (`unitxt.dataclass`: Optional,
Required, Abstract, Final, NonPositional, Internal), their class-definition checks and `fields()`/`fields_names()`.
The artifact base (unitxt.artifact) applies them; this module knows nothing of artifacts, only of declarations."""

import copy
import dataclasses
import inspect
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import ArtifactDefinitionError, UnitxtWarning

MISSING = object()  # no default given


class Field:
    """Optional field declaration: `x: List[str] = Field(default_factory=list)`."""

    def __init__(self, default: Any = MISSING, default_factory: Optional[Callable[[], Any]] = None, **_: Any):
        self.default = default
        self.default_factory = default_factory

    def get_default(self) -> Any:
        """Hook: the field's default value (a fresh one from `default_factory` when given)."""
        if self.default_factory is not None:
            return self.default_factory()
        return self.default

    def make_default(self) -> Any:
        """The value an instance gets: `get_default()`, deep-copied when shared (a plain default)."""
        value = self.get_default()
        return value if self.default_factory is not None else copy.deepcopy(value)

    @property
    def required(self) -> bool:
        return self.default is MISSING and self.default_factory is None


class FieldSpec:
    """What the class knows about one declared field."""

    __slots__ = ("name", "annotation", "declaration", "owner")

    def __init__(self, name: str, annotation: Any, declaration: Field, owner: type):
        self.name = name
        self.annotation = annotation
        self.declaration = declaration
        self.owner = owner

    @property
    def required(self) -> bool:
        return self.declaration.required

    def default(self) -> Any:
        return self.declaration.make_default()


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


class InertField(NonPositionalField):
    """A field of the original that selects machinery this library does not have: accepted with the original's
    default and without effect (`reason` says why); a value other than the default warns, and the class docstring
    lists it."""

    def __init__(self, default: Any = MISSING, default_factory: Optional[Callable[[], Any]] = None,
                 reason: str = "", **kwargs: Any):
        super().__init__(default=default, default_factory=default_factory, **kwargs)
        self.reason = reason


class InternalField(Field):
    """A field for the class's own bookkeeping (the original's internal fields), not meant to be set by users."""


def document_inert_fields(cls: type) -> None:
    """Append to a class's docstring the fields it declares that are accepted without effect here (InertField)."""
    inert = [(name, declaration_of(value)) for name, value in cls.__dict__.items()
             if isinstance(declaration_of(value), InertField)]
    if inert:
        lines = [f"    `{name}`: {field.reason}" for name, field in inert]
        cls.__doc__ = ((cls.__doc__ or "").rstrip() + "\n\n    Accepted for code written for the original, without effect "
                       "here (setting them warns):\n" + "\n".join(lines) + "\n")


def warn_inert_fields(artifact: Any, fields: Dict[str, "FieldSpec"], given: Dict[str, Any]) -> None:
    """Warn for each given field that has no effect here (InertField) set to something other than its default."""
    for name in given:
        declaration = fields[name].declaration
        if isinstance(declaration, InertField) and not _same_value(given[name], fields[name].default()):
            UnitxtWarning(f"{type(artifact).__name__}.{name} has no effect in this library ({declaration.reason}); "
                          f"the value {repr(given[name])[:80]} is ignored.")


def _same_value(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - values without a plain equality count as different
        return False


class FinalFieldError(ArtifactDefinitionError):
    """A subclass overrides a FinalField."""


class AbstractFieldError(ArtifactDefinitionError):
    """A class with a field still declared AbstractField was instantiated."""


class MissingDefaultError(ArtifactDefinitionError):
    """An OptionalField declared without a default."""


class DataclassMeta(type):
    """The metaclass of artifact classes (the original's name): `isinstance(cls, DataclassMeta)` tells a dataclass-style
    class. Collecting the fields of a new class is done by the base class itself (Artifact.__init_subclass__)."""

    @property
    def __signature__(cls) -> Optional[inspect.Signature]:
        """`inspect.signature(SomeArtifact)`: its fields as parameters (made when first asked; None, the plain
        __init__ signature, for a class whose field annotations do not resolve)."""
        if "_init_signature" not in cls.__dict__:
            try:
                cls.update_init_signature()
            except (ArtifactDefinitionError, NameError, TypeError):
                return None
        return cls.__dict__["_init_signature"]

    def update_init_signature(cls) -> None:
        """Hook: (re)make the class's constructor signature from its fields, the internal ones left out, and the
        class's `_signature_extras` (an artifact's __description__, __tags__, __deprecated_msg__, as in the original)."""
        parameters = []
        for name, spec in cls.get_fields().items():
            if isinstance(spec.declaration, InternalField):
                continue
            default = inspect.Parameter.empty if spec.required else spec.declaration.get_default()
            parameters.append(inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default,
                                                annotation=spec.annotation))
        parameters.sort(key=lambda parameter: parameter.default is not inspect.Parameter.empty)  # required first
        plain = any(not klass.__dict__.get("_is_artifact_type", True) for klass in cls.__mro__)  # a Dataclass
        extras = {} if plain else getattr(cls, "_signature_extras", {})
        parameters.extend(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
                          for name, default in extras.items())
        type.__setattr__(cls, "_init_signature", inspect.Signature(parameters))


def get_fields(cls: type, attrs: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The fields of a dataclass-style class as its bases and the class body `attrs` declare them (the original's
    metaclass step), {name: FieldSpec}: the bases' fields, then those `attrs` annotates or overrides. Without `attrs`,
    the class's own body (all its fields)."""
    if not isinstance(cls, DataclassMeta) or not hasattr(cls, "get_fields"):
        raise ArtifactDefinitionError(f"get_fields needs an artifact (dataclass-style) class, got {cls!r}.")
    own = cls.get_fields()
    if attrs is None:
        return dict(own)
    found: Dict[str, Any] = {}
    for base in cls.__bases__:
        if isinstance(base, DataclassMeta) and hasattr(base, "get_fields"):
            found = {**base.get_fields(), **found}
    for name in [*attrs.get("__annotations__", {}), *attrs]:
        if name in own and (name in found or name in attrs.get("__annotations__", {})):
            found[name] = own[name]
    return found


def abstract_factory() -> Dict[str, Any]:
    """The default of an `abstract_field`: a fresh empty dict."""
    return {}


def abstract_field() -> Any:
    """A field a subclass is meant to fill in, defaulting to an empty dict (the original metrics' declaration)."""
    return dataclasses.field(default_factory=abstract_factory)


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


class Undefined:
    """The original's marker of a field without a default (what `get_field_default` gives for a required field)."""


def _declared_as(field: Any, kind: type) -> bool:
    return isinstance(declaration_of(getattr(field, "declaration", field)), kind)


def is_final_field(field: Any) -> bool:
    """Whether a declared field (an item of `fields(...)`) is a FinalField."""
    return _declared_as(field, FinalField)


def is_abstract_field(field: Any) -> bool:
    """Whether a declared field is still an AbstractField."""
    return _declared_as(field, AbstractField)


def class_fields(obj: Any) -> List[Any]:
    """The fields declared by the class of `obj` (an instance or a class) itself, not inherited from a base."""
    cls = obj if isinstance(obj, type) else type(obj)
    return [spec for spec in fields(cls) if spec.owner is cls]


def final_fields(cls: Any) -> List[Any]:
    """The FinalField fields of a class or instance."""
    return [spec for spec in fields(cls) if is_final_field(spec)]


def abstract_fields(cls: Any) -> List[Any]:
    """The fields still declared AbstractField."""
    return [spec for spec in fields(cls) if is_abstract_field(spec)]


def required_fields(cls: Any) -> List[Any]:
    """The fields an instance must be given (no default)."""
    return [spec for spec in fields(cls) if spec.required]


def external_fields_names(cls: Any) -> List[str]:
    """The names of the fields meant for users: all but InternalField ones and names starting with "_"."""
    return [spec.name for spec in fields(cls) if not _declared_as(spec, InternalField) and not spec.name.startswith("_")]


def get_field_default(field: Any) -> Any:
    """A declared field's default (a fresh one from its factory), or `Undefined` when it has none."""
    return Undefined if field.required else field.default()


def is_class_method(func: Any) -> bool:
    """Whether a class attribute is a method rather than a field value: a bound method, or a function whose first
    parameter is `self` or `cls`."""
    if inspect.ismethod(func):
        return True
    if inspect.isfunction(func):
        parameters = list(inspect.signature(func).parameters)
        return bool(parameters) and parameters[0] in ("self", "cls")
    return False


def is_possible_field(field_name: str, field_value: Any) -> bool:
    """Whether a class attribute can be a field: not one of `object`'s own names, and not a method."""
    return field_name not in dir(object) and not is_class_method(field_value)


def to_dict(obj: Any, func: Callable[[Any], Any] = copy.deepcopy, _visited: Optional[set] = None) -> Any:
    """A plain structure of `obj`: artifacts as {field: value} over their declared fields, lists, tuples (named tuples
    keep their type) and dicts recursively, anything else through `func`; an object met again on its own path
    (a cycle) goes through `func` too."""
    visited = set() if _visited is None else _visited
    if id(obj) in visited:
        return func(obj)
    has_fields = hasattr(type(obj), "get_fields") and not isinstance(obj, type)
    if isinstance(obj, (dict, list)) or has_fields or (isinstance(obj, tuple) and hasattr(obj, "_fields")):
        visited.add(id(obj))
    if has_fields:
        return {spec.name: to_dict(getattr(obj, spec.name), func, visited) for spec in fields(obj)}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[to_dict(value, func, visited) for value in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)([to_dict(value, func, visited) for value in obj])
    if isinstance(obj, dict):
        return type(obj)({to_dict(key, func, visited): to_dict(value, func, visited) for key, value in obj.items()})
    return func(obj)


def asdict(obj: Any) -> Any:
    """An artifact's `to_dict()`, lists, tuples and dicts of them recursively, other values deep-copied."""
    if not hasattr(type(obj), "get_fields"):
        raise TypeError(f"{obj} must be a dataclass, got {type(obj)}")
    return _asdict_inner(obj)


def _asdict_inner(obj: Any) -> Any:
    if hasattr(type(obj), "get_fields") and hasattr(obj, "to_dict"):
        return obj.to_dict()
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_asdict_inner(value) for value in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)([_asdict_inner(value) for value in obj])
    if isinstance(obj, dict):
        return type(obj)({_asdict_inner(key): _asdict_inner(value) for key, value in obj.items()})
    return copy.deepcopy(obj)


class AbstractMethodsGuard:
    """Mixin: a class with abstract methods (abc.abstractmethod) cannot be instantiated until a subclass implements
    them, as with abc classes (the original's artifact metaclass derives from ABCMeta; ours does not)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        missing = sorted(name for name in dir(cls) if getattr(getattr(cls, name, None), "__isabstractmethod__", False))
        if missing:
            raise TypeError(f"Can't instantiate abstract class {cls.__name__} with abstract method"
                            f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        return super().__new__(cls)
