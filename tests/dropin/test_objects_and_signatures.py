"""Drop-in II: code written for the original runs unchanged — artifacts where catalog names go, the original's
signatures and defaults, and its result shapes (each outcome checked against the original in the compat tier)."""

import copy
import inspect
import logging

import pytest

import unitxt
from unitxt import create_dataset, evaluate
from unitxt.artifact import fetch_artifact
from unitxt.blocks import InputOutputTemplate, Task
from unitxt.dict_utils import dict_get, dict_set
from unitxt.errors import UnitxtError
from unitxt.inference import MockInferenceEngine
from unitxt.metrics import Accuracy, MetricsEnsemble
from unitxt.operators import Apply, Rename, ZipFieldValues
from unitxt.settings_utils import Settings, get_settings
from unitxt.splitters import DiverseLabelsSampler, RandomSampler
from unitxt.templates import MultipleChoiceTemplate

ROWS = [{"text": "a", "label": "x"}, {"text": "b", "label": "y"}, {"text": "c", "label": "x"}, {"text": "d", "label": "y"}]


def task_and_template(metrics, postprocessors=("processors.to_string_stripped",)):
    task = Task(input_fields={"text": str}, reference_fields={"label": str}, prediction_type=str, metrics=metrics)
    return task, InputOutputTemplate(input_format="{text}", output_format="{label}", postprocessors=list(postprocessors))


# ---------------------------------------------------------------- objects where names go
def test_metric_and_postprocessor_objects_in_task_and_template_are_recorded_and_scored():
    lower = fetch_artifact("processors.lower_case")[0]
    task, template = task_and_template([Accuracy(), "metrics.f1_micro"], [lower, "processors.to_string_stripped"])
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test")
    assert dataset[0]["metrics"] == ['{"__type__": "accuracy"}', "metrics.f1_micro"]  # JSON for the object
    assert [type(fetch_artifact(reference)[0]).__name__ for reference in dataset[0]["metrics"]][0] == "Accuracy"
    scores = evaluate(["X", "z", "x ", "Y"], dataset)[0]["score"]["global"]
    assert (scores["accuracy"], round(scores["f1_micro"], 6)) == (0.75, 0.857143)  # "X"/"Y" lower-cased first


def test_recipe_metrics_mix_objects_and_names():
    task, template = task_and_template(["metrics.f1_micro"])
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test",
                             metrics=["metrics.f1_micro", Accuracy()])
    scores = evaluate(["x", "x", "x", "y"], dataset)[0]["score"]["global"]
    assert scores["score_name"] == "f1_micro" and scores["accuracy"] == 0.75


def test_llm_judge_object_as_load_dataset_metric():
    from unitxt.llm_as_judge import LLMJudgeDirect

    judge = LLMJudgeDirect(inference_engine=MockInferenceEngine(default_inference_value="Yes"),
                           criteria="metrics.llm_as_judge.direct.criteria.answer_relevance", context_fields=["text"])
    task, template = task_and_template(["metrics.accuracy"])
    dataset = create_dataset(task=task, test_set=ROWS[:2], template=template, split="test", metrics=[judge])
    assert dataset[0]["metrics"][0].startswith("{") and '"llm_judge_direct"' in dataset[0]["metrics"][0]
    assert type(fetch_artifact(dataset[0]["metrics"][0])[0]).__name__ == "LLMJudgeDirect"


def test_metrics_that_are_neither_names_nor_artifacts_are_refused():
    with pytest.raises(UnitxtError, match="'metrics' holds catalog names or artifacts, got int"):
        Task(input_fields={"text": str}, reference_fields={"label": str}, metrics=[3])


def test_fetch_artifact_reads_an_artifacts_json_and_refuses_other_json():
    assert type(fetch_artifact(Accuracy().to_json())[0]).__name__ == "Accuracy"
    with pytest.raises(UnitxtError, match="no __type__"):
        fetch_artifact('{"main_score": "x"}')


# ---------------------------------------------------------------- evaluate() with fewer predictions (HELM)
def test_fewer_predictions_than_rows_score_the_leading_rows_with_one_warning(caplog):
    task, template = task_and_template(["metrics.accuracy"])
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test")
    with caplog.at_level(logging.WARNING, logger="unitxt"):
        results = evaluate(["x", "x"], dataset)
    assert results[0]["score"]["global"]["num_of_instances"] == 2 and len(results) == 2
    assert results[0]["score"]["global"]["accuracy"] == 0.5
    warnings = [record.getMessage() for record in caplog.records if "predictions for" in record.getMessage()]
    assert warnings == ["evaluate() got 2 predictions for 4 instances: scoring the first 2 instances only."]
    with pytest.raises(UnitxtError, match="Got 5 predictions for 4 instances"):
        evaluate(["x"] * 5, dataset)


# ---------------------------------------------------------------- signatures, types and defaults
def test_float_limits_keep_the_leading_ceil_instances():
    task, template = task_and_template(["metrics.accuracy"])
    sizes = [len(create_dataset(task=task, test_set=ROWS, template=template, split="test", max_test_instances=limit))
             for limit in (2.0, 2.5, 200 / 80)]
    assert sizes == [2, 3, 3]
    assert len(create_dataset(task=task, test_set=ROWS, template=template, split="test", loader_limit=3.0)) == 3
    with pytest.raises(UnitxtError, match="max_test_instances"):
        create_dataset(task=task, test_set=ROWS, template=template, split="test", max_test_instances="3")


def test_infer_takes_the_originals_parameter_order():
    assert list(inspect.signature(unitxt.infer).parameters)[:3] == ["instance_or_instances", "engine", "dataset_query"]
    engine = MockInferenceEngine(default_inference_value=" Y ")
    query = "task=tasks.classification.multi_class,template=templates.classification.multi_class.default"
    instance = {"text": "t", "text_type": "text", "classes": ["x", "y"], "type_of_class": "letter"}
    assert unitxt.infer([instance], engine, query) == ["y"]  # stripped and lower-cased by the template
    assert unitxt.infer([instance], query, engine) == ["y"]  # the earlier (instances, recipe, engine) order
    assert unitxt.infer(instance, engine, dataset_query=query) == "y"


def test_apply_takes_a_function_object_and_keeps_its_name():
    operator = Apply("a", function=str.upper, to_field="b")
    assert operator.process_instance({"a": "xy"}) == {"a": "xy", "b": "XY"}
    assert operator.to_dict()["function"] == "str.upper"
    with pytest.raises(UnitxtError, match="not one of the allowed functions"):
        Apply("a", function=print, to_field="b")


def test_samplers_sample_as_the_original_calls_them():
    pool = [{"input_fields": {"choices": ["a", "b"], "q": str(i)},
             "reference_fields": {"label": [label] if label else []}} for i, label in enumerate(["a", "a", "b", "", "b", "a"])]
    instance = {"input_fields": {"choices": ["a", "b"], "q": "z"}, "reference_fields": {"label": ["a"]}}
    assert DiverseLabelsSampler("choices").choices == "choices"  # the positional argument
    drawn = DiverseLabelsSampler(choices="choices", labels="label", include_empty_label=False).sample(4, pool, instance)
    labels = [tuple(item["reference_fields"]["label"]) for item in drawn]
    assert len(drawn) == 4 and () not in labels and set(labels) == {("a",), ("b",)}
    with_empty = DiverseLabelsSampler(choices="choices", labels="label").sample(3, pool, instance)
    assert {tuple(item["reference_fields"]["label"]) for item in with_empty} == {("a",), ("b",), ()}
    again = RandomSampler().sample(3, pool, instance, sampling_seed=1)
    assert again == RandomSampler().sample(3, pool, instance, sampling_seed=1) and len({id(x) for x in again}) == 3
    assert len(RandomSampler().filter_source_by_instance(pool + [instance], instance)) == 6


MC = {"input_fields": {"question": "Q?", "choices": ["ccc", "a", "bb", "dddd"]},
      "reference_fields": {"label": 1, "choices": ["ccc", "a", "bb", "dddd"]}}


@pytest.mark.parametrize("flags,source,target,choices,label", [
    ({}, "Q? A. ccc, B. a, C. bb, D. dddd", "B", ["ccc", "a", "bb", "dddd"], 1),
    ({"reverse_choices": True}, "Q? A. dddd, B. bb, C. a, D. ccc", "C", ["dddd", "bb", "a", "ccc"], 2),
    ({"sort_choices_by_length": True}, "Q? A. a, B. bb, C. ccc, D. dddd", "A", ["a", "bb", "ccc", "dddd"], 0),
    ({"sort_choices_alphabetically": True}, "Q? A. a, B. bb, C. ccc, D. dddd", "A", ["a", "bb", "ccc", "dddd"], 0),
    ({"place_correct_choice_position": 0}, "Q? A. a, B. ccc, C. bb, D. dddd", "A", ["a", "ccc", "bb", "dddd"], 0),
    ({"place_correct_choice_position": -1}, "Q? A. ccc, B. bb, C. dddd, D. a", "D", ["ccc", "bb", "dddd", "a"], 3),
    ({"sort_choices_by_length": True, "reverse_choices": True}, "Q? A. dddd, B. ccc, C. bb, D. a", "D",
     ["dddd", "ccc", "bb", "a"], 3),
])
def test_multiple_choice_orders(flags, source, target, choices, label):
    out = MultipleChoiceTemplate(input_format="{question} {choices}", **flags).process_instance(copy.deepcopy(MC))
    assert (out["source"], out["target"], out["references"]) == (source, target, [target])
    assert (out["input_fields"]["choices"], out["reference_fields"]["label"]) == (choices, label)


def test_multiple_choice_defaults_and_refusals():
    assert MultipleChoiceTemplate(input_format="{choices}").target_field == "label"
    with pytest.raises(UnitxtError, match="out of range for 4 choices"):
        MultipleChoiceTemplate(input_format="{choices}", place_correct_choice_position=9).process_instance(
            copy.deepcopy(MC))
    with pytest.raises(UnitxtError, match="You cannot combine shuffle_choices with sorting or reversing flags"):
        MultipleChoiceTemplate(input_format="{choices}", shuffle_choices=True, reverse_choices=True)
    with pytest.raises(UnitxtError, match="You cannot combine both sort_choices_by_length and sort_choices_alphabetically"):
        MultipleChoiceTemplate(input_format="{choices}", sort_choices_by_length=True, sort_choices_alphabetically=True)


def test_dict_get_and_set_paths_as_the_original():
    data = {"a": [{"b": {"c": 1}}], "references": ["x", "y"], "e": {}}
    assert dict_get(data, "references/") == ["x", "y"] and dict_get(data, "e/") == []
    assert dict_get(data, "a/5/b", not_exist_ok=True) is None and dict_get(data, "a/5/b", True, 7) == 7
    with pytest.raises(UnitxtError, match="a/5/b"):
        dict_get(data, "a/5/b")
    cases = [("x/0/y", 3, {"x": [{"y": 3}]}), ("references/5", "w", {"references": ["x", "y", None, None, None, "w"]}),
             ("references/", ["z"], {"references": [["z"], ["z"]]}), ("q/1", 1, {"q": [None, 1]}),
             ("a/1/b", 2, {"a": [{"b": {"c": 1}}, {"b": 2}]})]
    for path, value, changed in cases:
        target = copy.deepcopy(data)
        dict_set(target, path, value)
        assert target == {**data, **changed}, path
    for path in ("new", "x/y", "references/2"):
        with pytest.raises(UnitxtError):
            dict_set(copy.deepcopy(data), path, 1, not_exist_ok=False)
    target = copy.deepcopy(data)
    dict_set(target, "a/0/b/c", 5, not_exist_ok=False)
    assert target["a"] == [{"b": {"c": 5}}]


def test_settings_is_one_shared_object_with_the_originals_key_rules():
    settings = get_settings()
    assert Settings() is settings and settings.seed_key == "UNITXT_SEED"
    with pytest.raises(AttributeError):
        settings.no_such_setting_here  # noqa: B018
    with settings.context(seed=42):
        settings.seed = "7"
        assert settings.seed == 7
        with pytest.raises(ValueError, match="Setting 'seed' takes a int"):
            settings.seed = "x"
    with pytest.raises(AttributeError, match="can not be set"):
        settings.seed_key = "X"
    settings.dropin_probe = (float, "0.5")
    assert settings.dropin_probe == 0.5
    del settings.dropin_probe


def test_task_defaults_fill_missing_fields_only_and_are_checked():
    task = Task(input_fields={"text": str, "ctx": str}, reference_fields={"label": str}, prediction_type=str,
                metrics=["metrics.accuracy"], defaults={"ctx": "none", "label": "L"})
    template = InputOutputTemplate(input_format="{text} {ctx}", output_format="{label}")
    dataset = create_dataset(task=task, test_set=[{"text": "a"}], template=template, split="test")
    given = create_dataset(task=task, test_set=[{"text": "c", "ctx": "given", "label": "z"}], template=template,
                           split="test")  # a split's rows share their fields (the original refuses ragged rows)
    assert list(dataset["source"]) + list(given["source"]) == ["a none\n", "c given\n"]
    assert list(dataset["target"]) + list(given["target"]) == ["L", "z"]
    with pytest.raises(UnitxtError, match="'ctx' should be of type str, but got NoneType"):
        create_dataset(task=task, test_set=[{"text": "b", "ctx": None}], template=template, split="test")
    with pytest.raises(UnitxtError, match="The value of 'label' from the 'defaults' must be of type 'str', however, "
                                          "it is of type 'int'"):
        Task(input_fields={"text": str}, reference_fields={"label": str}, defaults={"label": 3})
    with pytest.raises(UnitxtError, match="However, the name 'nope' was provided which does not match any"):
        Task(input_fields={"text": str}, reference_fields={"label": str}, defaults={"nope": "3"})


# ---------------------------------------------------------------- result shapes
def test_zip_field_values_gives_tuples_and_rename_drops_emptied_parents():
    zipped = ZipFieldValues(fields=["a", "b"], to_field="c", longest=True).process_instance(
        {"a": [1, 2, 3], "b": ["x", "y"]})["c"]
    assert zipped == [(1, "x"), (2, "y"), (3, None)]
    assert Rename(field_to_field={"x/y/q": "z"}).process_instance({"x": {"y": {"q": 1}}}) == {"z": 1}
    assert Rename(field_to_field={"x/y": "z"}).process_instance({"x": {"y": 1, "w": 3}}) == {"x": {"w": 3}, "z": 1}
    assert Rename(field_to_field={"x/0": "z"}).process_instance({"x": [5]}) == {"z": 5}


def test_ensemble_reports_each_metrics_global_score():
    ensemble = MetricsEnsemble(metrics=["metrics.accuracy", "metrics.f1_micro"], weights=[0.7, 0.3])
    scores = ensemble.evaluate(["a", "b", "a"], [["a"], ["a"], ["b"]]).global_scores()
    assert sorted(key for key in scores if "_ci_" not in key) == [
        "ensemble_0_accuracy", "ensemble_1_f1_micro", "ensemble_score", "num_of_instances", "score", "score_name"]
    assert scores["ensemble_0_accuracy"] == pytest.approx(1 / 3) and scores["ensemble_score"] == pytest.approx(1 / 3)
    assert "ensemble_1_f1_micro_ci_low" in scores and "ensemble_score_ci_low" not in scores


def test_report_per_group_scores_false_drops_the_per_type_scores():
    from unitxt.metrics import NER

    predictions, references = [[("a", "PER"), ("b", "LOC")]], [[[("a", "PER"), ("c", "LOC")]]]
    kept = NER().evaluate(predictions, references).global_scores()
    dropped = NER(report_per_group_scores=False).evaluate(predictions, references).global_scores()
    assert kept["f1_PER"] == 1.0 and kept["f1_LOC"] == 0.0
    assert not [key for key in dropped if key in ("f1_PER", "f1_LOC")] and dropped["f1_micro"] == kept["f1_micro"]


def test_the_names_helm_imports_resolve():
    from unitxt.api import load_recipe
    from unitxt.base_metric import Metric
    from unitxt.metrics.base import Metric as Home

    assert Metric is Home
    assert type(load_recipe("card=cards.wnli,template_card_index=0")).__name__ == "DatasetRecipe"


def test_context_correctness_reads_the_originals_context_ids_field():
    from unitxt.metrics.rag import ContextCorrectnessMRR

    metric = ContextCorrectnessMRR()
    task_data = [{"reference_context_ids": ["c1"]}, {"reference_context_ids": ["c1"]}]
    predictions = [{"answer": "a", "context_ids": ["c3", "c1"]}, {"answer": "a", "contexts_id": ["c1"]}]
    scores = metric.evaluate(predictions, [["a"], ["a"]], task_data).instance_scores
    assert [round(s["context_correctness"], 6) for s in scores] == [0.5, 1.0]
