"""Catalog: more tasks (tasks.*) - tool calling, text-to-SQL, schema linking, completion, key-value extraction,
preference, rewriting/selection by attribute and QA variants.

Field names, types, defaults, prediction types and metrics are facts of the original tasks of the same names (the
compat tier compares them); descriptions are ours.
"""

from unitxt.task import Task

CONTEXT_ANY = "Union[Text, Image, Audio, Table, Dialog]"
TEXT2SQL_INPUTS = {"id": "str", "utterance": "str", "hint": "Optional[str]", "db": "SQLDatabase"}

# the original's targeted sentiment tasks declare 'text' as a str input and a List[str] reference: they exist (their
# templates and programs name them) and refuse every instance, as the original's do
_TARGETED_REFERENCES = {"spans_starts": "List[int]", "spans_ends": "List[int]", "text": "List[str]", "labels": "List[str]"}

# name -> (Task keyword arguments, description, task tag)
TASKS = {
    "targeted_sentiment_extraction.all_sentiment_classes": (dict(
        input_fields={"text": "str", "text_type": "str"}, reference_fields=dict(_TARGETED_REFERENCES),
        prediction_type="List[Tuple[str, str]]", metrics=["metrics.ner"], augmentable_inputs=["text"],
        defaults={"text_type": "text"},
    ), "Extract the spans that carry a sentiment, with their sentiment class. As the original's, it declares 'text' "
       "with two types and so refuses every instance; use tasks.span_labeling.extraction.", "targeted sentiment"),
    "targeted_sentiment_extraction.single_sentiment_class": (dict(
        input_fields={"text": "str", "text_type": "str", "sentiment_class": "str"},
        reference_fields=dict(_TARGETED_REFERENCES), prediction_type="List[Tuple[str, str]]",
        metrics=["metrics.ner"], augmentable_inputs=["text"], defaults={"text_type": "text"},
    ), "Extract the spans of one sentiment class. As the original's, it declares 'text' with two types and so "
       "refuses every instance; use tasks.span_labeling.extraction.", "targeted sentiment"),
    # ---------------------------------------------------------------- tool calling
    "tool_calling.supervised": (dict(
        input_fields={"query": "str", "tools": "List[Tool]"},
        reference_fields={"reference_calls": "List[ToolCall]"},
        prediction_type="ToolCall",
        metrics=["metrics.tool_calling"],
        default_template="templates.tool_calling.base",
        requirements=["jsonschema-rs"],
    ), "Answer a user query with one call to one of the offered tools (name and arguments); any of the reference "
       "calls counts as correct.", "tool calling"),
    "tool_calling.multi_turn": (dict(
        input_fields={"dialog": "Dialog", "tools": "List[Tool]"},
        reference_fields={"reference_calls": "List[ToolCall]"},
        prediction_type="List[ToolCall]",
        metrics=["metrics.tool_calling.multi_turn.validity"],
        default_template="templates.tool_calling.multi_turn",
        requirements=["jsonschema-rs"],
    ), "Continue a dialog with the tool calls it needs next; the calls are checked against the tools' parameter "
       "schemas.", "tool calling"),
    # ---------------------------------------------------------------- SQL
    "text2sql": (dict(
        input_fields=dict(TEXT2SQL_INPUTS),
        reference_fields={"query": "str"},
        prediction_type="str",
        metrics=["metrics.text2sql.execution_accuracy", "metrics.text2sql.non_execution_accuracy", "metrics.anls"],
    ), "Write the SQL query that answers a question over a database (its schema comes from 'db'; 'hint' may add "
       "domain knowledge); scored by running both queries.", "text-to-sql"),
    "text2sql_logic": (dict(
        input_fields=dict(TEXT2SQL_INPUTS),
        reference_fields={"query": "str"},
        prediction_type="str",
        metrics=["metrics.text2sql.execution_logic_accuracy", "metrics.text2sql.non_execution_accuracy",
                 "metrics.anls"],
    ), "Text-to-SQL scored by the logic of the results (execution_logic_accuracy) rather than exact result "
       "equality.", "text-to-sql"),
    "schema_linking": (dict(
        input_fields={"id": "str", "utterance": "str", "hint": "str", "schema": "List[str]"},
        reference_fields={"linked_schema": "List[str]"},
        prediction_type="List[str]",
        metrics=["metrics.f1_macro_multi_label", "metrics.recall_macro_multi_label",
                 "metrics.precision_macro_multi_label"],
    ), "List the schema elements (tables, columns) a question over a database needs.", "text-to-sql"),
    # ---------------------------------------------------------------- completion
    "completion.abstractive": (dict(
        input_fields={"context": "str", "context_type": "str", "completion_type": "str"},
        reference_fields={"completion": "str"},
        prediction_type="str",
        metrics=["metrics.rouge"],
    ), "Continue a text with a completion of a named kind, in free words.", "completion"),
    "completion.extractive": (dict(
        input_fields={"context": "str", "context_type": "str", "completion_type": "str"},
        reference_fields={"completion": "str"},
        prediction_type="Dict[str, Any]",
        metrics=["metrics.squad"],
    ), "Complete a text with a span; scored with SQuAD exact match and F1.", "completion"),
    "completion.multiple_choice": (dict(
        input_fields={"context": "str", "context_type": "str", "choices": "List[str]"},
        reference_fields={"answer": "int", "choices": "List[str]"},
        prediction_type="Any",
        metrics=["metrics.accuracy"],
    ), "Pick which of the given endings completes a text; 'answer' is the index of the right ending.",
        "completion"),
    # ---------------------------------------------------------------- extraction
    "key_value_extraction": (dict(
        input_fields={"input": "Any", "keys": "List[str]"},
        reference_fields={"key_value_pairs_answer": "Dict[str, str]"},
        prediction_type="Dict[str, str]",
        metrics=["metrics.key_value_extraction.accuracy", "metrics.key_value_extraction.token_overlap"],
        default_template="templates.key_value_extraction.extract_in_json_format",
    ), "Read the value of each named key from an input (a text or an image, e.g. a form) and return them as a "
       "mapping.", "key-value extraction"),
    # ---------------------------------------------------------------- classification and selection
    "classification.multi_class.with_classes_descriptions": (dict(
        input_fields={"text": "str", "text_type": "str", "classes": "List[str]", "type_of_class": "str",
                      "classes_descriptions": "str"},
        reference_fields={"label": "str"},
        prediction_type="str",
        metrics=["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"],
        augmentable_inputs=["text"],
        defaults={"text_type": "text", "type_of_class": "class"},
    ), "Multi-class classification where a text explains what each class means ('classes_descriptions').",
        "classification"),
    "evaluation.preference": (dict(
        input_fields={"input": "str", "input_type": "str", "output_type": "str", "choices": "List[str]",
                      "instance_instruction": "str"},
        reference_fields={"choices": "List[str]", "output_choice": "int"},
        metrics=["metrics.accuracy"],
        augmentable_inputs=["input", "instance_instruction"],
    ), "Say which of several outputs for an input is preferred; 'output_choice' is the index of the preferred one.",
        "preference"),
    "rewriting.by_attribute": (dict(
        input_fields=["input_text", "input_text_type", "required_attribute", "output_text_type"],
        reference_fields=["output_text"],
        metrics=["metrics.rouge"],
        defaults={"input_text_type": "text", "output_text_type": "text"},
    ), "Rewrite a text so that it has a required attribute (e.g. polite, formal).", "rewriting"),
    "selection.by_attribute": (dict(
        input_fields=["required_attribute", "attribute_type", "choices_texts", "choices_text_type"],
        reference_fields=["choices_texts", "choice"],
        metrics=["metrics.accuracy"],
    ), "Pick the text among several that best has a required attribute.", "selection"),
    # ---------------------------------------------------------------- question answering variants
    "qa.multiple_choice.with_context.with_topic": (dict(
        input_fields={"topic": "str", "context": "Union[Text, Image, Audio, Table, Dialog, Video]",
                      "context_type": "str", "question": "str", "choices": "List[str]"},
        reference_fields={"answer": "Union[int, str]", "choices": "List[str]"},
        prediction_type="str",
        augmentable_inputs=["context", "question"],
        metrics=["metrics.accuracy"],
    ), "Multiple-choice question on a named topic about a given context; 'answer' is the index of the right "
       "choice or its text.", "multiple choice"),
    "qa.with_context.with_domain": (dict(
        input_fields={"context": CONTEXT_ANY, "context_type": "str", "question": "str"},
        reference_fields={"answers": "List[str]", "domain": "str"},
        prediction_type="str",
        metrics=["metrics.rouge"],
        augmentable_inputs=["context", "question"],
        defaults={"answers": []},
        default_template="templates.qa.with_context",
    ), "Question answering over a context where each instance also names its domain (kept with the references "
       "for per-domain scores).", "question answering"),
    "qa.with_context.with_type": (dict(
        input_fields={"context": CONTEXT_ANY, "context_type": "str", "question": "str"},
        reference_fields={"answers": "List[str]", "type": "str"},
        prediction_type="str",
        metrics=["metrics.rouge"],
        augmentable_inputs=["context", "question"],
        defaults={"answers": []},
        default_template="templates.qa.with_context",
    ), "Question answering over a context where each instance also names its question type (kept with the "
       "references for per-type scores).", "question answering"),
    "qa.extractive.multi_turn": (dict(
        input_fields={"context": "Union[Text, Table]", "conversation": "Conversation"},
        reference_fields={"answers": "List[str]"},
        prediction_type="str",
        metrics=["metrics.multi_turn.accuracy", "metrics.multi_turn.sequential_success_accuracy"],
        default_template="templates.qa.multi_turn.with_context.simple",
        augmentable_inputs=["context"],
    ), "Answer the last question of a conversation about a context; scored per dialog (turns of one conversation "
       "grouped by its id).", "question answering"),
    # ---------------------------------------------------------------- RAG
    "rag.corpora": (dict(
        input_fields={"document_id": "str", "title": "str", "passages": "List[Union[str, Image]]",
                      "metadata_tags": "Dict[str, str]"},
        reference_fields={},
        prediction_type="Any",
        metrics=["metrics.rouge"],
        defaults={"title": "", "metadata_tags": {}},
    ), "A document of a RAG corpus (its id, title, passages and metadata), used to load corpora rather than to "
       "evaluate.", "rag"),
}


# Where the original's task names no default template, ours names one of the task's templates (every task here has
# one, so a recipe without a template still renders); tasks.rag.corpora has none (it only loads corpora).
OUR_DEFAULT_TEMPLATES = {
    "text2sql": "templates.text2sql.you_are_given",
    "text2sql_logic": "templates.text2sql.you_are_given",
    "schema_linking": "templates.schema_linking.default",
    "completion.abstractive": "templates.completion.abstractive.standard",
    "completion.extractive": "templates.completion.abstractive.standard",
    "completion.multiple_choice": "templates.completion.multiple_choice.title",
    "classification.multi_class.with_classes_descriptions": "templates.classification.multi_class.title",
    "evaluation.preference": "templates.evaluation.preference.default",
    "rewriting.by_attribute": "templates.rewriting.by_attribute.default",
    "selection.by_attribute": "templates.selection.by_attribute.default",
    "qa.multiple_choice.with_context.with_topic": "templates.qa.multiple_choice.with_context.with_topic.mmlu",
}


def register(add):
    for name, (kwargs, description, task_tag) in TASKS.items():
        if name in OUR_DEFAULT_TEMPLATES:
            assert "default_template" not in kwargs, name
            kwargs = {**kwargs, "default_template": OUR_DEFAULT_TEMPLATES[name]}
        add(f"tasks.{name}", Task(**kwargs, __description__=description,
                                  __tags__={"modality": "text", "task": task_tag}))
