"""Catalog: post-processors (processors.*): value operators applied to predictions and references.

The same value operators are also published under their operator names (operators.*), as the documentation writes
them in templates' `postprocessors`: `operators.X` is the bare operator (applied to the prediction and to every
reference), while `processors.X` may restrict it to the prediction (e.g. literal_eval, scale_0_10_to_0_1).
"""

from unitxt.operators import Strip
from unitxt.model_processors import TranslateWithEngine
from unitxt.processors import (
    Capitalize,
    CastToFloat,
    ConvertToBoolean,
    DictOfListsToValueKeyPairs,
    ExtractFirstNumber,
    ExtractFromDoubleBrackets,
    ExtractMtBenchRatingJudgment,
    ExtractWithRegex,
    FirstCharacter,
    FixWhitespace,
    GetStringAfter,
    LiteralEvalValue,
    LoadJsonValue,
    LowerCase,
    LowerCaseTillPunc,
    MatchClosestOption,
    PostProcess,
    RemoveArticles,
    RemovePunctuations,
    ScaleNumber,
    SplitBulletList,
    Substring,
    TakeFirstNonEmptyLine,
    TakeFirstWord,
    TakeLastNonEmptyLine,
    ToListBySeparator,
    ToNumber,
    ToSpanLabelPairs,
    ToString,
    ToStringStripped,
    UpperCase,
    YesNoToInt,
)

PROCESSORS = {
    "to_string": (ToString(), "Convert the value to text."),
    "to_string_stripped": (ToStringStripped(), "Convert to text and strip surrounding whitespace."),
    "take_first_non_empty_line": (TakeFirstNonEmptyLine(), "Keep only the first line that has content."),
    "take_last_non_empty_line": (TakeLastNonEmptyLine(), "Keep only the last line that has content."),
    "take_first_word": (TakeFirstWord(), "Keep only the first word."),
    "lower_case": (LowerCase(), "Lower-case the text."),
    "upper_case": (UpperCase(), "Upper-case the text."),
    "capitalize": (Capitalize(), "Capitalise the first letter and lower-case the rest."),
    "lower_case_till_punc": (LowerCaseTillPunc(), "Lower-case the text and cut it at the first punctuation mark."),
    "first_character": (FirstCharacter(), "Keep the first non-space character (e.g. a multiple-choice letter)."),
    "substring": (Substring(), "Keep a slice of the text (begin/end overridable)."),
    "to_number": (ToNumber(), "Parse a number from the text (NaN when there is none)."),
    "cast_to_float_return_nan_if_failed": (CastToFloat(), "Parse a float; NaN when the text is not a number."),
    "cast_to_float_return_zero_if_failed": (CastToFloat(failure_value=0.0), "Parse a float; 0 when not a number."),
    "cast_to_float_return_0_5_if_failed": (CastToFloat(failure_value=0.5), "Parse a float; 0.5 when not a number."),
    "extract_first_number": (ExtractFirstNumber(), "Read the first number written in the text (NaN when none)."),
    "scale_0_10_to_0_1": (PostProcess(ScaleNumber(divisor=10, failure_value=0), process_references=False),
                          "Scale a 0-10 rating in the prediction to 0-1 (0 when it is not a number)."),
    "literal_eval": (PostProcess(LiteralEvalValue(lenient=False), process_references=False),
                     "Parse the prediction as a Python literal without running code (an error when it is not one)."),
    "literal_eval_or_text": (LiteralEvalValue(), "Parse a Python literal; keep the text when it is not one."),
    "load_json": (LoadJsonValue(failure_value=[]), "Parse JSON text (an empty list when invalid)."),
    "to_list_by_comma": (ToListBySeparator(separator=","), "Split on commas into stripped items (empty ones kept)."),
    "to_list_by_comma_space": (ToListBySeparator(separator=", "), "Split on ', ' into stripped items."),
    "to_list_by_hyphen_space": (SplitBulletList(), "Split a '- item' bullet list into its items."),
    "to_list_by_comma_from_references": (PostProcess(ToListBySeparator(separator=","), process_prediction=False),
                                         "Split the references (not the prediction) on commas into stripped items."),
    "to_list_by_hyphen_space_from_references": (PostProcess(SplitBulletList(), process_prediction=False),
                                                "Split the references (not the prediction) as '- item' bullet lists."),
    "strip": (Strip(), "Strip surrounding whitespace from the text."),
    "regex": (ExtractWithRegex(regex=r"(.*)", group=1), "Extract a regex group (pattern/group/fallback overridable)."),
    "to_span_label_pairs": (ToSpanLabelPairs(), "Parse 'span: label, ...' into [span, label] pairs."),
    "dict_of_lists_to_value_key_pairs": (DictOfListsToValueKeyPairs(), "Turn {label: [spans]} into [span, label] pairs."),
    "extract_mt_bench_rating_judgment": (ExtractMtBenchRatingJudgment(), "Read an MT-Bench '[[N]]' rating as N/10."),
    "extract_from_double_brackets": (PostProcess(ExtractFromDoubleBrackets(), process_references=False),
                                     "Keep the content of the prediction's first [[...]] ('' when there is none)."),
    "double_brackets_or_text": (ExtractFromDoubleBrackets(keep_text_without_brackets=True),
                                "Keep the content of the first [[...]] of the prediction and the references (the "
                                "text itself when there is none)."),
    "yes_no_to_int": (YesNoToInt(), "Map exactly 'yes' to '1' and 'no' to '0'; other text unchanged."),
    "convert_to_boolean": (ConvertToBoolean(), "FALSE when the text mentions no/false, else TRUE for yes/true, "
                                               "else OTHER."),
    "match_closest_option": (MatchClosestOption(), "Replace the answer by the most similar option in task_data."),
    "remove_articles": (RemoveArticles(), "Remove the articles a, an and the."),
    "remove_punctuations": (RemovePunctuations(), "Remove punctuation characters."),
    "fix_whitespace": (FixWhitespace(), "Collapse whitespace runs to single spaces and strip."),
    "get_string_after_colon": (GetStringAfter(substring=":"), "Keep the text after the first colon."),
}


# operators.* names of the documented post-processors (each the bare operator of processors.<same name>).
OPERATOR_NAMES = [
    "capitalize", "cast_to_float_return_0_5_if_failed", "cast_to_float_return_nan_if_failed",
    "cast_to_float_return_zero_if_failed", "convert_to_boolean", "extract_from_double_brackets",
    "extract_mt_bench_rating_judgment", "first_character", "fix_whitespace", "get_string_after_colon",
    "literal_eval", "lower_case", "lower_case_till_punc", "match_closest_option", "remove_articles",
    "remove_punctuations", "scale_0_10_to_0_1", "substring", "take_first_non_empty_line", "take_first_word",
    "take_last_non_empty_line", "upper_case", "yes_no_to_int", "to_string", "to_string_stripped", "to_number",
    "extract_first_number",
]


def _bare(operator):
    """The value operator itself (a PostProcess wrapper restricted to predictions is unwrapped)."""
    return operator.operator if isinstance(operator, PostProcess) else operator


def _described(operator, description):
    operator.__dict__["__description__"] = description
    operator.__dict__["__tags__"] = {"kind": "post-processor"}
    return operator


def register(add):
    for name, (operator, description) in PROCESSORS.items():
        operator.__dict__["__description__"] = description
        operator.__dict__["__tags__"] = {"kind": "post-processor"}
        add(f"processors.{name}", operator)
    for name in OPERATOR_NAMES:
        operator, description = PROCESSORS[name]
        add(f"operators.{name}", _described(_bare(operator).copy(), description))
    add("operators.strip", _described(Strip(), "Strip surrounding whitespace from the text."))
    add("processors.translate", _described(
        PostProcess(TranslateWithEngine(), process_references=False),
        "Translate the prediction into English with a model before it is scored (engines.generic: the engine named "
        "by UNITXT_INFERENCE_ENGINE; override engine=... and target_language=...)."))
