"""Templates: verbalise a task instance's input fields into the model input and its reference fields into targets.

A template operator expects an instance produced by the Task (`input_fields`, `reference_fields`, optional `demos`)
and adds `source`, `target`, `references`, `instruction`, `target_prefix` and `postprocessors`; each demo is replaced
by its own rendering `{source, target, target_prefix, instruction}` (same template). `render(input_fields,
reference_fields)` is the pure rendering used for both, so callers can cache rendered demos.

Format strings (input_format, output_format, instruction, target_prefix, ...) are compiled once by `format_utils`
(no attribute access, clear errors). Input values are verbalised with `serializer` (default: text as is, numbers via
str, lists joined by ", ", dicts as JSON); `instruction` and `target_prefix` are formatted with the same input values.
"""

import json
from typing import Any, Dict, List, Optional, Tuple, Union

from ..artifact import Artifact, NonPositionalField
from ..errors import ArtifactDefinitionError, InstanceTypeError, MissingFieldError, UnitxtError
from ..operator import InstanceOperator
from ..random_utils import new_random_generator
from ..sandbox.format_strings import CompiledFormat, RepeatMemo, compile_format
from ..serializers import DefaultSerializer, Serializer, default_serialize, serialize_value
from .row_render import plain_row_renderer
from ..artifact import InertField

_SCALARS = (str, int, float, bool)


def _content_seed(fields: Dict[str, Any], extra: Any = None) -> str:
    """A deterministic seed string from an instance's content (same content -> same seed, across processes)."""
    return f"{extra}|" + json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str)


class TemplateFormatKeyError(MissingFieldError):
    """A format string of a template (input_format, output_format, instruction...) names a field the instance lacks;
    the message lists the fields available (the original's wording: 'Available input fields are [...] but ...')."""


class Template(InstanceOperator):
    """Base template. Subclasses implement `input_fields_to_source` and `reference_fields_to_target_and_references`.

    `postprocessors` are catalog names (kept as names, never resolved here) or post-processing operator artifacts.
    """

    __abstract__ = True  # a base class: refused as a __type__ in data (use a concrete subclass)

    # an instance that already has its source, target and references is passed through (the original's switch)
    skip_rendered_instance: bool = NonPositionalField(default=True)
    instruction: str = NonPositionalField(default="")
    target_prefix: str = NonPositionalField(default="")
    postprocessors: List[Any] = NonPositionalField(default=["processors.to_string_stripped"])
    serializer: Optional[Serializer] = NonPositionalField(default=None)
    title_fields: List[str] = NonPositionalField(default_factory=list)  # input fields whose text is title-cased before rendering ("sports" -> "Sports")
    _synthesized: Tuple[str, ...] = ()  # placeholders the template fills itself (not taken from the input fields)

    # ------------------------------------------------------------------ construction
    def prepare(self) -> None:
        super().prepare()
        self._placeholder_owner: Dict[str, str] = {}  # placeholder name -> the format string using it first
        self._spec_names: set = set()
        self._instruction = self._compile_input_format(self.instruction, "instruction")
        self._target_prefix = self._compile_input_format(self.target_prefix, "target_prefix")
        # instruction and target prefix mostly repeat across instances (class lists, field types): remember them
        self._instruction_memo = RepeatMemo(self._instruction)
        self._target_prefix_memo = RepeatMemo(self._target_prefix)
        self._postprocessor_names: Optional[List[str]] = None
        # A subclass of a built-in template that overrides a documented hook gets it called (not the fast path).
        self._public_source = self._overrides("input_fields_to_source", "_source")
        self._public_references = self._overrides("reference_fields_to_target_and_references", "_target_and_references")

    def _overrides(self, public: str, internal: str) -> bool:
        for klass in type(self).__mro__:
            if internal in klass.__dict__:
                return False
            if public in klass.__dict__:
                return True
        return False

    def _compile(self, text: str, where: str) -> CompiledFormat:
        return compile_format(text, where=f"{type(self).__name__}.{where}")

    def _compile_input_format(self, text: str, where: str) -> CompiledFormat:
        """Compile a format string that is rendered with the (serialised) input fields."""
        compiled = self._compile(text, where)
        for name in compiled.fields:
            if name not in self._synthesized:
                self._placeholder_owner.setdefault(name, where)
        self._spec_names.update(compiled.spec_fields)
        self._input_names = tuple(self._placeholder_owner)
        return compiled

    def verify(self) -> None:
        super().verify()
        for index, item in enumerate(self.postprocessors):
            if not isinstance(item, (str, Artifact)):
                raise ArtifactDefinitionError(
                    f"postprocessors[{index}] of {type(self).__name__} must be a catalog name or an operator, "
                    f"got {type(item).__name__}: {item!r}.",
                    field="postprocessors",
                )

    # ------------------------------------------------------------------ the documented extension points
    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        """Create the textual input for the model from the input fields (a subclass implements it; reached through
        super() from an implementation it returns None, as the original's abstract method)."""
        if type(self).input_fields_to_source is Template.input_fields_to_source:
            raise NotImplementedError(f"{type(self).__name__} must implement input_fields_to_source(input_fields)")
        return None

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        """Return (target, references): all verbalised references and the one used when the instance is a demo (a
        subclass implements it; reached through super() from an implementation it returns None)."""
        if type(self).reference_fields_to_target_and_references is Template.reference_fields_to_target_and_references:
            raise NotImplementedError(
                f"{type(self).__name__} must implement reference_fields_to_target_and_references(reference_fields)"
            )
        return None

    # ------------------------------------------------------------------ internal hooks (built-ins override them)
    def _source(self, input_fields: Dict[str, Any], values: Dict[str, Any], instance: Dict[str, Any]) -> str:
        source = self.input_fields_to_source(input_fields)
        if not isinstance(source, str):
            raise InstanceTypeError(
                f"{type(self).__name__}.input_fields_to_source returned {type(source).__name__}, expected str.",
                artifact=self.artifact_name,
            )
        return source

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        result = self.reference_fields_to_target_and_references(reference_fields)
        if (
            not isinstance(result, (tuple, list))
            or len(result) != 2
            or not isinstance(result[0], str)
            or not isinstance(result[1], (list, tuple))
            or not all(isinstance(reference, str) for reference in result[1])
        ):
            raise InstanceTypeError(
                f"{type(self).__name__}.reference_fields_to_target_and_references must return "
                f"(str, List[str]), got {result!r:.200}.",
                artifact=self.artifact_name,
            )
        return result[0], list(result[1])

    # ------------------------------------------------------------------ serialisation helpers
    def _active_serializer(self) -> Optional[Serializer]:
        """The serializer to call, or None for the default rules.

        Reads the raw field value first: going through the artifact-field descriptor (which resolves catalog names)
        costs a noticeable share of a short render, and is only needed when the value is still a name."""
        serializer = self.__dict__.get("serializer")
        if serializer is not None and not isinstance(serializer, Artifact):
            serializer = self.serializer
        return None if serializer is None or type(serializer) is DefaultSerializer else serializer

    def _missing(self, name: str, fields: Dict[str, Any], kind: str, where: Optional[str] = None) -> MissingFieldError:
        where = where or self._placeholder_owner.get(name, "template")
        format_text = getattr(self, where, None) if where.isidentifier() else None
        if isinstance(format_text, str) and "{" in format_text:
            return TemplateFormatKeyError(
                f"Available {kind} fields are [{', '.join(map(str, fields))}] but {type(self).__name__}.{where} "
                f"format requires a different ones: '{format_text}' (field '{name}' is missing).",
                artifact=self.artifact_name,
                field=name,
            )
        return MissingFieldError(
            f"{type(self).__name__} {where} needs field '{name}', which is not among the instance's {kind} fields "
            f"(available: {', '.join(sorted(map(str, fields))) or 'none'}).",
            artifact=self.artifact_name,
            field=name,
        )

    def _input_values(
        self, input_fields: Dict[str, Any], instance: Dict[str, Any], names: Optional[Tuple[str, ...]] = None
    ) -> Dict[str, Any]:
        """Serialised values of the input fields the template's format strings use (one pass: it runs per row)."""
        serializer = self._active_serializer()
        spec_names = self._spec_names
        if self.title_fields:
            input_fields = self._titled(input_fields)
        values = {}
        for name in self._input_names if names is None else names:
            try:
                value = input_fields[name]
            except KeyError:
                raise self._missing(name, input_fields, "input") from None
            if type(value) is str and serializer is None:
                values[name] = value
            elif spec_names and name in spec_names and isinstance(value, (int, float)) and not isinstance(value, bool):
                values[name] = value  # "{x:.2f}" formats the number itself
            elif serializer is None:
                values[name] = default_serialize(value)
            else:
                values[name] = serialize_value(serializer, value, instance)
        return values

    def _titled(self, input_fields: Dict[str, Any]) -> Dict[str, Any]:
        """A copy of the input fields with the `title_fields` texts title-cased."""
        titled = dict(input_fields)
        for name in self.title_fields:
            if name not in titled:
                raise self._missing(name, input_fields, "input", "title_fields")
            if isinstance(titled[name], str):
                titled[name] = titled[name].title()
        return titled

    def _serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        serializer = self._active_serializer()
        if type(value) is str and serializer is None:
            return value
        return serialize_value(serializer, value, instance)

    # ------------------------------------------------------------------ rendering
    def _result(self, values: Dict[str, Any], source: str, target: str, references: List[str]) -> Dict[str, Any]:
        return {
            "source": source,
            "target": target,
            "references": references,
            "instruction": self._instruction_memo.render(values, "instruction"),
            "target_prefix": self._target_prefix_memo.render(values, "target_prefix"),
        }

    def render(
        self,
        input_fields: Dict[str, Any],
        reference_fields: Dict[str, Any],
        instance: Optional[Dict[str, Any]] = None,
        with_references: bool = True,
    ) -> Dict[str, Any]:
        """Pure rendering: {source, target, references, instruction, target_prefix} (inputs are not modified).

        `instance` (optional) is handed to serializers that record side data (e.g. media). Without references
        (production: no answer is known) target is "" and references [].
        """
        if instance is None:
            instance = {}
        try:
            input_fields, reference_fields = self._preprocessed(input_fields, reference_fields, with_references)
            values = self._input_values(input_fields, instance)
            if self._public_source:
                source = Template._source(self, input_fields, values, instance)
            else:
                source = self._source(input_fields, values, instance)
            if not with_references:
                target, references = "", []
            elif self._public_references:
                target, references = Template._target_and_references(self, input_fields, reference_fields, instance)
            else:
                target, references = self._target_and_references(input_fields, reference_fields, instance)
            result = self._result(values, source, target, references)
            if self.title_fields and with_references:  # the original titles the instance's own input fields, so
                result["task_fields"] = (self._titled(input_fields), reference_fields)  # task_data shows them titled
            return result
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None

    def _row_renderer(self) -> Any:
        """The per-row `render` callable the columnar renderer uses (a template may give a faster equivalent)."""
        return self.render

    # ------------------------------------------------------------------ the original's hooks
    def preprocess_input_and_reference_fields(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any]
                                              ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Hook: both field dicts before rendering (not in production, where no answer is known); default: as
        they are. A subclass written for the original may override it, or the two below."""
        return input_fields, reference_fields

    def preprocess_input_fields(self, input_fields: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: the input fields before rendering; default: as they are."""
        return input_fields

    def preprocess_reference_fields(self, reference_fields: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: the reference fields before the target is made; default: as they are."""
        return reference_fields

    def post_process_instance(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """Hook: the rendered instance; default: as it is."""
        return instance

    def _preprocessed(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], with_references: bool
                      ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """The fields after the preprocess hooks a subclass overrides (copies: the instance's fields stay)."""
        cls = type(self)
        if with_references and cls.preprocess_input_and_reference_fields is not \
                Template.preprocess_input_and_reference_fields:
            input_fields, reference_fields = self.preprocess_input_and_reference_fields(
                dict(input_fields), dict(reference_fields))
        if cls.preprocess_input_fields is not Template.preprocess_input_fields:
            input_fields = self.preprocess_input_fields(dict(input_fields))
        if with_references and cls.preprocess_reference_fields is not Template.preprocess_reference_fields and \
                not getattr(cls, "_runs_reference_hook_itself", False):
            reference_fields = self.preprocess_reference_fields(dict(reference_fields))
        return input_fields, reference_fields

    def set_titles(self, data: Dict[str, Any]) -> None:
        """The `title_fields` values of `data` title-cased, in place."""
        data.update(self._titled(data))

    def serialize(self, data: Dict[str, Any], instance: Dict[str, Any]) -> Dict[str, str]:
        """Every value of `data` as text, by the template's serializer."""
        return {name: self._serialize(value, instance) for name, value in data.items()}

    def apply_formatting(self, data: Dict[str, Any], data_type: str, format_str: Optional[str],
                         format_name: str) -> str:
        """`format_str` filled from `data`; a missing field or format is a clear error naming them."""
        if format_str is None:
            raise UnitxtError(f"Required field '{format_name}' of class {type(self).__name__} not set.",
                              artifact=self.artifact_name, field=format_name)
        compiled = self._compile(format_str, format_name)  # the sandbox's format strings: no attribute access
        missing = [name for name in compiled.fields if name not in data]
        if missing:
            raise self._missing(missing[0], data, data_type.replace(" field", ""), format_name)
        return compiled.render(data, format_name)

    def input_fields_to_instruction_and_target_prefix(self, input_fields: Dict[str, Any], instruction: str
                                                      ) -> Tuple[str, str]:
        """(instruction, target_prefix) filled from the (serialized) input fields."""
        return (self.apply_formatting(input_fields, "input field", instruction, "instruction"),
                self.apply_formatting(input_fields, "input field", self.target_prefix, "target_prefix"))

    def render_demo(self, demo: Dict[str, Any], instance: Optional[Dict[str, Any]] = None) -> Dict[str, str]:
        """A demo as {source, target, target_prefix, instruction}; already rendered demos pass through."""
        if "input_fields" not in demo:
            if "source" in demo:
                return {
                    "source": demo["source"],
                    "target": demo.get("target", ""),
                    "target_prefix": demo.get("target_prefix", ""),
                    "instruction": demo.get("instruction", ""),
                }
            raise MissingFieldError(
                f"A demo has neither 'input_fields' nor 'source' (keys: {', '.join(sorted(demo))}).",
                artifact=self.artifact_name,
                field="demos",
            )
        if "reference_fields" not in demo:
            raise MissingFieldError(
                "A demo has 'input_fields' but no 'reference_fields'.", artifact=self.artifact_name, field="demos"
            )
        rendered = self.render(demo["input_fields"], demo["reference_fields"], instance)
        return {
            "source": rendered["source"],
            "target": rendered["target"],
            "target_prefix": rendered["target_prefix"],
            "instruction": rendered["instruction"],
        }

    def get_postprocessors(self) -> List[Union[str, Artifact]]:
        """The post processors as given (catalog names or operator artifacts)."""
        return list(self.postprocessors)

    def postprocessor_names(self) -> List[str]:
        """What goes into instance["postprocessors"]: catalog names; an operator given inline is written as its
        catalog name when it has one, else as its compact JSON (`{"__type__": ...}`)."""
        if self._postprocessor_names is None:
            names = []
            for item in self.postprocessors:
                if isinstance(item, str):
                    names.append(item)
                elif item.__dict__.get("__id__"):
                    names.append(item.__id__)
                else:
                    names.append(json.dumps(item.to_dict(), sort_keys=True, ensure_ascii=False))
            self._postprocessor_names = names
        return list(self._postprocessor_names)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if self.skip_rendered_instance and all(key in instance for key in ("source", "target", "references")):
            return instance
        try:
            input_fields = instance["input_fields"]
            reference_fields = instance["reference_fields"]
        except KeyError as error:
            raise MissingFieldError(
                f"{type(self).__name__} needs 'input_fields' and 'reference_fields' in the instance (apply the Task "
                f"first); the instance has: {', '.join(sorted(instance))}.",
                artifact=self.artifact_name,
                field=error.args[0],
            ) from None
        instance.update(self.render(input_fields, reference_fields, instance))
        instance["postprocessors"] = self.postprocessor_names()
        if type(self).post_process_instance is not Template.post_process_instance:
            instance = self.post_process_instance(instance)
        demos = instance.get("demos")
        if demos is not None:
            instance["demos"] = [self.render_demo(demo, instance) for demo in demos]
        return instance


class InputFormatTemplate(Template):
    """Formats the source with `input_format`; has no references (target "" and references [])."""

    input_format: str

    def prepare(self) -> None:
        super().prepare()
        self._input = self._compile_input_format(self.input_format, "input_format")

    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        return self._source(input_fields, self._input_values(input_fields, {}), {})

    def _source(self, input_fields: Dict[str, Any], values: Dict[str, Any], instance: Dict[str, Any]) -> str:
        return self._input.render(values, "input_format")

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        return self._target_and_references({}, reference_fields, {})

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        return "", []


class InputOutputTemplate(InputFormatTemplate):
    """`input_format` for the source, `output_format` for the single reference (`output_format=""`: no reference).

    Input lists are verbalised by the serializer (", " joined); a reference field holding a plain list of texts or
    numbers is joined with `output_list_separator` (["happy", "angry"] -> "happy,angry", as documented) unless the
    template's (or recipe's) serializer accepts the list, which then verbalises it as it does the inputs.
    """

    output_format: str
    output_list_separator: str = ","

    def prepare(self) -> None:
        super().prepare()
        self._output = self._compile(self.output_format, "output_format")

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        output = self._output
        if not self.output_format:
            return "", []
        serializer = self._active_serializer()
        values: Dict[str, Any] = {}
        for name in output.fields:
            try:
                value = reference_fields[name]
            except KeyError:
                raise self._missing(name, reference_fields, "reference", "output_format") from None
            if type(value) is str:
                values[name] = value
            elif (isinstance(value, list) and all(isinstance(item, _SCALARS) for item in value)
                  and (serializer is None or not serializer.accepts(value))):  # a serializer taking lists wins
                values[name] = self.output_list_separator.join(str(item) for item in value)
            elif name in output.spec_fields and isinstance(value, (int, float)) and not isinstance(value, bool):
                values[name] = value
            else:
                values[name] = self._serialize(value, instance)
        target = output.render(values, "output_format")
        return target, [target]

    def _row_renderer(self) -> Any:
        """`render` for the common template (no hook, serializer or title fields overridden or set, a text output
        format): the same dict, built in one call with the template's compiled strings read once. A row with an
        unusual value (a reference that is not text, a missing field) or any error goes through `render`, which
        gives the result or raises its own error."""
        cls, full = type(self), self.render
        plain = (
            cls.render is Template.render and cls._preprocessed is Template._preprocessed
            and cls.preprocess_input_and_reference_fields is Template.preprocess_input_and_reference_fields
            and cls.preprocess_input_fields is Template.preprocess_input_fields
            and cls.preprocess_reference_fields is Template.preprocess_reference_fields
            and cls._input_values is Template._input_values and cls._result is Template._result
            and cls._source is InputFormatTemplate._source
            and cls._target_and_references is InputOutputTemplate._target_and_references
            and not self._public_source and not self._public_references
            and not self.title_fields and self._active_serializer() is None and self.output_format
        )
        if not plain:
            return full
        return plain_row_renderer(self, full)


class MultiReferenceTemplate(InputFormatTemplate):
    """All texts of the list in `references_field` are references; the target is the first (or, with
    `random_reference`, one chosen with a seed derived from the verbalised reference fields, as the original)."""

    references_field: str
    random_reference: bool = False
    output_format: str = ""  # accepted for catalogs of the original format (inherited there); references come
    # from references_field, so it does not change the rendering

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        try:
            raw = reference_fields[self.references_field]
        except KeyError:
            raise self._missing(self.references_field, reference_fields, "reference", "references_field") from None
        if not isinstance(raw, (list, tuple)):
            raise InstanceTypeError(
                f"references_field '{self.references_field}' must hold a list of references, got "
                f"{type(raw).__name__}: {raw!r:.200}.",
                artifact=self.artifact_name,
                field=self.references_field,
            )
        if not raw:  # no reference (e.g. a judge over questions alone): empty target, as the original
            return "", []
        references = [item if type(item) is str else self._serialize(item, instance) for item in raw]
        if self.random_reference:  # seeded by the verbalised reference fields, as the original
            seed = {name: references if name == self.references_field else self._serialize(value, instance)
                    for name, value in reference_fields.items()}
            target = new_random_generator(seed).choice(references)
        else:
            target = references[0]
        return target, references


class KeyValTemplate(Template):
    """Verbalises every input field as `key: value` pairs and the reference fields as the target (values only by
    default, joined by `outs_separator`)."""

    outputs_key_val_separator: Any = InertField(default=': ', reason="outputs use the template's pairs separator here")

    pairs_separator: str = ", "
    key_val_separator: str = ": "
    use_keys_for_inputs: bool = True
    outs_separator: str = ","
    use_keys_for_outputs: bool = False

    def _pairs(self, fields: Dict[str, Any], separator: str, use_keys: bool, instance: Dict[str, Any]) -> str:
        serialize = self._serialize
        return self.process_dict({key: serialize(value, instance) for key, value in fields.items()},
                                 self.key_val_separator, separator, use_keys)

    def process_dict(self, data: Dict[str, object], key_val_sep: str, pairs_sep: str, use_keys: bool) -> str:
        """Hook: the (serialised) fields as text, `key<key_val_sep>value` (or values only) joined by `pairs_sep`."""
        if use_keys:
            return pairs_sep.join([f"{key}{key_val_sep}{value}" for key, value in data.items()])
        return pairs_sep.join(map(str, data.values()))

    def _source(self, input_fields: Dict[str, Any], values: Dict[str, Any], instance: Dict[str, Any]) -> str:
        return self._pairs(input_fields, self.pairs_separator, self.use_keys_for_inputs, instance)

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        target = self._pairs(reference_fields, self.outs_separator, self.use_keys_for_outputs, instance)
        return target, [target]

    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        return self._source(input_fields, {}, {})

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        return self._target_and_references({}, reference_fields, {})


class NullTemplate(Template):
    """Renders nothing: empty source and target, no references, no post-processing. For tasks evaluated without a
    prompt (e.g. a judge scoring texts the data already holds), where the metrics read the task fields."""

    postprocessors: List[Any] = []

    def _source(self, input_fields: Dict[str, Any], values: Dict[str, Any], instance: Dict[str, Any]) -> str:
        return ""

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        return "", []

    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        return ""

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        return "", []
