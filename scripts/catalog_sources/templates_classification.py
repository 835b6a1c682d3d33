"""Catalog: classification templates (templates.classification.*) and the generic key-value / pass-through ones."""

from _shared import add_template_family
from unitxt.templates import InputOutputTemplate, KeyValTemplate

LABEL_PROCESSORS = ["processors.take_first_non_empty_line", "processors.lower_case_till_punc"]
MULTI_LABEL_PROCESSORS = ["processors.take_first_non_empty_line", "processors.to_list_by_comma"]


def register(add):
    tags = {"task": "classification", "modality": "text"}
    add_template_family(add, prefix="templates.classification.multi_class", templates={
        "default": InputOutputTemplate(
            instruction="Classify the {type_of_class} of the following {text_type} to one of these options: "
                        "{classes}.",
            input_format="{text_type}: {text}",
            target_prefix="The {type_of_class} is ",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Lists the options, then asks for the class of the text.",
        ),
        "title": InputOutputTemplate(
            instruction="Which {type_of_class} fits the {text_type} below? Possible answers: {classes}.",
            input_format="Text: {text}",
            target_prefix="Answer: ",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Headed 'Text:' / 'Answer:' layout with the options in the instruction.",
        ),
        "instruction": InputOutputTemplate(
            instruction="Read the {text_type} and reply with exactly one {type_of_class} out of: {classes}. "
                        "Write the {type_of_class} only.",
            input_format="{text}",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Everything the model must do is in the instruction; the input is the bare text.",
        ),
        "question": InputOutputTemplate(
            input_format="{text}\n\nQuestion: what is the {type_of_class} of this {text_type}? "
                         "Choose from {classes}.",
            target_prefix="Answer: ",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="The text first, then a question that lists the options (no separate instruction).",
        ),
        "empty": InputOutputTemplate(
            input_format="{text}",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Only the text; the options are not shown (for fine-tuned classifiers).",
        ),
    }, tags=tags, task="tasks.classification.multi_class and its topic/sentiment variants")

    add_template_family(add, prefix="templates.classification.multi_class.relation", templates={
        "default": InputOutputTemplate(
            instruction="Given a {text_a_type} and {text_b_type} classify the {type_of_relation} of the "
                        "{text_b_type} to one of {classes}.",
            input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
            target_prefix="The {type_of_relation} class is ",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Names both texts by their types and asks for the relation class.",
        ),
        "title": InputOutputTemplate(
            instruction="Decide the {type_of_relation} between the two texts. Possible answers: {classes}.",
            input_format="First text ({text_a_type}):\n{text_a}\n\nSecond text ({text_b_type}):\n{text_b}",
            target_prefix="Answer: ",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Both texts under headings, then 'Answer:'.",
        ),
        "instruction": InputOutputTemplate(
            instruction="You get a {text_a_type} and a {text_b_type}. Reply with the {type_of_relation} of the "
                        "{text_b_type} with respect to the {text_a_type}, using exactly one of: {classes}.",
            input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="Detailed instruction; the answer is the bare class name.",
        ),
        "empty": InputOutputTemplate(
            input_format="{text_a}\n{text_b}",
            output_format="{label}",
            postprocessors=LABEL_PROCESSORS,
            __description__="The two texts on separate lines; nothing else.",
        ),
    }, tags=tags, task="tasks.classification.multi_class.relation")

    add_template_family(add, prefix="templates.classification.multi_label", templates={
        "default": InputOutputTemplate(
            instruction="Which of these {type_of_classes} apply to the following {text_type}: {classes}? "
                        "List every one that applies, separated by commas.",
            input_format="{text_type}: {text}",
            target_prefix="The {type_of_classes} are ",
            output_format="{labels}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="Asks for all applicable classes as a comma-separated list.",
        ),
        "title": InputOutputTemplate(
            instruction="Tag the {text_type} below with all fitting {type_of_classes}. Possible tags: {classes}.",
            input_format="Text: {text}",
            target_prefix="Tags: ",
            output_format="{labels}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="'Text:' / 'Tags:' layout; the answer is a comma-separated list.",
        ),
        "instruction": InputOutputTemplate(
            instruction="Read the {text_type} and write, comma separated, every one of the {type_of_classes} "
                        "{classes} that describes it. Write nothing else.",
            input_format="{text}",
            output_format="{labels}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="Instruction-only phrasing; the input is the bare text.",
        ),
        "empty": InputOutputTemplate(
            input_format="{text}",
            output_format="{labels}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="Only the text; the answer is the comma-separated labels.",
        ),
    }, tags=tags, task="tasks.classification.multi_label")

    # tasks.classification.binary: 'label' is [] or [class] and so is the prediction (the original's schema), so the
    # answer is the class name when the text belongs to it and nothing when it does not
    add_template_family(add, prefix="templates.classification.binary", templates={
        "default": InputOutputTemplate(
            instruction="Does the following {text_type} belong to the class '{class}'? If it does, answer with the "
                        "class name; if it does not, leave the answer empty.",
            input_format="{text_type}: {text}",
            target_prefix="Answer: ",
            output_format="{label}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="Question about one class; the answer is the class name or nothing (read as a list).",
        ),
        "instruction": InputOutputTemplate(
            instruction="Write '{class}' if the {text_type} below is an instance of '{class}', and nothing otherwise.",
            input_format="{text}",
            output_format="{label}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="Instruction-only phrasing; the answer is the class name or nothing (read as a list).",
        ),
        "title": InputOutputTemplate(
            input_format="Text: {text}\nQuestion: is this {text_type} an example of '{class}'? (write '{class}' or "
                         "nothing)",
            target_prefix="Answer: ",
            output_format="{label}",
            output_list_separator=", ",
            postprocessors=MULTI_LABEL_PROCESSORS,
            __description__="Text and question under headings; the answer is the class name or nothing (a list).",
        ),
    }, tags=tags, task="tasks.classification.binary")

    general = {"task": "any", "modality": "text"}
    add("templates.key_val", KeyValTemplate(
        __description__="Every input field as 'name: value' pairs; the answer is the reference value.",
        __tags__=general,
    ))
    add("templates.key_val_with_new_lines", KeyValTemplate(
        pairs_separator="\n",
        outs_separator="\n",
        __description__="Every input field as a 'name: value' line; the answer holds the reference values, one per "
                        "line.",
        __tags__=general,
    ))
    add("templates.empty", KeyValTemplate(
        use_keys_for_inputs=False,
        __description__="No wording of its own: the input fields' values are the model input (joined by ', ') and "
                        "the reference values the target - the same fields as the original's templates.empty.",
        __tags__=general,
    ))
