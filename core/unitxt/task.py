"""Task: the standard interface of an NLP task (typed input and reference fields, prediction type, metrics).

As an operator it checks each instance against the declared field types, fills `defaults`, and reshapes the instance
into `{"input_fields": ..., "reference_fields": ..., "metrics": ..., "data_classification_policy": ...}`.
"""

from typing import Any, Callable, Dict, List, Optional, Tuple, Union, get_args, get_origin

from .artifact import Artifact
from .errors import (ArtifactConfigurationError, ArtifactDefinitionError, Documentation, InstanceTypeError,
                     MissingFieldError, UnitxtError)
from .logging_utils import get_logger
from .operator import InstanceOperator
from .settings_utils import get_constants
from .types.checking import describe_value_type, make_checker, to_type, type_to_string
from .types.checking import parse_string_types_instead_of_actual_objects  # noqa: F401 - the original's name here
from .module_aliases import moved_classes

FieldsSpec = Optional[Union[Dict[str, Any], List[str]]]
_ONLY_STR = frozenset([str])


def _normalise_fields(spec: FieldsSpec, owner: str, field_name: str) -> Dict[str, Any]:
    """{name: type} from a dict of types / type strings, or a list of names (typed Any)."""
    if spec is None:
        return {}
    if isinstance(spec, list):
        return {name: Any for name in spec}
    result = {}
    for name, declared in spec.items():
        try:
            result[name] = to_type(declared)
        except Exception as error:  # noqa: BLE001
            raise ArtifactDefinitionError(
                f"Invalid type {declared!r} for task field '{name}': {error}", artifact=owner, field=field_name
            ) from None
    return result


def check_names_or_artifacts(values: Any, field: str, owner: str) -> None:
    """Where the original takes an artifact or its catalog name, a list may hold either (or both)."""
    bad = [value for value in values or [] if not isinstance(value, (str, Artifact))]
    if bad:
        raise ArtifactDefinitionError(f"'{field}' holds catalog names or artifacts, got {type(bad[0]).__name__} "
                                      f"{str(bad[0])[:80]!r}.", artifact=owner, field=field)


class Task(InstanceOperator):
    """A task definition; see the module docstring for what it does to instances."""

    input_fields: FieldsSpec = None
    reference_fields: FieldsSpec = None
    inputs: FieldsSpec = None
    outputs: FieldsSpec = None
    prediction_type: Optional[Any] = None
    metrics: Union[str, List[Any]] = []  # catalog names or metric objects (one name stands for a list of it)
    defaults: Optional[Dict[str, Any]] = None
    augmentable_inputs: List[str] = []
    default_template: Optional[Artifact] = None
    requirements: Union[List[str], Dict[str, str]] = []  # packages the task's data or metrics need (documentation)

    def prepare(self) -> None:
        super().prepare()
        name = self.artifact_name
        if isinstance(self.metrics, str):
            self.metrics = [self.metrics]
        self.task_deprecations()
        if self.input_fields is not None and self.inputs is not None:
            raise ArtifactDefinitionError("Conflicting attributes: 'input_fields' cannot be set simultaneously with "
                                          "'inputs'. Use only 'input_fields'", artifact=name, field="inputs")
        if self.reference_fields is not None and self.outputs is not None:
            raise ArtifactDefinitionError("Conflicting attributes: 'reference_fields' cannot be set simultaneously "
                                          "with 'output'. Use only 'reference_fields'", artifact=name, field="outputs")
        self._input_types = _normalise_fields(
            self.input_fields if self.input_fields is not None else self.inputs, name, "input_fields"
        )
        self._reference_types = _normalise_fields(
            self.reference_fields if self.reference_fields is not None else self.outputs, name, "reference_fields"
        )
        self._prediction_type = to_type(self.prediction_type) if self.prediction_type is not None else Any
        self._checkers: List[Tuple[str, str, Any, Callable[[Any], bool]]] = [
            (kind, field, declared, make_checker(declared))
            for kind, types in (("input", self._input_types), ("reference", self._reference_types))
            for field, declared in types.items()
        ]
        # the per-instance fast check: text fields by exact type, lists of texts (class lists) by exact types of their
        # items, the others by their checker (see `_valid`)
        self._text_fields = tuple(field for _, field, declared, _ in self._checkers if declared is str)
        self._text_list_fields = tuple(field for _, field, declared, _ in self._checkers if declared == List[str])
        self._other_checks = tuple(
            (field, checker) for _, field, declared, checker in self._checkers
            if declared is not str and declared != List[str]
        )
        self._custom_check = type(self).check_instance is not Task.check_instance
        self._inference_stream = get_constants().inference_stream  # a constant: read once, not per instance

    def task_deprecations(self) -> None:
        """Hook: note the legacy `inputs` / `outputs` fields (logged: the catalog's older tasks still use them)."""
        if self.inputs is not None or self.outputs is not None:
            get_logger().debug(f"{self.artifact_name}: 'inputs'/'outputs' are the legacy spelling of "
                               "'input_fields'/'reference_fields'.")

    def verify(self) -> None:
        super().verify()
        for given, legacy in (("input_fields", "inputs"), ("reference_fields", "outputs")):
            if getattr(self, given) is None and getattr(self, legacy) is None:
                raise ArtifactDefinitionError(f"Missing attribute in task: '{given}' not set.",
                                              artifact=self.artifact_name, field=given)
        check_names_or_artifacts(self.metrics, "metrics", self.artifact_name)
        self.verify_defaults()
        unknown = [field for field in self.augmentable_inputs if field not in self._input_types]
        if unknown:
            raise ArtifactDefinitionError(
                f"augmentable_inputs {unknown} are not input fields ({list(self._input_types)}).",
                artifact=self.artifact_name,
                field="augmentable_inputs",
            )
        # a field may be both an input and a reference (e.g. a text the model rewrites and the metric compares
        # with), as long as both declarations agree on its type; a task whose declarations disagree can be defined
        # (the original's catalog holds two) but refuses every instance, with this message
        self._clashes = [
            f"'{field}' ({type_to_string(self._input_types[field])} as input, "
            f"{type_to_string(self._reference_types[field])} as reference)"
            for field in sorted(set(self._input_types) & set(self._reference_types))
            if self._input_types[field] != self._reference_types[field]
        ]

    def _refuse_clashing_fields(self) -> None:
        raise ArtifactDefinitionError(
            f"Fields declared both as input and as reference field need one type: {', '.join(self._clashes)}; "
            "no instance can have both types.", artifact=self.artifact_name, field="reference_fields")

    def verify_defaults(self) -> None:
        """Each default names a declared field and has its type (an AssertionError, as the original's asserts)."""
        if self.defaults is not None and not isinstance(self.defaults, dict):
            raise ArtifactDefinitionError(f"If specified, the 'defaults' must be a dictionary, however, "
                                          f"{self.defaults!r} was provided instead, which is of type "
                                          f"'{describe_value_type(self.defaults)}'.", artifact=self.artifact_name,
                                          field="defaults")
        types = {**self._input_types, **self._reference_types}
        named = self.__dict__.get("__id__")  # an inline task's messages are the original's, word for word
        for field, value in (self.defaults or {}).items():
            if field not in types:
                raise ArtifactConfigurationError(
                    "If specified, all keys of the 'defaults' must refer to a chosen key in either 'input_fields' or "
                    f"'reference_fields'. However, the name '{field}' was provided which does not match any of the "
                    "keys.", artifact=named, field="defaults" if named else None)
            if not make_checker(types[field])(value):
                raise ArtifactConfigurationError(
                    f"The value of '{field}' from the 'defaults' must be of type '{type_to_string(types[field])}', "
                    f"however, it is of type '{describe_value_type(value)}'.", artifact=named,
                    field="defaults" if named else None)

    @classmethod
    def get_metrics_artifact_without_load(cls, metric_id: Any) -> List[Any]:
        """The metric objects a catalog name (or metric) stands for: a MetricsList's items, else the metric."""
        from .artifact import fetch_artifact

        metric = fetch_artifact(metric_id)[0] if isinstance(metric_id, str) else metric_id
        items = getattr(metric, "items", None)
        return list(items) if isinstance(items, list) else [metric]

    def check_metrics_type(self) -> None:
        """Each metric's prediction type agrees with the task's (equal, either is Any, or the metric's is a Union
        holding the task's); reads the metrics from the catalog by name."""
        task_type = to_type(self.prediction_type) if self.prediction_type is not None else Any
        for metric_name in self.metrics:
            for item in self.get_metrics_artifact_without_load(metric_name):
                declared = getattr(item, "prediction_type", Any)
                metric_type = to_type(declared) if isinstance(declared, str) else declared
                if task_type == metric_type or Any in (task_type, metric_type) or (
                        get_origin(metric_type) is Union and task_type in get_args(metric_type)):
                    continue
                raise UnitxtError(f"The task's prediction type ({task_type}) and '{metric_name}' metric's "
                                  f"prediction type ({metric_type}) are different.", artifact=self.__dict__.get("__id__"),
                                  field="metrics", additional_info_id=Documentation.ADDING_TASK)

    @property
    def input_types(self) -> Dict[str, Any]:
        return dict(self._input_types)

    @property
    def reference_types(self) -> Dict[str, Any]:
        return dict(self._reference_types)

    @property
    def prediction_type_object(self) -> Any:
        return self._prediction_type

    def check_instance(self, instance: Dict[str, Any], inputs_only: bool = False) -> None:
        """Raise a clear error when a declared field is missing or has the wrong type (`inputs_only`: the reference
        fields are not looked at, as in production)."""
        for kind, field, declared, checker in self._checkers:
            if inputs_only and kind == "reference":
                continue
            if field not in instance:
                raise MissingFieldError(
                    f"Task {kind} field '{field}' is missing from the instance (fields present: "
                    f"{', '.join(sorted(k for k in instance if k != 'data_classification_policy'))}). "
                    "Map the data to the task schema in the card's preprocess_steps or set a default.",
                    artifact=self.artifact_name,
                    field=field,
                )
            if not checker(instance[field]):
                value = instance[field]
                raise InstanceTypeError(
                    f"Task {kind} field '{field}' should be of type {type_to_string(declared)}, but got "
                    f"{describe_value_type(value)}: {repr(value)[:200]}.",
                    artifact=self.artifact_name,
                    field=field,
                )

    def _valid(self, instance: Dict[str, Any]) -> bool:
        """A cheap test that every declared field is present with a valid value; when it says no, `check_instance`
        decides (and explains), since e.g. a str subclass is valid text but fails the exact-type test."""
        try:
            for field in self._text_fields:
                if type(instance[field]) is not str:
                    return False
            for field in self._text_list_fields:
                value = instance[field]
                if type(value) is not list or not set(map(type, value)) <= _ONLY_STR:
                    return False
            for field, checker in self._other_checks:
                if not checker(instance[field]):
                    return False
        except KeyError:
            return False
        return True

    def set_default_values(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """The instance with `defaults` filled in for the fields it lacks (a new dict; a field given as None keeps
        None, and is type checked)."""
        return {**self.defaults, **instance} if self.defaults else instance

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if getattr(self, "_clashes", None):
            self._refuse_clashing_fields()
        if self.defaults:  # only for missing fields, as in the original (in place: the operator owns the instance)
            for field, value in self.defaults.items():
                if field not in instance:
                    instance[field] = value
        production = stream_name == self._inference_stream  # rendering for a model: no references
        if production:
            self.check_instance(instance, inputs_only=True)
        elif self._custom_check or not self._valid(instance):
            self.check_instance(instance)
        result = {
            "input_fields": {field: instance[field] for field in self._input_types},
            "reference_fields": {} if production else {field: instance[field] for field in self._reference_types},
            "metrics": self.metrics,
            "data_classification_policy": instance.get("data_classification_policy") or [],
        }
        for carried in ("media", "groups", "subset"):
            if carried in instance:
                result[carried] = instance[carried]
        return result

    def _fused_instance_function(self, operators: List[Any]) -> Optional[Tuple[int, Callable[..., Any]]]:
        """This task fused with the run of plain Rename / Set ending `operators` (operators.task_fusion): (how many
        of them, the fused step), or None."""
        if (type(self).process is not Task.process or self._custom_check or getattr(self, "_clashes", None)
                or self.defaults):
            return None
        from .operators.task_fusion import fused_reshape

        return fused_reshape(self, operators)

    def _instance_function(self):
        """`process` with what is fixed for a stream read once (field names, checks, metrics): an instance whose
        declared fields are all present with their exact plain types is reshaped directly; any other (missing or
        odd values, defaults to fill, production rows) goes through `process`, which explains what is wrong."""
        if (type(self).process is not Task.process or self._custom_check or getattr(self, "_clashes", None)
                or self.defaults):
            return super()._instance_function()
        process, inference_stream, metrics = self.process, self._inference_stream, self.metrics
        input_names, reference_names = tuple(self._input_types), tuple(self._reference_types)
        text_fields, text_list_fields, other_checks = self._text_fields, self._text_list_fields, self._other_checks

        def reshape(instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
            if stream_name == inference_stream:
                return process(instance, stream_name)
            try:
                for field in text_fields:
                    if type(instance[field]) is not str:
                        return process(instance, stream_name)
                for field in text_list_fields:
                    value = instance[field]
                    if type(value) is not list or not set(map(type, value)) <= _ONLY_STR:
                        return process(instance, stream_name)
                for field, checker in other_checks:
                    if not checker(instance[field]):
                        return process(instance, stream_name)
            except KeyError:
                return process(instance, stream_name)
            result = {
                "input_fields": {field: instance[field] for field in input_names},
                "reference_fields": {field: instance[field] for field in reference_names},
                "metrics": metrics,
                "data_classification_policy": instance.get("data_classification_policy") or [],
            }
            if "media" in instance:
                result["media"] = instance["media"]
            if "groups" in instance:
                result["groups"] = instance["groups"]
            if "subset" in instance:
                result["subset"] = instance["subset"]
            return result

        return reshape


class FormTask(Task):
    """Legacy name of Task."""


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
