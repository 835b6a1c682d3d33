"""Prompt assembly end to end: recipes, demos, templates, formats, the data-loading API."""

import collections
import json
import subprocess
import sys
from pathlib import Path

import pytest

from unitxt import create_dataset, load_dataset, produce
from unitxt.errors import RecipeError, UnitxtError
from unitxt.recipe import ROW_KEYS, DatasetRecipe

from tests.support.recipe_fixtures import register_card, synthetic_rows

RELATION = "templates.classification.multi_class.relation.default"


@pytest.fixture
def card_name(temp_catalog):
    return register_card(temp_catalog)


def test_rows_have_exactly_the_documented_keys_and_types(card_name):
    dataset = load_dataset(f"card={card_name},template={RELATION}")
    assert sorted(dataset) == ["test", "train", "validation"]
    assert len(dataset["test"]) == 40 and len(dataset["train"]) == 120
    for split in dataset.values():
        assert tuple(split.column_names) == ROW_KEYS
    row = dataset["test"][0]
    assert isinstance(row["source"], str) and row["source"].startswith("Given a premise and hypothesis classify")
    assert row["references"] == [row["target"]] and row["target"] in ("entailment", "not entailment")
    assert row["metrics"] == ["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"]
    assert row["data_classification_policy"] == ["public"]
    task_data = json.loads(row["task_data"])
    assert task_data["metadata"] == {"data_classification_policy": ["public"], "template": RELATION,
                                     "num_demos": 0, "demos_pool_size": 0}
    assert task_data["classes"] == ["not entailment", "entailment"]


def test_documented_prompt_layout_without_and_with_demos(card_name):
    test_row = load_dataset(f"card={card_name},template={RELATION}", split="test")[0]
    data = json.loads(test_row["task_data"])
    assert test_row["source"] == (
        "Given a premise and hypothesis classify the entailment of the hypothesis to one of not entailment, "
        f"entailment.\npremise: {data['text_a']}\nhypothesis: {data['text_b']}\nThe entailment class is "
    )
    with_demos = load_dataset(f"card={card_name},template={RELATION},num_demos=3,demos_pool_size=20", split="test")[0]
    blocks = with_demos["source"].split("\n\n")
    assert len(blocks) == 4
    assert blocks[0].startswith("Given a premise") and blocks[0].count("\npremise: ") == 1
    for block in blocks[1:3]:
        assert block.startswith("premise: ") and block.splitlines()[-1] in (
            "The entailment class is entailment", "The entailment class is not entailment")
    assert blocks[3].endswith("The entailment class is ")


def test_demos_pool_taken_from_train_and_removed(card_name):
    dataset = load_dataset(f"card={card_name},template={RELATION},num_demos=2,demos_pool_size=30")
    assert len(dataset["train"]) == 90  # 120 - pool of 30
    pool_texts = {row["sentence1"] for row in synthetic_rows(120, 1)[:30]}
    for row in dataset["test"]:
        shown = [line[len("premise: "):] for line in row["source"].splitlines() if line.startswith("premise: ")]
        assert len(shown) == 3 and set(shown[:2]) <= pool_texts and shown[2] not in pool_texts
    kept = load_dataset(f"card={card_name},template={RELATION},num_demos=2,demos_pool_size=30,"
                        "demos_removed_from_data=False", split="train")
    assert len(kept) == 120


def test_a_demo_never_equals_its_instance(card_name):
    rows = load_dataset(f"card={card_name},template={RELATION},num_demos=5,demos_pool_size=6,"
                        "demos_removed_from_data=False", split="train")
    for row in rows:
        lines = row["source"].splitlines()
        premises = [line for line in lines if line.startswith("premise: ")]
        assert len(premises) == 6
        assert premises[-1] not in premises[:-1]


def test_multi_template_multi_num_demos_uniform_over_2000_rows(temp_catalog):
    name = register_card(temp_catalog, "cards.test_big", train=100, test=2000, validation=1)
    rows = load_dataset(
        f"card={name},template=[{RELATION},templates.key_val],num_demos=[0,1,3],demos_pool_size=50", split="test"
    )
    pairs = collections.Counter()
    for row in rows:
        metadata = json.loads(row["task_data"])["metadata"]
        pairs[(metadata["template"], metadata["num_demos"])] += 1
        lines = row["source"].split("\n\n")
        assert len(lines) == metadata["num_demos"] + 1 or metadata["template"] == "templates.key_val"
    assert set(pairs) == {(t, n) for t in (RELATION, "templates.key_val") for n in (0, 1, 3)}
    for count in pairs.values():  # 2000 / 6 = 333 expected; +-20% is > 5 sigma
        assert 266 < count < 400


def test_streaming_equals_non_streaming(card_name):
    recipe = f"card={card_name},template={RELATION},num_demos=2,demos_pool_size=10"
    regular = load_dataset(recipe, split="test")
    streamed = load_dataset(recipe, split="test", streaming=True)
    assert list(streamed) == [regular[i] for i in range(len(regular))]


def test_byte_identical_across_runs_and_processes(card_name, temp_catalog, tmp_path):
    recipe = f"card={card_name},template=[{RELATION},templates.key_val],num_demos=[0,2],demos_pool_size=10"
    first = load_dataset(recipe, split="test").to_list()
    assert load_dataset(recipe, split="test").to_list() == first
    script = tmp_path / "run.py"
    script.write_text(
        "import json, sys\nfrom unitxt import load_dataset, register_local_catalog\n"
        f"register_local_catalog({str(temp_catalog)!r})\n"
        f"print(json.dumps(load_dataset({recipe!r}, split='test').to_list(), sort_keys=True))\n"
    )
    output = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True,
                            env={**__import__("os").environ, "PYTHONHASHSEED": "123"}).stdout
    assert json.loads(output.strip().splitlines()[-1]) == json.loads(json.dumps(first, sort_keys=True))


def test_limits_and_loader_limit(card_name):
    dataset = load_dataset(f"card={card_name},template={RELATION},max_test_instances=7,max_train_instances=5,"
                           "max_validation_instances=2")
    assert (len(dataset["test"]), len(dataset["train"]), len(dataset["validation"])) == (7, 5, 2)
    limited = load_dataset(f"card={card_name},template={RELATION},loader_limit=4")
    assert {name: len(split) for name, split in limited.items()} == {"train": 4, "validation": 4, "test": 4}


def test_keyword_arguments_and_template_card_index(card_name):
    by_kwargs = load_dataset(card=card_name, template_card_index=1, split="test")
    assert json.loads(by_kwargs[0]["task_data"])["metadata"]["template"] == "templates.key_val"
    default = load_dataset(card=card_name, split="test")  # first card template
    assert json.loads(default[0]["task_data"])["metadata"]["template"] == RELATION


def test_chat_api_rows_hold_messages(card_name):
    rows = load_dataset(f"card={card_name},template={RELATION},format=formats.chat_api,num_demos=2,demos_pool_size=10",
                        split="test")
    messages = rows[0]["source"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[0]["content"].startswith("Given a premise and hypothesis")
    assert messages[2]["content"].startswith("The entailment class is ")
    assert messages[-1]["content"].startswith("premise: ")


def test_system_prompt_and_format_from_catalog(card_name):
    row = load_dataset(f"card={card_name},template={RELATION},format=formats.user_agent,"
                       "system_prompt=system_prompts.general.be_concise", split="test")[0]
    assert row["source"].startswith("Answer briefly and directly")
    assert "\nUser: premise: " in row["source"] and row["source"].endswith("Agent: The entailment class is ")


def test_metrics_and_postprocessors_override(card_name):
    row = load_dataset(f"card={card_name},template={RELATION},metrics=[metrics.accuracy],"
                       "postprocessors=[processors.lower_case]", split="test")[0]
    assert row["metrics"] == ["metrics.accuracy"] and row["postprocessors"] == ["processors.lower_case"]


def test_group_by_is_recorded(card_name):
    row = load_dataset(f"card={card_name},template={RELATION},group_by=[template,[template,num_demos]]", split="test")[0]
    assert [json.loads(spec) for spec in row["groups"]] == [{"template": RELATION}, {"template": RELATION, "num_demos": 0}]


def test_task_data_carries_demos_and_an_inline_template_serialised(card_name):
    from unitxt.templates import InputOutputTemplate

    template = InputOutputTemplate(input_format="{text_a} / {text_b}", output_format="{label}")
    rows = load_dataset(card=card_name, template=template, num_demos=2, demos_pool_size=5, split="test")
    data = json.loads(rows[0]["task_data"])
    assert data["metadata"]["template"] == template.to_dict() and data["metadata"]["num_demos"] == 2
    assert len(data["demos"]) == 2 and {"text_a", "text_b", "label", "metadata"} <= set(data["demos"][0])
    assert rows[0]["source"].count(" / ") == 3  # two demos and the instance


def test_saved_recipe_resolves_by_catalog_name(card_name, temp_catalog):
    from unitxt import add_to_catalog

    add_to_catalog(DatasetRecipe(card=card_name, template=RELATION, max_test_instances=3), "recipes.tiny",
                   catalog_path=str(temp_catalog))
    assert len(load_dataset("recipes.tiny", split="test")) == 3
    assert len(load_dataset("recipes.tiny[max_test_instances=2]", split="test")) == 2


def test_production_example_of_the_docs():
    instance = {
        "label": "?",
        "text_a": "It works perfectly",
        "text_b": "It works!",
        "classes": ["entailment", "not entailment"],
        "type_of_relation": "entailment",
        "text_a_type": "premise",
        "text_b_type": "hypothesis",
    }
    recipe = f"task=tasks.classification.multi_class.relation,template={RELATION}"
    result = produce(instance, recipe)
    assert result["source"] == (
        "Given a premise and hypothesis classify the entailment of the hypothesis to one of entailment, not "
        "entailment.\npremise: It works perfectly\nhypothesis: It works!\nThe entailment class is "
    )
    assert produce([instance, instance], recipe).to_list() == [result, result]  # a Dataset, as the original's


def test_produce_takes_demos_from_the_card(card_name):
    instance = {"label": "?", "text_a": "It works perfectly", "text_b": "It works!",
                "classes": ["entailment", "not entailment"], "type_of_relation": "entailment",
                "text_a_type": "premise", "text_b_type": "hypothesis"}
    result = produce(instance, f"card={card_name},template={RELATION},demos_pool_size=5,num_demos=2")
    blocks = result["source"].split("\n\n")
    assert len(blocks) == 3 and blocks[-1].endswith("premise: It works perfectly\nhypothesis: It works!\n"
                                                    "The entailment class is ")


def test_create_dataset_with_task_object_and_default_template():
    from unitxt.task import Task
    from unitxt.templates import InputOutputTemplate

    task = Task(input_fields={"question": str}, reference_fields={"answer": str}, metrics=["metrics.accuracy"],
                default_template=InputOutputTemplate(input_format="Q: {question}", output_format="{answer}"))
    dataset = create_dataset(task, test_set=[{"question": "2+2?", "answer": "4"}], split="test")
    assert dataset[0]["source"] == "Q: 2+2?\n" and dataset[0]["references"] == ["4"]
    assert dataset[0]["data_classification_policy"] == ["proprietary"]
    with pytest.raises(RecipeError, match="needs a template"):
        create_dataset(Task(input_fields={"q": str}, reference_fields={"a": str}), test_set=[{"q": "x", "a": "y"}])


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("recipe,message", [
    ("card=cards.test_wnli,template=[a,b", "Expected ']'"),
    ("card=cards.test_wnli[", "Unbalanced"),
    ("card=cards.test_wnli,num_demo=2", "did you mean 'num_demos'"),
    ("card=cards.test_wnli,template=templates.classification.multi_class.relation.defualt", "Closest names"),
    ("card=cards.test_wnli,num_demos=5,demos_pool_size=3", "larger than demos_pool_size"),
    ("card=cards.test_wnli,num_demos=2", "needs demos_pool_size"),
    ("card=cards.test_wnli,num_demos=2,demos_pool_size=500", "has only 120 instances"),
    ("card=cards.test_wnli,demos_taken_from=dev,num_demos=1,demos_pool_size=2", "demos_taken_from='dev'"),
])
def test_bad_recipes_raise_clear_errors(card_name, recipe, message):
    with pytest.raises(UnitxtError, match=message):
        load_dataset(recipe)


def test_template_with_missing_field_is_named(card_name):
    from unitxt.templates import InputOutputTemplate

    bad = InputOutputTemplate(input_format="{premise_text}", output_format="{label}")
    with pytest.raises(UnitxtError) as info:
        load_dataset(card=card_name, template=bad, split="test")
    assert "premise_text" in str(info.value) and "InputOutputTemplate" in str(info.value)


def test_format_with_unknown_placeholder():
    from unitxt.formats import SystemFormat

    with pytest.raises(UnitxtError, match="question"):
        SystemFormat(model_input_format="{question}{source}")
