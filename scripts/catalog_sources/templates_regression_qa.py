"""Catalog: regression (templates.regression.*) and question answering (templates.qa.*) templates."""

from _shared import add_template_family
from unitxt.templates import InputOutputTemplate, MultipleChoiceTemplate, MultiReferenceTemplate

NUMBER_PROCESSORS = ["processors.take_first_non_empty_line", "processors.cast_to_float_return_nan_if_failed"]
ANSWER_PROCESSORS = ["processors.take_first_non_empty_line", "processors.to_string_stripped"]
LETTER_PROCESSORS = ["processors.to_string_stripped", "processors.first_character"]
NUMBER_CHOICE_PROCESSORS = ["processors.to_string_stripped", "processors.take_first_word",
                            "processors.remove_punctuations"]


def _regression(add):
    tags = {"task": "regression", "modality": "text"}
    add_template_family(add, prefix="templates.regression.single_text", templates={
        "default": InputOutputTemplate(
            instruction="Rate the {attribute_name} of the following text on a scale from {min_value} to "
                        "{max_value}. Answer with a number.",
            input_format="Text: {text}",
            target_prefix="{attribute_name}: ",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Asks for a number in the given range; the answer is parsed as a float.",
        ),
        "title": InputOutputTemplate(
            instruction="Give the {attribute_name} of the text below as a number between {min_value} and "
                        "{max_value}.",
            input_format="Text:\n{text}",
            target_prefix="Score: ",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Text under a heading, then 'Score:'.",
        ),
        "instruction": InputOutputTemplate(
            instruction="How much {attribute_name} does this text show? Reply only with a number from {min_value} "
                        "(lowest) to {max_value} (highest).",
            input_format="{text}",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Instruction with the range; the input is the bare text.",
        ),
        "empty": InputOutputTemplate(
            input_format="{text}",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Only the text; the answer is the number.",
        ),
    }, tags=tags, task="tasks.regression.single_text")

    add_template_family(add, prefix="templates.regression.two_texts", templates={
        "default": InputOutputTemplate(
            instruction="Rate the {attribute_name} of the two texts on a scale from {min_value} to {max_value}. "
                        "Answer with a number.",
            input_format="Text 1: {text1}\nText 2: {text2}",
            target_prefix="{attribute_name}: ",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Both texts, then a request for a number in the given range.",
        ),
        "title": InputOutputTemplate(
            instruction="Score the {attribute_name} of the following pair of texts with a number between "
                        "{min_value} and {max_value}.",
            input_format="First text:\n{text1}\n\nSecond text:\n{text2}",
            target_prefix="Score: ",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Both texts under headings, then 'Score:'.",
        ),
        "instruction": InputOutputTemplate(
            instruction="How high is the {attribute_name} between the two sentences? Reply only with a number "
                        "from {min_value} (lowest) to {max_value} (highest).",
            input_format="{text1}\n{text2}",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Instruction with the range; the two texts on separate lines.",
        ),
        "empty": InputOutputTemplate(
            input_format="{text1}\n{text2}",
            output_format="{attribute_value}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Only the two texts; the answer is the number.",
        ),
        "simple": InputOutputTemplate(
            input_format="On a scale from {min_value} to {max_value}, what is the {attribute_name} of the sentence "
                         "'{text1}' and the sentence '{text2}'?",
            output_format="{attribute_value}",
            postprocessors=["processors.take_first_non_empty_line", "processors.cast_to_float_return_zero_if_failed"],
            __description__="One question naming the range and both texts; an answer that is not a number counts "
                            "as 0 (the template lm-evaluation-harness's stsb task uses).",
        ),
    }, tags=tags, task="tasks.regression.two_texts and tasks.regression.two_texts.similarity")


def _open_qa(add):
    tags = {"task": "question answering", "modality": "text"}
    add_template_family(add, prefix="templates.qa.open", templates={
        "": MultiReferenceTemplate(
            input_format="Question: {question}",
            target_prefix="Answer: ",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="'Question:' then 'Answer:'; any reference answer is a correct target.",
        ),
        "default": MultiReferenceTemplate(
            instruction="Answer the question.",
            input_format="Question: {question}",
            target_prefix="Answer: ",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Short instruction, the question, then 'Answer:'.",
        ),
        "title": MultiReferenceTemplate(
            instruction="Answer the question.",
            input_format="Question:\n{question}",
            target_prefix="Answer:\n",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Question and answer under headings on their own lines.",
        ),
        "instruction": MultiReferenceTemplate(
            instruction="Reply to the user's question with a short factual answer (a few words). Do not explain.",
            input_format="{question}",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Asks for a short answer without explanation; the input is the bare question.",
        ),
        "empty": MultiReferenceTemplate(
            input_format="{question}",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Only the question.",
        ),
    }, tags=tags, task="tasks.qa.open")


def _context_qa(add):
    tags = {"task": "question answering", "modality": "text"}
    add_template_family(add, prefix="templates.qa.with_context", templates={
        "default": MultiReferenceTemplate(
            instruction="Answer the question based on the {context_type}.",
            input_format="{context_type}: {context}\nQuestion: {question}",
            target_prefix="Answer: ",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="The context named by its type, the question, then 'Answer:'.",
        ),
        "title": MultiReferenceTemplate(
            instruction="Use the {context_type} below to answer the question.",
            input_format="Context:\n{context}\n\nQuestion:\n{question}",
            target_prefix="Answer:\n",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Context, question and answer under headings.",
        ),
        "instruction": MultiReferenceTemplate(
            instruction="Read the {context_type} and answer the question that follows it. Use only information "
                        "from the {context_type} and keep the answer short.",
            input_format="{context}\n\n{question}",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Grounding instruction; the context and the question separated by a blank line.",
        ),
        "extractive": MultiReferenceTemplate(
            instruction="Copy from the {context_type} the shortest passage that answers the question.",
            input_format="{context_type}: {context}\nQuestion: {question}",
            target_prefix="Answer: ",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Asks for the answer as a span copied verbatim from the context.",
        ),
        "empty": MultiReferenceTemplate(
            input_format="{context}\n{question}",
            references_field="answers",
            postprocessors=ANSWER_PROCESSORS,
            __description__="Only the context and the question.",
        ),
    }, tags=tags, task="tasks.qa.with_context.extractive and tasks.qa.with_context.abstractive")


def _multiple_choice(add):
    tags = {"task": "multiple choice question answering", "modality": "text"}
    add_template_family(add, prefix="templates.qa.multiple_choice.open", templates={
        "default": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Answer the multiple-choice question with the letter of the right choice.",
            input_format="Question: {question}\nChoices: {choices}",
            target_prefix="Answer: ",
            postprocessors=LETTER_PROCESSORS,
            __description__="Question and lettered choices on one line; the answer is the letter.",
        ),
        "title": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Pick the correct answer. Reply with its letter ({numerals}).",
            input_format="Question:\n{question}\n\nChoices:\n{choices}",
            choices_separator="\n",
            target_prefix="Answer: ",
            postprocessors=LETTER_PROCESSORS,
            __description__="Question and one choice per line under headings; the answer is the letter.",
        ),
        "instruction": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Choose the best answer to the question below. Write only the letter of your choice, "
                        "one of {numerals}.",
            input_format="{question}\n{choices}",
            choices_separator="\n",
            postprocessors=LETTER_PROCESSORS,
            __description__="Instruction-only phrasing with one choice per line.",
        ),
        "numbers": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Answer with the number of the right choice.",
            input_format="Question: {question}\nChoices:\n{choices}",
            choices_separator="\n",
            enumerator="numbers",
            target_prefix="Answer: ",
            postprocessors=NUMBER_CHOICE_PROCESSORS,
            __description__="Choices numbered 1, 2, ...; the answer is the number.",
        ),
        "empty": MultipleChoiceTemplate(
            target_field="answer",
            input_format="{question}\n{choices}",
            choices_separator="\n",
            postprocessors=LETTER_PROCESSORS,
            __description__="Only the question and the lettered choices.",
        ),
    }, tags=tags, task="tasks.qa.multiple_choice.open")

    add_template_family(add, prefix="templates.qa.multiple_choice.with_topic", templates={
        "default": MultipleChoiceTemplate(
            target_field="answer",
            instruction="The following is a multiple-choice question about {topic}. Answer with the letter of the "
                        "right choice.",
            input_format="Question: {question}\nChoices: {choices}",
            target_prefix="Answer: ",
            postprocessors=LETTER_PROCESSORS,
            __description__="Names the topic, then the question and lettered choices.",
        ),
        "title": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Topic: {topic}. Pick the correct answer and reply with its letter ({numerals}).",
            input_format="Question:\n{question}\n\nChoices:\n{choices}",
            choices_separator="\n",
            target_prefix="Answer: ",
            postprocessors=LETTER_PROCESSORS,
            __description__="Topic in the instruction; question and one choice per line under headings.",
        ),
        "instruction": MultipleChoiceTemplate(
            target_field="answer",
            instruction="You are taking an exam on {topic}. Choose the best answer to the question and write only "
                        "its letter.",
            input_format="{question}\n{choices}",
            choices_separator="\n",
            postprocessors=LETTER_PROCESSORS,
            __description__="Exam-style instruction; one choice per line.",
        ),
        "empty": MultipleChoiceTemplate(
            target_field="answer",
            input_format="{question}\n{choices}",
            choices_separator="\n",
            postprocessors=LETTER_PROCESSORS,
            __description__="Only the question and the lettered choices (the topic is not shown).",
        ),
    }, tags=tags, task="tasks.qa.multiple_choice.with_topic")

    add_template_family(add, prefix="templates.qa.multiple_choice.with_context", templates={
        "default": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Answer the question about the {context_type} with the letter of the right choice.",
            input_format="{context_type}: {context}\nQuestion: {question}\nChoices: {choices}",
            target_prefix="Answer: ",
            postprocessors=LETTER_PROCESSORS,
            __description__="Context, question and lettered choices; the answer is the letter.",
        ),
        "title": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Read the {context_type} and pick the correct answer. Reply with its letter ({numerals}).",
            input_format="Context:\n{context}\n\nQuestion:\n{question}\n\nChoices:\n{choices}",
            choices_separator="\n",
            target_prefix="Answer: ",
            postprocessors=LETTER_PROCESSORS,
            __description__="Context, question and one choice per line under headings.",
        ),
        "instruction": MultipleChoiceTemplate(
            target_field="answer",
            instruction="Based only on the {context_type}, choose the best answer to the question. Write only the "
                        "letter of your choice.",
            input_format="{context}\n\n{question}\n{choices}",
            choices_separator="\n",
            postprocessors=LETTER_PROCESSORS,
            __description__="Grounding instruction; context, question and one choice per line.",
        ),
        "empty": MultipleChoiceTemplate(
            target_field="answer",
            input_format="{context}\n{question}\n{choices}",
            choices_separator="\n",
            postprocessors=LETTER_PROCESSORS,
            __description__="Only the context, the question and the lettered choices.",
        ),
    }, tags=tags, task="tasks.qa.multiple_choice.with_context")
    # The prompt of the lmms-eval harness for image multiple choice (e.g. AI2D): not part of .all.
    add("templates.qa.multiple_choice.with_context.lmms_eval", MultipleChoiceTemplate(
            target_field="answer",
        input_format="{context}\n{question}\n{choices}\nAnswer with the option's letter from the given choices "
                     "directly.",
        choices_separator="\n",
        postprocessors=LETTER_PROCESSORS,
        __description__="lmms-eval style: context (e.g. an image), question, one lettered choice per line, then the "
                        "request to answer with the letter only (enumerator overridable, e.g. [enumerator=lowercase]).",
        __tags__=dict(tags),
    ))


def register(add):
    _regression(add)
    _open_qa(add)
    _context_qa(add)
    _multiple_choice(add)
