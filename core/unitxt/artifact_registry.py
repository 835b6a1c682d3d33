"""The registry of artifact classes by `__type__`: lookups that only ever return registered classes.

Built-in classes register when their module is imported; the generated index (`_type_index.py`, written by
scripts/build_type_index.py) names the one module to import for a built-in `__type__`, so data never names a module.
Also the original Artifact's registry and serialisation helper methods, which Artifact mixes in.
"""

import difflib
import importlib
import json
import os
from typing import Any, Dict, List, Optional

from .errors import UnknownArtifactTypeError

_ARTIFACT_TYPES: Dict[str, type] = {}


def _type_modules() -> Dict[str, str]:
    """The generated `__type__` -> module index (core/unitxt/_type_index.py, written by scripts/build_type_index.py)."""
    from ._type_index import TYPE_MODULES

    return TYPE_MODULES


def _import_module_of(type_name: str) -> None:
    """Import the one library module that defines `type_name` (a fixed name from the generated index, never data)."""
    module = _type_modules().get(type_name)
    if module is not None:
        importlib.import_module(f"{__package__}.{module}")


def load_builtin_artifact_modules() -> None:
    """Import every library module that registers artifact classes (for listings of all types; idempotent)."""
    for module in sorted(set(_type_modules().values())):
        importlib.import_module(f"{__package__}.{module}")


def get_artifact_class(type_name: str) -> type:
    """Look up a registered artifact class; unknown names are an error (never an import of a named module)."""
    if not isinstance(type_name, str):
        raise UnknownArtifactTypeError(f"__type__ must be a string naming a registered artifact class, got "
                                       f"{type(type_name).__name__} {str(type_name)[:80]}.")
    if type_name not in _ARTIFACT_TYPES:
        _import_module_of(type_name)
    try:
        return _ARTIFACT_TYPES[type_name]
    except (KeyError, TypeError):
        load_builtin_artifact_modules()  # for the suggestions below
        close = difflib.get_close_matches(str(type_name), list(_ARTIFACT_TYPES), n=3)
        raise UnknownArtifactTypeError(
            f"Unknown artifact __type__ {type_name!r}"
            + (f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else "")
            + ". Only registered artifact classes can be instantiated from data.",
        ) from None


def register_type_names(cls: type, *class_names: str) -> None:
    """Let data name `cls` by other class names too (the original's names of a class that has another name here,
    e.g. StandardRecipe for DatasetRecipe): each `__type__` is the snake_case of the name."""
    import re

    for class_name in class_names:
        snake = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", class_name)).lower()
        _ARTIFACT_TYPES[snake] = cls


def registered_artifact_types() -> Dict[str, type]:
    load_builtin_artifact_modules()
    return dict(_ARTIFACT_TYPES)


def concrete_types_of(base: type) -> List[str]:
    """The registered, non-abstract artifact type names that are subclasses of `base` (sorted)."""
    load_builtin_artifact_modules()
    return sorted(name for name, cls in _ARTIFACT_TYPES.items()
                  if issubclass(cls, base) and not cls.__dict__.get("__abstract__"))


def get_closest_artifact_type(type: str) -> Optional[str]:  # noqa: A002 - the original's parameter name
    """The registered `__type__` closest to a misspelt one (None when nothing is close); built-in types count
    before their modules are imported."""
    matches = difflib.get_close_matches(type, sorted(set(_ARTIFACT_TYPES) | set(_type_modules())))
    return matches[0] if matches else None


# The original Artifact's public helper methods (naming, identifiers, serialisation hooks, policy checks), mixed into
# Artifact so that programs written for the original that call or override them run unchanged.
class OriginalArtifactMethods:
    """Methods of the original's Artifact base not covered by Artifact's own API."""

    # keyword parameters of every artifact's constructor signature besides its fields (the catalog's special keys)
    _signature_extras = {"__description__": None, "__tags__": {}, "__deprecated_msg__": None}

    def get_pretty_print_name(self) -> str:
        """The catalog name the artifact was fetched by, else its class name."""
        return self.__dict__.get("__id__") or type(self).__name__

    @classmethod
    def is_possible_identifier(cls, obj: Any) -> bool:
        """Whether `obj` can name an artifact: a catalog name (a string) or an artifact dict."""
        return isinstance(obj, str) or cls.is_artifact_dict(obj)

    @classmethod
    def is_artifact_file(cls, path: str) -> bool:
        """Whether `path` is a JSON file holding an artifact dict."""
        if not os.path.isfile(path):
            return False
        with open(path, encoding="utf-8") as handle:
            try:
                return cls.is_artifact_dict(json.load(handle))
            except ValueError:
                return False

    @classmethod
    def verify_artifact_dict(cls, d: Any) -> None:
        """Refuse what is not an artifact dict of a registered `__type__`, with a clear error."""
        from .errors import MissingArtifactTypeError, UnitxtError

        if not isinstance(d, dict):
            raise UnitxtError(f"Artifact dict <{d}> must be of type 'dict', got '{type(d)}'.")
        if "__type__" not in d:
            raise MissingArtifactTypeError(f"Missing '__type__' parameter in artifact dict {str(d)[:200]}.")
        if not cls.is_registered_type(d["__type__"]):
            get_artifact_class(d["__type__"])  # an unknown type: its error names the closest known types

    @classmethod
    def register_class(cls, artifact_class: type) -> str:
        """Register an artifact class under its snake_case type name (defining the class registers it already);
        returns that name."""
        if not (isinstance(artifact_class, type) and issubclass(artifact_class, OriginalArtifactMethods)
                and hasattr(artifact_class, "_type_name")):  # Artifact mixes these methods in
            from .errors import ArtifactDefinitionError

            raise ArtifactDefinitionError(f"Artifact class must be a subclass of Artifact, got '{artifact_class}'")
        _ARTIFACT_TYPES.setdefault(artifact_class._type_name, artifact_class)
        return artifact_class._type_name

    def prepare_args(self) -> None:
        """Hook run before prepare in the original; nothing by default."""

    @classmethod
    def process_data_after_load(cls, data: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: an artifact dict as loaded, before the artifact is made; unchanged by default."""
        return data

    def process_data_before_dump(self, data: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: an artifact dict before it is written; unchanged by default."""
        return data

    def serialize(self) -> str:
        """The catalog name of the artifact when it has one, else its JSON."""
        return self.__dict__.get("__id__") or self.to_json()

    def to_yaml(self) -> str:
        """The artifact dict as YAML (needs PyYAML)."""
        try:
            import yaml
        except ImportError:
            from .errors import MissingRequirementError

            raise MissingRequirementError("Artifact.to_yaml() needs PyYAML: pip install pyyaml") from None
        return yaml.dump(self.to_dict())

    def verify_data_classification_policy(self) -> None:
        """Refuse a data_classification_policy that is neither None nor a list of strings."""
        policy = getattr(self, "data_classification_policy", None)
        if policy is not None and not (isinstance(policy, list) and all(isinstance(item, str) for item in policy)):
            from .errors import ArtifactDefinitionError

            raise ArtifactDefinitionError(
                f"The 'data_classification_policy' of {self.get_pretty_print_name()} must be either None - in case "
                f"when no policy applies - or a list of strings, for example: ['public']. However, '{policy}' of type "
                f"{type(policy)} was provided instead.")

    def verify_instance(self, instance: Dict[str, Any], name: Optional[str] = None) -> Dict[str, Any]:
        """The instance unchanged when its data classification is allowed by this artifact's policy (the env
        override for its catalog name first); otherwise a DataClassificationPolicyError."""
        effective = getattr(self, "effective_policy", None)
        policy = effective() if callable(effective) else getattr(self, "data_classification_policy", None)
        if name is not None:
            from .settings_utils import get_artifacts_data_classification

            policy = get_artifacts_data_classification(name) or policy
        if policy and hasattr(self, "check_instance_policy"):
            self.check_instance_policy(instance, policy)
        return instance
