"""Catalog: span labeling / NER templates, response assessment (LLM-as-judge) templates and RAG templates."""

from _shared import add_template_family
from unitxt.serializers import ListSerializer
from unitxt.templates import InputOutputTemplate, MultiReferenceTemplate, PairwiseComparativeRatingTemplate
from unitxt.templates.spans import SpanLabelingTemplate

SPAN_PROCESSORS = ["processors.to_span_label_pairs"]
RATING_PROCESSORS = ["processors.extract_mt_bench_rating_judgment"]
NUMBER_PROCESSORS = ["processors.take_first_non_empty_line", "processors.cast_to_float_return_nan_if_failed"]
ANSWER_PROCESSORS = ["processors.take_first_non_empty_line", "processors.to_string_stripped"]


def _spans(add):
    tags = {"task": "span labeling", "modality": "text"}
    add_template_family(add, prefix="templates.span_labeling.extraction", templates={
        "default": SpanLabelingTemplate(
            instruction="Find every entity of the {text_type} whose type is one of: {entity_types}. List them as "
                        "'entity: type' separated by commas, or write None when there is none.",
            input_format="{text_type}: {text}",
            target_prefix="Spans: ",
            postprocessors=SPAN_PROCESSORS,
            __description__="Explains the 'span: label' answer format; 'None' when nothing is found.",
        ),
        "identify": SpanLabelingTemplate(
            input_format="From the following {text_type}, identify spans with entity type:{entity_types}.\n"
                         "{text_type}: {text}",
            postprocessors=SPAN_PROCESSORS,
            __description__="One-line request naming the classes, then the text; answers 'span: label, ...'.",
        ),
        "instruction": SpanLabelingTemplate(
            instruction="Extract from the {text_type} every mention whose entity type is among {entity_types}. Reply "
                        "only with 'mention: type' pairs separated by commas, in order of appearance, or None.",
            input_format="{text}",
            postprocessors=SPAN_PROCESSORS,
            __description__="Instruction-only phrasing; the input is the bare text.",
        ),
        "title": SpanLabelingTemplate(
            instruction="Mark the spans of the {text_type} below whose entity type is one of {entity_types}. "
                        "Answer in the form 'span: type, span: type'.",
            input_format="Text:\n{text}",
            target_prefix="Spans:\n",
            postprocessors=SPAN_PROCESSORS,
            __description__="Text under a heading; answer under 'Spans:'.",
        ),
        "empty": SpanLabelingTemplate(
            input_format="{text}",
            postprocessors=SPAN_PROCESSORS,
            __description__="Only the text; the answer is 'span: label, ...' (or None).",
        ),
    }, tags=tags, task="tasks.span_labeling.extraction")

    ner_tags = {"task": "named entity recognition", "modality": "text"}
    add_template_family(add, prefix="templates.ner.all_entity_types", templates={
        "default": SpanLabelingTemplate(
            instruction="List the named entities of the following text whose type is one of: {entity_types}. "
                        "Write them as 'entity: type' separated by commas, or None when there is none.",
            input_format="Text: {text}",
            target_prefix="Entities: ",
            postprocessors=SPAN_PROCESSORS,
            __description__="Asks for 'entity: type' pairs of the given types.",
        ),
        "title": SpanLabelingTemplate(
            instruction="Extract the entities of types {entity_types} from the text below as 'entity: type, ...'.",
            input_format="Text:\n{text}",
            target_prefix="Entities:\n",
            postprocessors=SPAN_PROCESSORS,
            __description__="Text and entities under headings.",
        ),
        "empty": SpanLabelingTemplate(
            input_format="{text}",
            postprocessors=SPAN_PROCESSORS,
            __description__="Only the text.",
        ),
    }, tags=ner_tags, task="tasks.ner.all_entity_types")

    add_template_family(add, prefix="templates.ner.single_entity_type", templates={
        "default": SpanLabelingTemplate(
            instruction="List every {entity_type} mentioned in the following text as '<mention>: {entity_type}', "
                        "separated by commas, or write None when there is none.",
            input_format="Text: {text}",
            target_prefix="Entities: ",
            postprocessors=SPAN_PROCESSORS,
            __description__="Asks for the mentions of one entity type.",
        ),
        "title": SpanLabelingTemplate(
            instruction="Find the {entity_type} entities in the text below.",
            input_format="Text:\n{text}",
            target_prefix="Entities:\n",
            postprocessors=SPAN_PROCESSORS,
            __description__="Text and entities under headings.",
        ),
        "empty": SpanLabelingTemplate(
            input_format="{text}",
            postprocessors=SPAN_PROCESSORS,
            __description__="Only the text.",
        ),
    }, tags=ner_tags, task="tasks.ner.single_entity_type")


JUDGE_INSTRUCTION = (
    "You are an impartial judge. Assess how well the AI assistant's response below serves the user's question, "
    "weighing helpfulness, relevance, accuracy, depth, creativity and level of detail.{reference_note} First "
    "explain your assessment briefly and objectively. Then rate the response from 1 to 10, writing the rating in "
    "double square brackets exactly like this: \"Rating: [[5]]\".\n\n"
)


def _judges(add):
    tags = {"task": "response assessment", "modality": "text"}
    add_template_family(add, prefix="templates.response_assessment.rating.single_turn", templates={
        "default": InputOutputTemplate(
            instruction="Rate the quality of the answer to the question on a scale from 1 to 10. Reply with the "
                        "number only.",
            input_format="Question: {question}\nAnswer: {answer}",
            target_prefix="Rating: ",
            output_format="{rating}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Direct numeric rating of an answer.",
        ),
        "title": InputOutputTemplate(
            instruction="Judge the answer below and give it a score from 1 (useless) to 10 (excellent).",
            input_format="Question:\n{question}\n\nAnswer:\n{answer}",
            target_prefix="Score: ",
            output_format="{rating}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Question and answer under headings, then 'Score:'.",
        ),
        "templates.response_assessment.rating.mt_bench_single_turn": InputOutputTemplate(
            instruction=JUDGE_INSTRUCTION.format(reference_note=""),
            input_format="[User Question]\n{question}\n\n[Assistant Response Begins]\n{answer}\n"
                         "[Assistant Response Ends]",
            output_format="[[{rating}]]",
            postprocessors=RATING_PROCESSORS,
            __description__="MT-Bench style judge prompt: explanation, then a 1-10 rating as '[[N]]' (read as N/10).",
        ),
    }, tags=tags, task="tasks.response_assessment.rating.single_turn")

    reference_note = (" Compare it with the reference answer, which is correct; mistakes relative to the reference "
                      "lower the rating.")
    add_template_family(add, prefix="templates.response_assessment.rating.single_turn_with_reference", templates={
        "default": InputOutputTemplate(
            instruction="Rate the answer to the question on a scale from 1 to 10, using the reference answer as the "
                        "standard of correctness. Reply with the number only.",
            input_format="Question: {question}\nReference answer: {reference_answer}\nAnswer: {answer}",
            target_prefix="Rating: ",
            output_format="{rating}",
            postprocessors=NUMBER_PROCESSORS,
            __description__="Direct numeric rating of an answer against a reference.",
        ),
        "templates.response_assessment.rating.mt_bench_single_turn_with_reference": InputOutputTemplate(
            instruction=JUDGE_INSTRUCTION.format(reference_note=reference_note),
            input_format="[User Question]\n{question}\n\n[Reference Answer Begins]\n{reference_answer}\n"
                         "[Reference Answer Ends]\n\n[Assistant Response Begins]\n{answer}\n"
                         "[Assistant Response Ends]",
            output_format="[[{rating}]]",
            postprocessors=RATING_PROCESSORS,
            __description__="MT-Bench style judge prompt with a reference answer; rating '[[N]]' read as N/10.",
        ),
    }, tags=tags, task="tasks.response_assessment.rating.single_turn_with_reference")

    verdicts = ("[[A>>B]] (A much better), [[A>B]] (A better), [[A=B]] (tie), [[B>A]] (B better) or [[B>>A]] (B "
                "much better)")
    preference = dict(choice_a_field="answer_a", choice_b_field="answer_b", choice_a_id_field="model_a",
                      choice_b_id_field="model_b", answer_field="answer_a_preference", shuffle=False,
                      output_format="[[{answer_a_preference}]]",
                      postprocessors=["processors.extract_arena_hard_preference"])
    add_template_family(add, prefix="templates.response_assessment.pairwise_comparative_rating.single_turn", templates={
        "default": PairwiseComparativeRatingTemplate(
            instruction=f"Two assistants answered the same question. Decide which answer is better and by how much; "
                        f"reply with one verdict: {verdicts}.",
            input_format="Question: {question}\n\nAnswer A: {answer_a}\n\nAnswer B: {answer_b}",
            target_prefix="Verdict: ", **preference,
            __description__="Short pairwise preference prompt; the verdict [[A>>B]]..[[B>>A]] is read as 3..-3.",
        ),
        "templates.response_assessment.pairwise_comparative_rating.mt_bench_single_turn":
            PairwiseComparativeRatingTemplate(
                instruction="You are an impartial judge comparing two AI assistants' responses to the user question "
                            "below. Judge helpfulness, relevance, accuracy, depth, creativity and detail; ignore the "
                            "order and length of the responses and the assistants' names. Explain your comparison "
                            f"briefly, then give one verdict: {verdicts}.\n\n",
                input_format="[User Question]\n{question}\n\n[Assistant A Begins]\n{answer_a}\n[Assistant A Ends]"
                             "\n\n[Assistant B Begins]\n{answer_b}\n[Assistant B Ends]", **preference,
                __description__="MT-Bench style pairwise preference prompt; the verdict [[A>>B]]..[[B>>A]] is read "
                                "as 3..-3.",
            ),
    }, tags=tags, task="tasks.response_assessment.pairwise_comparative_rating.single_turn")


def _rag(add):
    tags = {"task": "rag", "modality": "text"}
    passages = ListSerializer(separator="\n\n")
    add_template_family(add, prefix="templates.rag.response_generation", templates={
        "default": MultiReferenceTemplate(
            instruction="Answer the question using the passages below. If they do not contain the answer, say so.",
            input_format="Passages:\n{contexts}\n\nQuestion: {question}",
            target_prefix="Answer: ",
            references_field="reference_answers",
            serializer=passages,
            postprocessors=["processors.to_string_stripped"],
            __description__="Passages separated by blank lines, then the question; answers grounded in them.",
        ),
        "title": MultiReferenceTemplate(
            instruction="Use only the retrieved documents to answer the question.",
            input_format="Documents:\n{contexts}\n\nQuestion:\n{question}",
            target_prefix="Answer:\n",
            references_field="reference_answers",
            serializer=passages,
            postprocessors=["processors.to_string_stripped"],
            __description__="Documents, question and answer under headings.",
        ),
        "instruction": MultiReferenceTemplate(
            instruction="Answer the user's question in one or two sentences, relying only on the passages given "
                        "with it. If the passages do not contain the answer, reply that you do not "
                        "know.",
            input_format="{contexts}\n\nQuestion: {question}",
            references_field="reference_answers",
            serializer=passages,
            postprocessors=["processors.to_string_stripped"],
            __description__="Grounded-answer instruction that asks to admit when the passages lack the answer.",
        ),
        "empty": MultiReferenceTemplate(
            input_format="{contexts}\n\n{question}",
            references_field="reference_answers",
            serializer=passages,
            postprocessors=["processors.to_string_stripped"],
            __description__="Only the passages and the question.",
        ),
    }, tags=tags, task="tasks.rag.response_generation")

    add_template_family(add, prefix="templates.rag.end_to_end", templates={
        "default": MultiReferenceTemplate(
            input_format="{question}",
            references_field="reference_answers",
            postprocessors=[],
            __description__="The question passed to a RAG pipeline; predictions (answer/contexts dicts) are not "
                            "post-processed.",
        ),
    }, tags=tags, task="tasks.rag.end_to_end")

    add_template_family(add, prefix="templates.rag.retrieval", templates={
        "default": InputOutputTemplate(
            instruction="List the ids of the passages relevant to the question, most relevant first, separated by "
                        "commas.",
            input_format="Question: {question}",
            target_prefix="Ids: ",
            output_format="{context_ids}",
            output_list_separator=", ",
            postprocessors=["processors.take_first_non_empty_line", "processors.to_list_by_comma"],
            __description__="Asks for a comma-separated ranked list of passage ids.",
        ),
    }, tags={"task": "retrieval", "modality": "text"}, task="tasks.rag.retrieval")


def register(add):
    _spans(add)
    _judges(add)
    _rag(add)
