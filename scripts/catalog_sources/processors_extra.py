"""Catalog: further post-processors (processors.*), their bare operators (operators.*) and train-split balancers
(operators.balancers.*): judge-verdict readers, yes/no and stance mappers, JSON and tool-call loaders, log-prob readers.

A processors.<name> entry wraps the operator in PostProcess (prediction and/or references); operators.<name> is the
bare field operator, usable in a card's preprocessing or a metric pipeline.
"""

from _factory import make

# name -> (operator type, operator settings, process_references, what it does)
PROCESSORS = {
    "extract_harm_rating_judgment": ("extract_harm_rating_judgement", {}, True,
                                     "a judge's harm rating [[N]] (1-5) read as a 0..1 score"),
    "hate_speech_or_not_hate_speech": ("string_equals", {"string": "hate speech"}, True,
                                       "whether the text equals 'hate speech'"),
    "toxic_or_not_toxic": ("string_equals", {"string": "toxic"}, True, "whether the text equals 'toxic'"),
    "remove_none_from_list": ("remove_values", {"unallowed_values": ["none"]}, True, "drops 'none' items of a list"),
}
OPERATORS = {  # operators.<name> -> (type, settings)
    "extract_arena_hard_numerical_judgment": ("extract_arena_hard_numerical_judgment", {}),
    "extract_harm_rating_judgment": ("extract_harm_rating_judgement", {}),
    "extract_mt_bench_label_judgment": ("extract_mt_bench_label_judgment", {}),
    "extract_verbal_judgement": ("extract_verbal_judgment", {}),
    "extract_verbal_judgement_bad_good": ("extract_verbal_judgement_bad_good", {}),
    "hate_speech_or_not_hate_speech": ("string_equals", {"string": "hate speech"}),
    "toxic_or_not_toxic": ("string_equals", {"string": "toxic"}),
    "predictions_yes_1_else_0": ("yes_to_one_else_zero", {}),
    "regex_parser": ("regex_parser", {"regex": ".+"}),
    "remove_none_from_list": ("remove_values", {"unallowed_values": ["none"]}),
    "stance_to_pro_con": ("stance_to_pro_con", {}),
    "str_to_float_format": ("str_to_float_format", {}),
    "to_yes_or_none": ("to_yes_or_none", {}),
}
# JSON Schema type names for the type names tool catalogs use in other languages
JSON_SCHEMA_TYPES = {  # the original's table (Java / Python / BFCL type names -> JSON Schema types)
    "dict": "object", "float": "number", "tuple": "array", "HashMap": "object", "bool": "boolean", "list": "array",
    "any": "string", "int": "integer", "byte": "integer", "short": "integer", "long": "integer", "double": "number",
    "char": "string", "ArrayList": "array", "Array": "array", "Hashtable": "object", "Queue": "array",
    "Stack": "array", "Any": "string", "String": "string", "str, optional": "string", "str": "string",
    "Bigint": "integer", "Set": "array", "Boolean": "boolean",
}
BALANCERS = {  # operators.balancers.<name> -> (type, settings, what)
    "classification.by_label": ("deterministic_balancer", {"fields": ["reference_fields/label"]},
                                "equal numbers of instances per label"),
    "classification.minimum_one_example_per_class": (
        "minimum_one_example_per_label_refiner", {"fields": ["reference_fields/label"]},
        "at least one instance of every label"),
    "multi_label.zero_vs_many_labels": ("length_balancer", {"fields": ["reference_fields/labels"],
                                                            "segments_boundaries": [1]},
                                        "as many instances without labels as with some"),
    "ner.zero_vs_many_entities": ("length_balancer", {"fields": ["reference_fields/labels"],
                                                      "segments_boundaries": [1]},
                                  "as many instances without entities as with some"),
    "qa.by_answer": ("deterministic_balancer", {"fields": ["reference_fields/answer"]},
                     "equal numbers of instances per answer"),
}


def _logprobs(from_end: bool):
    settings = dict(neg_class_name="No", pos_class_name="Yes", num_logprobs_to_take=3, field="prediction",
                    process_every_value=False)
    if from_end:
        settings["take_logprobs_from_end"] = True
    return make("sequential_operator", steps=[make("infer_dicts_to_binary_logprobs", **settings)],
                description="P(Yes) from the top log-probs of the judge's " + ("last" if from_end else "first")
                            + " answer tokens (a list of token dicts).",
                tags={"kind": "processor", "family": "llm_as_judge"})


def register(add):
    tags = {"kind": "processor"}
    for name, (kind, settings, references, does) in PROCESSORS.items():
        add(f"processors.{name}", make("post_process", operator=make(kind, **settings), process_references=references,
                                       process_prediction=True, description=f"Post-processor: {does}.", tags=tags))
    for name, (kind, settings) in OPERATORS.items():
        add(f"operators.{name}", make(kind, description=f"The bare operator of processors.{name}.",
                                      tags={"kind": "operator"}, **settings))
    add("operators.fix_json_schema", make(
        "recursive_replace", key="type", map_values=JSON_SCHEMA_TYPES, remove_values=["any"],
        description="Rewrites 'type' values of a tool's parameter schema (Java/Python type names) as JSON Schema types.",
        tags={"kind": "operator"}))
    for name, (kind, settings, what) in BALANCERS.items():
        add(f"operators.balancers.{name}", make(kind, description=f"Train-split refiner: {what}.",
                                                tags={"kind": "operator", "family": "balancer"}, **settings))
    add("processors.infer_logprobs_to_yes_no_probs", _logprobs(False))
    add("processors.infer_last_token_logprobs_to_yes_no_probs", _logprobs(True))
    add("processors.load_json_predictions", make(
        "sequential_operator", steps=[make("load_json", field="prediction", process_every_value=False)],
        description="The prediction parsed as JSON.", tags=tags))
    add("processors.load_json_or_empty_tool_call", make(
        "post_process", operator=make("tool_call_post_processor", allow_failure=True,
                                      failure_value={"name": "null", "arguments": {}}),
        description="A tool call parsed from JSON (unparsable: an empty call named 'null').", tags=tags))
    add("processors.multi_tool_call", make(
        "post_process", operator=make("multiple_tool_call_post_processor", allow_failure=True,
                                      failure_value=[{"name": "null", "arguments": {}}]),
        description="A list of tool calls parsed from JSON (unparsable: one empty call named 'null').", tags=tags))
    add("processors.list_to_empty_entity_tuples", make(
        "post_process", operator=make("list_to_empty_entities_tuples"),
        description="A list of entity strings as (entity, '') pairs.", tags=tags))
    add("processors.regex_parser_from_prediction", make(
        "post_process", operator=make("regex_parser", regex=".+"), process_references=False,
        description="The prediction split into its non-empty lines (regex '.+').", tags=tags))
    add("processors.safe_unsafe", make(
        "post_process", operator=make("extract_safe_unsafe_judgment"),
        description="A Llama-Guard style verdict read as 1 (safe) or 0 (unsafe).", tags=tags))
    add("processors.text2sql.get_sql", make(
        "sequential_operator", steps=[make("get_sql", field="prediction")],
        description="The SQL query extracted from a model answer (code block or bare SELECT).", tags=tags))
