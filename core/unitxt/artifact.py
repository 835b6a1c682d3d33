"""Artifacts: declarative, typed, JSON-serialisable components addressable by catalog name.

A subclass declares fields as annotated class attributes (`name: str = "x"`; no default means required). Instances
validate field types at construction, serialise with `to_dict()` (with `__type__` = the registered snake_case class
name) and load with `from_dict()`, which only ever instantiates registered classes. A field whose type expects an
artifact also accepts a catalog name (`"metrics.f1[reduction=median]"`), resolved the first time it is read.
"""

import copy
import difflib
import json
import os
import re
import typing
import warnings
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple

from .artifact_registry import (_ARTIFACT_TYPES, _import_module_of, _type_modules,  # noqa: F401
                                concrete_types_of, get_artifact_class, get_closest_artifact_type,
                                load_builtin_artifact_modules, registered_artifact_types)
from .artifact_registry import OriginalArtifactMethods
from .catalog_store import (Catalogs, LocalCatalog, UnitxtArtifactNotFoundError, find_in_catalogs,  # noqa: F401
                            get_catalog_name_and_args, is_name_legal_for_catalog, register_all_artifacts,
                            reset_artifacts_json_cache, verify_legal_catalog_name, write_json_atomically)
from .dict_utils import dict_diff_string  # noqa: F401 - the original's artifact API
from .errors import (ArtifactDefinitionError, CatalogError, MissingArtifactTypeError, UnitxtError,  # noqa: F401
                     UnknownArtifactTypeError, UnrecognizedArtifactTypeError)
from .general.dataclass_fields import (AbstractField, AbstractFieldError, DataclassMeta, Field, FieldSpec,  # noqa: F401
                                       FinalField, FinalFieldError, InertField, InternalField, MissingDefaultError,
                                       NonPositionalField, OptionalField, RequiredField, Undefined, abstract_fields,
                                       asdict, check_class_declarations, check_no_abstract_fields, class_fields,
                                       declaration_of, document_inert_fields, external_fields_names, fields,
                                       fields_names, final_fields, get_field_default, get_fields, is_abstract_field,
                                       is_class_method, is_final_field, is_possible_field, positional_field_names,
                                       required_fields, to_dict, warn_inert_fields)
from .general.dataclass_fields import _asdict_inner as dataclass_value
from .logging_utils import get_logger
from .module_aliases import moved_classes
from .query_parser import Unquoted, coerce_override, format_value, guess_scalar, parse_artifact_query
from .settings_utils import get_artifacts_data_classification, settings  # noqa: F401 - the original's artifact API
from .types.checking import describe_value_type, make_checker, type_to_string

SPECIAL_KEYS = ("__description__", "__tags__", "__deprecated_msg__", "__title__")


def camel_to_snake(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)).lower()


def is_artifact_class(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, Artifact)


def _expects_artifact(annotation: Any) -> bool:
    """Whether a field annotation mentions an Artifact class anywhere (so strings in it are catalog names)."""
    if is_artifact_class(annotation):
        return True
    return any(_expects_artifact(arg) for arg in typing.get_args(annotation))


def _artifact_classes_in(annotation: Any) -> List[type]:
    return [annotation] if is_artifact_class(annotation) else [
        cls for arg in typing.get_args(annotation) for cls in _artifact_classes_in(arg)]


class _ArtifactReference:
    """Data descriptor for artifact-typed fields: keeps the raw value (maybe a catalog name), resolves on read."""

    def __init__(self, name: str, declaration: "Field"):
        self.name = name
        self.declaration = declaration
        self.cache_key = f"_resolved__{name}"

    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            raw = instance.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None
        if raw is None or isinstance(raw, Artifact):
            return raw
        cached = instance.__dict__.get(self.cache_key)
        if cached is not None and cached[0] is raw:
            return cached[1]
        resolved = instance._resolve_field_value(self.name, raw)
        instance.__dict__[self.cache_key] = (raw, resolved)
        return resolved

    def __set__(self, instance, value):
        instance.__dict__[self.name] = value


class Artifact(OriginalArtifactMethods, metaclass=DataclassMeta):
    """Base of every declarative component (cards, tasks, templates, formats, operators, metrics, ...)."""

    data_classification_policy: Optional[List[str]] = NonPositionalField(default=None)
    _fields: ClassVar[Dict[str, FieldSpec]] = {}
    _positional_args: ClassVar[Tuple[str, ...]] = ()
    _type_name: ClassVar[str] = "artifact"
    _hints_resolved: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._type_name = cls.__dict__.get("__type_name__", camel_to_snake(cls.__name__))
        cls._hints_resolved = False
        check_class_declarations(cls)
        document_inert_fields(cls)
        if cls.__name__.startswith("_") or any(not k.__dict__.get("_is_artifact_type", True) for k in cls.__mro__):
            return  # private helpers and plain Dataclass classes are not addressable from data
        if cls._type_name in _ARTIFACT_TYPES and _ARTIFACT_TYPES[cls._type_name] is not cls:
            get_logger().debug(f"Artifact type '{cls._type_name}' redefined by {cls.__module__}.{cls.__qualname__}")
        _ARTIFACT_TYPES[cls._type_name] = cls

    @classmethod
    def get_fields(cls) -> Dict[str, FieldSpec]:
        """Declared fields in declaration order, base classes first (annotations resolved lazily, once)."""
        if not cls.__dict__.get("_hints_resolved", False):
            cls._resolve_fields()
        return cls.__dict__["_fields"]

    @classmethod
    def _resolve_fields(cls) -> None:
        annotations: Dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            if klass is object or not issubclass(klass, Artifact) or not klass.__dict__.get("__annotations__"):
                continue
            if klass is Artifact and any(not k.__dict__.get("_is_artifact_type", True) for k in cls.__mro__):
                continue  # plain Dataclass classes lack the artifact-wide fields (as the original's)
            hints = typing.get_type_hints(klass)
            for name in klass.__dict__["__annotations__"]:
                if name.startswith("_") or typing.get_origin(hints.get(name)) is ClassVar:
                    continue
                annotations[name] = hints[name]
        fields: Dict[str, FieldSpec] = {}
        for name, annotation in annotations.items():
            declaration, owner, annotated_below = Field(), cls, False
            for klass in cls.__mro__:
                if name in klass.__dict__:
                    value = declaration_of(klass.__dict__[name])
                    declaration = value if isinstance(value, Field) else Field(default=value)
                    owner = klass
                    break
                annotated_below = annotated_below or name in klass.__dict__.get("__annotations__", {})
            if annotated_below and isinstance(declaration, (AbstractField, InertField)):
                declaration = Field()  # re-declared by a subclass: no longer abstract (or inert), now required
            fields[name] = FieldSpec(name, annotation, declaration, owner)
            if _expects_artifact(annotation):
                setattr(cls, name, _ArtifactReference(name, declaration))
        cls._fields = fields
        cls._hints_resolved = True

    def __init__(self, *args: Any, **kwargs: Any):
        fields = self.get_fields()
        check_no_abstract_fields(type(self), fields)
        if getattr(type(self), "__allow_unexpected_arguments__", False):
            self._argv, args = args[len(self.positional_fields()):], args[:len(self.positional_fields())]
            self._kwargs = {key: kwargs.pop(key) for key in list(kwargs) if key not in fields}
        if args:
            positional = self.positional_fields()
            if len(args) > len(positional):
                raise ArtifactDefinitionError(
                    f"{type(self).__name__} takes at most {len(positional)} positional argument(s) "
                    f"({', '.join(positional) or 'none'}), got {len(args)}; pass fields by name.",
                    artifact=type(self).__name__,
                )
            for name, value in zip(positional, args):
                if name in kwargs:
                    raise ArtifactDefinitionError(f"Field '{name}' given twice.", artifact=type(self).__name__)
                kwargs[name] = value
        kwargs.pop("__type__", None)
        for key in SPECIAL_KEYS:
            if key in kwargs:
                self.__dict__[key] = kwargs.pop(key)
        unknown = [key for key in kwargs if key not in fields]
        if unknown:
            hints = {key: difflib.get_close_matches(key, list(fields), n=3) for key in unknown}
            detail = "; ".join(
                f"'{key}'" + (f" (did you mean {', '.join(repr(m) for m in hints[key])}?)" if hints[key] else "")
                for key in unknown
            )
            raise ArtifactDefinitionError(
                f"Unknown field(s) {detail} for {type(self).__name__}. Its fields are: {', '.join(fields)}.",
                artifact=type(self).__name__,
            )
        for name, spec in fields.items():
            if name in kwargs:
                value = kwargs[name]
            elif spec.required:
                raise ArtifactDefinitionError(
                    f"Missing required field '{name}' (type {type_to_string(spec.annotation)}) "
                    f"of {type(self).__name__}.",
                    artifact=type(self).__name__,
                    field=name,
                )
            else:
                value = spec.default()
            if (isinstance(value, str) and value.endswith(".json") and _expects_artifact(spec.annotation)
                    and os.path.isfile(value)):
                value = Artifact.load(value)  # a path to an artifact's JSON file is read now, as the original does
            self.__dict__[name] = value
        self._given_fields = set(kwargs)
        warn_inert_fields(self, fields, kwargs)
        self.__id__ = None
        self.verify_field_types(list(kwargs))
        deprecated = self.__dict__.get("__deprecated_msg__")
        if deprecated:
            get_logger().warning(f"{type(self).__name__} is deprecated: {deprecated}")
            warnings.warn(deprecated, DeprecationWarning, stacklevel=2)
        self.prepare()
        if not settings.skip_artifacts_prepare_and_verify:  # the original's switch for fast catalog building: artifacts
            self.verify()  # are built unchecked (prepare still runs: it derives what using the artifact needs)
        # what construction left in each field: while a field still holds it, to_dict writes what was given (as the
        # original's saved JSON: the arguments as given, nothing prepare/verify derived)
        self.__dict__["_constructed"] = ({name: self.__dict__[name] for name in fields}, dict(kwargs))

    @classmethod
    def positional_fields(cls) -> Tuple[str, ...]:
        """The fields that can be given positionally, in order: a class's explicit `_positional_args`, else (as the
        original) every field in declaration order but the NonPositionalField and InternalField ones."""
        return cls._positional_args or positional_field_names(cls)

    def prepare(self) -> None:
        """Hook: derive internal state from fields after construction."""

    def verify(self) -> None:
        """Hook: check cross-field constraints after construction; raise UnitxtError subclasses."""

    def verify_field_types(self, names: Optional[List[str]] = None) -> None:
        fields = self.get_fields()
        for name in names if names is not None else list(fields):
            spec = fields[name]
            value = self.__dict__[name]
            if value is None and not spec.required and spec.default() is None:
                continue
            if not _field_checker(type(self), spec)(value):
                raise ArtifactDefinitionError(
                    f"Field '{name}' of {type(self).__name__} expects {type_to_string(spec.annotation)}, "
                    f"got {describe_value_type(value)}: {_short(value)}.", artifact=self.artifact_name, field=name)

    # ------------------------------------------------------------------ identity & repr
    @property
    def artifact_name(self) -> str:
        """Catalog name when fetched from a catalog, else the class name (used in error messages)."""
        return self.__dict__.get("__id__") or type(self).__name__

    def get_repr_dict(self) -> Dict[str, Any]:
        """Hook: the {field: value} shown by repr() (the fields given at construction)."""
        return {name: self.__dict__[name] for name in self.get_fields() if name in self._given_fields}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{key}={value!r}' for key, value in self.get_repr_dict().items())})"

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Artifact) or type(other) is not type(self):
            return NotImplemented
        return _canonical(self.to_dict()) == _canonical(other.to_dict())

    __hash__ = object.__hash__

    # ------------------------------------------------------------------ resolution of catalog names
    def _resolve_field_value(self, name: str, raw: Any) -> Any:
        spec = self.get_fields()[name]
        expected = _artifact_classes_in(spec.annotation)

        def resolve(value):
            if isinstance(value, str) or (isinstance(value, dict) and "__type__" in value):  # name, path or data
                try:
                    artifact, _ = fetch_artifact(value)
                except UnitxtError as error:
                    raise error.with_context(artifact=self.artifact_name) from None
                if expected and not isinstance(artifact, tuple(expected)):
                    raise ArtifactDefinitionError(
                        f"Field '{name}' expects {' or '.join(cls.__name__ for cls in expected)}, but catalog name "
                        f"'{value}' refers to a {type(artifact).__name__}.", artifact=self.artifact_name, field=name)
                return artifact
            if isinstance(value, list):
                return [resolve(item) for item in value]
            if isinstance(value, dict) and not isinstance(value, Artifact):
                return {key: resolve(item) for key, item in value.items()}
            return value

        return resolve(raw)

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> Dict[str, Any]:
        """Serialise to plain JSON-compatible data: the fields as given at construction (not what `prepare` derived
        from them), and fields set since then when they differ from their defaults."""
        result: Dict[str, Any] = {"__type__": self._type_name}
        for key in SPECIAL_KEYS:
            if key in self.__dict__:  # given (even as None, as the original's links write a null message)
                result[key] = copy.deepcopy(self.__dict__[key])
        constructed, given_values = self.__dict__.get("_constructed", ({}, {}))
        for name, spec in self.get_fields().items():
            value = self.__dict__[name]
            if name in constructed and constructed[name] is value:
                if name in given_values:
                    result[name] = to_serializable(given_values[name])
                continue
            if name not in self._given_fields and not spec.required and _plain_equal(value, spec.default()):
                continue
            result[name] = to_serializable(value)
        return result

    def to_json(self, indent: int = 4) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: Dict[str, Any], overwrite_args: Optional[Dict[str, Any]] = None) -> "Artifact":
        if not isinstance(data, dict) or "__type__" not in data:
            raise MissingArtifactTypeError(f"Serialised {cls.__name__} data has no __type__: {_short(data)}.")
        artifact = from_serializable({**data, **(overwrite_args or {})})
        artifact.__dict__["_loaded_data"] = artifact.to_dict()  # save() refuses it once changed, as the original
        if not isinstance(artifact, cls):
            raise ArtifactDefinitionError(
                f"Expected a serialised {cls.__name__}, got {type(artifact).__name__}.", artifact=cls.__name__
            )
        return artifact

    @classmethod
    def from_json(cls, text: str) -> "Artifact":
        return cls.from_dict(json.loads(text))

    def copy(self, **overrides: Any) -> "Artifact":
        """A new artifact equal to this one, with some fields replaced."""
        data = self.to_dict()
        data.update({key: to_serializable(value) for key, value in overrides.items()})
        new = from_serializable(data)
        new.__id__ = self.__id__
        return new

    def save(self, path: str) -> None:
        data, loaded = self.to_dict(), self.__dict__.get("_loaded_data")
        if loaded is not None and _canonical(loaded) != _canonical(data):
            kind = lambda key: "added" if key not in loaded else "removed" if key not in data else "changed"  # noqa
            changes = [f" - {key} ({kind(key)}): {loaded.get(key)} -> {data.get(key)}"
                       for key in {**loaded, **data} if loaded.get(key, ...) != data.get(key, ...)]
            raise UnitxtError("Cannot save catalog artifacts that have changed since initialization. Detected "
                              "differences in the following fields:\n" + "\n".join(changes))
        write_json_atomically(path, data)

    @classmethod
    def load(cls, path: str) -> "Artifact":
        with open(path, encoding="utf-8") as handle:
            return cls.from_dict(json.load(handle))

    # ------------------------------------------------------------------ overrides
    @classmethod
    def is_registered_type(cls, type: str) -> bool:
        """Whether a `__type__` names a registered artifact class (built-in ones count before they are imported)."""
        return type in _ARTIFACT_TYPES or type in _type_modules()

    @classmethod
    def is_registered_class_name(cls, class_name: str) -> bool:
        return cls.is_registered_type(camel_to_snake(class_name))

    @classmethod
    def is_registered_class(cls, clz: object) -> bool:
        return any(registered is clz for registered in _ARTIFACT_TYPES.values())

    @classmethod
    def get_artifact_type(cls) -> str:
        return cls._type_name

    @classmethod
    def is_artifact_dict(cls, obj: Any) -> bool:
        return isinstance(obj, dict) and "__type__" in obj

    @classmethod
    def coerce_overrides(cls, overrides: Dict[str, Any], artifact_name: Optional[str] = None) -> Dict[str, Any]:
        """Convert parsed `[key=value]` overrides to each field's declared type."""
        fields = cls.get_fields()
        aliases = getattr(cls, "_field_aliases", None) or {}  # another name a field answers to (`model` of judges)
        coerced = {}
        for key, value in overrides.items():
            key = aliases.get(key, key)
            if key in SPECIAL_KEYS:
                coerced[key] = guess_scalar(value)
                continue
            if key not in fields:
                close = difflib.get_close_matches(key, list(fields), n=3)
                raise ArtifactDefinitionError(
                    f"Override key '{key}' is not a field of {cls.__name__}"
                    + (f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else "")
                    + f". Fields: {', '.join(fields)}.",
                    artifact=artifact_name or cls.__name__,
                    field=key,
                )
            coerced[key] = coerce_override(value, fields[key].annotation, _expects_artifact)
        return coerced


def _short(value: Any, limit: int = 200) -> str:
    return repr(value) if len(repr(value)) <= limit else repr(value)[:limit] + "..."


def _plain_equal(a: Any, b: Any) -> bool:
    """Equality of field values where NaN equals NaN (a NaN default is still the default)."""
    try:
        if type(a) is type(b) and a == b:
            return True
        return isinstance(a, float) and isinstance(b, float) and a != a and b != b
    except Exception:  # noqa: BLE001 - exotic values (arrays) are simply treated as non-default
        return False


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=repr)


_checker_by_field: Dict[Tuple[type, str], Callable[[Any], bool]] = {}


def _artifact_hook(cls: type) -> Optional[Callable[[Any], bool]]:
    if is_artifact_class(cls):
        return lambda value: isinstance(value, (cls, str)) or (isinstance(value, dict) and "__type__" in value)
    return None


def _field_checker(owner: type, spec: FieldSpec) -> Callable[[Any], bool]:
    key = (owner, spec.name)
    checker = _checker_by_field.get(key)
    if checker is None:
        annotation = spec.annotation
        if annotation is type or annotation is Any:
            checker = lambda value: True  # noqa: E731
        else:
            try:
                checker = make_checker(annotation, class_hook=_artifact_hook)
            except UnitxtError:
                checker = lambda value: True  # noqa: E731 - exotic annotations are documented, not enforced
        _checker_by_field[key] = checker
    return checker


def to_serializable(value: Any) -> Any:
    """Recursively convert artifacts and types into JSON-compatible data; an artifact fetched from a catalog is
    written as the catalog name it was fetched by (as the original does), any other one in full."""
    if isinstance(value, Artifact):
        fetched_as = value.__dict__.get("__id__")
        return fetched_as if isinstance(fetched_as, str) else value.to_dict()
    if isinstance(value, (list, tuple)):
        return [to_serializable(item) for item in value]
    if isinstance(value, dict):
        return {key: to_serializable(item) for key, item in value.items()}
    if isinstance(value, Unquoted):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, type) or typing.get_origin(value) is not None or value is Any:
        return type_to_string(value)
    if hasattr(value, "__supertype__") or hasattr(value, "__total__"):
        return type_to_string(value)
    raise ArtifactDefinitionError(f"Value {_short(value)} of type {type(value).__name__} is not serialisable.")


MAX_DATA_NESTING = 100  # nested lists/dicts in artifact data; deeper data is refused with a clear error


def from_serializable(data: Any, _depth: int = 0) -> Any:
    """Recursively rebuild artifacts from data produced by `to_serializable` (dicts carrying `__type__`)."""
    if isinstance(data, (list, dict)) and _depth >= MAX_DATA_NESTING:
        raise ArtifactDefinitionError(f"Artifact data nests lists/dicts deeper than {MAX_DATA_NESTING} levels.")
    if isinstance(data, list):
        return [from_serializable(item, _depth + 1) if isinstance(item, (list, dict)) else item for item in data]
    if isinstance(data, dict):
        if "__type__" in data:
            cls = get_artifact_class(data["__type__"])
            if cls.__dict__.get("__abstract__"):
                raise UnknownArtifactTypeError(
                    f"__type__ {data['__type__']!r} is an abstract base ({cls.__name__}) and cannot be built from data; "
                    f"use a concrete type, e.g. {', '.join(concrete_types_of(cls)[:12]) or 'none registered'}.")
            kwargs = {key: from_serializable(value, _depth + 1) for key, value in data.items() if key != "__type__"}
            return cls(**kwargs)
        return {key: from_serializable(value, _depth + 1) if isinstance(value, (list, dict)) else value
                for key, value in data.items()}
    return data


class Dataclass(Artifact):
    """The original's base of classes with declared fields (`unitxt.dataclass.Dataclass`): not catalog types."""

    _is_artifact_type: ClassVar[bool] = False

    def to_dict(self, classes: Optional[List[Any]] = None, keep_empty: bool = True) -> Dict[str, Any]:
        """{field: value} (no `__type__`): every field, or those annotated by `classes`; without None values unless
        `keep_empty`."""
        names = [name for cls in classes for name in getattr(cls, "__annotations__", {})] if classes else None
        data = {name: getattr(self, name) for name in names} if names else {
            name: dataclass_value(self.__dict__[name]) for name in self.get_fields()}
        return {name: value for name, value in data.items() if keep_empty or value is not None}


def is_dataclass(obj: Any) -> bool:
    """Whether `obj` is a class with declared fields (a Dataclass or an artifact) or an instance of one."""
    return isinstance(obj, Artifact) or (isinstance(obj, type) and issubclass(obj, Artifact))


RequiredFieldError = UnexpectedArgumentError = TypeMismatchError = ArtifactDefinitionError  # the original's field errors
__getattr__ = moved_classes(__name__)  # the original's AbstractCatalog and ArtifactList: defined in catalog.py


class ArtifactLink(Artifact):
    """A catalog entry naming another (renamed artifacts; may be deprecated); `artifact_linked_to`: the original's key."""

    _positional_args = ("to",)
    to: Optional[str] = None
    artifact_linked_to: Optional[str] = None

    def verify(self) -> None:
        if not (self.to or self.artifact_linked_to):
            raise ArtifactDefinitionError("ArtifactLink needs the catalog name it links to.", field="to")


MAX_LINK_CHAIN = 50  # artifact_link entries followed in a row before giving up


def fetch_artifact(artifact_rep: Any, overwrite_kwargs: Optional[Dict[str, Any]] = None,
                   _seen: Optional[List[str]] = None) -> Tuple[Artifact, Optional[LocalCatalog]]:
    """Resolve an artifact, a catalog name, or a `name[key=value,...]` query into `(artifact, catalog)`; the catalog
    is the one that held the entry (None for an artifact or a serialised dict given directly). `overwrite_kwargs`
    override fields of a catalog entry, over those of the query's brackets (the original's parameter)."""
    name_or_artifact = artifact_rep
    if isinstance(name_or_artifact, ArtifactLink):  # an ArtifactLink given directly: the artifact it names
        return fetch_artifact(name_or_artifact.to or name_or_artifact.artifact_linked_to, _seen=_seen)
    if isinstance(name_or_artifact, Artifact):
        return name_or_artifact, None
    if isinstance(name_or_artifact, dict) and "__type__" in name_or_artifact:
        return from_serializable(name_or_artifact), None
    if not isinstance(name_or_artifact, str):
        raise CatalogError(f"Expected an artifact or a catalog name, got {type(name_or_artifact).__name__}.")
    query = name_or_artifact.strip()
    if query.startswith("{"):  # an artifact's JSON (how rows record metric and post-processor objects)
        try:
            data = json.loads(query)
        except ValueError as error:
            raise CatalogError(f"Cannot read {query[:80]!r} as an artifact's JSON ({error}); expected a catalog name "
                               "or a serialised artifact with a __type__.") from None
        if not isinstance(data, dict) or "__type__" not in data:
            raise CatalogError(f"The JSON {query[:80]!r} is not a serialised artifact (no __type__).")
        return from_serializable(data), None
    name, overrides = parse_artifact_query(query)
    if overwrite_kwargs:
        overrides = {**(overrides or {}), **overwrite_kwargs}
    seen = list(_seen or [])
    if name in seen:
        raise CatalogError(f"Artifact links form a cycle: {' -> '.join(seen + [name])}.", artifact=name)
    if len(seen) > MAX_LINK_CHAIN:
        raise CatalogError(f"More than {MAX_LINK_CHAIN} artifact links in a row from '{seen[0]}' (at '{name}'); "
                           "link to the final artifact directly.", artifact=seen[0])
    data, catalog = find_in_catalogs(name, private_copy=False)  # from_serializable builds new containers
    if not isinstance(data, dict) or "__type__" not in data:
        raise CatalogError(f"Catalog entry '{name}' is not a serialised artifact (no __type__).", artifact=name)
    if data["__type__"] == ArtifactLink._type_name:
        link = from_serializable(data)  # logs its deprecation message, if any
        target = link.to or link.artifact_linked_to
        if overrides:
            target = f"{target}[{','.join(f'{key}={format_value(value)}' for key, value in overrides.items())}]"
        return fetch_artifact(target, _seen=seen + [name])
    try:
        if overrides:
            cls = get_artifact_class(data["__type__"])
            data = {**data, **cls.coerce_overrides(overrides, artifact_name=name)}
        artifact = from_serializable(data)
    except UnitxtError as error:
        raise error.with_context(artifact=name) from None
    artifact.__id__ = query
    return artifact, catalog


def get_raw(obj: Any) -> Any:
    """Artifacts by the catalog name they were fetched by, else as their dict; containers recursively."""
    if isinstance(obj, Artifact):
        return obj.__id__ if obj.__dict__.get("__id__") is not None else obj.to_dict()
    if isinstance(obj, (list, tuple)):
        values = [get_raw(value) for value in obj]
        return type(obj)(*values) if hasattr(obj, "_fields") else type(obj)(values)  # named tuples take fields
    if isinstance(obj, dict):
        return type(obj)({get_raw(key): get_raw(value) for key, value in obj.items()})
    return copy.copy(obj)


def verbosed_fetch_artifact(identifier: Any) -> Artifact:
    """fetch_artifact's artifact, logging which catalog it came from."""
    artifact, catalog = fetch_artifact(identifier)
    return get_logger().debug(f"Artifact {identifier} is fetched from {catalog}") or artifact


def maybe_recover_artifact(obj: Any) -> Any:
    """The artifact of a catalog name or an artifact dict; anything else as it is."""
    return verbosed_fetch_artifact(obj) if isinstance(obj, str) or Artifact.is_artifact_dict(obj) else obj


def maybe_recover_artifacts_structure(obj: Any) -> Any:
    """maybe_recover_artifact of the value itself, or of each value of a dict or list (in place)."""
    if isinstance(obj, (dict, list)) and not Artifact.is_artifact_dict(obj):
        for key in obj.keys() if isinstance(obj, dict) else range(len(obj)):
            obj[key] = maybe_recover_artifact(obj[key])
        return obj
    return maybe_recover_artifact(obj)
