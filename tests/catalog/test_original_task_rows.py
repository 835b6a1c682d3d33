"""The tasks added under the original's names (issue 28) that test_catalog_content's synthetic rows can not drive: a
realistic row through the task and each of its templates gives the expected target (the compat tier checks the same
targets against the original)."""

import json

import pytest

from unitxt.catalog import get_from_catalog

DB = {"db_id": None, "db_type": "in_memory", "dbms": None, "data": {"t": {"a": [1, 2]}}}
CALL = {"name": "get_weather", "arguments": {"city": "Paris"}}
TOOL = {"name": "get_weather", "description": "The weather of a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}

# task -> (row, templates, expected target)
CASES = {
    "tasks.text2sql": ({"id": "1", "utterance": "How many rows?", "hint": "count", "db": DB,
                        "query": "SELECT count(*) FROM t;"}, "templates.text2sql.all", "SELECT count(*) FROM t;"),
    "tasks.text2sql_logic": ({"id": "1", "utterance": "How many rows?", "hint": None, "db": DB,
                              "query": "SELECT 1;"}, "templates.text2sql.you_are_given", "SELECT 1;"),
    "tasks.tool_calling.supervised": ({"query": "Weather in Paris?", "tools": [TOOL], "reference_calls": [CALL]},
                                      "templates.tool_calling.base", json.dumps(CALL)),
    "tasks.tool_calling.multi_turn": ({"dialog": [{"role": "user", "content": "Weather in Paris?"}], "tools": [TOOL],
                                       "reference_calls": [CALL]}, "templates.tool_calling.multi_turn",
                                      json.dumps(CALL)),
    "tasks.qa.extractive.multi_turn": (
        {"context": "Paris is the capital of France.", "answers": ["France"],
         "conversation": {"id": "c1", "dialog": [{"role": "user", "content": "What is the capital of France?"},
                                                 {"role": "assistant", "content": "Paris"},
                                                 {"role": "user", "content": "Which country is it in?"}]}},
        "templates.qa.multi_turn.with_context.simple", "France"),
    "tasks.completion.abstractive": ({"context": "Once upon", "context_type": "story", "completion_type": "phrase",
                                      "completion": "a time"}, "templates.completion.abstractive.all", "a time"),
    "tasks.completion.multiple_choice": ({"context": "He opened", "context_type": "sentence",
                                          "choices": ["the door", "blue"], "answer": 0},
                                         "templates.completion.multiple_choice.title", "A"),
    "tasks.key_value_extraction": ({"input": "Name: Ann", "keys": ["Name"], "key_value_pairs_answer": {"Name": "Ann"}},
                                   "templates.key_value_extraction.extract_in_json_format", '{"Name": "Ann"}'),
    "tasks.qa.multiple_choice.with_context.with_topic": (
        {"topic": "math", "context": "2+2", "context_type": "sum", "question": "Result?", "choices": ["4", "5"],
         "answer": 0}, "templates.qa.multiple_choice.with_context.with_topic.mmlu", "A"),
    # the choices are shuffled (seeded by the input fields, as the original): "Please go." is shown second
    "tasks.selection.by_attribute": ({"required_attribute": "polite", "attribute_type": "tone",
                                      "choices_texts": ["Go.", "Please go."], "choices_text_type": "sentences",
                                      "choice": 1}, "templates.selection.by_attribute.all", "B"),
    "tasks.evaluation.preference": ({"input": "Say hi", "input_type": "request", "output_type": "response",
                                     "choices": ["hi", "bye"], "instance_instruction": "Be friendly.",
                                     "output_choice": 0}, "templates.evaluation.preference.all", None),
}


def _templates(name):
    spec = get_from_catalog(name)
    return [get_from_catalog(item) if isinstance(item, str) else item for item in spec] if hasattr(
        spec, "items") and not hasattr(spec, "process_instance") else [spec]


@pytest.mark.parametrize("task_name", sorted(CASES))
def test_task_row_renders_with_each_template(task_name):
    row, templates, expected = CASES[task_name]
    processed = get_from_catalog(task_name).process_instance(json.loads(json.dumps(row)))
    assert set(processed["input_fields"]) | set(processed["reference_fields"]) >= set(row)
    for template in _templates(templates):
        rendered = template.process_instance(json.loads(json.dumps(processed)))
        assert rendered["source"].strip(), template.__id__
        if expected is not None:
            assert rendered["target"] == expected, template.__id__
        else:  # the preferred response's letter among the shuffled choices
            shown = rendered["source"]
            letter = rendered["target"]
            assert f"{letter}. hi" in shown, shown
        assert rendered["references"] == [rendered["target"]]


def test_corpora_task_keeps_documents_with_default_title_and_tags():
    processed = get_from_catalog("tasks.rag.corpora").process_instance({"document_id": "d1", "passages": ["p1"]})
    assert processed["input_fields"] == {"document_id": "d1", "title": "", "passages": ["p1"], "metadata_tags": {}}
    assert processed["reference_fields"] == {}


def test_completion_extractive_task_has_the_squad_interface():
    task = get_from_catalog("tasks.completion.extractive")
    processed = task.process_instance({"context": "Once upon a time", "context_type": "story",
                                       "completion_type": "span", "completion": "a time"})
    assert processed["reference_fields"] == {"completion": "a time"}
    assert task.metrics == ["metrics.squad"]
