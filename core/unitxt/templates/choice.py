"""Choice templates: MultipleChoiceTemplate (enumerated options, seeded shuffling, the answer as its enumerator)
and YesNoTemplate (a yes/no answer about one class)."""

from typing import Any, Dict, List, Optional, Tuple, Union

from ..errors import ArtifactConfigurationError, ArtifactDefinitionError, InstanceTypeError, MissingFieldError, UnitxtError
from ..sandbox.format_strings import check_placeholders
from ..random_utils import new_random_generator
from .base import InputFormatTemplate, Template


def _roman(number: int) -> str:
    numerals = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
                (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip
    result = []
    for value, letters in numerals:
        count, number = divmod(number, value)
        result.append(letters * count)
    return "".join(result)


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ENUMERATORS = ("capitals", "lowercase", "numbers", "roman")


class MultipleChoiceTemplate(InputFormatTemplate):
    """Multiple choice: enumerates the choices, fills `{choices}` / `{numerals}`, and targets the answer's numeral.

    `target_field` holds the answer as an index into the choices or as the choice text. `enumerator` is "capitals"
    (A, B, ...), "lowercase", "numbers" (1, 2, ...), "roman" (I, II, ...), any other string (its characters are the
    numerals, e.g. "!@#" -> !, @, #) or a list of numerals. With
    `shuffle_choices`, the order is a permutation seeded by the instance's input fields (and `shuffle_choices_seed`),
    so the same instance always gets the same order. Shuffling applies in `render`/`process`; the single-sided
    `input_fields_to_source` / `reference_fields_to_target_and_references` use the original order.
    """

    choices_field: str = "choices"
    target_field: str = "label"  # the original's default (its catalog templates set "answer")
    enumerator: Union[str, List[str]] = "capitals"
    source_choice_format: str = "{choice_numeral}. {choice_text}"
    target_choice_format: str = "{choice_numeral}"
    choices_separator: str = ", "
    shuffle_choices: bool = False
    shuffle_choices_seed: Optional[int] = None
    sort_choices_by_length: bool = False  # shortest first (then `reverse_choices` makes it longest first)
    sort_choices_alphabetically: bool = False
    reverse_choices: bool = False  # after any sorting
    place_correct_choice_position: Optional[int] = None  # the correct choice moved there (negative: from the end)
    postprocessors: List[Any] = ["processors.to_string_stripped"]  # as the original system; catalog templates add first_character
    _synthesized = ("choices", "numerals")  # filled by the template in input_format, instruction and target_prefix

    def _missing(self, name: str, fields: Dict[str, Any], kind: str, where: Optional[str] = None) -> MissingFieldError:
        """As Template's, listing the input fields the format strings see: numerals, the task's, the choices."""
        if kind == "input":
            fields = {"numerals": None, **fields, self.choices_field: None}
        return super()._missing(name, fields, kind, where)

    def prepare(self) -> None:
        super().prepare()
        choice_names = ["choice_numeral", "choice_text"]
        self._source_choice = self._compile(self.source_choice_format, "source_choice_format")
        self._target_choice = self._compile(self.target_choice_format, "target_choice_format")
        check_placeholders(self._source_choice, choice_names, where=f"{type(self).__name__}.source_choice_format")
        check_placeholders(self._target_choice, choice_names, where=f"{type(self).__name__}.target_choice_format")
        self._choice_formats = {self.target_choice_format: (self._target_choice, "target_choice_format"),
                                self.source_choice_format: (self._source_choice, "source_choice_format")}
        self._custom_target_index = type(self).outputs_to_target_index is not MultipleChoiceTemplate.outputs_to_target_index
        self._custom_numerals = type(self).inputs_to_numerals is not MultipleChoiceTemplate.inputs_to_numerals

    def verify(self) -> None:
        super().verify()
        reorders = self.sort_choices_by_length or self.sort_choices_alphabetically or self.reverse_choices
        clash = ("You cannot combine shuffle_choices with sorting or reversing flags"
                 if self.shuffle_choices and (reorders or self.place_correct_choice_position is not None) else
                 "You cannot combine both sort_choices_by_length and sort_choices_alphabetically simultaneously"
                 if self.sort_choices_by_length and self.sort_choices_alphabetically else
                 "You cannot combine place_correct_choice_position with sorting or reversing flags"
                 if self.place_correct_choice_position is not None and reorders else None)  # the original's words
        if clash:
            raise ArtifactDefinitionError(f"{type(self).__name__}: {clash}.", artifact=self.artifact_name,
                                          field="shuffle_choices" if self.shuffle_choices else "sort_choices_by_length")
        if not self.enumerator:
            raise ArtifactDefinitionError(
                f"{type(self).__name__}.enumerator is empty: give one of {', '.join(ENUMERATORS)}, a string of "
                f"numeral characters (e.g. 'xyz') or a list of numerals.", artifact=self.artifact_name,
                field="enumerator")

    def numerals(self, count: int) -> List[str]:
        """The first `count` numerals of the enumerator."""
        memo = self.__dict__.get("_numerals_memo")
        if memo is not None and memo[0] is self.enumerator and count in memo[1]:
            return list(memo[1][count])
        made = self._make_numerals(count)
        if memo is None or memo[0] is not self.enumerator:
            memo = self.__dict__["_numerals_memo"] = (self.enumerator, {})
        memo[1][count] = tuple(made)
        return made

    def _make_numerals(self, count: int) -> List[str]:
        enumerator = self.enumerator
        if enumerator == "numbers":
            return [str(index + 1) for index in range(count)]
        if enumerator == "roman":
            return [_roman(index + 1) for index in range(count)]
        if enumerator == "capitals":
            symbols: Union[str, List[str]] = _LETTERS
        elif enumerator == "lowercase":
            symbols = _LETTERS.lower()
        else:  # a list of numerals, or (as the original) any other string as its sequence of characters
            symbols = enumerator
        if count > len(symbols):
            raise InstanceTypeError(
                f"Enumerator {enumerator if isinstance(enumerator, str) else 'list'!r} has {len(symbols)} numerals, "
                f"but the instance has {count} choices.",
                artifact=self.artifact_name,
                field=self.choices_field,
            )
        return list(symbols[:count])

    def _raw_choices(self, *sources: Dict[str, Any]) -> List[Any]:
        for fields in sources:
            if self.choices_field in fields:
                choices = fields[self.choices_field]
                if not isinstance(choices, (list, tuple)):
                    raise InstanceTypeError(
                        f"choices_field '{self.choices_field}' must hold a list, got {type(choices).__name__}.",
                        artifact=self.artifact_name,
                        field=self.choices_field,
                    )
                return list(choices)
        available = sorted({str(key) for fields in sources for key in fields})
        raise MissingFieldError(
            f"{type(self).__name__} needs the choices in field '{self.choices_field}' (available: "
            f"{', '.join(available) or 'none'}).",
            artifact=self.artifact_name,
            field=self.choices_field,
        )

    def _answer_index(self, choices: List[Any], texts: List[str], *sources: Dict[str, Any]) -> int:
        for fields in sources:
            if self.target_field in fields:
                answer = fields[self.target_field]
                break
        else:
            available = sorted({str(key) for fields in sources for key in fields})
            raise MissingFieldError(
                f"{type(self).__name__} needs the answer in field '{self.target_field}' (available: "
                f"{', '.join(available) or 'none'}).",
                artifact=self.artifact_name,
                field=self.target_field,
            )
        if isinstance(answer, int) and not isinstance(answer, bool):
            # a negative index counts from the end, as in the original (PIQA's hidden test labels, -1, take the last)
            if not -len(choices) <= answer < len(choices):
                raise InstanceTypeError(
                    f"Answer index {answer} is out of range for {len(choices)} choices "
                    f"({-len(choices)}..{len(choices) - 1}).",
                    artifact=self.artifact_name,
                    field=self.target_field,
                )
            return answer % len(choices)
        for candidates in (choices, texts):
            if answer in candidates:
                return candidates.index(answer)
        raise InstanceTypeError(
            f"Answer {answer!r} is neither an index nor one of the choices {texts!r:.300}.",
            artifact=self.artifact_name,
            field=self.target_field,
        )

    def _choice_texts(self, choices: List[Any], instance: Dict[str, Any]) -> List[str]:
        return [choice if type(choice) is str else self._serialize(choice, instance) for choice in choices]

    def _enumerated(self, texts: List[str], numerals: List[str]) -> str:
        return self.choices_separator.join(self.inputs_to_choices({self.choices_field: texts}, self.source_choice_format))

    def _target(self, numeral: str, text: str) -> str:
        return self._target_choice.render({"choice_numeral": numeral, "choice_text": text}, "target_choice_format")

    def _choice_format(self, choice_format: str) -> Any:
        known = self._choice_formats.get(choice_format)
        return known if known is not None else (self._compile(choice_format, "choice_format"), "choice_format")

    # ------------------------------------------------------------------ the original's hooks
    def inputs_to_choices(self, data: Dict[str, Any], choice_format: str) -> List[str]:
        """Hook: each choice of `data[choices_field]` written with `choice_format` ({choice_numeral},
        {choice_text}); the source shows them joined by `choices_separator`, the targets are those of the target
        format."""
        choices = data[self.choices_field]
        compiled, where = self._choice_format(choice_format)
        render = compiled.render
        return [render({"choice_numeral": numeral, "choice_text": choice if type(choice) is str else str(choice)},
                       where) for numeral, choice in zip(self.numerals(len(choices)), choices)]

    def inputs_to_numerals(self, input_fields: Dict[str, Any]) -> List[str]:
        """Hook: the numerals of the choices of `input_fields` (what {numerals} lists)."""
        return self.numerals(len(input_fields[self.choices_field]))

    def prepare_multiple_choice_inputs(self, input_fields: Dict[str, Any]) -> Dict[str, Any]:
        """The input fields as the input format sees them: `numerals` added and the choices enumerated into text."""
        texts = self._choice_texts(self._raw_choices(input_fields), {})
        shown = {**input_fields, self.choices_field: texts}
        return {"numerals": self.inputs_to_numerals(shown), **input_fields,
                self.choices_field: self.choices_separator.join(self.inputs_to_choices(shown, self.source_choice_format))}

    def outputs_to_target_index(self, reference_fields: Dict[str, object]) -> int:
        """Hook: the index of the answer among the choices (`target_field` holds an index or a choice text)."""
        choices = self._raw_choices(reference_fields)
        return self._answer_index(choices, self._choice_texts(choices, {}), reference_fields)

    def _target_index(self, choices: List[Any], texts: List[str], reference_fields: Dict[str, Any],
                      input_fields: Dict[str, Any]) -> int:
        if self._custom_target_index:  # a subclass's outputs_to_target_index decides (it sees choices and answer)
            return self.outputs_to_target_index({**input_fields, **reference_fields})
        return self._answer_index(choices, texts, reference_fields, input_fields)

    def render(
        self,
        input_fields: Dict[str, Any],
        reference_fields: Dict[str, Any],
        instance: Optional[Dict[str, Any]] = None,
        with_references: bool = True,
    ) -> Dict[str, Any]:
        if instance is None:
            instance = {}
        try:
            choices = self._raw_choices(input_fields, reference_fields)
            texts = self._choice_texts(choices, instance)
            answer = None if not with_references else self.outputs_to_target_index(
                {**input_fields, **reference_fields}) if self._custom_target_index else self._answer_index(
                choices, texts, reference_fields, input_fields)
            # production rows (no answer) show the choices as given, as the original (it reorders with references)
            order = self._order(choices, texts, answer, input_fields) if with_references else None
            if order is not None:
                texts = [texts[index] for index in order]
                answer = order.index(answer)
            numerals = self.numerals(len(texts))
            values = self._input_values(input_fields, instance)
            values["choices"] = self._enumerated(texts, numerals)
            values["numerals"] = ", ".join(self.inputs_to_numerals({self.choices_field: texts})
                                           if self._custom_numerals else numerals)
            source = self._input.render(values, "input_format")
            if answer is None:  # production: the answer is not known
                result = self._result(values, source, "", [])
            else:
                target = self._target(numerals[answer], texts[answer])
                result = self._result(values, source, target, [target])
            # the answer each choice would have: task_data "options" (read by option-selecting engines and judges)
            result["options"] = [self._target(numeral, text) for numeral, text in zip(numerals, texts)]
            if with_references and self._reorders():
                result["task_fields"] = self._shown_fields(input_fields, reference_fields, choices, order, answer)
            return result
        except UnitxtError as error:
            raise error.with_context(artifact=self.artifact_name) from None

    def _reorders(self) -> bool:
        return bool(self.shuffle_choices or self.sort_choices_by_length or self.sort_choices_alphabetically
                    or self.reverse_choices or self.place_correct_choice_position is not None)

    def _shown_fields(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], choices: List[Any],
                      order: Optional[List[int]], answer: int) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """The task fields as shown, for task_data (as the original records them when a template reorders): the
        choices in the shown order and the answer as its index among them (an index even when the order is kept)."""
        shown = [choices[index] for index in order] if order is not None else list(choices)
        inputs, references = dict(input_fields), dict(reference_fields)
        for fields in (inputs, references):
            if self.choices_field in fields:
                fields[self.choices_field] = list(shown)
        (references if self.target_field in references or self.target_field not in inputs
         else inputs)[self.target_field] = answer
        return inputs, references

    def _order(self, choices: List[Any], texts: List[str], answer: int, input_fields: Dict[str, Any]
               ) -> Optional[List[int]]:
        """The order the choices are shown in (positions into the given choices), None to keep theirs."""
        order = list(range(len(texts)))
        if self.shuffle_choices:
            # seeded as the original: by shuffle_choices_seed when given, else by the input fields' text
            new_random_generator(self.shuffle_choices_seed if self.shuffle_choices_seed is not None
                                 else {**input_fields}).shuffle(order)
            return order
        if self.sort_choices_by_length:
            order.sort(key=lambda index: len(choices[index]) if hasattr(choices[index], "__len__")
                       else len(texts[index]))
        if self.sort_choices_alphabetically:
            order.sort(key=lambda index: texts[index])
        if self.reverse_choices:
            order.reverse()
        position = self.place_correct_choice_position
        if position is not None and answer is not None:
            fixed = position + len(order) if position < 0 else position
            if not 0 <= fixed < len(order):
                raise InstanceTypeError(f"place_correct_choice_position={position} is out of range for "
                                        f"{len(order)} choices (0..{len(order) - 1}).", artifact=self.artifact_name,
                                        field="place_correct_choice_position")
            order.remove(answer)
            order.insert(fixed, answer)
        return order if order != list(range(len(texts))) else None

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        """As Template.process; when the choices are reordered, the instance's choices and answer index follow the
        shown order, and the answer each choice would have goes to the input fields as "options" (as the original
        records them)."""
        instance = self._process_choices(instance, stream_name)
        if "options" in instance and isinstance(instance.get("input_fields"), dict):
            instance["input_fields"]["options"] = instance.pop("options")
        return instance

    def _process_choices(self, instance: Dict[str, Any], stream_name: Optional[str]) -> Dict[str, Any]:
        reorders = (self.shuffle_choices or self.sort_choices_by_length or self.sort_choices_alphabetically
                    or self.reverse_choices or self.place_correct_choice_position is not None)
        inputs, references = instance.get("input_fields"), instance.get("reference_fields")
        if not reorders or not isinstance(inputs, dict) or not isinstance(references, dict):
            return super().process(instance, stream_name)
        instance = super().process(instance, stream_name)  # renders (and checks) with the given order
        choices = self._raw_choices(inputs, references)
        texts = self._choice_texts(choices, instance)
        answer = self._target_index(choices, texts, references, inputs)
        order = self._order(choices, texts, answer, inputs) or list(range(len(choices)))
        for fields in (inputs, references):
            if self.choices_field in fields:
                fields[self.choices_field] = [choices[index] for index in order]
        references[self.target_field] = order.index(answer)
        return instance

    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        prepared = self.prepare_multiple_choice_inputs(input_fields)
        values = self._input_values(input_fields, {})
        values["choices"] = prepared[self.choices_field]
        values["numerals"] = ", ".join(prepared["numerals"])
        return self._input.render(values, "input_format")

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        choices = self._raw_choices(reference_fields)
        texts = self._choice_texts(choices, {})
        answer = self.outputs_to_target_index(reference_fields)
        target = self._target(self.numerals(len(texts))[answer], texts[answer])
        return target, [target]


class YesNoTemplate(InputFormatTemplate):
    """Asks whether the instance belongs to a class: the answer is `yes_answer` iff the queried class (`class_field`, a
    non-empty text, read from the reference fields or else the input fields) is among the gold labels (`label_field`,
    a reference field holding a list). Error wording follows the original's ('Available reference_fields are ...')."""

    # unset fields are allowed at construction, as in the original; rendering then names the missing one
    input_format: Optional[str] = None
    class_field: Optional[str] = None
    label_field: Optional[str] = None
    yes_answer: str = "Yes"
    no_answer: str = "No"

    def prepare(self) -> None:
        if self.input_format is None:
            Template.prepare(self)
        else:
            super().prepare()

    def _check_set(self, *names: str) -> None:
        unset = [name for name in names if getattr(self, name) is None]
        if unset:
            raise ArtifactConfigurationError(f"YesNoTemplate needs {', '.join(unset)} to render instances.",
                                             artifact=self.artifact_name, field=unset[0])

    def input_fields_to_source(self, input_fields: Dict[str, object]) -> str:
        self._check_set("input_format")
        return super().input_fields_to_source(input_fields)

    def _answer(self, class_sources: Tuple[Dict[str, Any], ...], reference_fields: Dict[str, Any]) -> str:
        self._check_set("input_format", "class_field", "label_field")
        try:
            labels = reference_fields[self.label_field]
        except KeyError:
            raise MissingFieldError(
                f"Available reference_fields are {list(reference_fields)}, missing required label field: "
                f"'{self.label_field}'.",
                artifact=self.artifact_name,
                field=self.label_field,
            ) from None
        if not isinstance(labels, (list, tuple)):
            raise InstanceTypeError(
                f"Unexpected value for gold_class_names: '{labels}'. Expecting a list. (label_field "
                f"'{self.label_field}' must hold the list of gold labels, got {type(labels).__name__}.)",
                artifact=self.artifact_name,
                field=self.label_field,
            )
        for fields in class_sources:
            if self.class_field in fields:
                queried = fields[self.class_field]
                break
        else:
            raise MissingFieldError(
                f"Available reference_fields are {list(reference_fields)}, missing required class field: "
                f"'{self.class_field}'.",
                artifact=self.artifact_name,
                field=self.class_field,
            )
        if not queried or not isinstance(queried, str):
            raise InstanceTypeError(
                f"Unexpected value for queried_class_names: '{queried}'. Expected a string. (class_field "
                f"'{self.class_field}' must hold a non-empty class name.)",
                artifact=self.artifact_name,
                field=self.class_field,
            )
        return self.yes_answer if queried in labels else self.no_answer

    def _target_and_references(
        self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], instance: Dict[str, Any]
    ) -> Tuple[str, List[str]]:
        answer = self._answer((reference_fields, input_fields), reference_fields)
        return answer, [answer]

    def reference_fields_to_target_and_references(self, reference_fields: Dict[str, object]) -> Tuple[str, List[str]]:
        answer = self._answer((reference_fields,), reference_fields)
        return answer, [answer]
