"""Catalog: templates of the text generation tasks (summarization, translation, paraphrase, grammatical error
correction, generic generation, language identification)."""

from _shared import add_template_family
from unitxt.templates import InputOutputTemplate, MultiReferenceTemplate

TEXT_PROCESSORS = ["processors.to_string_stripped"]
LINE_PROCESSORS = ["processors.take_first_non_empty_line", "processors.to_string_stripped"]


def _summarization(add):
    tags = {"task": "summarization", "modality": "text"}
    add_template_family(add, prefix="templates.summarization.abstractive", templates={
        "default": MultiReferenceTemplate(
            instruction="Summarize the following {document_type}.",
            input_format="{document_type}: {document}",
            target_prefix="Summary: ",
            references_field="summaries",
            postprocessors=TEXT_PROCESSORS,
            __description__="Names the document type, then 'Summary:'.",
        ),
        "title": MultiReferenceTemplate(
            instruction="Write a short summary of the {document_type} below.",
            input_format="Document:\n{document}",
            target_prefix="Summary:\n",
            references_field="summaries",
            postprocessors=TEXT_PROCESSORS,
            __description__="Document and summary under headings.",
        ),
        "instruction": MultiReferenceTemplate(
            instruction="Read the {document_type} and condense its main points into a few sentences of your own. "
                        "Reply with the summary only.",
            input_format="{document}",
            references_field="summaries",
            postprocessors=TEXT_PROCESSORS,
            __description__="Instruction asking for a few-sentence summary; the input is the bare document.",
        ),
        "formal": MultiReferenceTemplate(
            instruction="Please produce a concise, formal summary of the {document_type} provided below, "
                        "preserving its essential information.",
            input_format="{document_type}:\n{document}",
            target_prefix="Summary: ",
            references_field="summaries",
            postprocessors=TEXT_PROCESSORS,
            __description__="Polite, formal request for a concise summary.",
        ),
        "one_sentence": MultiReferenceTemplate(
            instruction="Sum up the {document_type} in a single sentence.",
            input_format="{document}",
            target_prefix="In one sentence: ",
            references_field="summaries",
            postprocessors=LINE_PROCESSORS,
            __description__="Asks for a one-sentence summary (extreme summarization, e.g. XSum).",
        ),
        "empty": MultiReferenceTemplate(
            input_format="{document}",
            references_field="summaries",
            postprocessors=TEXT_PROCESSORS,
            __description__="Only the document.",
        ),
        "full": MultiReferenceTemplate(
            input_format="Summarize the following {document_type}: {document}",
            references_field="summaries",
            postprocessors=TEXT_PROCESSORS,
            __description__="The whole request in the input, no instruction or prefix (the template "
                            "lm-evaluation-harness's xsum and cnn_dailymail tasks use).",
        ),
    }, tags=tags, task="tasks.summarization.abstractive")


def _translation(add):
    tags = {"task": "translation", "modality": "text"}
    add_template_family(add, prefix="templates.translation.directed", templates={
        "default": InputOutputTemplate(
            instruction="Translate the following text from {source_language} to {target_language}.",
            input_format="{source_language}: {text}",
            target_prefix="{target_language}: ",
            output_format="{translation}",
            postprocessors=LINE_PROCESSORS,
            __description__="Source text labelled with its language; the answer is prefixed by the target language.",
        ),
        "title": InputOutputTemplate(
            instruction="Translate from {source_language} into {target_language}.",
            input_format="Text:\n{text}",
            target_prefix="Translation:\n",
            output_format="{translation}",
            postprocessors=LINE_PROCESSORS,
            __description__="Text and translation under headings.",
        ),
        "instruction": InputOutputTemplate(
            instruction="You are a professional translator. Render the {source_language} text below in fluent "
                        "{target_language}. Reply with the translation only.",
            input_format="{text}",
            output_format="{translation}",
            postprocessors=LINE_PROCESSORS,
            __description__="Translator persona; the input is the bare text.",
        ),
        "question": InputOutputTemplate(
            input_format="How do you say this in {target_language}? \"{text}\"",
            output_format="{translation}",
            postprocessors=LINE_PROCESSORS,
            __description__="A conversational question with the text in quotes (the source language is implicit).",
        ),
        "empty": InputOutputTemplate(
            input_format="{text}",
            output_format="{translation}",
            postprocessors=LINE_PROCESSORS,
            __description__="Only the source text.",
        ),
    }, tags=tags, task="tasks.translation.directed")


def _rewriting(add):
    tags = {"task": "paraphrasing", "modality": "text"}
    add_template_family(add, prefix="templates.rewriting.paraphrase", templates={
        "default": InputOutputTemplate(
            instruction="Paraphrase the following {text_type}: say the same thing in different words.",
            input_format="{text_type}: {input_text}",
            target_prefix="Paraphrase: ",
            output_format="{output_text}",
            postprocessors=LINE_PROCESSORS,
            __description__="Asks for a paraphrase of the named text type.",
        ),
        "title": InputOutputTemplate(
            instruction="Rewrite the {text_type} below without changing its meaning.",
            input_format="Original:\n{input_text}",
            target_prefix="Rewritten:\n",
            output_format="{output_text}",
            postprocessors=LINE_PROCESSORS,
            __description__="'Original:' / 'Rewritten:' headings.",
        ),
        "instruction": InputOutputTemplate(
            instruction="Write one new version of the {text_type} that keeps its meaning but uses different "
                        "wording. Reply with the new version only.",
            input_format="{input_text}",
            output_format="{output_text}",
            postprocessors=LINE_PROCESSORS,
            __description__="Instruction-only phrasing; the input is the bare text.",
        ),
        "empty": InputOutputTemplate(
            input_format="{input_text}",
            output_format="{output_text}",
            postprocessors=LINE_PROCESSORS,
            __description__="Only the text to paraphrase.",
        ),
    }, tags=tags, task="tasks.rewriting.paraphrase")


def _grammar(add):
    tags = {"task": "grammatical error correction", "modality": "text"}
    add_template_family(add, prefix="templates.grammatical_error_correction", templates={
        "default": MultiReferenceTemplate(
            instruction="Correct the grammar, spelling and punctuation of the following text. If it is already "
                        "correct, repeat it unchanged.",
            input_format="Text: {original_text}",
            target_prefix="Corrected: ",
            references_field="corrected_texts",
            postprocessors=LINE_PROCESSORS,
            __description__="Asks for the corrected text, unchanged when already correct.",
        ),
        "title": MultiReferenceTemplate(
            instruction="Fix every error in the text below.",
            input_format="Original text:\n{original_text}",
            target_prefix="Corrected text:\n",
            references_field="corrected_texts",
            postprocessors=LINE_PROCESSORS,
            __description__="Original and corrected text under headings.",
        ),
        "instruction": MultiReferenceTemplate(
            instruction="You are a careful copy editor. Rewrite the text with its grammatical and spelling "
                        "mistakes fixed, changing as little as possible. Reply with the corrected text only.",
            input_format="{original_text}",
            references_field="corrected_texts",
            postprocessors=LINE_PROCESSORS,
            __description__="Copy-editor persona asking for minimal edits.",
        ),
        "empty": MultiReferenceTemplate(
            input_format="{original_text}",
            references_field="corrected_texts",
            postprocessors=LINE_PROCESSORS,
            __description__="Only the text to correct.",
        ),
        "simple": MultiReferenceTemplate(
            input_format="Correct the grammatical errors in this text: {original_text}",
            references_field="corrected_texts",
            postprocessors=LINE_PROCESSORS,
            __description__="A one-line request followed by the text (the template lm-evaluation-harness's "
                            "coedit_gec task uses).",
        ),
    }, tags=tags, task="tasks.grammatical_error_correction")


def _generation(add):
    tags = {"task": "generation", "modality": "text"}
    add_template_family(add, prefix="templates.generation", templates={
        "default": InputOutputTemplate(
            instruction="Given the following {type_of_input}, generate the corresponding {type_of_output}.",
            input_format="{type_of_input}: {input}",
            target_prefix="{type_of_output}: ",
            output_format="{output}",
            postprocessors=TEXT_PROCESSORS,
            __description__="Names the input and output types; the answer follows '<type_of_output>: '.",
        ),
        "title": InputOutputTemplate(
            instruction="Write the {type_of_output} for the {type_of_input} below.",
            input_format="Input:\n{input}",
            target_prefix="Output:\n",
            output_format="{output}",
            postprocessors=TEXT_PROCESSORS,
            __description__="'Input:' / 'Output:' headings.",
        ),
        "instruction": InputOutputTemplate(
            instruction="Read the {type_of_input} and respond with a {type_of_output}. Reply with the "
                        "{type_of_output} only.",
            input_format="{input}",
            output_format="{output}",
            postprocessors=TEXT_PROCESSORS,
            __description__="Instruction-only phrasing; the input is passed as is.",
        ),
        "empty": InputOutputTemplate(
            input_format="{input}",
            output_format="{output}",
            postprocessors=TEXT_PROCESSORS,
            __description__="The input passed through unchanged; the output is the target.",
        ),
    }, tags=tags, task="tasks.generation")


def _generation_from_pair(add):
    tags = {"task": "generation", "modality": "text"}
    add_template_family(add, prefix="templates.generation.from_pair", templates={
        "default": InputOutputTemplate(
            instruction="Given the following {type_of_input_a} and {type_of_input_b}, generate the corresponding "
                        "{type_of_output}.",
            input_format="{type_of_input_a}:\n{input_a}\n{type_of_input_b}: {input_b}",
            target_prefix="{type_of_output}: ",
            output_format="{output}",
            postprocessors=TEXT_PROCESSORS,
            __description__="Names both inputs and the output type; the answer follows '<type_of_output>: '.",
        ),
        "instruction": InputOutputTemplate(
            instruction="Write the {type_of_output} of the {type_of_input_a} below, using its {type_of_input_b}. "
                        "Reply with the {type_of_output} only.",
            input_format="{input_a}\n{input_b}",
            output_format="{output}",
            postprocessors=TEXT_PROCESSORS,
            __description__="Instruction-only phrasing; the two inputs follow, one after the other.",
        ),
    }, tags=tags, task="tasks.generation.from_pair")


def _language_identification(add):
    tags = {"task": "language identification", "modality": "text"}
    processors = ["processors.take_first_non_empty_line", "processors.lower_case_till_punc"]
    add_template_family(add, prefix="templates.language_identification", templates={
        "default": InputOutputTemplate(
            instruction="Which language is the following text written in? Answer with the name of the language.",
            input_format="Text: {text}",
            target_prefix="Language: ",
            output_format="{label}",
            postprocessors=processors,
            __description__="Asks for the language name after 'Language:'.",
        ),
        "title": InputOutputTemplate(
            instruction="Identify the language of the text below.",
            input_format="Text:\n{text}",
            target_prefix="Answer: ",
            output_format="{label}",
            postprocessors=processors,
            __description__="Text under a heading, then 'Answer:'.",
        ),
        "instruction": InputOutputTemplate(
            instruction="Reply with only the English name of the language this text is written in.",
            input_format="{text}",
            output_format="{label}",
            postprocessors=processors,
            __description__="Instruction-only phrasing; the input is the bare text.",
        ),
        "empty": InputOutputTemplate(
            input_format="{text}",
            output_format="{label}",
            postprocessors=processors,
            __description__="Only the text.",
        ),
    }, tags=tags, task="tasks.language_identification")


def register(add):
    _summarization(add)
    _translation(add)
    _rewriting(add)
    _grammar(add)
    _generation(add)
    _generation_from_pair(add)
    _language_identification(add)
