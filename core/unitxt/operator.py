"""Operator base classes: every change to data is an operator over a MultiStream.

`process` is the hook each kind implements: MultiStreamOperator.process(multi_stream) -> MultiStream,
StreamOperator.process(stream, stream_name) -> generator, InstanceOperator.process(instance, stream_name) -> instance,
FieldOperator.process_value(value) -> value (`process(value)` is accepted as the same hook). Calling an operator on a
MultiStream applies it lazily. Instances are changed in place for speed: sources yield fresh dicts on every pass.
"""

from typing import Any, Dict, Generator, Iterable, List, Optional, Tuple, Union

from .artifact import Artifact, InertField, NonPositionalField
from .artifact_registry import register_type_names
from .dict_utils import dict_delete, dict_get, dict_has, dict_set
from .errors import OperatorError  # noqa: F401 - raised by operators; the original defines it here
from .errors import (  # noqa: F401 - MissingRequirementsError: unitxt.operator is where the original defines it
    ArtifactConfigurationError,
    ArtifactDefinitionError,
    DataClassificationPolicyError,
    Documentation,
    MissingFieldError,
    MissingRequirementsError,
    UnitxtError,
)
from .general.requirements import PackageRequirementsMixin  # noqa: F401 - imported from here by components
from .module_aliases import moved_classes
from .settings_utils import data_classification_overrides
from .stream import CachingStream, GeneratorStream, ListStream, MultiStream, Stream, apply_fused_operators
from .stream import instance_generator, instance_result, stream_single  # noqa: F401 - the original's home of these


class Operator(Artifact):
    """Base of all operators. `data_classification_policy` lists the data classifications it may process."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    data_classification_policy: Optional[List[str]] = NonPositionalField(default=None)
    # packages this instance needs (["pkg>=1.0"] or {"pkg": "how to install it"}), checked when it is built
    requirements: Union[List[str], Dict[str, str]] = NonPositionalField(default_factory=list)

    def verify_field_types(self, names: Optional[List[str]] = None) -> None:
        if ((names is None or "requirements" in names) and self.__dict__.get("requirements")
                and self.get_fields()["requirements"].owner is Operator):  # (a Task's requirements document its data)
            super().verify_field_types(["requirements"])
            PackageRequirementsMixin.check_missing_requirements(self, self.requirements)
        policy = self.__dict__.get("data_classification_policy")
        if (names is None or "data_classification_policy" in names) and policy is not None and not (
                isinstance(policy, list) and all(isinstance(item, str) for item in policy)):
            raise ArtifactDefinitionError(  # the original's wording
                f"The 'data_classification_policy' of {type(self).__name__} must be either None - in case when no "
                f"policy applies - or a list of strings, for example: ['public']. However, '{policy}' of type "
                f"{type(policy)} was provided instead.")
        super().verify_field_types(names)

    def effective_policy(self) -> Optional[List[str]]:
        """The allowed classifications: the env override for this artifact's catalog name, else the field."""
        overrides = data_classification_overrides()
        if overrides and self.__id__:
            for key in (self.__id__, self.__id__.split("[", 1)[0].strip()):  # "name[overrides]" -> "name"
                if key in overrides:
                    return overrides[key]
        return self.data_classification_policy

    def check_instance_policy(self, instance: Dict[str, Any], allowed: List[str]) -> None:
        """Refuse data none of whose classifications is allowed (as documented: data tagged ["pii", "proprietary"]
        may be processed by a component allowed ["pii"]); untagged data is always allowed."""
        data_policy = instance.get("data_classification_policy") if isinstance(instance, dict) else None
        if not data_policy:
            return
        if isinstance(data_policy, str):
            data_policy = [data_policy]
        if not isinstance(data_policy, (list, tuple)) or not all(isinstance(item, str) for item in data_policy):
            raise DataClassificationPolicyError(
                f"data_classification_policy must be a list of classification names (e.g. ['public']), got "
                f"{type(data_policy).__name__} {str(data_policy)[:80]}.", artifact=self.artifact_name,
                field="data_classification_policy")
        if set(data_policy).isdisjoint(allowed):
            name = self.__dict__.get("__id__") or type(self).__name__
            shown = str(instance)
            shown = shown if len(shown) <= 2000 else shown[:2000] + "...}"  # the whole instance, up to a point
            raise DataClassificationPolicyError(  # the original's words
                f"The instance '{shown} 'has the following data classification policy '{data_policy}', however, the "
                f"artifact '{name}' is only configured to support the data with classification '{allowed}'. To "
                "enable this either change the 'data_classification_policy' attribute of the artifact, or modify "
                "the environment variable 'UNITXT_DATA_CLASSIFICATION_POLICY' accordingly.",
                artifact=self.artifact_name, additional_info_id=Documentation.DATA_CLASSIFICATION_POLICY,
            )

    def verify_instance(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """The instance itself when this component may process its data classification; else the policy error
        (the original's name for the check every operator makes on the data it receives)."""
        allowed = self.effective_policy()
        if allowed is not None:
            self.check_instance_policy(instance, allowed)
        return instance

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        """Abstract: apply the operator to a MultiStream (each operator kind defines how)."""
        raise NotImplementedError(f"{type(self).__name__} can not be applied to streams")

    def process_instance(self, instance: Dict[str, Any], stream_name: str = "test") -> Dict[str, Any]:
        """Run the operator on one instance (for debugging); returns the first output instance."""
        outputs = self.process_instances([instance], stream_name=stream_name)
        if not outputs:
            raise UnitxtError(f"{type(self).__name__} produced no output for the instance.", artifact=self.artifact_name)
        return outputs[0]

    def process_instances(self, instances: List[Dict[str, Any]], stream_name: str = "test") -> List[Dict[str, Any]]:
        """Run the operator on a list of instances given as one stream."""
        result = self(MultiStream({stream_name: ListStream(list(instances))}))
        return list(result[stream_name])


class MultiStreamOperator(Operator):
    """Operates on all streams together (e.g. re-splitting)."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    # True: every stream the operator outputs runs once and is replayed from memory; None/False: recomputed on
    # every pass (the default: streams stay lazy)
    caching: Optional[bool] = NonPositionalField(default=None)

    def process(self, multi_stream: MultiStream) -> MultiStream:
        raise NotImplementedError(f"{type(self).__name__}.process(multi_stream) is not implemented")

    def before_process_multi_stream(self) -> None:
        """The original's hook, run before each call processes its streams (default: nothing)."""

    def _cached(self, result: MultiStream) -> MultiStream:
        """The output streams, wrapped to be kept after their first complete pass when `caching` is True."""
        if self.caching and isinstance(result, MultiStream):
            for name, stream in list(result.items()):
                if not isinstance(stream, CachingStream):
                    result[name] = CachingStream(stream)
        return result

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        if multi_stream is None:
            multi_stream = MultiStream()
        try:
            self.before_process_multi_stream()
            return self._cached(self.process(multi_stream))
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None


class SourceOperator(MultiStreamOperator):
    """Creates a MultiStream from nothing (loaders)."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    def process(self) -> MultiStream:  # type: ignore[override]
        """Abstract hook: produce the MultiStream."""
        raise NotImplementedError(f"{type(self).__name__}.process() is not implemented")

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        try:
            return self._cached(self.process())
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None

    def get_splits(self) -> List[str]:
        """The names of the splits this source produces."""
        return list(self.process().keys())


def _wrap_stream_process(original):
    """Make a StreamOperator's `process` enforce the data classification policy (even when called directly)."""

    def process(self, stream, stream_name=None):
        allowed = self.effective_policy()
        if allowed is None:
            return original(self, stream, stream_name)

        def checked():
            for instance in stream:
                self.check_instance_policy(instance, allowed)
                yield instance

        return original(self, checked(), stream_name)

    process.__wrapped__ = original
    process.__doc__ = original.__doc__
    return process


def _wrap_instance_process(original):
    def process(self, instance, stream_name=None):
        allowed = self.effective_policy()
        if allowed is not None:
            self.check_instance_policy(instance, allowed)
        return original(self, instance, stream_name)

    process.__wrapped__ = original
    process.__doc__ = original.__doc__
    return process


class StreamOperator(MultiStreamOperator):
    """Operates on each stream separately; `apply_to_streams` / `dont_apply_to_streams` select the streams."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    apply_to_streams: Optional[List[str]] = NonPositionalField(default=None)
    dont_apply_to_streams: Optional[List[str]] = NonPositionalField(default=None)
    _process_kind = "stream"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("process")
        kind = cls._process_kind
        if own is not None and not hasattr(own, "__wrapped__") and kind != "value":
            cls.process = (_wrap_instance_process if kind == "instance" else _wrap_stream_process)(own)

    def _raw_process(self):
        """The subclass's own `process`, without the per-call policy check (callers check once per stream)."""
        function = type(self).process
        return getattr(function, "__wrapped__", function).__get__(self)

    def applies_to(self, stream_name: str) -> bool:
        if self.apply_to_streams is not None and stream_name not in self.apply_to_streams:
            return False
        if self.dont_apply_to_streams is not None and stream_name in self.dont_apply_to_streams:
            return False
        return True

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        raise NotImplementedError(f"{type(self).__name__}.process(stream, stream_name) is not implemented")

    def _run_stream(self, stream: Stream, stream_name: str) -> Generator:
        try:
            yield from self.process(stream, stream_name)
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name, stage=f"stream '{stream_name}'") from None
        except Exception as error:  # noqa: BLE001 - add context to user code failures
            raise OperatorError(
                f"{type(error).__name__}: {error}", artifact=self.artifact_name, stage=f"stream '{stream_name}'"
            ) from error

    def __call__(self, multi_stream: Optional[MultiStream] = None) -> MultiStream:
        if multi_stream is None:
            multi_stream = MultiStream()
        result = MultiStream()
        for name, stream in multi_stream.items():
            if self.applies_to(name):
                result[name] = GeneratorStream(self._run_stream, {"stream": stream, "stream_name": name})
            else:
                result[name] = stream
        return self._cached(result)


class PagedStreamOperator(StreamOperator):
    """Processes a stream in pages of `page_size` instances (bounded memory)."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    page_size: int = 1000

    def process(self, stream: Iterable[Dict[str, Any]], stream_name: Optional[str] = None) -> Generator:
        page: List[Dict[str, Any]] = []
        for instance in stream:
            page.append(instance)
            if len(page) >= self.page_size:
                yield from self.process_page(page, stream_name)
                page = []
        if page:
            yield from self.process_page(page, stream_name)

    def process_page(self, page: List[Dict[str, Any]], stream_name: Optional[str]) -> Generator:
        """Abstract hook: the instances produced from one page."""
        raise NotImplementedError(f"{type(self).__name__}.process_page(page, stream_name) is not implemented")


class InstanceOperator(StreamOperator):
    """Operates on one instance at a time: `process(instance, stream_name) -> instance`."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    _process_kind = "instance"

    def _instance_function(self):
        """The per-instance callable `(instance, stream_name) -> instance` used when streaming."""
        return self._raw_process()

    def _run_stream(self, stream: Stream, stream_name: str) -> Generator:
        process = self._instance_function()
        allowed = self.effective_policy()
        check = self.check_instance_policy
        index = -1
        try:
            for index, instance in enumerate(stream):
                if allowed is not None:
                    check(instance, allowed)
                yield process(instance, stream_name)
        except UnitxtError as error:
            raise error.with_context(
                artifact=self.artifact_name, stage=f"stream '{stream_name}', instance {index}"
            ) from None
        except Exception as error:  # noqa: BLE001
            raise OperatorError(
                f"{type(error).__name__}: {error}",
                artifact=self.artifact_name,
                stage=f"stream '{stream_name}', instance {index}",
            ) from error

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.process(instance, stream_name) is not implemented")


class FieldSelectionFields(InstanceOperator):
    """The field operator's selection fields on operators the original derives from its field operator
    (augmentors, serializers, image augmentors) but that here choose the fields they change their own way."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    field: Optional[str] = InertField(default=None, reason="this operator chooses the fields it changes itself")
    to_field: Optional[str] = InertField(default=None, reason="this operator writes the fields it changes in place")
    field_to_field: Optional[Union[List[Any], Dict[str, str]]] = InertField(
        default=None, reason="this operator chooses the fields it changes itself")
    process_every_value: bool = InertField(default=False, reason="values are processed as this operator defines")
    get_default: Any = InertField(default=None, reason="a missing field is handled as this operator defines")
    not_exist_ok: bool = InertField(default=False, reason="a missing field is handled as this operator defines")
    not_exist_do_nothing: bool = InertField(default=False, reason="a missing field is handled as this operator "
                                                                  "defines")
    set_every_value: bool = InertField(default=False, reason="values are written as this operator defines")
    use_query: Optional[bool] = InertField(default=None, reason="field names are always read as paths ('a/b/0')")


class FieldOperatorBase(InstanceOperator):
    """Marker base for field operators (their `process` hook is per value, not per instance)."""

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    _process_kind = "value"


class FieldOperator(FieldOperatorBase):
    """Applies `process_value` to one field (`field` -> `to_field`) or to several (`field_to_field`).

    Subclasses implement `process_value(value)`; `process(value)` is accepted as the same hook.
    """

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    field: Optional[str] = None
    to_field: Optional[str] = None
    field_to_field: Optional[Union[List[Union[List[str], Tuple[str, str]]], Dict[str, str]]] = None
    process_every_value: bool = False
    not_exist_ok: bool = False  # a missing source field is processed as `get_default`
    not_exist_do_nothing: bool = False  # a missing source field is skipped (nothing is written)
    get_default: Any = None  # the value read for a missing source field when not_exist_ok
    use_query: Optional[bool] = InertField(default=None, reason="field names are always read as paths ('a/b/0'), "
                                                                "as the original's use_query=True")
    set_every_value: bool = NonPositionalField(default=False)  # a `*` target path gets the i-th item of the (list) result in its i-th element

    def prepare(self) -> None:
        super().prepare()
        self.verify_field_definition()

    def verify_field_definition(self) -> None:
        """Hook: read `field` / `to_field` / `field_to_field` into the [from, to] pairs the operator works on."""
        pairs: List[List[str]] = []
        if self.field_to_field is not None:
            items = self.field_to_field.items() if isinstance(self.field_to_field, dict) else self.field_to_field
            for pair in items:
                if len(pair) != 2:
                    raise UnitxtError(
                        f"field_to_field entries must be [from, to] pairs, got {pair!r}.",
                        artifact=type(self).__name__,
                        field="field_to_field",
                    )
                pairs.append([pair[0], pair[1]])
        if self.field is not None:
            pairs.append([self.field, self.to_field if self.to_field is not None else self.field])
        self._pairs = pairs

    def verify_field_types(self, names: Optional[List[str]] = None) -> None:
        mapping = self.__dict__.get("field_to_field")
        if mapping is not None and not isinstance(mapping, (list, dict)):
            raise ArtifactDefinitionError(  # the original's words, as it writes them (no value filled in)
                "Input argument 'field_to_field': {self.field_to_field} is neither of type List{List[str]] nor of "
                "type Dict[str, str].")
        super().verify_field_types(names)

    def verify(self) -> None:
        super().verify()
        if self.field is not None and self.field_to_field is not None:
            raise UnitxtError(
                "Set either 'field' (with optional 'to_field') or 'field_to_field', not both.",
                artifact=type(self).__name__,
            )
        if isinstance(self.field_to_field, dict):
            self._verify_mapping_order(self.field_to_field)

    @staticmethod
    def _verify_mapping_order(mapping: Dict[str, str]) -> None:
        """A {from: to} mapping whose result would depend on the order fields are processed in is refused: a target
        that is another entry's source, or two sources with one target (the original's checks and words)."""
        for source, target in mapping.items():
            for other_source, other_target in mapping.items():
                if other_source == source:
                    continue
                if other_target == source:
                    raise ArtifactConfigurationError(
                        f"In input argument 'field_to_field': {mapping}, field {other_source} is mapped to field "
                        f"{other_target}, while the latter is mapped to {target}. Whether {other_source} or "
                        f"{other_target} is processed first might impact end result.")
                if other_target == target:
                    raise ArtifactConfigurationError(
                        f"In input argument 'field_to_field': {mapping}, two different fields: {source} and "
                        f"{other_source} are mapped to field {target}. Whether {source} or {other_source} is "
                        "processed last might impact end result.")

    def process_value(self, value: Any) -> Any:
        if type(self).process_value is not FieldOperator.process_value:
            return None  # reached by super().process_value(value) from an override: the original's abstract no-op
        if type(self).process is not FieldOperator.process:
            return self.process(value)
        raise NotImplementedError(f"{type(self).__name__} must implement process_value(value)")

    def process_instance_value(self, value: Any, instance: Dict[str, Any]) -> Any:
        """The original's per-value hook that also sees the whole instance (InstanceFieldOperator's); by default the
        value's process_value. A subclass overriding it is called with each value and its instance."""
        return self.process_value(value)

    def _overrides_instance_value(self) -> bool:
        return type(self).process_instance_value is not FieldOperator.process_instance_value

    def process(self, value: Any, stream_name: Optional[str] = None) -> Any:  # type: ignore[override]
        """An instance (a dict, when the operator names its fields) is processed as the original's
        `process(instance)` does; any other value goes to `process_value` (the per-value hook)."""
        if isinstance(value, dict) and self._pairs:
            return self.process_instance_fields(value)
        return self.process_value(value)

    def _instance_function(self):
        if not self._pairs:
            return self._process_evaluation_instance
        process_fields = self.process_instance_fields
        return lambda instance, stream_name: process_fields(instance)

    def _process_evaluation_instance(self, instance: Dict[str, Any], stream_name: Optional[str] = None
                                     ) -> Dict[str, Any]:
        """No field set: on an evaluation instance, process its prediction and every reference (as the original's
        catalog post-processors do); on any other instance there is nothing to operate on."""
        if "prediction" not in instance and "references" not in instance:
            raise ArtifactConfigurationError(
                "No field to operate on: set 'field' or 'field_to_field' (without them a processor works on the "
                "'prediction' and 'references' of an evaluation instance).", artifact=self.artifact_name
            )
        if getattr(self, "needs_task_data", False):
            task_data = instance.get("task_data")

            def apply(value: Any) -> Any:
                return self.process_with_task_data(value, task_data)
        elif self._overrides_instance_value():
            def apply(value: Any) -> Any:
                return self.process_instance_value(value, instance)
        else:
            apply = self.process_value
        if "prediction" in instance:
            instance["prediction"] = apply(instance["prediction"])
        if instance.get("references") is not None:
            instance["references"] = [apply(reference) for reference in instance["references"]]
        return instance

    def process_instance_fields(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        process_value = self.process_value
        if getattr(self, "needs_task_data", False):  # e.g. MatchClosestOption(field=...): the instance's task_data
            task_data = instance.get("task_data")
            process_value = lambda value: self.process_with_task_data(value, task_data)  # noqa: E731
        elif self._overrides_instance_value():
            process_value = lambda value: self.process_instance_value(value, instance)  # noqa: E731
        missing_ok = self.not_exist_ok or self.not_exist_do_nothing
        for source, target in self._pairs:
            if "/" not in source and source in instance:
                value = instance[source]
            elif missing_ok and not dict_has(instance, source):
                if self.not_exist_do_nothing:
                    continue
                value = self.get_default
            else:
                value = dict_get(instance, source)
            if self.process_every_value:
                if not isinstance(value, list):
                    raise UnitxtError(
                        f"process_every_value=True needs a list in field '{source}', got {type(value).__name__}.",
                        artifact=self.artifact_name,
                        field=source,
                    )
                new_value = [process_value(item) for item in value]
            else:
                new_value = process_value(value)
            if "/" not in target:
                instance[target] = new_value
            else:
                dict_set(instance, target, new_value, set_multiple=self.set_every_value)
        return instance


class SequentialMixin(Artifact):
    """Ordered `steps`, of which only the first `max_steps` run (None: all)."""

    max_steps: Optional[int] = None
    steps: List[Operator] = []

    def num_steps(self) -> int:
        return len(self.steps)

    def set_max_steps(self, max_steps: int) -> None:
        if not 1 <= max_steps <= self.num_steps():
            raise OperatorError(f"Max steps requested ({max_steps}) must be between 1 and the {self.num_steps()} "
                                "defined steps.", artifact=self.artifact_name, field="max_steps")
        self.max_steps = max_steps

    def get_last_step_description(self) -> Any:
        last = self.max_steps - 1 if self.max_steps is not None else len(self.steps) - 1
        return self.steps[last].__description__

    def _get_max_steps(self) -> int:
        return self.max_steps if self.max_steps is not None else len(self.steps)


class SequentialOperator(MultiStreamOperator, SequentialMixin):
    """Applies its steps in order (the first `max_steps` of them).

    Consecutive plain instance operators are fused: one loop per stream runs them on each instance in turn (same
    policy checks, same error context naming the failing operator), instead of one generator layer per operator.
    """

    steps: List[Operator] = []

    def process(self, multi_stream: MultiStream) -> MultiStream:
        steps = list(self.steps[:self._get_max_steps()])
        position = 0
        while position < len(steps):
            end = position
            while end < len(steps) and _fusable(steps[end]):
                end += 1
            if end - position > 1:
                multi_stream = apply_fused_operators(steps[position:end], multi_stream)
                position = end
            else:
                multi_stream = steps[position](multi_stream)
                position += 1
        return multi_stream


def _fusable(step: Any) -> bool:
    """Whether a step streams exactly as InstanceOperator does (so running it inside a fused loop is equivalent)."""
    kind = type(step)
    return (
        isinstance(step, InstanceOperator)
        and kind._run_stream is InstanceOperator._run_stream
        and kind.__call__ is StreamOperator.__call__
    )


InstanceFieldOperator = FieldOperator  # the original's name of the field operators' base (field / to_field / ...)
register_type_names(FieldOperator, "InstanceFieldOperator")
__getattr__ = moved_classes(__name__)  # the original's other stream operator kinds: operators/stream_kinds.py

__all__ = [
    "Operator",
    "MultiStreamOperator",
    "SourceOperator",
    "StreamOperator",
    "PagedStreamOperator",
    "InstanceOperator",
    "FieldOperator",
    "InstanceFieldOperator",
    "SequentialOperator",
    "SequentialMixin",
    "OperatorError",
    "dict_get",
    "dict_set",
    "dict_delete",
    "MissingFieldError",
]
