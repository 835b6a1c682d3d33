"""Tool-calling metrics, key-value extraction, the multi-turn wrapper, MetricsEnsemble, weighted win-rate
correlation, rerank recall and is_code_mixed, with values written out by hand (or scipy for correlations)."""

import pytest
from scipy import stats

from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError, MissingRequirementError
from unitxt.metrics import MetricsEnsemble
from unitxt.metrics.tool_calling import flatten_tool_call, schema_errors

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1},
                                     "unit": {"type": "string", "enum": ["C", "F"]}},
    "required": ["city"]}}}]


def metric(name):
    return fetch_artifact(name)[0]


def test_tool_calling_scores():
    predictions = [{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}},
                   {"name": "get_weather", "arguments": {"city": "Rome", "unit": "K"}},
                   {"name": "get_time", "arguments": {}}]
    references = [[{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}],
                  [{"name": "get_weather", "arguments": {"city": "Rome", "days": 3}}],
                  [{"name": "get_weather", "arguments": {"city": "Oslo"}}]]
    scores = metric("metrics.tool_calling").evaluate(predictions, references, [{"__tools__": TOOLS}] * 3)
    second = scores.instance_scores[1]
    assert second == {"exact_match": 0.0, "tool_name_accuracy": 1.0, "argument_name_recall": 0.5,
                      "argument_name_precision": 0.5, "argument_value_precision": 0.5,
                      "argument_schema_validation": 0.0}  # unit K is not in the enum
    third = scores.instance_scores[2]
    assert third["tool_name_accuracy"] == 0.0 and third["argument_name_precision"] == 0.0
    assert third["argument_schema_validation"] == 0.0  # no such tool
    result = scores.global_scores(with_ci=False)
    assert result["exact_match"] == pytest.approx(1 / 3) and result["tool_name_accuracy"] == pytest.approx(2 / 3)


def test_schema_errors_explain_violations():
    schema = TOOLS[0]["function"]["parameters"]
    assert schema_errors(schema, {"city": "Oslo", "days": 2}) == []
    assert schema_errors(schema, {"days": 0, "extra": 1}) == [
        "arguments: missing required parameter 'city'", "arguments.days: 0 is below the minimum 1",
        "arguments: unknown parameter 'extra'"]
    assert schema_errors({"type": "array", "items": {"type": "number"}}, [1, "x"]) == [
        "arguments[1]: expected number, got str 'x'"]


def test_syntactic_reflection_and_multi_turn_validity():
    calls = [{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "get_weather", "arguments": {"city": 3}},
             {"name": "book", "arguments": {}}, "not a call"]
    scores = metric("metrics.tool_calling.reflection.syntactic").evaluate(calls, [[]] * 4, [{"tools": TOOLS}] * 4)
    assert [s["overall_valid"] for s in scores.instance_scores] == [1.0, 0.0, 0.0, 0.0]
    assert scores.instance_scores[0]["explanations"] is None
    assert "expected string" in scores.instance_scores[1]["explanations"]
    assert "does not exist" in scores.instance_scores[2]["explanations"]
    assert "malformed" in scores.instance_scores[3]["explanations"]
    multi = metric("metrics.tool_calling.multi_turn.validity").evaluate([calls[:2]], [[]], [{"tools": TOOLS}])
    assert multi.instance_scores[0] == {"argument_schema_validation": 0.5}
    # plain JSON Schema, as the original: an argument the schema does not name is allowed
    extra = [[{"name": "get_weather", "arguments": {"city": "Oslo", "extra": 1}}]]
    assert metric("metrics.tool_calling.multi_turn.validity").evaluate(extra, [[]], [{"tools": TOOLS}]).global_scores(
        with_ci=False)["argument_schema_validation"] == 1.0
    with pytest.raises(MetricError, match="at least one tool call"):
        metric("metrics.tool_calling.multi_turn.validity").evaluate([[]], [[]], [{"tools": TOOLS}])
    with pytest.raises(MissingRequirementError, match="llmevalkit"):
        metric("metrics.tool_calling.reflection").evaluate(calls[:1], [[]], [{"tools": TOOLS}])


def test_key_value_extraction_of_tool_calls():
    assert flatten_tool_call({"name": "f", "arguments": {"a": {"b": 1}, "l": [{"x": 1}, {"y": 2}],
                                                         "m": [{"p": 1, "q": 2}, {"p": 3, "q": 4}]}}) == {
        "name": "f", "arguments.a.b": 1, "arguments.l.x": 1, "arguments.l.y": 2, "arguments.m.0.p": 1,
        "arguments.m.0.q": 2, "arguments.m.1.p": 3, "arguments.m.1.q": 4}
    predictions = [{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}},
                   {"name": "get_weather", "arguments": {"city": "Rome", "extra": 1}}]
    references = [[{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}],
                  [{"name": "get_weather", "arguments": {"city": "Rome"}}]]
    result = metric("metrics.tool_calling.key_value.accuracy").evaluate(predictions, references).global_scores(
        with_ci=False)
    assert result["score_name"] == "accuracy_micro"
    assert result["accuracy_name"] == 1.0 and result["accuracy_arguments.city"] == 1.0
    assert result["accuracy_arguments.days"] == 0.0
    assert result["accuracy_micro"] == pytest.approx(4 / 5) and result["accuracy_macro"] == pytest.approx(2 / 3)
    assert result["accuracy_legal_keys_in_predictions"] == pytest.approx(5 / 6)  # arguments.extra is no reference key


def test_key_value_instances_are_scored_against_their_own_reference_keys():
    # an instance alone knows only its reference's keys (as in the original): "city" is a reference key elsewhere,
    # but not of instance 0, so there it is an illegal key and is not scored
    kv = metric("metrics.key_value_extraction.accuracy")
    predictions = [{"name": "Ann", "city": "Rome"}, {"city": "Rome"}, {"name": "Bo"}]
    references = [[{"name": "Ann"}], [{"city": "Oslo"}], [{}]]
    rows = kv.instance_results(kv.evaluate(predictions, references))
    assert rows[0]["accuracy_legal_keys_in_predictions"] == 0.5 and rows[0]["accuracy_micro"] == 1.0
    assert "accuracy_city" not in rows[0] and rows[1]["accuracy_city"] == 0.0
    assert rows[2] == {"score": None, "score_name": "accuracy_micro", "accuracy_micro": None}  # no reference key
    overall = kv.evaluate(predictions, references).global_scores(with_ci=False)
    # over all instances both keys are reference keys: name [1 (Ann), 0 (Bo, no reference)], city [0 (only
    # predicted), 0 (Rome vs Oslo)]
    assert overall["accuracy_micro"] == pytest.approx(1 / 4) and overall["accuracy_name"] == 0.5
    assert overall["accuracy_legal_keys_in_predictions"] == 1.0
    prefixed = metric("metrics.key_value_extraction.token_overlap").evaluate(predictions, references)
    assert prefixed.global_scores(with_ci=False)["score_name"] == "token_overlap_f1_micro"


def test_tool_call_schema_validation_is_plain_json_schema():
    # an argument the function's properties do not name is valid JSON Schema (no additionalProperties: false)
    call = {"name": "get_weather", "arguments": {"city": "Oslo", "extra": 1}}
    scores = metric("metrics.tool_calling").evaluate([call], [[call]], [{"__tools__": TOOLS}])
    assert scores.instance_scores[0]["argument_schema_validation"] == 1.0
    assert schema_errors(TOOLS[0]["function"]["parameters"], call["arguments"], strict=False) == []


def test_multi_turn_metric_scores_the_last_assistant_turn():
    from unitxt.metrics.tool_calling import MultiTurnMetric

    wrapper = MultiTurnMetric(metric="metrics.accuracy")
    dialog = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "no"},
              {"role": "user", "content": "sure?"}, {"role": "assistant", "content": "yes"}]
    scores = wrapper.evaluate([dialog, "no"], [["yes"], ["yes"]])
    assert [s["accuracy"] for s in wrapper.instance_results(scores)] == [1.0, 0.0]


def test_metrics_ensemble_weights_instance_scores():
    ensemble = MetricsEnsemble(metrics=["metrics.accuracy", "metrics.token_overlap"], weights=[0.25, 0.75])
    scores = ensemble.evaluate(["the cat sat", "dog"], [["the cat"], ["cat"]])
    first = ensemble.instance_results(scores)[0]
    assert first["ensemble_0_accuracy"] == 0.0 and first["ensemble_1_f1"] == pytest.approx(2 / 3)
    assert first["ensemble_score"] == pytest.approx(0.75 * 2 / 3)  # token_overlap's main score is f1
    result = scores.global_scores()
    assert result["score_name"] == "ensemble_score" and result["ensemble_score"] == pytest.approx(0.25)
    # as the original: each metric's global main score with its CI, the ensemble score without one
    assert result["ensemble_0_accuracy"] == 0.0 and result["ensemble_1_f1"] == pytest.approx(1 / 3)
    assert result["ensemble_1_f1_ci_low"] <= result["ensemble_1_f1"] <= result["ensemble_1_f1_ci_high"]
    assert "score_ci_low" not in result and "ensemble_score_ci_low" not in result
    equal = MetricsEnsemble(metrics=["metrics.accuracy", "metrics.string_containment"])
    assert equal.evaluate(["a b"], [["a"]]).instance_scores[0]["ensemble_score"] == 0.5
    with pytest.raises(MetricError, match="2 metrics but 1 weights"):
        MetricsEnsemble(metrics=["metrics.accuracy", "metrics.f1_micro"], weights=[1.0])


def test_weighted_win_rate_correlation():
    pairs = [("A", "B"), ("B", "C"), ("A", "C"), ("C", "A")]
    task_data = [{"model_a": a, "model_b": b} for a, b in pairs]
    predictions, references = [1, 2, -1, 0], [[1], [1], [1], [-2]]
    result = metric("metrics.weighted_win_rate_correlation").evaluate(predictions, references, task_data)
    # wins / battles per model (+k: model_a won k battles, -k: model_b did, 0: a tie, one win each of 2 battles)
    predicted = {"A": (1 + 0 + 1) / (1 + 1 + 2), "B": (0 + 2) / (1 + 2), "C": (0 + 1 + 1) / (2 + 1 + 2)}
    gold = {"A": (1 + 1 + 2) / (1 + 1 + 2), "B": (0 + 1) / (1 + 1), "C": 0 / (1 + 1 + 2)}
    x, y = [predicted[m] for m in "ABC"], [gold[m] for m in "ABC"]
    scores = result.global_scores(with_ci=False)
    assert scores["spearman_corr"] == pytest.approx(stats.spearmanr(y, x).statistic) == pytest.approx(0.5)
    assert scores["pearson_corr"] == pytest.approx(stats.pearsonr(y, x).statistic)
    metric_object = metric("metrics.weighted_win_rate_correlation")
    assert metric_object.instance_results(result)[0] == {"score": None, "score_name": "spearman_corr",
                                                         "spearman_corr": None}  # no correlation of one instance


def test_rerank_recall_per_query():
    task_data = [{"query_id": q, "passage_id": p} for q, p in
                 [("q1", "p1"), ("q1", "p2"), ("q1", "p3"), ("q2", "p1"), ("q2", "p2")]]
    result = metric("metrics.rerank_recall").evaluate([0.9, 0.5, 0.7, 0.1, 0.8], [[0], [1], [1], [1], [0]],
                                                      task_data).global_scores()
    # q1 ranks p1, p3, p2 (gold p2, p3); q2 ranks p2, p1 (gold p1)
    assert result["recall_at_1"] == 0.0 and result["recall_at_2"] == pytest.approx((0.5 + 1) / 2)
    assert result["recall_at_5"] == 1.0 and result["score_name"] == "recall_at_5"
    assert "score_ci_low" not in result


def test_rerank_recall_pair_given_twice_counts_its_last_row():
    """As trec_eval's run and qrels dicts: a (query, passage) pair given twice keeps its last score and gold."""
    task_data = [{"query_id": "q1", "passage_id": p} for p in ("p1", "p2", "p1", "p3")]
    result = metric("metrics.rerank_recall").evaluate([0.9, 0.5, 0.1, 0.7], [[1], [1], [0], [0]],
                                                      task_data).global_scores()
    # q1 ranks p3 (0.7), p2 (0.5), p1 (0.1, its last row; no longer gold): gold p2 only
    assert result["recall_at_1"] == 0.0 and result["recall_at_2"] == 1.0


def test_is_code_mixed_needs_a_model():
    code_mixed = metric("metrics.is_code_mixed")
    with pytest.raises((MissingRequirementError, MetricError), match="transformers|inference_model"):
        code_mixed.evaluate(["hola my friend"], [[""]])
