"""Post-processors of the original catalog format: reading judge verdicts ("[[A>B]]", "[[7]]", "safe"), mapping
labels, extracting SQL and tool calls from model output, and small label conversions.
"""

import json
import math
import re
from typing import Any, Dict, List, Optional, Tuple

from ..errors import InstanceTypeError, UnitxtError
from ..operator import FieldOperator
from ..operators.struct_data import extract_possible_json_str

_DOUBLE_BRACKETS = re.compile(r"\[\[([^\]]+)\]\]")
_BRACKETED_NUMBER = re.compile(r"\[\[(\d+\.?\d*)\]\]")


class YesToOneElseZero(FieldOperator):
    """"yes" -> "1", anything else -> "0"."""

    def process_value(self, value: Any) -> Any:
        return "1" if value == "yes" else "0"


class ToYesOrNone(FieldOperator):
    """"yes" stays "yes", anything else becomes "none"."""

    def process_value(self, value: Any) -> Any:
        return "yes" if value == "yes" else "none"


class StrToFloatFormat(FieldOperator):
    """The text of a number normalised through float ("3" -> "3.0"); other texts unchanged."""

    def process_value(self, value: Any) -> Any:
        try:
            return str(float(value))
        except (TypeError, ValueError):
            return str(value)


class StanceToProCon(FieldOperator):
    """Stance labels to argument labels: positive -> PRO, negative/suggestion -> CON, else none."""

    def process_value(self, value: Any) -> Any:
        if value == "positive":
            return "PRO"
        if value in ("negative", "suggestion"):
            return "CON"
        return "none"


class StringEquals(FieldOperator):
    """Normalise a verdict to `string` or "not <string>" (lower-cased) when the text contains it; else unchanged."""

    string: str

    def process_value(self, value: Any) -> Any:
        text, target = str(value).lower(), self.string.lower()
        if f"not {target}" in text:
            return f"not {target}"
        if target in text:
            return target
        return value


class StringOrNotString(StringEquals):
    """The original's other name of StringEquals."""


class FixWhiteSpace(FieldOperator):
    """Collapse runs of whitespace into single spaces (and strip)."""

    def process_value(self, value: Any) -> Any:
        return " ".join(str(value).split())


class AddPrefix(FieldOperator):
    """Strip a text and start it with `prefix`, unless it already starts with it."""

    prefix: str

    def process_value(self, value: Any) -> Any:
        text = str(value).strip()
        return text if text.startswith(self.prefix) else self.prefix + text


class ExtractHarmRatingJudgement(FieldOperator):
    """A "[[N]]" harm rating on 1..5 mapped to 0..1 (N * 0.25 - 0.25); NaN when there is none."""

    def process_value(self, value: Any) -> Any:
        match = _BRACKETED_NUMBER.search(str(value))
        return float(match.group(1)) * 0.25 - 0.25 if match else math.nan


class ExtractMtBenchLabelJudgment(FieldOperator):
    """The label inside the first "[[...]]" ("[[A]]" -> "A"); "None" when there is none."""

    def process_value(self, value: Any) -> Any:
        match = _DOUBLE_BRACKETS.search(str(value))
        return match.group(1) if match else "None"


class ExtractArenaHardNumericalJudgment(FieldOperator):
    """Arena-Hard verdicts to numbers: [[A>>B]] 3, [[A>B]] 1, [[B>A]] -1, [[B>>A]] -3, anything else 0."""

    _SCORES = {"A>>B": 3, "A>B": 1, "B>A": -1, "B>>A": -3}

    def process_value(self, value: Any) -> Any:
        match = _DOUBLE_BRACKETS.search(str(value))
        return self._SCORES.get(match.group(1), 0) if match else 0


class ExtractSafeUnsafeJudgment(FieldOperator):
    """1.0 when the first line of the output is "safe" (any case), else 0.0."""

    def process_value(self, value: Any) -> Any:
        return 1.0 if str(value).strip().split("\n")[0].lower() == "safe" else 0.0


class ExtractVerbalJudgment(FieldOperator):
    """The position of the verbal grade the output starts with, scaled to 0..1 over `classes` (0 when none)."""

    classes: List[str] = ["not", "somewhat", "mostly", "completely"]

    def process_value(self, value: Any) -> Any:
        text = str(value).strip().lower()
        top = len(self.classes) - 1
        for index, grade in enumerate(self.classes):
            if text.startswith(grade):
                return index / top
        return 0


class ExtractVerbalJudgementBadGood(ExtractVerbalJudgment):
    """Grades very bad, bad, mediocre, good, very good -> 0, 0.25, 0.5, 0.75, 1."""

    classes: List[str] = ["very bad", "bad", "mediocre", "good", "very good"]


class ScaleNumberToZeroOneReturnZeroIfFails(FieldOperator):
    """(number - min_val) / max_val, or 0 when the value is not a number (a 0..10 rating -> 0..1)."""

    max_val: float = 10
    min_val: float = 0

    def process_value(self, value: Any) -> Any:
        try:
            return (float(value) - self.min_val) / self.max_val
        except (TypeError, ValueError):
            return 0


class ListToEmptyEntitiesTuples(FieldOperator):
    """["a", "b"] -> [("a", ""), ("b", "")] (entity lists compared without types)."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            return []
        return [(str(item), "") for item in value]


class DictOfListsToPairs(FieldOperator):
    """{"key": ["v1", "v2"]} -> [("key", "v1"), ("key", "v2")] (or (value, key) pairs); [] on malformed input."""

    position_key_before_value: bool = True

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return []
        pairs: List[Tuple[str, str]] = []
        for key, items in value.items():
            if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
                return []
            pairs.extend((key, item) if self.position_key_before_value else (item, key) for item in items)
        return pairs


_SQL_START = r"(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|WITH|DROP|TRUNCATE)\b"


class GetSQL(FieldOperator):
    """The SQL query in model output: the last ```sql block, else the last ``` block that starts with an SQL
    keyword, else the text from the last SQL keyword; cut at the first ";". A message when none is found."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            return "Input must be a string"
        candidate: Optional[str] = None
        blocks = re.findall(r"```sql\s*(.*?)\s*```", value, re.DOTALL | re.IGNORECASE)
        if blocks:
            candidate = blocks[-1].strip()
        else:
            generic = re.findall(r"```\s*(.*?)\s*```", value, re.DOTALL)
            if generic and re.match("^" + _SQL_START, generic[-1].strip(), re.IGNORECASE):
                candidate = generic[-1].strip()
        if candidate is None:
            starts = [match.start() for match in re.finditer(r"\b" + _SQL_START, value, re.IGNORECASE)]
            if starts:
                candidate = value[starts[-1]:].strip()
        if not candidate:
            return "No query found in generation"
        query = candidate.split(";", 1)[0].strip()
        return query.replace("```sql", "").replace("```", "").strip()


def _is_tool_call(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("name"), str) and isinstance(value.get("arguments"), dict) \
        and set(value) <= {"name", "arguments"}


class PythonCallProcessor(FieldOperator):
    """A Python call written by a model ("f(1, x='a')") as a tool call {"name": "f", "arguments": {"x": "a",
    "_args": [1]}}; arguments must be literals (read with ast.literal_eval: nothing is executed)."""

    def process_value(self, value: Any) -> Any:
        import ast

        call = ast.parse(value, mode="eval").body
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
            raise InstanceTypeError(f"PythonCallProcessor needs a call of a named function, got {str(value)[:80]!r}.",
                                    artifact=self.artifact_name, field=self.field)
        arguments = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
        if call.args:
            arguments["_args"] = [ast.literal_eval(argument) for argument in call.args]
        return {"name": call.func.id, "arguments": arguments}


class ToolCallPostProcessor(FieldOperator):
    """Parse one tool call {"name", "arguments"} from model output (a one-element list is accepted); anything
    else gives `failure_value`. Invalid JSON is an error unless `allow_failure`."""

    failure_value: Any = None
    allow_failure: bool = False

    def _parse(self, text: Any) -> Any:
        try:
            return json.loads(text, strict=False)
        except (TypeError, ValueError) as error:
            if self.allow_failure:
                return self.failure_value
            raise InstanceTypeError(f"{type(self).__name__}: not valid JSON: {str(text)[:200]!r} ({error})",
                                    artifact=self.artifact_name) from None

    def process_value(self, value: Any) -> Any:
        result = self._parse(extract_possible_json_str(str(value)))
        if isinstance(result, list):
            return result[0] if len(result) == 1 and _is_tool_call(result[0]) else self.failure_value
        return result if _is_tool_call(result) else self.failure_value


class MultipleToolCallPostProcessor(ToolCallPostProcessor):
    """Parse a list of tool calls from model output (a single call becomes a one-element list)."""

    def process_value(self, value: Any) -> Any:
        result = self._parse(value)
        if isinstance(result, list) and all(_is_tool_call(item) for item in result):
            return result
        return [result] if _is_tool_call(result) else self.failure_value


class InferDictsToBinaryLogprobs(FieldOperator):
    """P(positive) from the top-token log-probabilities of the first (or last) `num_logprobs_to_take` generated
    tokens: the probability mass of tokens spelling `pos_class_name` over that of both class names, at the first
    token where that mass exceeds `min_probability_mass`; 0 when none does."""

    neg_class_name: str
    pos_class_name: str
    take_logprobs_from_end: bool = False
    num_logprobs_to_take: int = 3
    min_probability_mass: float = 0.0001

    def verify(self) -> None:
        super().verify()
        positive, negative = self.pos_class_name.lower(), self.neg_class_name.lower()
        if positive in negative or negative in positive:
            raise UnitxtError(f"Class names must not contain each other, got {self.pos_class_name!r} and "
                              f"{self.neg_class_name!r}.", artifact=type(self).__name__, field="pos_class_name")

    def prepare(self) -> None:
        super().prepare()
        self._patterns = [re.compile(rf"(\W|Ġ|_)*{re.escape(name)}(\W|Ġ|_)*", re.IGNORECASE)
                          for name in (self.pos_class_name, self.neg_class_name)]

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, list):
            return 0
        for position in self.get_token_range(value):
            token = value[position]
            if not isinstance(token, dict) or not isinstance(token.get("top_tokens"), list):
                continue
            positive, negative = self.get_pos_neg_probs(token)
            total = sum(positive) + sum(negative)
            if total > self.min_probability_mass:
                return sum(positive) / total
        return 0

    def get_pos_neg_probs(self, pred_dict: Dict[str, Any]) -> List[List[float]]:
        """[probabilities of the top tokens spelling pos_class_name, of those spelling neg_class_name] at one
        generated token (case, surrounding punctuation, "Ġ" and "_" ignored; longer words do not count)."""
        return [[math.exp(item["logprob"]) for item in pred_dict["top_tokens"]
                 if isinstance(item, dict) and pattern.fullmatch(str(item.get("text", "")))]
                for pattern in self._patterns]

    def get_token_range(self, obj: List[Any]) -> range:
        """The positions of the generated tokens looked at: the first num_logprobs_to_take, or the last ones
        (last first) with take_logprobs_from_end."""
        count = min(self.num_logprobs_to_take, len(obj))
        return range(-1, -(count + 1), -1) if self.take_logprobs_from_end else range(count)


__all__ = [
    "YesToOneElseZero", "ToYesOrNone", "StrToFloatFormat", "StanceToProCon", "StringEquals", "FixWhiteSpace",
    "ExtractHarmRatingJudgement", "ExtractMtBenchLabelJudgment", "ExtractArenaHardNumericalJudgment",
    "ExtractSafeUnsafeJudgment", "ExtractVerbalJudgment", "ExtractVerbalJudgementBadGood",
    "ScaleNumberToZeroOneReturnZeroIfFails", "ListToEmptyEntitiesTuples", "DictOfListsToPairs", "GetSQL",
    "ToolCallPostProcessor", "MultipleToolCallPostProcessor", "InferDictsToBinaryLogprobs",
]


# Arena-Hard meta-evaluation: the judge's verdict and a signed gold preference (possibly a mean of two games,
# hence +-2) read on one integer scale.
_VERDICT = re.compile(r"\[\[\s*([AB<>=]+|[+-]?\d+)\s*\]\]")


class ExtractArenaHardPreference(FieldOperator):
    """The last [[...]] of the text as a preference for answer A: A>>B 3, A>B 1, A=B 0, B>A -1, B>>A -3, or a signed
    integer written in the brackets (the gold of the two-game mean can be +-2); 0 when there is no verdict."""

    _SCORES = {"A>>B": 3, "A>B": 1, "A=B": 0, "B>A": -1, "B>>A": -3}

    def process_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        found = _VERDICT.findall(str(value))
        if not found:
            return 0
        verdict = found[-1]
        if verdict in self._SCORES:
            return self._SCORES[verdict]
        try:
            return int(verdict)
        except ValueError:
            return 0


__all__ = ["ExtractArenaHardPreference"]
