"""Every built-in artifact class serialises to JSON and back to an equal object."""

import json
import typing
from typing import Any

import pytest

from unitxt.artifact import Artifact, get_artifact_class, is_artifact_class, registered_artifact_types

# Classes whose required fields need specific values (verify() constraints); the rest are synthesised from types.
EXAMPLES = {
    "cast": {"to": "int", "field": "x"},
    "filter_by_condition": {"values": {"x": 1}, "condition": "gt"},
    "filter_by_expression": {"expression": "len(x) > 0"},
    "execute_expression": {"expression": "x + 1", "to_field": "y"},
    "split_random_mix": {"mix": {"train": "train[90%]", "validation": "train[10%]"}},
    "wrap": {"inside": "tuple", "field": "x"},
    "collate_instances": {"batch_size": 2},
    "duplicate_instances": {"num_duplications": 2},
    "input_output_template": {"input_format": "{question}", "output_format": "{answer}"},
    "multi_reference_template": {"input_format": "{question}", "references_field": "answers"},
    "yes_no_template": {"input_format": "{text}", "class_field": "cls", "label_field": "labels"},
    "system_format": {},
    "task": {"input_fields": {"q": "str"}, "reference_fields": {"a": "str"}, "metrics": ["metrics.accuracy"]},
    "form_task": {"input_fields": {"q": "str"}, "reference_fields": {"a": "str"}, "metrics": ["metrics.accuracy"]},
    "cast_fields": {"fields": {"x": "int"}},
    "dataset_recipe": {"card": "cards.demo.sentiment", "num_demos": [0, 2], "demos_pool_size": 10},
    "single_type_serializer": {"serialized_type": "List[str]"},
    "key_value_extraction": {"metric": "metrics.accuracy"},
    "granite_guardian_user_risk": {"risk_name": "jailbreak"},
    "granite_guardian_assistant_risk": {"risk_name": "harm"},
    "granite_guardian_rag_risk": {"risk_name": "groundedness"},
    "granite_guardian_agentic_risk": {"risk_name": "function_call"},
    "tool_call_key_value_extraction": {"metric": "metrics.accuracy"},
    "multi_turn_metric": {"metric": "metrics.accuracy"},
    "metrics_ensemble": {"metrics": ["metrics.accuracy", "metrics.f1_micro"], "weights": [0.5, 0.5]},
    "random_forest_metrics_ensemble": {"metrics": ["metrics.accuracy"], "weights": {"params": {"n_estimators": 2}}},
    "string_containment_ratio": {"field": "entities"},
    "apply": {"function": "str.lower", "to_field": "y", "_argv": ["x"]},
    "filter_by_condition_based_on_fields": {"values": {"a": "b"}, "condition": "eq"},
    "infer_dicts_to_binary_logprobs": {"pos_class_name": "Yes", "neg_class_name": "No"},
    "join_streams": {"left_stream": "a", "right_stream": "b", "on": ["id"], "new_stream_name": "c"},
    "criteria_with_options": {"name": "c", "options": [{"name": "Yes"}, {"name": "No"}],
                              "option_map": {"Yes": 1.0, "No": 0.0}},
    "artifact_link": {"to": "metrics.accuracy"},
    "iterable_source": {"iterables": {"test": [{"x": 1}]}},
    "weighted_fusion": {"subsets": {"a": {"__type__": "iterable_source", "iterables": {"test": [{"x": 1}]}}},
                        "weights": {"a": 1}},
    "task_based_ll_mas_judge": {"inference_model": "engines.generic", "task": "tasks.rag_eval.faithfulness.binary",
                                "template": "templates.rag_eval.faithfulness.default"},
}

# Base classes that only make sense subclassed: constructing them directly must fail with a clear error.
ABSTRACT = {"metric", "instance_metric", "bulk_instance_metric", "global_metric", "retrieval_metric"}


def _synthesise(annotation: Any) -> Any:
    """A plausible value of a type (catalog-name strings for artifact-typed fields)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is Any:
        return "value"
    if is_artifact_class(annotation):
        return "some.catalog_name"
    if origin is typing.Union:
        options = [arg for arg in args if arg is not type(None)]
        return _synthesise(options[0])
    if origin in (list, tuple):
        return [_synthesise(args[0])] if args else ["value"]
    if origin is dict:
        return {"key": _synthesise(args[1])} if args else {"key": "value"}
    if origin is typing.Literal:
        return args[0]
    return {str: "text", int: 1, float: 0.5, bool: True}.get(annotation, "value")


def _example(cls) -> Artifact:
    if cls._type_name in EXAMPLES:
        return cls(**EXAMPLES[cls._type_name])
    kwargs = {name: _synthesise(spec.annotation) for name, spec in cls.get_fields().items() if spec.required}
    return cls(**kwargs)


def builtin_classes():
    return sorted(
        (cls for cls in registered_artifact_types().values()
         if issubclass(cls, Artifact) and cls.__module__.startswith("unitxt.") and cls._type_name not in ABSTRACT
         and not cls.__dict__.get("__abstract__")),
        key=lambda cls: cls._type_name,
    )


def abstract_base_names():
    return sorted(name for name, cls in registered_artifact_types().items() if cls.__dict__.get("__abstract__"))


@pytest.mark.parametrize("type_name", abstract_base_names())
def test_abstract_bases_are_refused_from_data(type_name):
    from unitxt.errors import UnitxtError

    with pytest.raises(UnitxtError, match="abstract base"):
        Artifact.from_dict({"__type__": type_name})


@pytest.mark.parametrize("type_name", sorted(ABSTRACT))
def test_abstract_bases_refuse_direct_construction(type_name):
    from unitxt.errors import UnitxtError

    with pytest.raises(UnitxtError, match="main_score"):
        get_artifact_class(type_name)()


@pytest.mark.parametrize("cls", builtin_classes(), ids=lambda cls: cls._type_name)
def test_builtin_artifact_round_trips_through_json(cls):
    try:
        artifact = _example(cls)
    except NotImplementedError:
        pytest.fail(f"{cls.__name__} can not be instantiated; add an example to EXAMPLES")
    text = json.dumps(artifact.to_dict())
    again = Artifact.from_dict(json.loads(text))
    assert type(again) is cls
    assert again == artifact
    assert again.to_dict() == artifact.to_dict()
    assert get_artifact_class(cls._type_name) is cls


def test_every_library_module_class_is_covered():
    names = {cls._type_name for cls in builtin_classes()}
    for expected in ("copy", "set", "rename", "load_hf", "load_csv", "task", "task_card", "dataset_recipe",
                     "input_output_template", "system_format", "accuracy", "f1_micro", "post_process"):
        assert expected in names
