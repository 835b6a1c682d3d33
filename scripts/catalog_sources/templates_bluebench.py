"""Catalog: the prompt variants BlueBench draws from (templates.<family>.bluebench lists and their members), the
span-extraction prompt of its NER subset, the completion task's multiple-choice templates and BlueBench's Arena-Hard
judge. Each variant keeps its family's fields and post-processing; only the (our) wording changes."""

from _factory import make
from unitxt.templates import TemplatesList

P = "processors."
CLASSIFY = dict(input_format="{text}", output_format="{label}",
                postprocessors=[P + "take_first_non_empty_line", P + "lower_case_till_punc"])
TRANSLATE = dict(input_format="{source_language}: {text}", output_format="{translation}", target_prefix="{target_language}: ",
                 postprocessors=[P + "take_first_non_empty_line", P + "to_string_stripped"])
SUMMARIZE = dict(input_format="{document_type}: {document}", references_field="summaries", target_prefix="Summary: ",
                 postprocessors=[P + "to_string_stripped"])
RAG = dict(input_format="Context: {contexts}\nQuestion: {question}.\n", references_field="reference_answers",
           postprocessors=[P + "to_string_stripped"], serializer=make("list_serializer", separator="\n\n"))
COMPLETE = dict(target_field="answer", choices_separator="\n", postprocessors=[P + "first_character"])
# family -> (template type, shared settings, {variant: instruction}, list members in order)
FAMILIES = {
    "templates.classification.multi_class": ("input_output_template", CLASSIFY, {
        "instruct_question_selects": "Which {type_of_class} fits this {text_type} best? Select one of: {classes}. "
                                     "Reply with the {type_of_class} only.",
        "instruct_question_select_i_think": "Think about the {text_type}, then select the {type_of_class} it "
                                            "belongs to among {classes}. Write only that {type_of_class}.",
    }, ["instruction", "instruct_question_selects", "instruct_question_select_i_think"]),
    "templates.translation.directed": ("input_output_template", TRANSLATE, {
        "simple": "Translate from {source_language} to {target_language}.",
        "formal": "Please provide a faithful {target_language} translation of the {source_language} text below.",
        "casual": "How would you say this in {target_language}? The text is in {source_language}.",
    }, ["simple", "formal", "casual"]),
    "templates.summarization.abstractive": ("multi_reference_template", SUMMARIZE, {
        "instruct_full": "Write a summary of the {document_type} covering its main points.",
        "instruct_one_sentence": "Summarize the {document_type} in one sentence.",
        "instruct_passive": "A summary of the {document_type} is to be written, keeping only what matters.",
        "instruct_write_succinct": "Write a succinct summary of the {document_type}.",
        "instruct_tldr": "TL;DR of the {document_type}:",
    }, ["instruct_full", "instruct_one_sentence", "instruct_passive", "instruct_write_succinct", "instruct_tldr"]),
    "templates.rag.response_generation": ("multi_reference_template", dict(RAG, target_prefix="Response:"), {
        "please_respond": "Please answer the question from the passages; if they do not hold the answer, say so.",
        "please_respond_chat": "You are a helpful assistant. Answer the user's question using only the passages "
                               "given; say when they do not hold the answer.",
        "answer_based_on_context": "Base your answer on the passages only.",
    }, ["please_respond", "please_respond_chat", "answer_based_on_context"]),
    "templates.completion.multiple_choice": ("multiple_choice_template", COMPLETE, {
        "simple": "Which ending fits the {context_type} best?",
        "enumerated": "Complete the {context_type}: choose one ending by its letter ({numerals}).",
        "standard": "Choose the most likely continuation of the {context_type}.",
    }, ["simple", "enumerated", "standard"]),
}
INPUTS = {"templates.completion.multiple_choice": "{context_type}: {context}\nEndings:\n{choices}"}


def register(add):
    for family, (kind, shared, variants, members) in FAMILIES.items():
        settings = dict(shared)
        if family in INPUTS:
            settings.update(input_format=INPUTS[family], target_prefix="Answer: ")
        for variant, instruction in variants.items():
            add(f"{family}.{variant}", make(kind, instruction=instruction, **settings,
                                            description=f"BlueBench prompt variant of {family}.",
                                            tags={"benchmark": "bluebench"}))
        add(f"{family}.bluebench", TemplatesList(
            [f"{family}.{member}" for member in members], __tags__={"benchmark": "bluebench"},
            __description__=f"The {family} prompts BlueBench draws from (one per instance)."))
    add("templates.completion.multiple_choice.all", TemplatesList(
        ["templates.completion.multiple_choice.simple", "templates.completion.multiple_choice.enumerated",
         "templates.completion.multiple_choice.standard"], __tags__={"task": "completion"},
        __description__="Every multiple-choice completion template."))
    add("templates.span_labeling.extraction.detailed", make(
        "span_labeling_template", input_format="{text_type}:\n{text}", postprocessors=[P + "to_span_label_pairs"],
        instruction="List every entity of the {text_type} whose type is one of: {entity_types}. Write them as "
                    "comma-separated 'entity:type' pairs.", tags={"benchmark": "bluebench"},
        description="Entity extraction answered as 'entity:type' pairs (BlueBench NER)."))
    add("metrics.llm_as_judge.pairwise_comparative_rating.llama_3_3_70b_instruct.template_arena_hard", make(
        "llm_as_judge", inference_model=make("cross_provider_inference_engine", model="llama-3-3-70b-instruct",
                                             max_tokens=2048),
        template="templates.response_assessment.pairwise_comparative_rating.arena_hard",
        task="pairwise_comparative_rating.single_turn", format="formats.chat_api",
        main_score="llama_3_70b_instruct_template_arena_hard", tags={"kind": "metric", "family": "llm_as_judge"},
        description="Arena-Hard pairwise judge (score 3..-3) run by Llama-3.3-70B-Instruct on the default provider."))
