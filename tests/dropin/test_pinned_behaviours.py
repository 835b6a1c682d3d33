"""Behaviours the original's unit tests pin down (issue 36 part B): error context boxes, task checks, dialog turns,
missing-path messages and the samplers' choices, each checked on inputs of our own."""

import difflib
import random
from typing import Any, Dict

import pytest

from unitxt.dict_utils import dict_get
from unitxt.error_utils import UnitxtError, error_context
from unitxt.errors import MissingFieldError
from unitxt.operators.dialog import SerializeOpenAiFormatDialog
from unitxt.samplers import CloseTextSampler, FixedIndicesSampler
from unitxt.settings_utils import settings
from unitxt.task import Task


# ---------------------------------------------------------------- error_context
class Loader:
    pass


def test_error_context_frames_the_context_and_keeps_its_parts_on_the_error():
    with pytest.raises(LookupError) as caught:
        with error_context(Loader(), split="dev", rows=None):
            raise LookupError("no such split")
    error = caught.value
    lines = str(error).split("\n")
    box = lines[1:lines.index("", 1)]
    assert box[0].startswith("\u250c") and box[-1].startswith("\u2514")
    assert len({len(line) for line in box[3:-1]}) == 1  # every framed line has the same width
    assert [line.strip("\u2502 -") for line in box[3:-1]] == [
        f"Python: {error.context['Python']}", f"Unitxt: {error.context['Unitxt']}", "Object: Loader", "Split: dev",
        "Rows: unknown", "Help: https://www.unitxt.ai/en/latest/"]
    assert lines[-1] == "no such split"
    assert isinstance(error.context_object, Loader) and error.context["split"] == "dev"
    assert type(error.original_error) is LookupError and str(error.original_error) == "no such split"


def test_nested_error_contexts_keep_the_inner_object_and_let_outer_keys_win():
    class Reader:
        pass

    with pytest.raises(KeyError) as caught:
        with error_context(Loader(), stage="outer", attempt=1):
            with error_context(Reader(), stage="inner", row=7):
                raise KeyError("id")
    error = caught.value
    assert isinstance(error.context_object, Reader)
    assert (error.context["stage"], error.context["attempt"], error.context["row"]) == ("outer", 1, 7)
    assert str(error).count("\u250c") == 1 and "Stage: outer" in str(error) and "Object: Reader" in str(error)
    assert error.original_error.args == (str(KeyError("id")),)  # the bare message, as str() of the error gave it


# ---------------------------------------------------------------- Task
def test_task_takes_one_metric_name_as_a_list_of_it():
    task = Task(input_fields={"q": str}, reference_fields={"a": str}, prediction_type=str, metrics="metrics.rouge")
    assert task.metrics == ["metrics.rouge"]


def test_task_needs_both_field_sets_and_one_spelling_of_each():
    with pytest.raises(UnitxtError, match="Missing attribute in task: 'reference_fields' not set."):
        Task(input_fields={"q": str}, metrics=["metrics.accuracy"])
    with pytest.raises(UnitxtError, match="Missing attribute in task: 'input_fields' not set."):
        Task(reference_fields={"a": str}, metrics=["metrics.accuracy"])
    with pytest.raises(UnitxtError, match="'reference_fields' cannot be set simultaneously with 'output'"):
        Task(input_fields={"q": str}, reference_fields={"a": str}, outputs={"a": str})


def test_task_defaults_are_checked_with_assertion_errors():
    task = Task(input_fields={"q": str}, reference_fields={"n": int}, metrics=["metrics.accuracy"])
    task.defaults = {"n": 2.5}
    with pytest.raises(AssertionError) as caught:
        task.verify_defaults()
    assert str(caught.value) == ("The value of 'n' from the 'defaults' must be of type 'int', however, it is of "
                                 "type 'float'.")
    task.defaults = {"extra": 1}
    with pytest.raises(AssertionError, match="the name 'extra' was provided which does not match any of the keys"):
        task.verify_defaults()


def test_check_metrics_type_compares_the_task_and_metric_prediction_types():
    task = Task(input_fields={"q": str}, reference_fields={"a": float}, prediction_type=float,
                metrics=["metrics.spearman"])
    task.check_metrics_type()  # spearman scores floats
    task.prediction_type = str
    with pytest.raises(UnitxtError) as caught:
        task.check_metrics_type()
    assert "The task's prediction type (<class 'str'>) and 'metrics.spearman' metric's prediction type" in str(
        caught.value)


# ---------------------------------------------------------------- dialogs
def test_openai_dialog_turns_merge_runs_of_one_role_and_refuse_other_roles():
    operator = SerializeOpenAiFormatDialog(field="dialog")
    turns = operator.transform_dialog_to_standard_format([
        {"role": "user", "content": "a"}, {"role": "user", "content": "b"},
        {"role": "assistant", "content": "c"}, {"role": "user", "content": "d"}])
    assert turns == [{"user": "a b", "system": "c"}, {"user": "d", "system": ""}]
    for bad in ([{"role": "assistant", "content": "x"}], [{"role": "user", "content": "x"},
                                                          {"role": "tool", "content": "y"}]):
        with pytest.raises(ValueError):
            operator.transform_dialog_to_standard_format(bad)


# ---------------------------------------------------------------- missing paths
def test_a_missing_path_names_the_query_and_lays_out_the_instance():
    with pytest.raises(MissingFieldError) as caught:
        dict_get({"text": "hi", "meta": {"n": 1}}, "meta/m")
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).endswith('query "meta/m" did not match any item in dict:\n'
                                      "text (str):\n    hi\nmeta (dict):\n    n (int):\n        1\n")


# ---------------------------------------------------------------- samplers
def _item(text: str) -> Dict[str, Any]:
    return {"input_fields": {"q": text}, "reference_fields": {"a": text.upper()}}


def test_close_text_sampler_draws_among_the_closest_texts_with_the_instance_seeded_generator():
    pool = [_item(text) for text in ["red apple", "green apple", "red car", "blue sky", "apple red", "red apple"]]
    instance = _item("red apples")
    chosen = CloseTextSampler(field="q").sample(2, pool, instance)
    texts = [item["input_fields"]["q"] for item in pool]
    closest = difflib.get_close_matches("red apples", texts, n=2, cutoff=0)
    candidates = [item for item in pool if item["input_fields"]["q"] in closest]
    seed = f"{settings.seed}/" + str(int(__import__("hashlib").md5(str(instance["input_fields"]).encode()).hexdigest()
                                         [:8], 16))
    assert chosen == random.Random(seed).sample(candidates, 2)
    assert {item["input_fields"]["q"] for item in chosen} <= set(closest)


def test_close_text_sampler_looks_the_field_up_before_counting_the_pool():
    with pytest.raises(ValueError, match='query "input_fields/missing" did not match any item in dict'):
        CloseTextSampler(field="missing").sample(3, [_item("x")], _item("y"))


def test_fixed_indices_out_of_the_pool_say_which_index_and_the_pool_size():
    with pytest.raises(ValueError, match=r"contains index \(5\) which is out of bounds of the instance pool "
                                         r"\( of size 2\)"):
        FixedIndicesSampler(indices=[5]).sample(1, [_item("a"), _item("b")], _item("c"))


# ---------------------------------------------------------------- multiple choice templates
def test_multiple_choice_template_records_each_choice_answer_in_the_input_fields():
    from unitxt.templates import MultipleChoiceTemplate

    template = MultipleChoiceTemplate(input_format="{question} {choices}", target_field="answer",
                                      choices_separator=" / ", enumerator="numbers")
    out = template.process_instance({"input_fields": {"question": "Pick", "choices": ["up", "down", "left"]},
                                     "reference_fields": {"answer": 2, "choices": ["up", "down", "left"]}})
    assert out["input_fields"]["options"] == ["1", "2", "3"] and "options" not in {k for k in out if k != "input_fields"}
    assert out["target"] == "3"


def test_multiple_choice_missing_placeholder_lists_numerals_then_the_fields():
    from unitxt.templates import MultipleChoiceTemplate

    template = MultipleChoiceTemplate(input_format="{prompt}: {choices}", target_field="answer")
    with pytest.raises(UnitxtError, match=r"Available input fields are \[numerals, choices, topic\] but "
                                          r"MultipleChoiceTemplate.input_format format requires a different ones"):
        template.process_instance({"input_fields": {"choices": ["a", "b"], "topic": "t"},
                                   "reference_fields": {"answer": 0, "choices": ["a", "b"]}})


@pytest.mark.parametrize("flags, words", [
    ({"shuffle_choices": True, "reverse_choices": True}, "You cannot combine shuffle_choices with sorting"),
    ({"sort_choices_by_length": True, "sort_choices_alphabetically": True},
     "You cannot combine both sort_choices_by_length and sort_choices_alphabetically simultaneously"),
    ({"place_correct_choice_position": 0, "reverse_choices": True},
     "You cannot combine place_correct_choice_position with sorting or reversing flags"),
])
def test_multiple_choice_flag_clashes_use_the_original_words(flags, words):
    from unitxt.templates import MultipleChoiceTemplate

    with pytest.raises(UnitxtError, match=words):
        MultipleChoiceTemplate(input_format="{choices}", target_field="answer", **flags)


# ---------------------------------------------------------------- table shuffles
def _original_table_generator(table: Dict[str, Any], seed: int) -> random.Random:
    import hashlib

    digest = int(hashlib.md5(str({"table": table, "seed": seed}).encode("utf-8")).hexdigest()[:8], 16)
    return random.Random(f"{settings.seed}/{digest}")


def test_table_shuffles_draw_by_the_table_content_and_seed():
    from unitxt.struct_data_operators import ShuffleTableColumns, ShuffleTableRows

    table = {"header": ["city", "pop", "area"], "rows": [["A", 1, 9], ["B", 2, 8], ["C", 3, 7], ["D", 4, 6]]}
    rows = [list(row) for row in table["rows"]]
    _original_table_generator(table, 5).shuffle(rows)
    out = ShuffleTableRows(field="t", seed=5).process_instance({"t": table})
    assert out["t"] == {"header": table["header"], "rows": rows}
    order = [0, 1, 2]
    _original_table_generator(table, 0).shuffle(order)
    out = ShuffleTableColumns(field="t").process_instance({"t": table})
    assert out["t"]["header"] == [table["header"][i] for i in order]
    assert out["t"]["rows"] == [[row[i] for i in order] for row in table["rows"]]


def test_serialized_table_shuffles_columns_then_rows_as_the_original():
    from unitxt.struct_data_operators import SerializeTableAsIndexedRowMajor

    table = {"header": ["a", "b"], "rows": [[1, 2], [3, 4], [5, 6]]}
    order = [0, 1]
    _original_table_generator(table, 0).shuffle(order)
    shuffled = {"header": [table["header"][i] for i in order], "rows": [[r[i] for i in order] for r in table["rows"]]}
    rows = [list(r) for r in shuffled["rows"]]
    _original_table_generator(shuffled, 0).shuffle(rows)
    text = SerializeTableAsIndexedRowMajor(shuffle_columns=True, shuffle_rows=True).serialize(table, {})
    assert text == " ".join(["col : " + " | ".join(shuffled["header"])]
                            + [f"row {i + 1} : " + " | ".join(map(str, row)) for i, row in enumerate(rows)])


# ---------------------------------------------------------------- policies, metric switches, task metric lookup
def test_policy_refusal_shows_the_instance_both_policies_and_the_way_out():
    from unitxt.errors import DataClassificationPolicyError
    from unitxt.operators import Set

    operator = Set(fields={"x": 1}, data_classification_policy=["public"])
    row = {"text": "secret", "data_classification_policy": ["pii"]}
    with pytest.raises(DataClassificationPolicyError) as caught:
        operator.verify_instance(row)
    message = str(caught.value)
    assert f"The instance '{row} 'has the following data classification policy '['pii']', however, the artifact " \
           "'Set' is only configured to support the data with classification '['public']'." in message
    assert "UNITXT_DATA_CLASSIFICATION_POLICY' accordingly." in message
    assert "docs/data_classification_policy.html" in message


def test_return_confidence_interval_is_a_field_the_switch_sets():
    from unitxt.metrics import Accuracy

    metric = Accuracy()
    assert metric.return_confidence_interval is True and metric.resolved_n_resamples() > 0
    metric.set_confidence_interval_calculation(return_confidence_interval=False)
    assert metric.return_confidence_interval is False and metric.resolved_n_resamples() == 0
    assert Accuracy(return_confidence_interval=False).resolved_n_resamples() == 0


def test_task_lists_the_metrics_a_name_stands_for():
    from unitxt.artifact import fetch_artifact

    listed = Task.get_metrics_artifact_without_load("metrics.accuracy")
    assert [type(metric).__name__ for metric in listed] == ["Accuracy"]
    assert listed[0].to_dict() == fetch_artifact("metrics.accuracy")[0].to_dict()


# ---------------------------------------------------------------- schema checks
def test_required_schema_errors_are_the_original_text_with_the_field_on_the_error():
    from unitxt.type_utils import verify_required_schema

    schema = {"score": float, "tags": "List[str]"}
    with pytest.raises(ValueError) as caught:
        verify_required_schema(schema, {"score": "high", "tags": []}, class_name="Task", id="tasks.mine",
                               description="Scores.")
    assert str(caught.value) == ("Passed value high of field 'score' is not of required type: (float) in Task "
                                 "('tasks.mine').\nTask description: Scores.")
    assert caught.value.field == "score"
    with pytest.raises(KeyError) as caught:
        verify_required_schema(schema, {"score": 1.0}, class_name="Task", id="tasks.mine", description="Scores.")
    assert str(caught.value) == ("The Task ('tasks.mine') expected a field 'tags' which the input instance did not "
                                 "contain.\nThe input instance fields are  : ['score'].\nTask description: Scores.")



def test_tool_call_key_value_extraction_flattens_nested_keys_with_dots():
    from unitxt.metrics import ToolCallKeyValueExtraction

    metric = ToolCallKeyValueExtraction(metric="metrics.accuracy")
    assert metric.flatten_dict({"name": "f", "arguments": {"city": {"zip": 1, "tags": [1, 2]}}}) == {
        "name": "f", "arguments.city.zip": 1, "arguments.city.tags": [1, 2]}
    assert metric.flatten_dict({"calls": [{"a": 1}, {"b": 2}]}) == {"calls.a": 1, "calls.b": 2}
    assert metric.flatten_dict({"calls": [{"a": 1}, {"a": 2}]}, sep="/") == {"calls/0/a": 1, "calls/1/a": 2}


# ---------------------------------------------------------------- recipe demos
def test_recipe_demos_are_drawn_by_the_original_generator_of_each_instance():
    import hashlib

    from unitxt.card import TaskCard
    from unitxt.loaders import LoadFromDictionary
    from unitxt.standard import DatasetRecipe
    from unitxt.templates import InputOutputTemplate

    rows = [{"question": f"{i}*3", "answer": str(3 * i)} for i in range(1, 13)]
    task = Task(input_fields={"question": str}, reference_fields={"answer": str}, prediction_type=str,
                metrics=["metrics.accuracy"])
    template = InputOutputTemplate(input_format="Q {question}", output_format="{answer}")
    card = TaskCard(loader=LoadFromDictionary(data={"train": rows}), task=task, templates=[template])
    for seed in (None, 7):
        recipe = DatasetRecipe(card=card, template_card_index=0, demos_pool_size=6, num_demos=3,
                               demos_sampling_seed=seed)
        produced = list(recipe()["train"])
        assert len(produced) == 6
        for row, instance in zip(produced, rows[6:]):
            sub_seed = {"question": instance["question"]} if seed is None else {"question": instance["question"],
                                                                                  "local_seed": seed}
            digest = int(hashlib.md5(str(sub_seed).encode("utf-8")).hexdigest()[:8], 16)
            drawn = random.Random(f"{settings.seed}/{digest}").sample(rows[:6], 3)
            shown = [line[2:] for line in row["source"].splitlines() if line.startswith("Q ")][:-1]
            assert shown == [demo["question"] for demo in drawn]
