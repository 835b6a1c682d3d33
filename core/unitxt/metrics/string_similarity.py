"""More string-matching metrics under the original catalog's type names (pure Python/numpy).

jaccard_index_string (Jaccard of token sets, tokens from a splitter operator), string_containment_ratio (share of a
task_data field's values found in the prediction), f1_strings (token-multiset F1), char_edit_distance_accuracy,
relaxed_correctness (ChartQA: numbers within 5%, else case-insensitive equality), websrc_squad_f1 (WebSRC token-set
F1) and fin_qa_eval (FinQA program and execution accuracy; programs run by a small interpreter of FinQA's DSL,
arithmetic answers through the expression sandbox, never `eval`).
"""

import math
import re
from collections import Counter
from typing import Any, Dict, List, Optional, Tuple

from ..errors import MetricError
from ..lazy_imports import numpy_module as _np
from ..operator import FieldOperator
from .base import GlobalMetric, InstanceMetric, Statistic
from .map_reduce import InstanceMapHooks
from .string_match import CharEditDistAccuracy
from ..artifact import InertField


_WORD_OR_PUNCT = re.compile(r"\w+|[^\w\s]")


def word_and_punct_tokens(text: str) -> List[str]:
    """Words (\\w+ runs) and single punctuation marks, in order."""
    return _WORD_OR_PUNCT.findall(text)


class JaccardIndexString(InstanceMapHooks, InstanceMetric):
    """Jaccard index |P ∩ R| / |P ∪ R| of the token sets of prediction and reference (best reference); tokens come
    from `splitter`, a field operator turning a string into a list (e.g. split or regex_split)."""

    reduction: Any = InertField(
        default=None, reason="instance scores are averaged as this metric's reduction_map says here")

    main_score = "jaccard_index"
    ci_scores = ["jaccard_index"]
    prediction_type = str
    splitter: FieldOperator

    def _tokens(self, text: Any) -> set:
        tokens = self.splitter.process_value(str(text))
        if not isinstance(tokens, (list, tuple)):
            raise MetricError(f"The splitter of JaccardIndexString must return a list, got {type(tokens).__name__}.",
                              artifact=self.artifact_name, field="splitter")
        return set(tokens)

    def map(self, prediction, references, task_data):
        predicted = self._tokens(prediction)
        best = 0.0
        for reference in references:
            gold = self._tokens(reference)
            union = predicted | gold
            best = max(best, len(predicted & gold) / len(union) if union else 1.0)
        return {self.main_score: best}


class StringContainmentRatio(InstanceMetric):
    """Share of the values of task_data[`field`] whose text occurs in the prediction."""

    main_score = "string_containment"
    ci_scores = ["string_containment"]
    field: Optional[str] = None

    def verify(self) -> None:
        super().verify()
        if self.field is None:
            raise MetricError("StringContainmentRatio needs 'field': the task_data field holding the values to look "
                              "for.", artifact=type(self).__name__, field="field")

    def compute(self, references, prediction, task_data):
        if self.field not in task_data:
            raise MetricError(f"task_data has no field '{self.field}' (fields: {sorted(task_data)}).",
                              artifact=self.artifact_name, field="field")
        values = task_data[self.field]
        values = values if isinstance(values, (list, tuple)) else [values]
        if not values:
            return {self.main_score: math.nan}
        text = str(prediction)
        return {self.main_score: sum(str(value) in text for value in values) / len(values)}


def multiset_f1(reference_tokens: List[str], predicted_tokens: List[str]) -> float:
    """F1 of two token multisets (2 TP / (2 TP + FP + FN)); 0 when nothing is shared."""
    reference, predicted = Counter(reference_tokens), Counter(predicted_tokens)
    shared = sum((reference & predicted).values())
    if shared == 0:
        return 0.0
    precision = shared / sum(predicted.values())
    recall = shared / sum(reference.values())
    return 2 * precision * recall / (precision + recall)


class F1Strings(InstanceMetric):
    """Token-multiset F1 between the prediction and all references joined with spaces (lower-cased words and
    punctuation marks; the original tokenises with spaCy's English tokenizer, whose splits agree on plain text).
    The instance score is a one-item list ([0.5]), as the original system reports it."""

    main_score = "f1_strings"
    reduction_map = {"mean": ["f1_strings"]}
    prediction_type = str

    def compute(self, references, prediction, task_data):
        gold = [token.lower() for token in word_and_punct_tokens(" ".join(map(str, references)))]
        predicted = [token.lower() for token in word_and_punct_tokens(str(prediction))]
        return {self.main_score: multiset_f1(gold, predicted)}

    def score(self, predictions, references, task_data):
        scores = super().score(predictions, references, task_data)
        scores.instance_scores = [{self.main_score: [value[self.main_score]]} for value in scores.instance_scores]
        return scores


class CharEditDistanceAccuracy(CharEditDistAccuracy):
    """1 - character edit distance / longer length, whitespace ignored (the char_edit_dist_accuracy score)."""


# ---------------------------------------------------------------- ChartQA relaxed correctness
def _relaxed_float(text: str) -> Optional[float]:
    try:
        if text.endswith("%"):
            return float(text.rstrip("%")) / 100.0
        return float(text)
    except ValueError:
        return None


def relaxed_correct(prediction: str, target: str, max_relative_change: float = 0.05) -> bool:
    """Numbers (a trailing % divides by 100) are correct within `max_relative_change` of a non-zero target; anything
    else must match case-insensitively."""
    predicted, gold = _relaxed_float(prediction), _relaxed_float(target)
    if predicted is not None and gold:
        return abs(predicted - gold) / abs(gold) <= max_relative_change
    return prediction.lower() == target.lower()


class RelaxedCorrectness(GlobalMetric):
    """ChartQA relaxed accuracy: overall, and on the human-written (task_data type == "human_test") and augmented
    splits."""

    main_score = "relaxed_overall"
    prediction_type = str
    n_resamples: Optional[int] = 0  # the original catalog entry computes no CI
    ci_scores = ["relaxed_overall"]

    def relaxed_correctness(self, prediction: str, target: str, max_relative_change: float = 0.05) -> bool:
        """Whether the prediction is correct: a number within `max_relative_change` of a non-zero numeric target,
        else the same text up to case (each instance is judged here)."""
        return relaxed_correct(prediction, target, max_relative_change)

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        from .kernels.bootstrap import resampled_sums

        counts = self.additive_statistics(predictions, references, task_data)
        return lambda idx: self.scores_of_totals(resampled_sums(counts, idx), idx.shape[0] == 1)

    def additive_statistics(self, predictions, references, task_data):
        """Per instance: correct, human-written, correct and human-written, and 1 (the instance count)."""
        np = _np()
        correct = np.asarray([float(self.relaxed_correctness(str(p), str(refs[0])))
                              for p, refs in zip(predictions, references)])
        human = np.asarray([float(data.get("type") == "human_test") for data in task_data])
        return np.column_stack([correct, human, correct * human, np.ones(len(correct))]).reshape(-1, 4)

    def scores_of_totals(self, totals, exact, keys=None):
        np = _np()
        correct, human, correct_human, count = (totals[:, column] for column in range(4))
        augmented = count - human
        with np.errstate(invalid="ignore", divide="ignore"):
            return {
                "relaxed_overall": np.where(count > 0, correct / np.maximum(count, 1), np.nan),
                "relaxed_human_split": np.where(human > 0, correct_human / np.maximum(human, 1), np.nan),
                "relaxed_augmented_split": np.where(augmented > 0, (correct - correct_human) / np.maximum(augmented, 1),
                                                    np.nan),
            }

    def score(self, predictions, references, task_data):
        scores = super().score(predictions, references, task_data)
        # as in the original, a split without instances has no score
        scores.instance_scores = [{k: v for k, v in s.items() if not (isinstance(v, float) and math.isnan(v))}
                                  for s in scores.instance_scores]
        return scores


# ---------------------------------------------------------------- WebSRC
def websrc_f1(reference: str, prediction: str) -> float:
    """F1 of the lower-cased word/punctuation token *sets* of reference and prediction (0 if either is empty)."""
    gold = set(word_and_punct_tokens(reference.lower().strip()))
    predicted = set(word_and_punct_tokens(prediction.lower().strip()))
    if not gold or not predicted:
        return 0.0
    shared = len(gold & predicted)
    precision, recall = shared / len(predicted), shared / len(gold)
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


class WebsrcSquadF1(GlobalMetric):
    """WebSRC answer F1: instance token-set F1 against the first reference; the global score is their mean (the
    count-weighted mean of the per-domain means), rounded to 3 decimals as the benchmark reports it."""

    main_score = "websrc_squad_f1"
    n_resamples: Optional[int] = 0  # the original catalog entry computes no CI

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        from .kernels.bootstrap import resampled_sums

        sums = self.additive_statistics(predictions, references, task_data)
        return lambda idx: self.scores_of_totals(resampled_sums(sums, idx), idx.shape[0] == 1)

    def evaluate_websrc(self, samples: List[List[Any]]) -> Tuple[List[float], Dict[str, Any]]:
        """([F1 of each [prediction, reference] sample], {"f1": their mean}); every instance is judged here."""
        judged = [websrc_f1(str(reference), str(prediction)) for prediction, reference in samples]
        return judged, {"f1": float(_np().mean(judged)) if judged else math.nan}

    def additive_statistics(self, predictions, references, task_data):
        """Per instance: its token-set F1 and 1 (the global score is their mean)."""
        np = _np()
        judged, _ = self.evaluate_websrc([[p, refs[0]] for p, refs in zip(predictions, references)])
        values = np.asarray(judged, dtype=np.float64)
        return np.column_stack([values, np.ones(len(values))]).reshape(-1, 2)

    def scores_of_totals(self, totals, exact, keys=None):
        np = _np()
        with np.errstate(invalid="ignore", divide="ignore"):
            return {self.main_score: np.round(totals[:, 0] / totals[:, 1], 3)}


# ---------------------------------------------------------------- FinQA
_FINQA_OPERATIONS = ("add", "subtract", "multiply", "divide", "exp", "greater", "table_max", "table_min", "table_sum",
                     "table_average")


def finqa_program_tokens(program: str) -> List[str]:
    """Tokens of a FinQA program "op(a, b), op(#0, c)" as ["op(", "a", "b", ")", ...] (FinQA's tokenization)."""
    tokens: List[str] = []
    for part in program.replace(", ", ",").split("),"):
        part = part.strip().rstrip(")")
        if not part:
            continue
        if "(" not in part:
            raise MetricError(f"Not a FinQA program step: {part!r}.")
        name, arguments = part.split("(", 1)
        tokens.append(name.strip() + "(")
        tokens.extend(argument.strip() for argument in arguments.split(",") if argument.strip())
        tokens.append(")")
    return tokens + ["EOF"]


def _parse_calls(text: str) -> List[Any]:
    """Parse "op(a, op2(b, c)), op3(#0, d)" into nested (name, [arguments]) tuples (atoms are stripped strings)."""
    text = text.strip()
    position = 0

    def call():
        nonlocal position
        start = position
        while position < len(text) and text[position] not in "(),":
            position += 1
        name = text[start:position].strip()
        if position >= len(text) or text[position] != "(":
            return name  # an atom
        position += 1
        arguments = []
        while True:
            arguments.append(call())
            if position >= len(text):
                raise MetricError(f"Unbalanced FinQA program: {text!r}.")
            if text[position] == ")":
                position += 1
                return (name, arguments)
            position += 1  # ","

    calls = []
    while position < len(text):
        calls.append(call())
        while position < len(text) and text[position] in ", ":
            position += 1
    if not calls or not all(isinstance(c, tuple) for c in calls):
        raise MetricError(f"Not a FinQA program: {text!r}.")
    return calls


def canonical_finqa_program(text: str) -> str:
    """One nested form of a FinQA program, linear ("op(a, b), op(#0, c)") or nested ("op(op(a, b), c)"): step
    references replaced by their steps, spaces removed, and the arguments of add and multiply sorted (commutative),
    so that equivalent writings compare equal."""
    steps: List[str] = []

    def render(node):
        if isinstance(node, str):
            if node.startswith("#") and node[1:].isdigit() and int(node[1:]) < len(steps):
                return steps[int(node[1:])]
            return node.replace(" ", "")
        name, arguments = node
        rendered = [render(argument) for argument in arguments]
        if name in ("add", "multiply"):
            rendered.sort()
        return f"{name}({','.join(rendered)})"

    for node in _parse_calls(text):
        steps.append(render(node))
    return steps[-1]


def _finqa_number(text: str) -> float:
    text = text.strip().replace(",", "").replace("$", "")
    if text.startswith("const_"):
        text = text[len("const_"):]
        return 1.0 if text == "m1" else float(text.replace("m", "-", 1) if text.startswith("m") else text)
    if text.endswith("%"):
        return float(text[:-1]) / 100.0
    return float(text)


def _table_row(table: List[List[str]], name: str) -> List[float]:
    for row in table or []:
        if row and str(row[0]).strip() == name.strip():
            values = []
            for cell in row[1:]:
                try:
                    values.append(_finqa_number(str(cell).split("(")[0]))
                except ValueError:
                    continue
            return values
    raise MetricError(f"FinQA table has no row {name!r}.")


def run_finqa_program(tokens: List[str], table: Optional[List[List[str]]] = None) -> Any:
    """Execute tokens of finqa_program_tokens; #k refers to the result of step k. Returns the last result."""
    results: List[Any] = []
    position = 0
    while position < len(tokens) and tokens[position] != "EOF":
        name = tokens[position].rstrip("(")
        end = tokens.index(")", position)
        arguments = tokens[position + 1:end]
        position = end + 1
        if name not in _FINQA_OPERATIONS:
            raise MetricError(f"Unknown FinQA operation {name!r}.")
        if name.startswith("table_"):
            values = _table_row(table, arguments[0])
            reducers = {"table_max": max, "table_min": min, "table_sum": sum,
                        "table_average": lambda v: sum(v) / len(v)}
            results.append(reducers[name](values))
            continue
        if len(arguments) != 2:
            raise MetricError(f"FinQA operation {name} takes 2 arguments, got {arguments}.")
        a, b = (results[int(arg[1:])] if arg.startswith("#") else _finqa_number(arg) for arg in arguments)
        if name == "add":
            results.append(a + b)
        elif name == "subtract":
            results.append(a - b)
        elif name == "multiply":
            results.append(a * b)
        elif name == "divide":
            results.append(a / b)
        elif name == "exp":
            results.append(a ** b)
        else:
            results.append("yes" if a > b else "no")
    if not results:
        raise MetricError("Empty FinQA program.")
    return results[-1]


def _same_answer(result: Any, gold: Any) -> bool:
    if isinstance(result, str) or isinstance(gold, str) and gold.strip().lower() in ("yes", "no"):
        return str(result).strip().lower() == str(gold).strip().lower()
    return round(float(result), 5) == round(_finqa_number(str(gold)), 5)


_ARITHMETIC = re.compile(r"[\d\s.,+\-*/()eE]*")
_MAX_ARITHMETIC_LENGTH = 2_000


def expression_answer_correct(prediction: str, gold: str) -> bool:
    """Fallback when the prediction is not a FinQA program: it ends with the gold text, or its arithmetic (before
    any "=", without % and $ signs), evaluated in the expression sandbox and rounded like the gold, equals it."""
    from ..sandbox.expressions import SandboxError, evaluate_expression

    if prediction.lower().endswith(gold.lower()):
        return True
    text = prediction.replace("%", "").replace("$", "").split("=")[0]
    if len(text) > _MAX_ARITHMETIC_LENGTH or not _ARITHMETIC.fullmatch(text):
        return False  # only numbers and operators reach the sandbox: no sequences, so memory stays bounded too
    try:
        gold_value = float(gold[:-1]) / 100 if gold.endswith("%") else float(gold.replace(",", ""))
        value = evaluate_expression(text, {})
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return False
        decimals = len(str(gold_value).split(".")[1]) if "." in str(gold_value) else 0
        return math.isclose(round(float(value), decimals), gold_value, abs_tol=0.001)
    except (SandboxError, ValueError, TypeError, ZeroDivisionError, OverflowError):
        return False


class FinQAEval(InstanceMetric):
    """FinQA: program accuracy (the predicted program equals task_data program_re up to the order of add/multiply
    arguments and linear vs nested writing; FinQA's script checks this with sympy) and execution
    accuracy (the program, run over task_data table, gives task_data answer; a non-program prediction is checked
    as an arithmetic expression instead)."""

    main_score = "program_accuracy"
    reduction_map = {"mean": ["program_accuracy", "execution_accuracy"]}
    ci_scores = ["program_accuracy", "execution_accuracy"]
    prediction_type = str
    finqa_module: str = ""

    def finqa_eval_program(self, references: List[Any], prediction: str, task_data: Dict[str, Any],
                           finqa_module: Any) -> float:
        """1.0 when the predicted program equals task_data program_re (see the class docstring); `finqa_module`, the
        original's downloaded FinQA script, is not needed here."""
        return float(canonical_finqa_program(prediction) == canonical_finqa_program(task_data["program_re"]))

    def finqa_eval_execution(self, references: List[Any], prediction: str, task_data: Dict[str, Any],
                             finqa_module: Any) -> float:
        """1.0 when the program (up to its last ")") run over task_data table gives task_data answer; raises when
        the prediction is no program (the caller then tries `python_expression_eval`)."""
        program = prediction[: prediction.rfind(")") + 1]
        result = run_finqa_program(finqa_program_tokens(program), task_data.get("table"))
        return float(_same_answer(result, task_data["answer"]))

    def python_expression_eval(self, references: List[Any], prediction: str, task_data: Dict[str, Any]) -> float:
        """1.0 when the prediction (up to its last ")") ends with the gold answer or its arithmetic equals it."""
        program = prediction[: prediction.rfind(")") + 1]
        gold = references[0] if references else task_data["answer"]
        return float(expression_answer_correct(program or prediction, str(gold)))

    def compute(self, references, prediction, task_data):
        for field in ("program_re", "answer"):
            if field not in task_data:
                raise MetricError(f"FinQAEval needs task_data field '{field}'.", artifact=self.artifact_name,
                                  field="task_data")
        try:
            program_accuracy = self.finqa_eval_program(references, prediction, task_data, self.finqa_module)
        except MetricError:
            program_accuracy = 0.0
        try:
            execution_accuracy = self.finqa_eval_execution(references, prediction, task_data, self.finqa_module)
        except (MetricError, ValueError, IndexError, ZeroDivisionError, OverflowError, TypeError):
            execution_accuracy = max(self.python_expression_eval(references, prediction, task_data), 0.0)
        return {"program_accuracy": program_accuracy, "execution_accuracy": execution_accuracy}


