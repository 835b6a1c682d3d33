"""Drop-in probes: small programs written against the original's public API (objects where names go, signatures,
defaults, result shapes), run unchanged by the oracle's python and by ours; argv[1] receives {probe: outcome}.

An outcome is JSON data, or "ERR" when the program raised (error classes are compared elsewhere). Random draws are
not compared value by value (each library has its own generator), only by their properties.
"""

import copy
import inspect
import json
import sys

PROBES = {}


def probe(function):
    PROBES[function.__name__] = function
    return function


def _task_and_template(metrics, postprocessors=None):
    from unitxt.blocks import InputOutputTemplate, Task

    task = Task(input_fields={"text": str}, reference_fields={"label": str}, prediction_type=str, metrics=metrics)
    template = InputOutputTemplate(input_format="{text}", output_format="{label}",
                                   postprocessors=postprocessors or ["processors.to_string_stripped"])
    return task, template


ROWS = [{"text": "a", "label": "x"}, {"text": "b", "label": "y"}, {"text": "c", "label": "x"}, {"text": "d", "label": "y"}]


def _global(results, names):
    scores = results[0]["score"]["global"]
    return {name: round(float(scores[name]), 9) for name in names}


@probe
def metric_objects_in_task_and_template():
    from unitxt import create_dataset, evaluate
    from unitxt.artifact import fetch_artifact
    from unitxt.metrics import Accuracy

    lower = fetch_artifact("processors.lower_case")[0]
    task, template = _task_and_template([Accuracy(), "metrics.f1_micro"], [lower, "processors.to_string_stripped"])
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test")
    results = evaluate(["X", "z", "x ", "Y"], dataset)
    resolved = [fetch_artifact(reference)[0].main_score for reference in dataset[0]["metrics"]]
    return {"scores": _global(results, ["accuracy", "f1_micro", "score"]), "resolved": resolved,
            "postprocessors": len(dataset[0]["postprocessors"])}


@probe
def metric_objects_in_recipe():
    from unitxt import create_dataset, evaluate
    from unitxt.metrics import Accuracy

    task, template = _task_and_template(["metrics.f1_micro"])
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test",
                             metrics=["metrics.f1_micro", Accuracy()])
    return _global(evaluate(["x", "x", "x", "y"], dataset), ["accuracy", "f1_micro", "score"])


@probe
def fetch_artifact_reads_json():
    from unitxt.artifact import fetch_artifact
    from unitxt.metrics import Accuracy

    return [type(fetch_artifact(Accuracy().to_json())[0]).__name__, type(fetch_artifact(Accuracy().to_dict())[0]).__name__]


@probe
def fewer_predictions_than_rows():
    from unitxt import create_dataset, evaluate

    task, template = _task_and_template(["metrics.accuracy"])
    dataset = create_dataset(task=task, test_set=ROWS, template=template, split="test")
    results = evaluate(["x", "x"], dataset)
    return {"n": results[0]["score"]["global"]["num_of_instances"], "rows": len(results),
            **_global(results, ["accuracy"])}


@probe
def float_limits():
    from unitxt import create_dataset

    task, template = _task_and_template(["metrics.accuracy"])
    sizes = {}
    for limit in (2.0, 2.5, 200 / 80):
        sizes[str(limit)] = len(create_dataset(task=task, test_set=ROWS, template=template, split="test",
                                               max_test_instances=limit))
    sizes["loader_limit=3.0"] = len(create_dataset(task=task, test_set=ROWS, template=template, split="test",
                                                   loader_limit=3.0))
    return sizes


@probe
def task_defaults():
    from unitxt import create_dataset
    from unitxt.blocks import InputOutputTemplate, Task

    task = Task(input_fields={"text": str, "ctx": str}, reference_fields={"label": str}, prediction_type=str,
                metrics=["metrics.accuracy"], defaults={"ctx": "none", "label": "L"})
    template = InputOutputTemplate(input_format="{text} {ctx}", output_format="{label}")
    outcomes = []
    for rows in ([{"text": "a"}], [{"text": "b", "ctx": None}], [{"text": "c", "ctx": "given", "label": "z"}]):
        try:
            dataset = create_dataset(task=task, test_set=rows, template=template, split="test")
            outcomes.append([list(dataset["source"]), list(dataset["target"])])
        except Exception:  # noqa: BLE001
            outcomes.append("ERR")
    for defaults in ({"label": 3}, {"nope": "3"}):
        try:
            Task(input_fields={"text": str}, reference_fields={"label": str}, metrics=["metrics.accuracy"],
                 defaults=defaults)
            outcomes.append("accepted")
        except Exception:  # noqa: BLE001
            outcomes.append("ERR")
    return outcomes


@probe
def apply_with_a_function_object():
    from unitxt.operators import Apply

    operator = Apply("a", function=str.upper, to_field="b")
    return [operator.process_instance({"a": "xy"}), operator.to_dict()["function"]]


@probe
def samplers():
    from unitxt.splitters import DiverseLabelsSampler, RandomSampler

    positional = DiverseLabelsSampler("choices").to_dict()
    pool = [{"input_fields": {"choices": ["a", "b"], "q": str(i)}, "reference_fields": {"label": [label] if label else []}}
            for i, label in enumerate(["a", "a", "b", "", "b", "a"])]
    instance = {"input_fields": {"choices": ["a", "b"], "q": "z"}, "reference_fields": {"label": ["a"]}}
    result = {"positional": positional, "signature": list(inspect.signature(RandomSampler.sample).parameters)}
    for include in (True, False):
        drawn = DiverseLabelsSampler(choices="choices", labels="label", include_empty_label=include).sample(
            4, pool, instance)
        labels = [tuple(item["reference_fields"]["label"]) for item in drawn]
        result[f"include_empty_{include}"] = {"size": len(drawn), "from_pool": all(item in pool for item in drawn),
                                              "distinct_labels": len(set(labels)), "has_empty": () in labels}
    drawn = RandomSampler().sample(3, pool, instance, sampling_seed=1)
    result["random"] = {"size": len(drawn), "distinct": len({item["input_fields"]["q"] for item in drawn})}
    filtered = RandomSampler().filter_source_by_instance(pool + [instance], instance)
    result["filtered"] = len(filtered)
    return result


@probe
def multiple_choice_orders():
    from unitxt.templates import MultipleChoiceTemplate

    instance = {"input_fields": {"question": "Q?", "choices": ["ccc", "a", "bb", "dddd"]},
                "reference_fields": {"label": 1, "choices": ["ccc", "a", "bb", "dddd"]}}
    outcomes = {"default_target_field": MultipleChoiceTemplate(input_format="{choices}").target_field}
    for flags in ({}, {"reverse_choices": True}, {"sort_choices_by_length": True},
                  {"sort_choices_alphabetically": True}, {"place_correct_choice_position": 0},
                  {"place_correct_choice_position": -1}, {"sort_choices_by_length": True, "reverse_choices": True},
                  {"place_correct_choice_position": 9}, {"shuffle_choices": True, "reverse_choices": True}):
        try:
            out = MultipleChoiceTemplate(input_format="{question} {choices}", **flags).process_instance(
                copy.deepcopy(instance))
            outcomes[json.dumps(flags)] = [out["source"], out["target"], out["references"],
                                           out["input_fields"]["choices"], out["reference_fields"]["label"]]
        except Exception:  # noqa: BLE001
            outcomes[json.dumps(flags)] = "ERR"
    return outcomes


@probe
def dict_paths():
    from unitxt.dict_utils import dict_get, dict_set

    data = {"a": [{"b": {"c": 1}}], "references": ["x", "y"], "e": {}}
    outcomes = {}

    def attempt(function):
        try:
            return function()
        except Exception:  # noqa: BLE001
            return "ERR"

    for query in ("a/0/b/c", "references/", "references/-1", "a/5/b", "missing", "a/*/b", "e/"):
        outcomes[f"get {query}"] = [attempt(lambda: dict_get(data, query)),
                                    attempt(lambda: dict_get(data, query, not_exist_ok=True)),
                                    attempt(lambda: dict_get(data, query, not_exist_ok=True, default=7))]
    for query, value in (("a/0/b/c", 5), ("x/0/y", 3), ("x/y", 3), ("references/", ["z"]), ("references/2", "w"),
                         ("references/5", "w"), ("a/0/b/d/e", 1), ("new", 1), ("q/1", 1), ("a/1/b", 2)):
        for exist in (True, False):
            target = copy.deepcopy(data)
            outcome = attempt(lambda: dict_set(target, query, value, not_exist_ok=exist))
            outcomes[f"set {query} {exist}"] = [outcome, target]
    return outcomes


@probe
def settings_object():
    from unitxt.settings_utils import Settings, get_settings

    settings = get_settings()
    outcomes = {"shared": Settings() is settings, "seed_key": settings.seed_key}
    try:
        settings.no_such_setting_at_all  # noqa: B018
        outcomes["unknown"] = "read"
    except AttributeError:
        outcomes["unknown"] = "AttributeError"
    settings.seed = "7"
    outcomes["seed_cast"] = settings.seed
    try:
        settings.seed = "x"
        outcomes["bad_seed"] = "accepted"
    except ValueError:
        outcomes["bad_seed"] = "ValueError"
    settings.probe_new_setting = [1]
    outcomes["new_key"] = settings.probe_new_setting
    return outcomes


@probe
def zip_and_rename():
    from unitxt.operators import Rename, ZipFieldValues

    zipped = ZipFieldValues(fields=["a", "b"], to_field="c", longest=True).process_instance(
        {"a": [1, 2, 3], "b": ["x", "y"]})["c"]
    return {"zip": repr(zipped),
            "rename": [Rename(field_to_field={"x/y": "z"}).process_instance({"x": {"y": 1}, "k": 2}),
                       Rename(field_to_field={"x/y": "z"}).process_instance({"x": {"y": 1, "w": 3}}),
                       Rename(field_to_field={"x/y/q": "z"}).process_instance({"x": {"y": {"q": 1}}}),
                       Rename(field_to_field={"x/0": "z"}).process_instance({"x": [5]})]}


@probe
def ensemble_scores():
    from unitxt.metrics import MetricsEnsemble
    from unitxt.test_utils.metrics import apply_metric

    outputs = apply_metric(metric=MetricsEnsemble(metrics=["metrics.accuracy", "metrics.f1_micro"], weights=[0.7, 0.3]),
                           predictions=["a", "b", "a"], references=[["a"], ["a"], ["b"]])
    scores = outputs[0]["score"]["global"]
    return {"keys": sorted(scores), "values": {key: round(float(value), 9) for key, value in scores.items()
                                               if isinstance(value, (int, float)) and "_ci_" not in key},
            "instance_keys": sorted(outputs[0]["score"]["instance"])}


@probe
def per_group_scores_switch():
    from unitxt.metrics import NER
    from unitxt.test_utils.metrics import apply_metric

    keys = {}
    for flag in (True, False):
        outputs = apply_metric(metric=NER(report_per_group_scores=flag), predictions=[[("a", "PER"), ("b", "LOC")]],
                               references=[[[("a", "PER"), ("c", "LOC")]]])
        keys[str(flag)] = sorted(key for key in outputs[0]["score"]["global"] if key.startswith("f1_"))
    return keys


@probe
def infer_signature():
    import unitxt

    return list(inspect.signature(unitxt.infer).parameters)[:3]


@probe
def helm_imports():
    from unitxt.api import load_recipe
    from unitxt.base_metric import Metric

    recipe = load_recipe(card="cards.wnli", template_card_index=0)
    return [type(recipe).__name__, Metric.__name__]


def main():
    results = {}
    for name, function in PROBES.items():
        try:
            results[name] = function()
        except Exception as error:  # noqa: BLE001
            results[name] = f"ERR {type(error).__name__}: {str(error)[-300:]}"
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(results, handle, default=repr)


if __name__ == "__main__":
    main()
