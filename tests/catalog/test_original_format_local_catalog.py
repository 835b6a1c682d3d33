"""A user's local catalog written in the original system's JSON format (cards, tasks, templates using its types and
fields) registered with register_local_catalog: recipes over it load and evaluate here."""

import json

from unitxt import evaluate, load_dataset

from tests.support.hub_mirror import make_hub_dataset

CARD = {
    "__type__": "task_card",
    "loader": {"__type__": "load_hf", "path": "org/exam", "name": "all", "splits": ["test", "dev"],
               "filtering_lambda": "lambda x: x['subject'] == 'virology'"},
    "preprocess_steps": [
        {"__type__": "add_constant", "field": "answer", "add": -1},
        {"__type__": "map_values", "field": "answer", "mapping": {"0": "A", "1": "B", "2": "C"}},
        {"__type__": "lower", "field": "subject"},
        {"__type__": "group_dict_with_regex", "field": "prompt", "flags": 16,
         "pattern": "Question:\\s+(?P<question>.*?)\\s+Choices:\\s+(?P<choices_text>.*)"},
        {"__type__": "copy", "field_to_field": {"prompt/question": "question", "prompt/choices_text": "choices_text"}},
        {"__type__": "regex_split", "field": "choices_text", "by": "\\s*;\\s*", "to_field": "choices"},
        {"__type__": "execute_expression", "expression": "choices[ord_index]", "to_field": "answer_text",
         "imports_list": ["re"]},
    ],
    "task": "tasks.compat_qa",
    "templates": ["templates.compat_qa.with_letter"],
    "__title__": "A toy exam",
}
TASK = {"__type__": "task", "input_fields": {"question": "str", "choices": "List[str]", "subject": "str"},
        "reference_fields": {"answer": "str", "answer_text": "str"}, "prediction_type": "str",
        "metrics": ["metrics.accuracy"], "requirements": []}
TEMPLATE = {"__type__": "input_output_template_with_custom_target",
            "input_format": "{subject} question: {question}\nOptions: {choices}", "output_format": "{answer}",
            "reference": "{answer}", "target_prefix": "Answer: ", "title_fields": ["subject"],
            "postprocessors": ["processors.take_first_word"]}


def write(catalog, name, data):
    path = catalog.joinpath(*name.split(".")).with_suffix(".json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_recipe_over_a_catalog_in_the_original_format(temp_catalog, tmp_path, monkeypatch):
    rows = [{"subject": subject, "answer": answer, "ord_index": answer - 1,
             "prompt": f"Question: q{index}?\nChoices: red; green ;blue"}
            for index, (subject, answer) in enumerate([("virology", 1), ("law", 2), ("virology", 3), ("art", 1)])]
    dev = [dict(rows[0], prompt="Question: d?\nChoices: x; y"), dict(rows[1], prompt="Question: e?\nChoices: z")]
    make_hub_dataset(tmp_path, "org/exam", {"all": {"test": rows, "dev": dev, "train": rows}})
    monkeypatch.chdir(tmp_path)
    write(temp_catalog, "cards.compat_exam", CARD)
    write(temp_catalog, "tasks.compat_qa", TASK)
    write(temp_catalog, "templates.compat_qa.with_letter", TEMPLATE)
    dataset = load_dataset("card=cards.compat_exam,num_demos=1,demos_pool_size=-1,demos_taken_from=dev")
    assert sorted(dataset) == ["test"]  # splits=[test, dev]; the whole dev split is the demo pool
    test = dataset["test"]
    assert len(test) == 2  # only the virology rows
    assert test[0]["source"] == ("Virology question: d?\nOptions: x, y\nAnswer: A\n\n"
                                 "Virology question: q0?\nOptions: red, green, blue\nAnswer: ")
    assert [row["target"] for row in test] == ["A", "C"]
    assert [json.loads(row["task_data"])["answer_text"] for row in test] == ["red", "blue"]
    results = evaluate(["A is right", "B"], test)
    assert results.global_scores["accuracy"] == 0.5
