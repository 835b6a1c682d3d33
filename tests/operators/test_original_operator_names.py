"""Operators of the original's `unitxt.operators` that code written for it imports: each exists here and does what
the original does on the same input (values checked against unitxt 1.26.10 by hand)."""

import pytest

from unitxt.operators import (
    ApplyMetric,
    ApplyOperatorsField,
    ApplyStreamOperatorsField,
    DivideAllFieldsBy,
    EncodeLabels,
    FeatureGroupedShuffle,
    FlattenInstances,
    FromIterables,
    Intersect,
    IterableSource,
    Perturb,
)
from unitxt.metrics import MetricsList
from unitxt.stream import MultiStream
from unitxt.test_utils.operators import apply_operator, check_operator


def test_divide_all_fields_by_divides_floats_only_and_strict_refuses_others():
    row = {"x": 9.0, "ys": [3.0, 1.5], "n": 7, "deep": {"z": 0.5}}
    assert DivideAllFieldsBy(divisor=3.0).process(row) == {"x": 3.0, "ys": [1.0, 0.5], "n": 7, "deep": {"z": 0.5 / 3}}
    with pytest.raises(ValueError) as caught:
        DivideAllFieldsBy(divisor=3.0, strict=True).process({"n": 7})
    assert str(caught.value) == "Cannot divide instance of type <class 'int'>"


def test_flatten_instances_joins_nested_keys_with_sep():
    outputs = apply_operator(FlattenInstances(sep="::"), [{"p": {"q": {"r": 4}}, "s": 1}])
    assert outputs == [{"p::q::r": 4, "s": 1}]


def test_encode_labels_numbers_values_in_order_of_appearance_across_fields():
    rows = [{"guess": "owl", "gold": ["hen", "owl"]}, {"guess": "emu", "gold": []}, {"guess": "hen", "gold": ["emu"]}]
    outputs = apply_operator(EncodeLabels(fields=["guess", "gold/*"]), rows)
    assert outputs == [{"guess": 0, "gold": [1, 0]}, {"guess": 2, "gold": []}, {"guess": 1, "gold": [2]}]


def test_intersect_keeps_allowed_members_and_refuses_a_non_list():
    check_operator(Intersect(field="tags", allowed_values=["red", "blue"]),
                   [{"tags": ["blue", "green", "red"]}], [{"tags": ["blue", "red"]}])
    with pytest.raises(ValueError):
        Intersect(field="tags", allowed_values="red")
    with pytest.raises(ValueError):
        apply_operator(Intersect(field="tags", allowed_values=["red"]), [{"tags": "red"}])


def test_perturb_never_or_always_and_range_check():
    row = {"gold": 4}
    assert Perturb(field="gold", to_field="guess", percentage_to_perturb=0).process_instance(dict(row))["guess"] == 4
    changed = Perturb(field="gold", to_field="guess", percentage_to_perturb=100).process_instance(dict(row))["guess"]
    assert changed in (3, 5)
    text = Perturb(field="gold", to_field="guess", percentage_to_perturb=100).process_instance({"gold": "kitten"})
    assert len(text["guess"]) == 5
    with pytest.raises(AssertionError) as caught:
        Perturb(field="gold", percentage_to_perturb=101)
    assert str(caught.value) == "'percentage_to_perturb' should be in the range 0..100. Received 101"


def test_from_iterables_and_iterable_source_give_the_streams():
    data = {"train": [{"v": 1}], "dev": [{"v": 2}, {"v": 3}]}
    for multi_stream in (FromIterables().process(data), IterableSource(iterables=data)()):
        assert {name: list(stream) for name, stream in multi_stream.items()} == data


def test_feature_grouped_shuffle_moves_blocks_and_keeps_their_order():
    rows = [{"g": group, "i": index} for index, group in enumerate("aabbbcdd")]
    outputs = apply_operator(FeatureGroupedShuffle(grouping_features=["g"], page_size=100), rows)
    order = [row["i"] for row in outputs]
    assert sorted(order) == list(range(8))
    blocks = [[row["i"] for row in outputs if row["g"] == group] for group in "abcd"]
    assert blocks == [[0, 1], [2, 3, 4], [5], [6, 7]]  # each block contiguous, inner order kept
    assert order == [6, 7, 5, 2, 3, 4, 0, 1]  # the original's seeded order for this input (global seed 42)


def test_apply_operators_field_runs_the_named_processors():
    rows = [{"prediction": 5, "references": [6], "ops": ["processors.to_string"]}, {"prediction": 7, "references": [8]}]
    outputs = apply_operator(ApplyOperatorsField(operators_field="ops", default_operators="processors.to_string"), rows)
    assert [(row["prediction"], row["references"]) for row in outputs] == [("5", ["6"]), ("7", ["8"])]
    with pytest.raises(ValueError, match="No operators found in field 'ops', and no default operators provided."):
        apply_operator(ApplyOperatorsField(operators_field="ops"), [{"prediction": 1, "references": []}])


def test_apply_stream_operators_field_uses_the_first_instance():
    rows = [{"prediction": "HeY", "references": ["YO"], "ops": "processors.lower_case"},
            {"prediction": "ABC", "references": ["D"]}]
    outputs = list(ApplyStreamOperatorsField(field="ops")(MultiStream.from_iterables({"s": rows}))["s"])
    assert [(row["prediction"], row["references"]) for row in outputs] == [("hey", ["yo"]), ("abc", ["d"])]


def _scored(metrics, intervals=False):
    rows = [{"prediction": p, "references": [r], "task_data": {}, "m": metrics}
            for p, r in (("x", "x"), ("y", "x"), ("y", "y"), ("z", "y"))]
    return apply_operator(ApplyMetric(metric_field="m", calc_confidence_intervals=intervals), rows)


def test_apply_metric_scores_with_named_metrics_first_one_main():
    outputs = _scored(["metrics.accuracy", "metrics.f1_micro"])
    result = outputs[0]["score"]["global"]
    assert (result["score_name"], result["score"], result["accuracy"]) == ("accuracy", 0.5, 0.5)
    assert "f1_micro" in result and "score_ci_low" not in result
    assert [row["score"]["instance"]["accuracy"] for row in outputs] == [1.0, 0.0, 1.0, 0.0]
    assert "score_ci_low" in _scored("metrics.accuracy", intervals=True)[0]["score"]["global"]
    listed = _scored([MetricsList(["metrics.accuracy", "metrics.f1_micro"])])[0]["score"]["global"]
    assert listed["score_name"] == "accuracy" and "f1_micro" in listed
    with pytest.raises(Exception, match="Missing metric names in field 'm'"):
        _scored("")


# --- behaviours the original's users rely on (second batch) ---------------------------------------------------------

from unitxt.operators import CastFields, FieldOperator, FilterByCondition, FilterByExpression, MapInstanceValues, Rename


def test_check_operator_returns_the_outputs_and_compares_as_json():
    outputs = check_operator(MapInstanceValues(mappers={"k": {"1": [1, 2]}}), [{"k": 1}], [{"k": [1, 2]}])
    assert outputs == [{"k": [1, 2]}]
    assert check_operator(Rename(field="k", to_field="j"), [], []) == []


def test_map_instance_values_hands_out_copies_of_mapped_containers():
    operator = MapInstanceValues(mappers={"k": {"1": {"deep": [7]}}})
    first = apply_operator(operator, [{"k": 1}])
    first[0]["k"]["deep"].append(8)
    assert apply_operator(operator, [{"k": 1}]) == [{"k": {"deep": [7]}}]


def test_field_operator_super_process_value_is_a_no_op():
    class Echo(FieldOperator):
        def process_value(self, value):
            assert super().process_value(value) is None
            return value

    assert Echo(field="x").process_value(3) == 3


def test_filter_errors_keep_the_original_types_and_sentences():
    with pytest.raises(ValueError):
        FilterByCondition(values={"n": 1}, condition="between")
    with pytest.raises(KeyError, match=r"Required filter field \('zz'\) in FilterByCondition is not found in instance"):
        apply_operator(FilterByCondition(values={"zz": 1}, condition="eq"), [{"n": 1}])
    with pytest.raises(RuntimeError, match="FilterByExpression filtered out every instance in stream 'test'. If this "
                                           "is intended set error_on_filtered_all=False"):
        apply_operator(FilterByExpression(expression="n > 5"), [{"n": 1}])
    with pytest.raises(Exception, match="name 'q' is not defined"):
        apply_operator(FilterByExpression(expression="q > 5"), [{"n": 1}])


def test_retired_query_flags_are_accepted_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="Field 'use_query' is deprecated"):
        operator = Rename(field_to_field={"p/q": "r"}, use_query=True)
    assert apply_operator(operator, [{"p": {"q": 1}}]) == [{"r": 1}]
    with pytest.warns(DeprecationWarning, match="Field 'use_nested_query' is deprecated"):
        cast = CastFields(fields={"p/q": "int"}, use_nested_query=True)
    assert apply_operator(cast, [{"p": {"q": "4"}}]) == [{"p": {"q": 4}}]


# --- third batch: Apply's function texts, balancer order, SelectFields, ShuffleFieldValues --------------------------

from unitxt.operators import Apply, MinimumOneExamplePerLabelRefiner, SelectFields, ShuffleFieldValues


def test_apply_function_text_round_trip():
    assert Apply.function_to_str(str.lower) == "str.lower"
    assert Apply.function_to_str(sorted) == "builtins.sorted"
    assert Apply.str_to_function("builtins.sorted")([3, 1]) == [1, 3]
    assert Apply.str_to_function("str.lower")("AB") == "ab"
    with pytest.raises(ValueError):
        Apply.str_to_function("os.system")
    assert Apply("w", function="tuple", to_field="t").process({"w": ["p", "q"]}) == {"w": ["p", "q"], "t": ("p", "q")}


def test_minimum_one_per_label_order_is_the_originals():
    rows = [{"lab": lab, "n": n} for n, lab in enumerate(["x", "x", "x", "y", "z", "x"])]
    outputs = apply_operator(MinimumOneExamplePerLabelRefiner(fields=["lab"], max_instances=4), rows)
    assert [row["n"] for row in outputs] == [0, 4, 1, 3]  # unitxt 1.26.10 gives this order (global seed 42)


def test_select_fields_keeps_policy_and_recipe_metadata():
    row = {"q": 1, "r": 2, "data_classification_policy": ["public"], "recipe_metadata": {"t": 1}}
    assert apply_operator(SelectFields(fields=["q"]), [row]) == [
        {"q": 1, "data_classification_policy": ["public"], "recipe_metadata": {"t": 1}}]


def test_shuffle_field_values_positional_pair_and_process_value():
    operator = ShuffleFieldValues([["src", "dst"]])
    assert (operator.field, operator.to_field) == ("src", "dst")
    shuffled = operator.process_value(list(range(10)))
    assert sorted(shuffled) == list(range(10)) and shuffled != list(range(10))
    assert apply_operator(operator, [{"src": list(range(10))}])[0]["dst"] == shuffled
