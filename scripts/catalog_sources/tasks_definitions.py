"""Catalog: every task (tasks.*): typed input/reference fields, prediction type, default metrics.

Templates for these tasks live in the templates_*.py modules; scripts/catalog_sources/TASKS.md summarises the
schemas for card authors (regenerate it with scripts/build_catalog_index.py).
"""

from unitxt.artifact import ArtifactLink
from unitxt.task import Task

CLASSIFICATION_METRICS = ["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"]
# the original's media-typed fields (a text, or an image, audio, table, dialog ... object)
MEDIA = "Union[Text, Image, Audio, Table, Dialog]"
MC_CONTEXT = "Union[Text, Image, Audio, Table, Dialog, Video]"
# as the original's multiple-choice tasks: the choices are inputs and references (templates read them for both)
MC_REFERENCES = {"answer": "Union[int, str]", "choices": "List[str]"}
SPAN_REFERENCES = {"spans_starts": "List[int]", "spans_ends": "List[int]", "labels": "List[str]"}
SPAN_PREDICTION = "List[Tuple[str, str]]"



def single_text_classification(**defaults: str) -> dict:
    """Task arguments of one-text multi-class classification; `defaults` fill e.g. type_of_class."""
    return dict(
        input_fields={"text": "str", "text_type": "str", "classes": "List[str]", "type_of_class": "str"},
        reference_fields={"label": "str"},
        prediction_type="str",
        metrics=CLASSIFICATION_METRICS,
        augmentable_inputs=["text"],
        defaults={"text_type": "text", **defaults},
    )


# name -> (Task keyword arguments, description, extra tags)
TASKS = {
    # ---------------------------------------------------------------- classification
    "classification.multi_class": (single_text_classification(type_of_class="class"), "Assign one class from a given list to a text.", {"task": "classification"}),
    "classification.multi_class.relation": (dict(
        # the original's types: text_a may be a table (cards.tab_fact), an image, audio or a dialog, not only text
        input_fields={"text_a": "Union[Text, Image, Audio, Table, Dialog]", "text_a_type": "str", "text_b": "str",
                      "text_b_type": "str", "classes": "List[str]", "type_of_relation": "str"},
        reference_fields={"label": "str"},
        prediction_type="str",
        metrics=CLASSIFICATION_METRICS,
        augmentable_inputs=["text_a", "text_b"],
        defaults={"text_a_type": "first text", "text_b_type": "second text"},
    ), "Classify the relation between two inputs (e.g. whether a text or table entails a statement) into one of "
       "given classes.",
        {"task": "classification"}),
    "classification.multi_class.topic_classification": (single_text_classification(type_of_class="topic"), "Multi-class classification of a text's topic (type_of_class defaults to 'topic'); same fields and "
       "templates as tasks.classification.multi_class.", {"task": "classification"}),
    "classification.multi_class.sentiment": (single_text_classification(type_of_class="sentiment"), "Multi-class sentiment classification (type_of_class defaults to 'sentiment'); same fields and templates "
       "as tasks.classification.multi_class.", {"task": "classification"}),
    "classification.multi_label": (dict(
        input_fields={"text": "str", "text_type": "str", "classes": "List[str]", "type_of_classes": "str"},
        reference_fields={"labels": "List[str]"},
        prediction_type="List[str]",
        metrics=["metrics.f1_micro_multi_label", "metrics.accuracy", "metrics.f1_macro_multi_label"],
        augmentable_inputs=["text"],
        defaults={"text_type": "text", "type_of_classes": "classes"},
    ), "Assign every applicable class (zero or more) from a given list to a text.", {"task": "classification"}),
    "classification.binary": (dict(
        input_fields={"text": "str", "text_type": "str", "class": "str"},
        reference_fields={"class": "str", "label": "List[str]"},
        prediction_type="List[str]",
        metrics=["metrics.f1_micro_multi_label", "metrics.f1_macro_multi_label", "metrics.accuracy"],
        augmentable_inputs=["text"],
        defaults={"text_type": "text"},
    ), "Decide whether a text belongs to one given class (the same in every instance); 'label' is [] or [class], "
       "and so is the prediction.",
        {"task": "classification"}),
    # ---------------------------------------------------------------- regression
    "regression.single_text": (dict(
        input_fields={"text": "str", "attribute_name": "str", "min_value": "Optional[float]",
                      "max_value": "Optional[float]"},
        reference_fields={"attribute_value": "float"},
        prediction_type="Any",
        metrics=["metrics.spearman"],
        augmentable_inputs=["text"],
        defaults={"min_value": None, "max_value": None},
    ), "Predict a numeric attribute of a text (e.g. a score between min_value and max_value).",
        {"task": "regression"}),
    "regression.two_texts": (dict(
        input_fields={"text1": "str", "text2": "str", "attribute_name": "str", "min_value": "Optional[float]",
                      "max_value": "Optional[float]"},
        reference_fields={"attribute_value": "float"},
        prediction_type="Any",
        metrics=["metrics.spearman"],
        augmentable_inputs=["text1", "text2"],
        defaults={"min_value": None, "max_value": None},
    ), "Predict a numeric attribute of a pair of texts (e.g. their semantic similarity between min_value and "
       "max_value).", {"task": "regression"}),
    "regression.two_texts.similarity": (dict(
        input_fields={"text1": "str", "text2": "str", "attribute_name": "str", "min_value": "Optional[float]",
                      "max_value": "Optional[float]"},
        reference_fields={"attribute_value": "float"},
        prediction_type="Any",
        metrics=["metrics.spearman"],
        augmentable_inputs=["text1", "text2"],
        defaults={"attribute_name": "similarity", "min_value": None, "max_value": None},
    ), "Semantic similarity of two texts as a number (attribute_name defaults to 'similarity'); same templates as "
       "tasks.regression.two_texts.", {"task": "regression"}),
    # ---------------------------------------------------------------- question answering
    "qa.open": (dict(
        input_fields={"question": "str"},
        reference_fields={"answers": "List[str]"},
        prediction_type="str",
        metrics=["metrics.rouge", "metrics.squad"],
        augmentable_inputs=[],  # as the original's
        defaults={"answers": []},  # as the original: a judge over questions alone needs no answers
    ), "Answer a question without supporting context; any of the reference answers is correct.",
        {"task": "question answering"}),
    "qa.extractive": (dict(
        input_fields={"context": "Union[Text, Table, Dialog]", "context_type": "str",
                      "question": "Union[Text, Dialog]"},
        reference_fields={"answers": "List[str]"},
        prediction_type="str",
        metrics=["metrics.squad"],
        augmentable_inputs=["context", "question"],
        defaults={"context_type": "text"},
    ), "Answer a question with a span copied from the given context (a text, table or dialog).",
        {"task": "extractive question answering"}),
    "qa.multiple_choice.open": (dict(
        input_fields={"question": "str", "choices": "List[str]"},
        reference_fields=dict(MC_REFERENCES),
        prediction_type="str",
        metrics=["metrics.accuracy"],
        augmentable_inputs=["question"],
    ), "Pick the right answer among enumerated choices; 'answer' is the index of the right choice or its text.",
        {"task": "multiple choice question answering"}),
    "qa.multiple_choice.with_topic": (dict(
        input_fields={"topic": "str", "question": "str", "choices": "List[str]"},
        reference_fields=dict(MC_REFERENCES),
        prediction_type="str",
        metrics=["metrics.accuracy"],
        augmentable_inputs=["topic", "question"],
    ), "Multiple-choice question on a named topic (exam style); 'answer' is the index of the right choice or its "
       "text.", {"task": "multiple choice question answering"}),
    "qa.multiple_choice.with_context": (dict(
        input_fields={"context": MC_CONTEXT, "context_type": "str", "question": "str", "choices": "List[str]"},
        reference_fields=dict(MC_REFERENCES),
        prediction_type="str",
        metrics=["metrics.accuracy"],
        augmentable_inputs=["context", "question"],
        defaults={"context_type": "text"},
    ), "Multiple-choice question about a given context; 'answer' is the index of the right choice or its text.",
        {"task": "multiple choice question answering"}),
    # ---------------------------------------------------------------- generation tasks
    "summarization.abstractive": (dict(
        input_fields={"document": "str", "document_type": "str"},
        reference_fields={"summaries": "List[str]"},
        prediction_type="str",
        metrics=["metrics.rouge"],
        augmentable_inputs=["document"],
        defaults={"document_type": "document"},
    ), "Write a short summary of a document in new words; any of the reference summaries is a good answer.",
        {"task": "summarization"}),
    "translation.directed": (dict(
        input_fields={"text": "str", "source_language": "str", "target_language": "str"},
        reference_fields={"translation": "str"},
        prediction_type="str",
        metrics=["metrics.normalized_sacrebleu"],
        augmentable_inputs=[],  # as the original's
    ), "Translate a text from a named source language into a named target language.", {"task": "translation"}),
    "rewriting.paraphrase": (dict(
        input_fields=["input_text", "text_type"],  # untyped (Any), as the original's
        reference_fields=["output_text"],
        metrics=["metrics.rouge"],
        defaults={"text_type": "text"},
    ), "Rewrite a text with different words while keeping its meaning.", {"task": "paraphrasing"}),
    "grammatical_error_correction": (dict(
        input_fields=["original_text"],  # untyped (Any), as the original's
        reference_fields=["corrected_texts"],
        metrics=["metrics.char_edit_dist_accuracy", "metrics.rouge",
                 "metrics.char_edit_distance[reference_field=original_text]"],
    ), "Correct the grammar, spelling and punctuation of a text; any of the corrected texts is a good answer.",
        {"task": "grammatical error correction"}),
    "generation": (dict(
        input_fields={"input": "str", "type_of_input": "str", "type_of_output": "str"},
        reference_fields={"output": "str"},
        prediction_type="str",
        metrics=["metrics.normalized_sacrebleu"],
        augmentable_inputs=["input"],
        defaults={"type_of_input": "input", "type_of_output": "Text"},  # type_of_output: the original's default
    ), "Generic text-to-text generation: produce an output of a named type from an input of a named type.",
        {"task": "generation"}),
    "generation.from_pair": (dict(
        input_fields={"input_a": MEDIA, "type_of_input_a": "str", "input_b": MEDIA, "type_of_input_b": "str",
                      "type_of_output": "str"},
        reference_fields={"output": "str"},
        prediction_type="str",
        metrics=["metrics.rouge"],
        augmentable_inputs=["input_a", "input_b"],
        defaults={"type_of_input_a": "first input", "type_of_input_b": "second input", "type_of_output": "Text"},
    ), "Generate an output from two named inputs (e.g. a table and its caption); input_a may be a table.",
        {"task": "generation"}),
    "language_identification": (dict(
        input_fields={"text": "str"},
        reference_fields={"label": "str"},
        prediction_type="str",
        metrics=["metrics.accuracy"],
        augmentable_inputs=[],  # as the original's
    ), "Name the language a text is written in.", {"task": "language identification"}),
    # ---------------------------------------------------------------- span labeling
    "span_labeling.extraction": (dict(
        input_fields={"text": "str", "text_type": "str", "entity_types": "List[str]"},
        reference_fields={"text": "str", **SPAN_REFERENCES},
        prediction_type=SPAN_PREDICTION,
        metrics=["metrics.ner"],
        augmentable_inputs=["text"],
        defaults={"text_type": "text"},
    ), "Extract the entities of a text whose type is one of entity_types; references are character offsets (end "
       "exclusive) into text with one entity type per span.", {"task": "span labeling"}),
    "ner.single_entity_type": (dict(
        input_fields={"text": "str", "entity_type": "str"},
        reference_fields={"spans_starts": "List[int]", "spans_ends": "List[int]", "text": "str", "labels": "List[str]"},
        prediction_type=SPAN_PREDICTION,
        metrics=["metrics.ner"],
        augmentable_inputs=["text"],
    ), "Named entity recognition for one entity type; references are character offsets (end exclusive) with the "
       "entity type as each span's label.", {"task": "named entity recognition"}),
    # ---------------------------------------------------------------- response assessment (LLM as judge)
    "response_assessment.rating.single_turn": (dict(
        input_fields={"question": "str", "answer": "str"},
        reference_fields={"rating": "float"},
        prediction_type="float",
        metrics=["metrics.spearman"],
    ), "Rate the quality of an answer to a question (a judge task; gold ratings evaluate the judge).",
        {"task": "response assessment"}),
    "response_assessment.rating.single_turn_with_reference": (dict(
        input_fields={"question": "str", "answer": "str", "reference_answer": "str"},
        reference_fields={"rating": "float"},
        prediction_type="float",
        metrics=["metrics.spearman"],
    ), "Rate an answer to a question by comparing it with a reference answer (a judge task).",
        {"task": "response assessment"}),
    "response_assessment.pairwise_comparative_rating.single_turn": (dict(
        input_fields={"question": "str", "answer_a": "str", "answer_b": "str", "model_a": "str", "model_b": "str"},
        reference_fields={"answer_a_preference": "int"},
        prediction_type="int",
        metrics=["metrics.weighted_win_rate_correlation", "metrics.accuracy"],
    ), "Rate how much better answer A is than answer B (3, 1, 0, -1, -3 for A>>B .. B>>A; a judge task); the models "
       "behind the answers let the metric compare the win rates the judge implies with the gold ones.",
        {"task": "response assessment"}),
    # ---------------------------------------------------------------- RAG
    "rag.response_generation": (dict(
        input_fields={"contexts": "List[str]", "contexts_ids": "Union[List[int], List[str]]", "question": "str"},
        reference_fields={"reference_answers": "List[str]"},
        prediction_type="str",
        # the original's defaults but its BERTScore one (a model download): token overlap with the references and
        # with the contexts
        metrics=["metrics.rag.response_generation.correctness.token_overlap",
                 "metrics.rag.response_generation.faithfullness.token_overlap"],
        augmentable_inputs=["contexts", "question"],
        defaults={"contexts_ids": [], "reference_answers": []},
    ), "Answer a question from retrieved passages (the generation step of retrieval-augmented generation); "
       "contexts_ids optionally names the passages.", {"task": "rag"}),
    "rag.end_to_end": (dict(
        input_fields={"question": "Union[str, Dialog]", "question_id": "Any", "metadata_tags": "Dict[str, str]"},
        reference_fields={"reference_answers": "List[str]", "reference_contexts": "List[str]",
                          "reference_context_ids": "Union[List[int], List[str]]", "is_answerable_label": "bool"},
        prediction_type="RagResponse",
        # the original's defaults but the two that need a model download (answer_reward: a reward model,
        # context_relevance: flan-t5 perplexity)
        metrics=["metrics.rag.end_to_end.answer_correctness", "metrics.rag.end_to_end.answer_faithfulness",
                 "metrics.rag.end_to_end.context_correctness"],
        augmentable_inputs=["question"],
        defaults={"question_id": "", "metadata_tags": {}, "reference_answers": [], "reference_contexts": [],
                  "reference_context_ids": [], "is_answerable_label": True},
    ), "Evaluate a whole RAG pipeline: predictions are RagResponse dicts {'answer', 'contexts', 'context_ids', "
       "'is_answerable'} compared with the reference answers, contexts and context ids.", {"task": "rag"}),
    "rag.retrieval": (dict(
        input_fields={"question": "str"},
        reference_fields={"context_ids": "List[str]"},
        prediction_type="List[str]",
        metrics=["metrics.mrr", "metrics.map"],
    ), "Retrieve the ids of the passages relevant to a question, best first.", {"task": "retrieval"}),
}

# the template a recipe uses when it names none and the card lists no templates (Task.default_template)
DEFAULT_TEMPLATES = {
    "classification.multi_class": "templates.classification.multi_class.title",
    "classification.multi_class.relation": "templates.classification.multi_class.relation.default",
    "classification.multi_class.topic_classification": "templates.classification.multi_class.title",
    "classification.multi_class.sentiment": "templates.classification.multi_class.title",
    "classification.multi_label": "templates.classification.multi_label.title",
    "classification.binary": "templates.classification.binary.default",
    "regression.single_text": "templates.regression.single_text.default",
    "regression.two_texts": "templates.regression.two_texts.simple",
    "regression.two_texts.similarity": "templates.regression.two_texts.simple",
    "qa.open": "templates.qa.open.default",
    "qa.extractive": "templates.qa.extractive",
    "qa.multiple_choice.open": "templates.qa.multiple_choice.open.default",
    "qa.multiple_choice.with_topic": "templates.qa.multiple_choice.with_topic.default",
    "qa.multiple_choice.with_context": "templates.qa.multiple_choice.with_context.default",
    "summarization.abstractive": "templates.summarization.abstractive.full",
    "translation.directed": "templates.translation.directed.default",
    "rewriting.paraphrase": "templates.rewriting.paraphrase.default",
    "grammatical_error_correction": "templates.grammatical_error_correction.simple",
    "generation": "templates.generation.default",
    "generation.from_pair": "templates.generation.from_pair.default",
    "language_identification": "templates.language_identification.default",
    "span_labeling.extraction": "templates.span_labeling.extraction.detailed",
    "ner.single_entity_type": "templates.ner.single_entity_type.default",
    "response_assessment.rating.single_turn": "templates.response_assessment.rating.single_turn.default",
    "response_assessment.rating.single_turn_with_reference":
        "templates.response_assessment.rating.single_turn_with_reference.default",
    "response_assessment.pairwise_comparative_rating.single_turn":
        "templates.response_assessment.pairwise_comparative_rating.arena_hard",
    "rag.response_generation": "templates.rag.response_generation.default",
    "rag.end_to_end": "templates.rag.end_to_end.json_predictions",
    "rag.retrieval": "templates.rag.retrieval.default",
}

# old or shorter names kept as links
LINKS = {
    # as the original's: these names lead to the task of the same schema
    "tasks.qa.with_context.extractive": ("tasks.qa.extractive", "Another name of tasks.qa.extractive."),
    "tasks.qa.with_context.abstractive": ("tasks.qa.with_context", "Another name of tasks.qa.with_context."),
    "tasks.ner.all_entity_types": ("tasks.span_labeling.extraction", "Another name of tasks.span_labeling.extraction "
                                   "(NER over several entity types: 'text' is an input and a reference)."),
    "tasks.span_labeling": ("tasks.span_labeling.extraction", "Short name of tasks.span_labeling.extraction."),
}


def register(add):
    for name, (kwargs, description, tags) in TASKS.items():
        tags = {"modality": "text", **tags}
        if name in DEFAULT_TEMPLATES and "default_template" not in kwargs:
            kwargs = {**kwargs, "default_template": DEFAULT_TEMPLATES[name]}
        add(f"tasks.{name}", Task(**kwargs, __description__=description, __tags__=tags))
    for name, (target, description) in LINKS.items():
        add(name, ArtifactLink(to=target, __description__=description, __tags__={"kind": "link"}))
