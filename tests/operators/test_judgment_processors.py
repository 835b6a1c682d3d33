"""Post-processors of the original catalog format (judgment_processors)."""

import math

import pytest

from unitxt.artifact import from_serializable
from unitxt.errors import UnitxtError
from unitxt.judgment_processors import (
    DictOfListsToPairs,
    ExtractArenaHardNumericalJudgment,
    ExtractHarmRatingJudgement,
    ExtractMtBenchLabelJudgment,
    ExtractSafeUnsafeJudgment,
    ExtractVerbalJudgementBadGood,
    ExtractVerbalJudgment,
    FixWhiteSpace,
    GetSQL,
    InferDictsToBinaryLogprobs,
    ListToEmptyEntitiesTuples,
    MultipleToolCallPostProcessor,
    ScaleNumberToZeroOneReturnZeroIfFails,
    StanceToProCon,
    StrToFloatFormat,
    StringEquals,
    ToolCallPostProcessor,
    ToYesOrNone,
    YesToOneElseZero,
)


def values(operator, *inputs):
    return [operator.process_value(value) for value in inputs]


def test_label_conversions():
    assert values(YesToOneElseZero(), "yes", "no", "Yes") == ["1", "0", "0"]
    assert values(ToYesOrNone(), "yes", "maybe") == ["yes", "none"]
    assert values(StrToFloatFormat(), "3", "2.50", "abc") == ["3.0", "2.5", "abc"]
    assert values(StanceToProCon(), "positive", "negative", "suggestion", "neutral") == ["PRO", "CON", "CON", "none"]
    assert values(StringEquals(string="Toxic"), "It is NOT toxic.", "very toxic", "fine") == \
        ["not toxic", "toxic", "fine"]
    assert values(FixWhiteSpace(), "  a \n b\t c ") == ["a b c"]


def test_judge_verdicts():
    assert values(ExtractHarmRatingJudgement(), "Rating: [[5]]", "[[1]]")[0] == 1.0
    assert values(ExtractHarmRatingJudgement(), "[[3]]") == [0.5]
    assert math.isnan(ExtractHarmRatingJudgement().process_value("no rating"))
    assert values(ExtractMtBenchLabelJudgment(), "Verdict: [[B]].", "none") == ["B", "None"]
    assert values(ExtractArenaHardNumericalJudgment(), "[[A>>B]]", "[[A>B]]", "[[A=B]]", "[[B>A]]", "[[B>>A]]", "x") \
        == [3, 1, 0, -1, -3, 0]
    assert values(ExtractSafeUnsafeJudgment(), " Safe\nreason", "unsafe") == [1.0, 0.0]
    assert values(ExtractVerbalJudgment(), "Mostly correct", "completely", "unclear") == [2 / 3, 1.0, 0]
    assert values(ExtractVerbalJudgementBadGood(), "good", "very good", "Very bad") == [0.75, 1.0, 0.0]
    assert values(ScaleNumberToZeroOneReturnZeroIfFails(), "7", "x") == [0.7, 0]


def test_structures():
    assert values(ListToEmptyEntitiesTuples(), ["Ann", 3], "x") == [[("Ann", ""), ("3", "")], []]
    pairs = DictOfListsToPairs(position_key_before_value=False)
    assert values(pairs, {"PER": ["Ann", "Bob"], "LOC": ["Rome"]}, {"PER": [1]}) == \
        [[("Ann", "PER"), ("Bob", "PER"), ("Rome", "LOC")], []]


def test_get_sql():
    operator = GetSQL()
    assert operator.process_value("Here:\n```sql\nSELECT a FROM t;\n```") == "SELECT a FROM t"
    assert operator.process_value("```\nselect 1\n```") == "select 1"
    assert operator.process_value("I think SELECT x FROM y WHERE z; done") == "SELECT x FROM y WHERE z"
    assert operator.process_value("no query") == "No query found in generation"


def test_tool_call_post_processors():
    single = from_serializable({"__type__": "tool_call_post_processor", "allow_failure": True,
                                "failure_value": {"name": "null", "arguments": {}}})
    assert single.process_value('<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>') == \
        {"name": "f", "arguments": {"x": 1}}
    assert single.process_value('[{"name": "f", "arguments": {}}]') == {"name": "f", "arguments": {}}
    assert single.process_value("not json") == {"name": "null", "arguments": {}}
    assert single.process_value('{"name": 3}') == {"name": "null", "arguments": {}}
    with pytest.raises(UnitxtError, match="not valid JSON"):
        ToolCallPostProcessor().process_value("{broken")
    multiple = MultipleToolCallPostProcessor(allow_failure=True, failure_value=[])
    assert multiple.process_value('{"name": "g", "arguments": {}}') == [{"name": "g", "arguments": {}}]
    assert multiple.process_value('[{"name": "g", "arguments": {}}, {"name": "h", "arguments": {"a": 2}}]') == \
        [{"name": "g", "arguments": {}}, {"name": "h", "arguments": {"a": 2}}]
    assert multiple.process_value("oops") == []


def test_infer_dicts_to_binary_logprobs():
    operator = InferDictsToBinaryLogprobs(pos_class_name="Yes", neg_class_name="No", take_logprobs_from_end=True)
    tokens = [
        {"top_tokens": [{"text": "Answer", "logprob": 0.0}]},
        {"top_tokens": [{"text": " yes", "logprob": math.log(0.6)}, {"text": "No,", "logprob": math.log(0.2)},
                        {"text": "yesterday", "logprob": math.log(0.1)}]},
    ]
    assert operator.process_value(tokens) == pytest.approx(0.75)
    assert InferDictsToBinaryLogprobs(pos_class_name="Yes", neg_class_name="No").process_value(tokens[:1]) == 0
    with pytest.raises(UnitxtError, match="must not contain each other"):
        InferDictsToBinaryLogprobs(pos_class_name="yes", neg_class_name="yess")
