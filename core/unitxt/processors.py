"""Post-processors: operators that turn model output text (and references) into the values metrics expect.

Each basic processor is a FieldOperator over one value. `PostProcess(operator)` applies it to an evaluation instance
(`{"prediction": ..., "references": [...], "task_data": {...}}`): to the prediction and/or to every reference.
"""

import ast
import json
import math
import re
from difflib import SequenceMatcher
from typing import Any, Dict, List, Optional

from .dict_utils import dict_get
from .errors import UnitxtError
from .operator import FieldOperator, InstanceOperator, Operator


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
        prediction, references = self.process_value_pair(
            instance.get("prediction"), list(instance.get("references") or []), instance.get("task_data")
        )
        instance["prediction"] = prediction
        instance["references"] = references
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
    """Lower-case the text up to (not including) the first punctuation mark."""

    def process_value(self, value: Any) -> Any:
        text = str(value).lower()
        match = re.search(r"[^\w\s]", text)
        return text[: match.start()] if match else text


class TakeFirstNonEmptyLine(FieldOperator):
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
    """The first word (letters, digits, '_' and '-')."""

    def process_value(self, value: Any) -> Any:
        match = re.search(r"[\w\-]+", str(value))
        return match.group(0) if match else ""


class FirstCharacter(FieldOperator):
    """The first non-space character."""

    def process_value(self, value: Any) -> Any:
        text = str(value).strip()
        return text[0] if text else ""


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
    """The `group` of the first match of `regex`; `fallback` (default: the whole text) when nothing matches."""

    regex: str
    group: int = 0
    fallback: Optional[str] = None

    def prepare(self) -> None:
        super().prepare()
        self._pattern = _compile(self.regex, self)

    def process_value(self, value: Any) -> Any:
        text = str(value)
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
    """The content of the first [[...]] (e.g. judge ratings "[[7]]"); the text itself when absent."""

    def process_value(self, value: Any) -> Any:
        match = re.search(r"\[\[(.*?)\]\]", str(value))
        return match.group(1) if match else str(value)


class ExtractMtBenchRatingJudgment(FieldOperator):
    """The MT-Bench judge rating "[[N]]" scaled to 0..1 (N / 10); 0.0 when no rating is found."""

    def process_value(self, value: Any) -> Any:
        match = re.search(r"\[\[([\d]+\.?[\d]*)\]\]", str(value))
        try:
            return float(match.group(1)) / 10 if match else 0.0
        except ValueError:
            return 0.0


# ---------------------------------------------------------------- numbers and structures
class CastToFloat(FieldOperator):
    """float(value); `failure_value` (default NaN) when the text is not a number."""

    failure_value: float = math.nan

    def process_value(self, value: Any) -> Any:
        try:
            return float(str(value).strip())
        except (TypeError, ValueError):
            match = re.search(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", str(value))
            if match:
                try:
                    return float(match.group(0))
                except ValueError:
                    pass
            return self.failure_value


class ToNumber(CastToFloat):
    """A number from text: int when integral text, else float; NaN when not a number."""

    def process_value(self, value: Any) -> Any:
        number = super().process_value(value)
        if isinstance(number, float) and not math.isnan(number) and number.is_integer() and re.fullmatch(
            r"\s*[-+]?\d+\s*", str(value)
        ):
            return int(number)
        return number


class ScaleNumber(FieldOperator):
    """value * factor (e.g. 0..10 -> 0..1 with factor 0.1); non-numbers pass through."""

    factor: float

    def process_value(self, value: Any) -> Any:
        try:
            return float(value) * self.factor
        except (TypeError, ValueError):
            return value


class LiteralEvalValue(FieldOperator):
    """A Python literal parsed from text (no code is executed); the text itself when it is not a literal."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return value


class LoadJsonValue(FieldOperator):
    """Parsed JSON; `failure_value` (default: empty dict) when the text is not JSON."""

    failure_value: Any = {}

    def process_value(self, value: Any) -> Any:
        try:
            return json.loads(value)
        except (TypeError, ValueError):
            return self.failure_value


class ToListBySeparator(FieldOperator):
    """Split text into a list of stripped, non-empty items."""

    separator: str = ","
    strip: bool = True

    def process_value(self, value: Any) -> Any:
        items = str(value).split(self.separator)
        if self.strip:
            items = [item.strip() for item in items]
        return [item for item in items if item]


class ToSpanLabelPairs(FieldOperator):
    """"span: label, span: label" -> [(span, label), ...] (as 2-item lists), skipping malformed items."""

    pairs_separator: str = ","
    key_value_separator: str = ":"

    def process_value(self, value: Any) -> Any:
        pairs = []
        for item in str(value).split(self.pairs_separator):
            if self.key_value_separator not in item:
                continue
            span, label = item.rsplit(self.key_value_separator, 1)
            if span.strip() and label.strip():
                pairs.append([span.strip(), label.strip()])
        return pairs


class DictOfListsToValueKeyPairs(FieldOperator):
    """{"Person": ["Ann"], "Location": ["Rome"]} -> [["Ann", "Person"], ["Rome", "Location"]]."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return []
        return [[str(item), str(key)] for key, items in value.items() for item in (items or [])]


class YesNoToInt(FieldOperator):
    """"yes" -> 1, anything else -> 0 (case-insensitive)."""

    def process_value(self, value: Any) -> Any:
        return 1 if str(value).strip().lower() == "yes" else 0


class ConvertToBoolean(FieldOperator):
    """"true/yes/1" -> "TRUE", "false/no/0" -> "FALSE", else "OTHER"."""

    def process_value(self, value: Any) -> Any:
        text = str(value).strip().lower()
        if text.startswith(("true", "yes", "1")):
            return "TRUE"
        if text.startswith(("false", "no", "0")):
            return "FALSE"
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
        options = dict_get(task_data or {}, self.options_field, default=None)
        if not options:
            return value
        text = str(value)
        scores = [SequenceMatcher(None, text.lower(), str(option).lower()).ratio() for option in options]
        return options[max(range(len(options)), key=scores.__getitem__)]
