"""Catalog: templates of the tasks in tasks_more.py (tool calling, text-to-SQL, schema linking, completion,
key-value extraction, preference, rewriting/selection by attribute) and a few single templates of older families.

Template types, field mappings, output formats and post-processors are facts of the original templates of the same
names (the compat tier renders both and compares targets and references); instructions are worded by us.
"""

from _factory import make
from _shared import add_template_family

P = "processors."
LABEL_LINE = [P + "take_first_non_empty_line", P + "lower_case_till_punc"]
SQL = [P + "text2sql.get_sql"]


def _text2sql(add):
    """templates.text2sql.*: the question, the database schema (the `db` field, serialized as its schema) and an
    optional hint; the answer is SQL read out of the reply by processors.text2sql.get_sql."""
    role = ("You write SQL for questions over a database. Reply with the SQL query only, beginning with SELECT "
            "and ending with a semicolon.\n\n")
    full = ("Question:\n\n{utterance}\n\nDatabase schema:\n\n```sql\n\n{db}\n```\n\n{hint_block}"
            "Write the query that answers:\n\n{utterance}\n\n")
    no_hint, with_hint = full.replace("{hint_block}", ""), full.replace("{hint_block}", "Hint:\n\n{hint}\n\n")

    def sql(input_format, instruction="", target_prefix="", description=""):
        return make("input_output_template", input_format=input_format, instruction=instruction,
                    target_prefix=target_prefix, output_format="{query}", postprocessors=SQL,
                    description=description)

    add_template_family(add, prefix="templates.text2sql", templates={
        "you_are_given_no_system": sql("Here is a database schema:\n\n```sql\n{db}\n```\n\n{utterance}\n",
                                       description="Schema then question, no instruction."),
        "you_are_given_no_system_with_hint": sql(
            "Here is a database schema:\n\n```sql\n{db}\n```\nHint:\n\n{hint}\n\n{utterance}\n",
            description="Schema, hint, then question, no instruction."),
        "you_are_given_with_sql_prefix": sql(no_hint, role, "```sql\nSELECT ",
                                             description="Question, schema, question again; the answer opens a "
                                                         "SQL code block after SELECT."),
        "you_are_given_with_hint_with_sql_prefix": sql(with_hint, role, "```sql\nSELECT ",
                                                       description="As you_are_given_with_sql_prefix, with the "
                                                                   "hint."),
        "you_are_given_with_hint_with_out_sql_prefix": sql(with_hint, role,
                                                           description="Question, schema, hint; no answer prefix."),
        "you_are_given": sql(no_hint, role, description="Question, schema, question again; no answer prefix."),
        "you_are_given_with_hint": sql(with_hint, role, description="Question, schema, hint; no answer prefix."),
        "you_are_given_with_hint_answer_sql_prefix_no_inst": sql(
            "Question:\nHere is a database schema:\n\n```sql\n{db}\n```\n\n{utterance}\n\n",
            target_prefix="Answer:\n```sql\n",
            description="Schema and question, no instruction; the answer opens a SQL code block."),
        "empty": sql("{utterance}", description="Only the question."),
    }, tags={"task": "text-to-sql", "modality": "text"}, task="tasks.text2sql")
    add("serializers.text2sql.schema", make(
        "sql_database_as_schema_serializer",
        description="Writes a SQLDatabase field as the CREATE TABLE statements of its schema.",
        tags={"kind": "serializer"}))


def _schema_linking(add):
    linked = dict(output_format="{linked_schema}", postprocessors=[P + "to_list_by_comma_space"])
    add_template_family(add, prefix="templates.schema_linking", templates={
        "default": make("input_output_template",
                        instruction="Name the database columns the question needs, separated by commas.",
                        input_format="Question: {utterance}\n\nColumns:{schema}", **linked,
                        description="Question and candidate columns; the answer is a comma-separated list."),
        "with_hint": make("input_output_template",
                          instruction="Name the database columns the question needs, separated by commas. A hint "
                                      "is given as well.",
                          input_format="Question: {utterance}\n\nHint: {hint}\n\nColumns:{schema}", **linked,
                          description="As default, with the hint."),
    }, tags={"task": "text-to-sql", "modality": "text"}, task="tasks.schema_linking")


def _tool_calling(add):
    tags = {"task": "tool calling", "modality": "text"}
    add("templates.tool_calling.base", make(
        "multi_reference_template", input_format="{query}", references_field="reference_calls",
        postprocessors=[P + "load_json_or_empty_tool_call"],
        description="The user query alone (the tools go to the model through the format); the reply is read as "
                    "one JSON tool call.", tags=tags))
    add("templates.tool_calling.multi_turn", make(
        "multi_turn_template", references_field="reference_calls", turns_field="dialog",
        postprocessors=[P + "multi_tool_call"],
        description="The dialog as chat turns; the reply is read as a list of tool calls.", tags=tags))


def _completion(add):
    tags = {"task": "completion", "modality": "text"}
    add_template_family(add, prefix="templates.completion.abstractive", templates={
        "empty": make("input_output_template", input_format="{context}", output_format="{completion}",
                      description="Only the text to complete."),
        "standard": make("input_output_template", instruction="Continue the {context_type} with a fitting "
                                                              "{completion_type}.",
                         input_format="{context}", output_format="{completion}",
                         description="Names the context and completion kinds."),
    }, tags=tags, task="tasks.completion.abstractive")
    add("templates.completion.multiple_choice.title", make(
        "multiple_choice_template", instruction="Choose the ending that best continues the {context_type}.",
        input_format="{context_type}: {context}\nChoices:\n{choices}", target_prefix="Answer: ",
        target_field="answer", choices_separator="\n", title_fields=["context_type"],
        postprocessors=[P + "first_character"],
        description="Context under its (title-cased) type and enumerated endings; the answer is the ending's "
                    "letter.", tags=tags))


def _by_attribute(add):
    add_template_family(add, prefix="templates.rewriting.by_attribute", templates={
        "default": make("input_output_template",
                        instruction="Rewrite the {input_text_type} so that it has the required attribute.",
                        input_format="Make this {input_text_type} a more {required_attribute} {output_text_type}.\n"
                                     "{input_text_type}: {input_text}",
                        target_prefix="More {required_attribute} {output_text_type}: ",
                        output_format="{output_text}",
                        description="Names the attribute; the answer follows 'More <attribute> <type>:'."),
    }, tags={"task": "rewriting", "modality": "text"}, task="tasks.rewriting.by_attribute")
    add_template_family(add, prefix="templates.selection.by_attribute", templates={
        "default": make("multiple_choice_template",
                        instruction="Which {choices_text_type} is the most {required_attribute}? Answer with one "
                                    "of {numerals}.",
                        input_format="{choices_text_type}:\n{choices_texts}",
                        target_prefix="Most {required_attribute}:\n", target_field="choice",
                        choices_field="choices_texts", choices_separator="\n",
                        postprocessors=[P + "to_string_stripped", P + "first_character"], shuffle_choices=True,
                        title_fields=["choices_text_type"],
                        description="Enumerated (shuffled) texts; the answer is the chosen text's letter."),
    }, tags={"task": "selection", "modality": "text"}, task="tasks.selection.by_attribute")
    add_template_family(add, prefix="templates.evaluation.preference", templates={
        "default": make("multiple_choice_template",
                        instruction="Given an instruction and an {input_type} sent to a model, pick the "
                                    "{output_type} of the model that follows the instruction best (answer with "
                                    "one of {numerals}).",
                        input_format="Instruction:\n{instance_instruction}\n{input_type}:\n{input}\n"
                                     "Responses:\n{choices}",
                        target_prefix="{output_type}:\n", target_field="output_choice", choices_separator="\n",
                        postprocessors=[P + "to_string_stripped", P + "first_character"], shuffle_choices=True,
                        title_fields=["input_type", "output_type"],
                        description="Instruction, input and enumerated (shuffled) responses; the answer is the "
                                    "preferred response's letter."),
    }, tags={"task": "preference", "modality": "text"}, task="tasks.evaluation.preference")


def _extraction(add):
    add("templates.key_value_extraction.extract_in_json_format", make(
        "input_output_template",
        instruction="Read the input and give the value of each of these keys: {keys}. Reply with one JSON object "
                    "mapping each key to its value, and nothing else.",
        input_format="{input}", output_format="{key_value_pairs_answer}",
        postprocessors=[make("post_process", operator=make("json_str_to_dict"))],
        serializer=make("multi_type_serializer", serializers=[
            make("image_serializer"), make("dict_as_json_serializer"), make("list_serializer")]),
        description="Asks for the values as one JSON object (the target is the reference mapping as JSON); the "
                    "input may be an image.",
        tags={"task": "key-value extraction", "modality": "text"}))
    add_template_family(add, prefix="templates.grammatical_error_detection", templates={
        "yes_no": make("input_output_template",
                       instruction="Does the text below contain a grammar or spelling mistake? Answer Yes or No.\n",
                       input_format="Text: {text}", output_format="{label}", target_prefix="Answer: ",
                       postprocessors=[P + "take_first_word", P + "lower_case", P + "yes_no_to_int",
                                       P + "cast_to_float_return_nan_if_failed"],
                       description="Yes/No question; the answer is read as 1 (yes) or 0 (no)."),
    }, tags={"task": "grammatical error detection", "modality": "text"}, task="binary error detection")


def _single_templates(add):
    """Single templates of families defined elsewhere (not listed in those families' .all, as in the original)."""
    add("templates.classification.multi_class.instruct_select_question", make(
        "input_output_template",
        instruction="Pick one of these options: {classes}. Which {type_of_class} fits this {text_type}?",
        input_format="{text_type}: {text}\n{type_of_class}: ", output_format="{label}", postprocessors=LABEL_LINE,
        description="Lists the options, then asks for the class of the text.",
        tags={"task": "classification", "modality": "text"}))
    add("templates.classification.multi_class.relation.simple", make(
        "input_output_template",
        input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}\nWhich of {classes} describes how the "
                     "second relates to the first?",
        output_format="{label}", postprocessors=LABEL_LINE,
        description="Both texts and the classes in the input, no instruction.",
        tags={"task": "classification", "modality": "text"}))
    add("templates.language_identification.simple", make(
        "input_output_template", instruction="Which language is the text below written in?",
        input_format="Text: {text}", output_format="{label}", target_prefix="The text is in ",
        postprocessors=[P + "take_first_word"],
        description="Asks for the language; the answer completes 'The text is in'.",
        tags={"task": "language identification", "modality": "text"}))
    add("templates.regression.single_text.simple", make(
        "output_quantizing_template",
        input_format="Text: '{text}'. On a scale from {min_value} to {max_value}, how much {attribute_name} "
                     "does it have?",
        output_format="{attribute_value}", quantum=0.2,
        postprocessors=[P + "take_first_non_empty_line", P + "cast_to_float_return_zero_if_failed"],
        description="The whole question in the input; the target is the value rounded to steps of 0.2.",
        tags={"task": "regression", "modality": "text"}))
    add("templates.regression.two_texts.similarity.flan", make(
        "output_quantizing_template",
        instruction="Rate how similar the two sentences are, from 0 to 5:\n"
                    "0 - unrelated.\n1 - different claims on the same topic.\n2 - different, with a few details "
                    "in common.\n3 - about the same, but some important detail differs or is missing.\n"
                    "4 - mostly the same; only minor details differ.\n5 - they say exactly the same thing.",
        input_format="Sentence 1: {text1} Sentence 2: {text2}", output_format="{attribute_value}", quantum=1,
        postprocessors=[P + "take_first_non_empty_line", P + "cast_to_float_return_zero_if_failed"],
        description="A 0-5 similarity scale in the instruction (FLAN style); fields text1 and text2; the target is "
                    "the value rounded to whole numbers.",
        tags={"task": "regression", "modality": "text"}))
    add("templates.rag.end_to_end.json_predictions", make(
        "json_output_template", input_format="",
        output_fields={"reference_answers": "answer", "reference_contexts": "contexts",
                       "reference_context_ids": "context_ids"},
        wrap_with_list_fields=["reference_contexts", "reference_context_ids"],
        postprocessors=[P + "load_json_predictions"],
        description="For predictions that are already RAG results as JSON (answer, contexts, context_ids): the "
                    "references are written the same way.", tags={"task": "rag", "modality": "text"}))
    add("templates.rag.response_generation.answer_based_on_context_inverted", make(
        "multi_reference_template", instruction="Answer the question from the context.",
        input_format="Question: {question}.\nContext: {contexts}\n", target_prefix="Answer:",
        references_field="reference_answers",
        description="The question before the context.", tags={"task": "rag", "modality": "text"}))
    translation = {"task": "translation", "modality": "text"}
    add("templates.translation.directed.instructional", make(
        "input_output_template",
        input_format="Translate the text below from {source_language} into {target_language} accurately and "
                     "clearly, following the grammar and idiom of {target_language}.\n Text: {text}",
        output_format="{translation}", description="A careful, formal translation request in the input.",
        tags=translation))
    add("templates.translation.directed.playful", make(
        "input_output_template",
        input_format="Translation time! Carry this text from {source_language} over to {target_language} - and "
                     "have some fun with it.\n Text: {text}",
        output_format="{translation}", description="A light-hearted translation request in the input.",
        tags=translation))


def register(add):
    _text2sql(add)
    _schema_linking(add)
    _tool_calling(add)
    _completion(add)
    _by_attribute(add)
    _extraction(add)
    _single_templates(add)
