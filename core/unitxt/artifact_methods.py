"""The original Artifact's public helper methods (naming, identifiers, serialisation hooks, policy checks), mixed
into Artifact here so that programs written for the original that call or override them run unchanged."""

import json
import os
from typing import Any, Dict, Optional


class OriginalArtifactMethods:
    """Methods of the original's Artifact base not covered by Artifact's own API."""

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
            from .artifact_registry import get_artifact_class

            get_artifact_class(d["__type__"])  # an unknown type: its error names the closest known types

    @classmethod
    def register_class(cls, artifact_class: type) -> str:
        """Register an artifact class under its snake_case type name (defining the class registers it already);
        returns that name."""
        from .artifact import Artifact
        from .artifact_registry import _ARTIFACT_TYPES

        if not (isinstance(artifact_class, type) and issubclass(artifact_class, Artifact)):
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


__all__ = ["OriginalArtifactMethods"]
