"""Catalog: names of the original catalog that programs written for it use and that were missing here - two tasks,
three templates and seven post-processors (same names, fields and processing; our own wording in the prompts).

Post-processors the original applies to the prediction only are wrapped in PostProcess(process_references=False);
the others are bare value processors, which process the prediction and every reference.
"""

from unitxt.judges.judgment_processors import (
    ExtractVerbalJudgment,
    StanceToProCon,
    StrToFloatFormat,
    ToYesOrNone,
    YesToOneElseZero,
)
from unitxt.operators.fields import LoadJson
from unitxt.processors import PostProcess, RegexParser
from unitxt.task import Task
from unitxt.templates import (
    InputOutputTemplate,
    TemplatesList,
)

QA_CONTEXT_TYPES = "Union[Text, Image, Audio, Table, Dialog, Document, MultiDocument]"
POST_PROCESSOR = {"kind": "post-processor"}


def tasks():
    return {
        "tasks.classification.binary.zero_or_one": Task(
            input_fields={"text": "str", "text_type": "str", "class": "str"},
            reference_fields={"class": "str", "label": "int"},
            prediction_type="float",
            metrics=["metrics.accuracy", "metrics.f1_binary"],
            augmentable_inputs=["text"],
            defaults={"text_type": "text"},
            default_template="templates.classification.binary.zero_or_one.default",
            __description__="Does a text belong to one named class? The label is 0 or 1 and the prediction a number "
                            "(a score or probability).",
            __tags__={"modality": "text", "task": "classification"},
        ),
    }


def templates():
    return {
        "templates.classification.binary.zero_or_one.all": TemplatesList(
            items=["templates.classification.binary.zero_or_one.default"],
            __description__="Templates of tasks.classification.binary.zero_or_one.",
            __tags__={"task": "classification", "modality": "text"},
        ),
        "templates.classification.binary.zero_or_one.default": InputOutputTemplate(
            input_format="Does this {text_type} belong to the class '{class}'? Answer 1 for yes, 0 for no.\n"
                         "{text_type}: {text}",
            output_format="{label}",
            target_prefix="Answer: ",
            postprocessors=["processors.take_first_word", "processors.cast_to_float_return_zero_if_failed"],
            __description__="The default template of tasks.classification.binary.zero_or_one: asks for 1 or 0 and "
                            "reads the answer as a number.",
            __tags__={"task": "classification", "modality": "text"},
        ),
    }


def processors():
    return {
        "processors.stance_to_pro_con": StanceToProCon(
            __description__="Map a stance word to PRO / CON (prediction and references).", __tags__=POST_PROCESSOR),
        "processors.to_yes_or_none": ToYesOrNone(
            __description__="'yes' stays 'yes', anything else becomes 'none' (prediction and references).",
            __tags__=POST_PROCESSOR),
        "processors.str_to_float_format": StrToFloatFormat(
            __description__="Numbers written as text in float form ('3' -> '3.0'); other text unchanged "
                            "(prediction and references).", __tags__=POST_PROCESSOR),
        "processors.predictions_yes_1_else_0": PostProcess(
            YesToOneElseZero(), process_references=False,
            __description__="The prediction 'yes' becomes 1, anything else 0 (references unchanged).",
            __tags__=POST_PROCESSOR),
        "processors.load_json_from_predictions": PostProcess(
            LoadJson(allow_failure=True, failure_value=[]), process_references=False,
            __description__="Parse the prediction as JSON; text that is not JSON becomes [] (references unchanged).",
            __tags__=POST_PROCESSOR),
        "processors.extract_verbal_judgement": PostProcess(
            ExtractVerbalJudgment(), process_references=False,
            __description__="The verbal judgement class named in the prediction, as a score (references "
                            "unchanged).", __tags__=POST_PROCESSOR),
        "processors.to_span_label_pairs_surface_only": RegexParser(
            regex=r"\s*((?:\\.|[^,])+?)\s*(?:,|$)()", termination_regex=r"^\s*None\s*$",
            __description__="Comma-separated spans into (span, '') pairs (surface forms only); 'None' gives no "
                            "pairs (prediction and references).", __tags__=POST_PROCESSOR),
    }


def register(add):
    for group in (tasks(), templates(), processors()):
        for name, artifact in group.items():
            add(name, artifact)
