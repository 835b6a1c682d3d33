"""Post-processors: operators that turn model output text (and references) into the values metrics expect.

Each basic processor is a FieldOperator over one value. `PostProcess(operator)` applies it to an evaluation instance
(`{"prediction": ..., "references": [...], "task_data": {...}}`): to the prediction and/or to every reference.
"""

import ast
import json
import math
import re
from difflib import SequenceMatcher, get_close_matches
from typing import Any, Dict, List, Optional

from .dict_utils import dict_get
from .errors import UnitxtError
from .operator import FieldOperator, InstanceOperator, Operator
from .module_aliases import moved_classes
from .artifact import InertField


class PostProcess(InstanceOperator):
    """Apply a value operator to the prediction and/or each reference of an evaluation instance."""

    _positional_args = ("operator",)
    operator: Operator
    process_prediction: bool = True
    process_references: bool = True

    def apply_value(self, value: Any, task_data: Optional[Dict[str, Any]] = None) -> Any:
        """The wrapped operator applied to one value (a prediction or a reference)."""
        operator = self.operator
        if isinstance(operator, FieldOperator):
            if getattr(operator, "needs_task_data", False):
                return operator.process_with_task_data(value, task_data)
            return operator.process_value(value)
        return operator.process_instance({"value": value, "task_data": task_data})["value"]

    def process_value_pair(self, prediction: Any, references: List[Any], task_data: Optional[Dict[str, Any]] = None):
        def apply(value):
            return self.apply_value(value, task_data)

        if self.process_prediction:
            prediction = apply(prediction)
        if self.process_references:
            references = [apply(reference) for reference in references]
        return prediction, references

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        """Only the fields it processes, and only when present (the original adds no missing field)."""
        task_data = instance.get("task_data")
        if self.process_prediction and "prediction" in instance:
            instance["prediction"] = self.apply_value(instance["prediction"], task_data)
        if self.process_references and instance.get("references") is not None:
            instance["references"] = [self.apply_value(reference, task_data) for reference in instance["references"]]
        return instance


# ---------------------------------------------------------------- text normalisation
class ToString(FieldOperator):
    """str(value)."""

    def process_value(self, value: Any) -> Any:
        return str(value)


class ToStringStripped(FieldOperator):
    """str(value) without surrounding whitespace."""

    def process_value(self, value: Any) -> Any:
        return str(value).strip()


class LowerCase(FieldOperator):
    def process_value(self, value: Any) -> Any:
        return str(value).lower()


class UpperCase(FieldOperator):
    def process_value(self, value: Any) -> Any:
        return str(value).upper()


class Capitalize(FieldOperator):
    def process_value(self, value: Any) -> Any:
        return str(value).capitalize()


class LowerCaseTillPunc(FieldOperator):
    """Lower-case the text and cut it before the first sentence punctuation mark (. , ! ? ;).

    Other symbols (parentheses, colons, quotes, hyphens) are kept: "B) blue" -> "b) blue", as in the original system.
    """

    def process_value(self, value: Any) -> Any:
        text = str(value).lower()
        match = _SENTENCE_PUNCTUATION.search(text)
        return text[: match.start()] if match else text


_SENTENCE_PUNCTUATION = re.compile(r"[.,!?;]")


class TakeFirstNonEmptyLine(FieldOperator):
    """The first line with content, stripped ("" when there is none)."""

    def process_value(self, value: Any) -> Any:
        for line in str(value).splitlines():
            if line.strip():
                return line.strip()
        return ""


class TakeLastNonEmptyLine(FieldOperator):
    def process_value(self, value: Any) -> Any:
        for line in reversed(str(value).splitlines()):
            if line.strip():
                return line.strip()
        return ""


class TakeFirstWord(FieldOperator):
    """The first word, where a number keeps its minus sign and decimal points ("-7.5 points" -> "-7.5").

    A word is a run of letters, digits and '_' ("well-known" -> "well", "3,000" -> "3"); as in the original system.
    """

    def process_value(self, value: Any) -> Any:
        match = _FIRST_WORD.search(str(value))
        return match.group(0) if match else ""


_FIRST_WORD = re.compile(r"-*\d+(?:\.\d+)*|\w+")


class FirstCharacter(FieldOperator):
    """The first word character (letter, digit or '_'): "(B) blue" -> "B", "[1, 2]" -> "1"; "" when there is none."""

    def process_value(self, value: Any) -> Any:
        match = _WORD_CHARACTER.search(str(value))
        return match.group(0) if match else ""


_WORD_CHARACTER = re.compile(r"\w")


class Substring(FieldOperator):
    """value[begin:end]."""

    begin: int = 0
    end: Optional[int] = None

    def process_value(self, value: Any) -> Any:
        return str(value)[self.begin : self.end]


class RemoveArticles(FieldOperator):
    def process_value(self, value: Any) -> Any:
        return re.sub(r"\b(a|an|the)\b", " ", str(value))


class RemovePunctuations(FieldOperator):
    def process_value(self, value: Any) -> Any:
        return re.sub(r"[^\w\s]", "", str(value))


class FixWhitespace(FieldOperator):
    """Collapse runs of whitespace into single spaces and strip."""

    def process_value(self, value: Any) -> Any:
        return " ".join(str(value).split())


class GetStringAfter(FieldOperator):
    """The text after the first occurrence of `substring` (whole text when absent), stripped."""

    substring: str

    def process_value(self, value: Any) -> Any:
        text = str(value)
        position = text.find(self.substring)
        return text[position + len(self.substring) :].strip() if position >= 0 else text.strip()


class RegexParser(FieldOperator):
    """All matches of `regex` (a list of strings, or of groups when the regex has groups)."""

    regex: str
    termination_regex: Optional[str] = None

    def prepare(self) -> None:
        super().prepare()
        self._pattern = _compile(self.regex, self)

    def process_value(self, value: Any) -> Any:
        text = str(value)
        if self.termination_regex and re.fullmatch(self.termination_regex, text):
            return []
        return self._pattern.findall(text)


class ExtractWithRegex(FieldOperator):
    """What `regex` extracts, as the original: the first of its matches as `re.findall` gives them (the one group's
    text when the regex has one group, the whole match when it has none), '' when nothing matches. With `group`, that
    group of the first match instead, and the whole text when nothing matches; `fallback` replaces either default."""

    termination_regex: Any = InertField(default=None, reason='the whole text is searched here')

    regex: str
    group: Optional[int] = None
    fallback: Optional[str] = None

    def prepare(self) -> None:
        super().prepare()
        self._pattern = _compile(self.regex, self)

    def process_value(self, value: Any) -> Any:
        text = str(value)
        if self.group is None:
            matches = self._pattern.findall(text)
            if matches:
                return matches[0]
            return "" if self.fallback is None else self.fallback
        match = self._pattern.search(text)
        if match is None:
            return text if self.fallback is None else self.fallback
        try:
            return match.group(self.group)
        except IndexError:
            raise UnitxtError(f"Regex {self.regex!r} has no group {self.group}.", artifact=self.artifact_name) from None


def _compile(pattern: str, owner: Operator) -> "re.Pattern":
    try:
        return re.compile(pattern)
    except re.error as error:
        raise UnitxtError(f"Invalid regex {pattern!r}: {error}", artifact=type(owner).__name__, field="regex") from None


class ExtractFromDoubleBrackets(FieldOperator):
    """The content of the first [[...]] (e.g. judge ratings "[[7]]"); "" when there is none, or the text itself with
    `keep_text_without_brackets`."""

    keep_text_without_brackets: bool = False

    def process_value(self, value: Any) -> Any:
        match = re.search(r"\[\[(.*?)\]\]", str(value))
        if match:
            return match.group(1)
        return str(value) if self.keep_text_without_brackets else ""


class ExtractMtBenchRatingJudgment(FieldOperator):
    """The MT-Bench judge rating "[[N]]" scaled to 0..1 (N / 10), as the original reads it: spaces around N and an
    "out of ten" suffix are allowed ("[[ 9.0 / 10 ]]" -> 0.9); 0.0 when no rating is found or N is not a number."""

    _RATING = re.compile(r"\[\[([\s*\d]+\.?\d*\s*)(?:/\s*10)?\s*\]\]")

    def process_value(self, value: Any) -> Any:
        match = self._RATING.search(str(value))
        try:
            return float(match.group(1)) / 10 if match else 0.0
        except ValueError:
            return 0.0


# ---------------------------------------------------------------- numbers and structures
class CastToFloat(FieldOperator):
    """Python's float(value) (surrounding spaces allowed, "nan"/"inf" accepted); `failure_value` (default NaN) when
    the whole text is not a number. Strict like the original system: "score: 4" fails (see ExtractFirstNumber)."""

    failure_value: float = math.nan

    def process_value(self, value: Any) -> Any:
        try:
            return float(value)
        except (TypeError, ValueError, OverflowError):
            return self.failure_value


class ExtractFirstNumber(FieldOperator):
    """The whole text as a float when it is a number, else the first number written in it ("score: 4" -> 4.0);
    `failure_value` (default NaN) when it holds none."""

    failure_value: float = math.nan

    def process_value(self, value: Any) -> Any:
        try:
            return float(str(value).strip())
        except (TypeError, ValueError):
            match = _NUMBER_IN_TEXT.search(str(value))
            if match:
                try:
                    return float(match.group(0))
                except ValueError:
                    pass
            return self.failure_value


_NUMBER_IN_TEXT = re.compile(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?")


class ToNumber(ExtractFirstNumber):
    """A number from text: int when integral text, else float; NaN when not a number."""

    def process_value(self, value: Any) -> Any:
        number = super().process_value(value)
        if isinstance(number, float) and not math.isnan(number) and number.is_integer() and re.fullmatch(
            r"\s*[-+]?\d+\s*", str(value)
        ):
            return int(number)
        return number


class ScaleNumber(FieldOperator):
    """value * factor / divisor (0..10 -> 0..1 with divisor 10, exactly 7 -> 0.7); non-numbers become
    `failure_value` (default: kept as they are; the catalog's scale_0_10_to_0_1 uses 0, as in the original system)."""

    factor: float = 1.0
    divisor: float = 1.0
    failure_value: Any = "__keep__"

    def process_value(self, value: Any) -> Any:
        try:
            return float(value) * self.factor / self.divisor
        except (TypeError, ValueError):
            return value if self.failure_value == "__keep__" else self.failure_value


class LiteralEvalValue(FieldOperator):
    """A Python literal parsed from text (no code is executed); the text itself when it is not a literal
    (`lenient`), or a UnitxtError naming the text (strict, the catalog's literal_eval, as in the original system)."""

    lenient: bool = True

    def process_value(self, value: Any) -> Any:
        if value is None or value == "":  # None and "" stay (as the original system)
            return value
        if not isinstance(value, str):
            if self.lenient:
                return value
            raise UnitxtError(f"Cannot read a literal from {type(value).__name__} {str(value)[:60]!r}: literal_eval "
                              "expects the text of a Python literal (as the original system).",
                              artifact=self.artifact_name, field="value")
        try:
            return ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            if self.lenient:
                return value
            shown = value if len(value) <= 80 else value[:77] + "..."
            raise UnitxtError(f"Cannot read {shown!r} as a Python literal.", artifact=self.artifact_name,
                              field=self.field or "prediction") from None


class LiteralEval(LiteralEvalValue):
    """The documented preprocessing step: a field holding the text of a Python literal ("['a', 'b']", "{'k': 1}")
    becomes that value, without running code; text that is not a literal, or a value that is not text, is an error
    naming it (None and "" pass unchanged)."""

    lenient: bool = False


class LoadJsonValue(FieldOperator):
    """Parsed JSON; `failure_value` (default: empty dict) when the text is not JSON."""

    failure_value: Any = {}

    def process_value(self, value: Any) -> Any:
        try:
            return json.loads(value)
        except (TypeError, ValueError):
            return self.failure_value


class ToListBySeparator(FieldOperator):
    """Split text on `separator` into a list of items, each stripped (`strip`); empty items are kept unless
    `drop_empty` ("a,,b" -> ["a", "", "b"] and "" -> [""], as in the original system)."""

    separator: str = ","
    strip: bool = True
    drop_empty: bool = False

    def process_value(self, value: Any) -> Any:
        items = str(value).split(self.separator)
        if self.strip:
            items = [item.strip() for item in items]
        return [item for item in items if item] if self.drop_empty else items


class SplitBulletList(FieldOperator):
    """Items of a "- item" bullet list: the text is split where a line starts with "- "; empty items ("" or " ")
    are dropped, other items kept as written (as the original system's to_list_by_hyphen_space)."""

    def process_value(self, value: Any) -> Any:
        return [item for item in _BULLET_START.split(str(value)) if item not in ("", " ")]


_BULLET_START = re.compile(r"(?:^|\n)- ")


class ToSpanLabelPairs(FieldOperator):
    """"span: label, span: label" -> [(span, label), ...]. Spans and labels hold no unescaped ',' or ':'; a label
    ends at ',' or the end of the text, so "answer: forty: two" -> [("forty", "two")] (as in the original system)."""

    def process_value(self, value: Any) -> Any:
        return [(span, label) for span, label in _SPAN_LABEL.findall(str(value))]


_SPAN_ITEM = r"(?:\\.|[^,:\\])+?"
_SPAN_LABEL = re.compile(rf"\s*({_SPAN_ITEM})\s*:\s*({_SPAN_ITEM})\s*(?=,|$)")


class DictOfListsToValueKeyPairs(FieldOperator):
    """{"Person": ["Ann"], "Location": ["Rome"]} -> [("Ann", "Person"), ("Rome", "Location")] (tuples, as the
    original)."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return []
        return [(str(item), str(key)) for key, items in value.items() for item in (items or [])]


class YesNoToInt(FieldOperator):
    """Exactly "yes" -> "1" and "no" -> "0" (strings); any other text unchanged (as in the original system)."""

    def process_value(self, value: Any) -> Any:
        return _YES_NO_CODES.get(value, value) if isinstance(value, str) else value


_YES_NO_CODES = {"yes": "1", "no": "0"}


class ConvertToBoolean(FieldOperator):
    """"FALSE" when the lower-cased text contains "no", "false" or "wrong", else "TRUE" when it contains "yes",
    "true", "right" or "correct", else "OTHER". Substring tests, as in the original system ("not true" and "know"
    are FALSE, "incorrect" is TRUE, "0" is OTHER)."""

    def process_value(self, value: Any) -> Any:
        text = str(value).lower()
        if any(word in text for word in ("no", "false", "wrong")):
            return "FALSE"
        if any(word in text for word in ("yes", "true", "right", "correct")):
            return "TRUE"
        return "OTHER"


class MatchClosestOption(FieldOperator):
    """Replace the text with the most similar option from `task_data[options_field]` (character similarity)."""

    options_field: str = "options"
    needs_task_data = True

    def process_value(self, value: Any) -> Any:
        raise UnitxtError(
            "MatchClosestOption needs task data; use it inside PostProcess in an evaluation.", artifact=self.artifact_name
        )

    def process_with_task_data(self, value: Any, task_data: Optional[Dict[str, Any]]) -> Any:
        options = dict_get(task_data or {}, self.options_field, not_exist_ok=True, default=None)
        if not options:
            return value
        text = str(value)
        scores = [SequenceMatcher(None, text.lower(), str(option).lower()).ratio() for option in options]
        return options[max(range(len(options)), key=scores.__getitem__)]


def process_instance_value(self: Any, value: Any, instance: Dict[str, Any]) -> Any:
    """The option of `instance[self.options_field]` closest to `value` (difflib ratio, no cutoff; None without
    options): the original's module-level hook of its option-matching processor, kept for code that calls it."""
    closest = get_close_matches(value, instance[self.options_field], n=1, cutoff=0)
    return closest[0] if closest else None


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
