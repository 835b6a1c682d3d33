"""Catalog: core tasks and their templates (classification; more families live in their own files)."""

from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, KeyValTemplate, TemplatesList

CLASSIFICATION_METRICS = ["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"]
LABEL_PROCESSORS = ["processors.take_first_non_empty_line", "processors.lower_case_till_punc"]


def register(add):
    add("tasks.classification.multi_class", Task(
        input_fields={"text": "str", "text_type": "str", "classes": "List[str]", "type_of_class": "str"},
        reference_fields={"label": "str"},
        prediction_type="str",
        metrics=CLASSIFICATION_METRICS,
        augmentable_inputs=["text"],
        defaults={"text_type": "text"},
        __description__="Assign one class from a given list to a text.",
        __tags__={"task": "classification", "modality": "text"},
    ))
    add("tasks.classification.multi_class.relation", Task(
        input_fields={"text_a": "str", "text_a_type": "str", "text_b": "str", "text_b_type": "str",
                      "classes": "List[str]", "type_of_relation": "str"},
        reference_fields={"label": "str"},
        prediction_type="str",
        metrics=CLASSIFICATION_METRICS,
        augmentable_inputs=["text_a", "text_b"],
        defaults={"text_a_type": "first text", "text_b_type": "second text"},
        __description__="Classify the relation between two texts (e.g. entailment) into one of given classes.",
        __tags__={"task": "classification", "modality": "text"},
    ))
    relation_default = InputOutputTemplate(
        instruction="Given a {text_a_type} and {text_b_type} classify the {type_of_relation} of the {text_b_type} to "
                    "one of {classes}.",
        input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
        target_prefix="The {type_of_relation} class is ",
        output_format="{label}",
        postprocessors=LABEL_PROCESSORS,
        __description__="Names both texts by their types and asks for the relation class.",
        __tags__={"task": "classification"},
    )
    add("templates.classification.multi_class.relation.default", relation_default)
    add("templates.classification.multi_class.relation.all", TemplatesList(
        ["templates.classification.multi_class.relation.default"],
        __description__="All relation classification templates.",
    ))
    add("templates.classification.multi_class.default", InputOutputTemplate(
        instruction="Classify the {type_of_class} of the following {text_type} to one of these options: {classes}.",
        input_format="{text_type}: {text}",
        target_prefix="The {type_of_class} is ",
        output_format="{label}",
        postprocessors=LABEL_PROCESSORS,
        __description__="Lists the options, then asks for the class of the text.",
        __tags__={"task": "classification"},
    ))
    add("templates.key_val", KeyValTemplate(
        __description__="Every input field as 'name: value' pairs; the answer is the reference value.",
        __tags__={"task": "any"},
    ))
