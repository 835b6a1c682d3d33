"""evaluate(): results structure, summaries, grouping, subsets, precedence, and bad input."""

import json
import math
from collections.abc import Sequence

import pytest
from sklearn.metrics import accuracy_score, f1_score

from unitxt import evaluate, load_dataset, post_process
from unitxt.errors import CatalogError, MetricError, UnitxtError
from unitxt.settings_utils import settings

from tests.support.recipe_fixtures import register_card

RELATION = "templates.classification.multi_class.relation.default"


def row(label, metrics=("metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"),
        postprocessors=("processors.take_first_non_empty_line", "processors.lower_case_till_punc"), subset=(),
        groups=(), **metadata):
    return {"source": "s", "target": label, "references": [label], "metrics": list(metrics),
            "postprocessors": list(postprocessors),
            "task_data": json.dumps({"label": label, "metadata": metadata}), "groups": list(groups),
            "subset": list(subset), "media": {"images": [], "audios": []}, "data_classification_policy": ["public"]}


LABELS = ["entailment", "not entailment", "entailment", "entailment", "not entailment", "not entailment"] * 10
PREDICTIONS = ["Entailment.", "entailment\nbecause", "not entailment", "maybe", "not entailment", "entailment"] * 10


def test_results_structure_and_values_match_sklearn():
    results = evaluate(PREDICTIONS, [row(label) for label in LABELS])
    assert isinstance(results, Sequence) and len(results) == 60 and results[-1] is results[59]
    assert json.loads(json.dumps(list(results)))[3]["processed_prediction"] == "maybe"  # plain data once listed
    first = results[0]
    assert first["prediction"] == "Entailment." and first["processed_prediction"] == "entailment"
    assert first["processed_references"] == ["entailment"] and first["source"] == "s"
    assert first["score"]["instance"] == {"f1_micro": 1.0, "score": 1.0, "score_name": "f1_micro",  # as the original:
                                          "accuracy": 1.0, "f1_macro": 1.0, "f1_entailment": 1.0}  # + its class's f1
    processed = [instance["processed_prediction"] for instance in results]
    labels = sorted(set(LABELS))
    global_scores = results[0]["score"]["global"]
    assert global_scores is results.global_scores
    assert math.isclose(global_scores["accuracy"], accuracy_score(LABELS, processed), abs_tol=1e-12)
    assert math.isclose(global_scores["f1_micro"], f1_score(LABELS, processed, labels=labels, average="micro"),
                        abs_tol=1e-12)
    assert math.isclose(global_scores["f1_macro"], f1_score(LABELS, processed, labels=labels, average="macro"),
                        abs_tol=1e-12)
    assert global_scores["score"] == global_scores["f1_micro"] and global_scores.score_name == "f1_micro"
    for name in ("f1_micro", "accuracy", "f1_macro", "score"):
        assert global_scores[f"{name}_ci_low"] <= global_scores[name] <= global_scores[f"{name}_ci_high"]
    assert "f1_entailment_ci_low" not in global_scores and global_scores["num_of_instances"] == 60
    assert post_process(PREDICTIONS, [row(label) for label in LABELS]) == processed


def test_global_summary_has_the_documented_shape():
    summary = evaluate(PREDICTIONS, [row(label) for label in LABELS]).global_scores.summary
    lines = summary.splitlines()
    assert lines[0].split("|")[1:-1] == [" score_name        ", " score ", " ci_low ", " ci_high "]
    assert lines[1].startswith("|:---") and "--:|" in lines[1]
    names = [line.split("|")[1].strip() for line in lines[2:-3]]
    assert names == ["accuracy", "f1_entailment", "f1_macro", "f1_micro", "f1_not entailment", "score"]
    assert lines[-3] == "Main Score: f1_micro" and lines[-2] == "Num Instances: 60"
    assert lines[-1].startswith("Signature: unitxt:")
    entailment = next(line for line in lines if line.startswith("| f1_entailment "))
    assert entailment.split("|")[3].strip() == "" and entailment.split("|")[4].strip() == ""


def test_instance_scores_summary_and_dataframe():
    results = evaluate(PREDICTIONS[:6], [row(label) for label in LABELS[:6]])
    summary = results.instance_scores.summary
    assert summary.splitlines()[0].startswith("| source ") and "processed_prediction" in summary
    frame = results.instance_scores.to_df(columns=["prediction", "score", "accuracy"])
    assert list(frame.columns) == ["prediction", "score", "accuracy"] and frame["accuracy"].tolist()[:3] == [1.0, 0.0, 0.0]


def test_first_listed_metric_has_precedence_and_prefix_avoids_clashes():
    rows = [row(label, metrics=("metrics.accuracy", "metrics.f1_micro[score_prefix=my_]")) for label in LABELS]
    results = evaluate(PREDICTIONS, rows)
    assert results.global_scores["score_name"] == "accuracy"
    assert "my_f1_micro" in results.global_scores and "f1_micro" not in results.global_scores
    assert results[0]["score"]["instance"]["score_name"] == "accuracy"


def test_confidence_intervals_can_be_disabled():
    without = evaluate(PREDICTIONS, [row(label) for label in LABELS], calc_confidence_intervals=False).global_scores
    assert not [name for name in without if name.endswith("_ci_low")]
    no_resamples = evaluate(PREDICTIONS, [row(label, metrics=("metrics.accuracy[n_resamples=0]",)) for label in LABELS])
    assert "accuracy_ci_low" not in no_resamples.global_scores
    with settings.context(default_n_resamples=0):
        assert "score_ci_low" not in evaluate(PREDICTIONS, [row(label) for label in LABELS]).global_scores


def test_group_by_single_keys_and_combinations():
    def groups_of(index, label):  # as recipes write them: the instance's values as JSON objects
        template, num_demos = f"t{index % 2}", index % 3
        return (json.dumps({"template": template}), json.dumps({"template": template, "num_demos": num_demos}),
                json.dumps({"label": label}))

    rows = [row(label, groups=groups_of(index, label)) for index, label in enumerate(LABELS)]
    results = evaluate(PREDICTIONS, rows)
    groups = results.groups_scores
    assert set(groups) == {"template", ("template", "num_demos"), "label"}
    assert results[0]["score"]["groups"] is groups and "subsets" not in results[0]["score"]
    by_template = groups["template"]
    assert set(by_template) == {"t0", "t1"} and by_template["t0"]["num_of_instances"] == 30
    processed = [instance["processed_prediction"] for instance in results]
    t0 = [index for index in range(60) if index % 2 == 0]
    assert math.isclose(by_template["t0"]["accuracy"],
                        accuracy_score([LABELS[i] for i in t0], [processed[i] for i in t0]), abs_tol=1e-12)
    assert ("t1", 2) in groups[("template", "num_demos")]
    assert "score_ci_low" in by_template["t0"]
    summary = groups.summary
    tables = summary.split("\n\n")
    assert tables[0].startswith("# Group By: template\n") and tables[1].startswith("# Group By: template, num_demos\n")
    header = [cell.strip() for cell in tables[0].splitlines()[1].split("|")[1:-1]]
    assert header == ["template", "score", "score_name", "score_ci_low", "score_ci_high", "num_of_instances"]


def test_group_by_rows_naming_keys_look_values_up_in_task_data():
    rows = [row(label, groups=(json.dumps(["template"]),), template=f"t{index % 2}") for index, label in enumerate(LABELS)]
    by_template = evaluate(PREDICTIONS, rows).groups_scores["template"]
    assert set(by_template) == {"t0", "t1"} and by_template["t1"]["num_of_instances"] == 30


def test_subsets_are_scored_separately_with_a_mean_and_ci():
    rows = [row(label, subset=("cola",) if index < 30 else ("mnli",)) for index, label in enumerate(LABELS)]
    results = evaluate(PREDICTIONS, rows)
    subsets = results.subsets_scores
    cola = evaluate(PREDICTIONS[:30], [row(label) for label in LABELS[:30]]).global_scores
    mnli = evaluate(PREDICTIONS[30:], [row(label) for label in LABELS[30:]]).global_scores
    assert subsets["cola"]["score"] == cola["score"] and subsets["mnli"]["score"] == mnli["score"]
    assert subsets["score"] == pytest.approx((cola["score"] + mnli["score"]) / 2) and subsets["score_name"] == "subsets_mean"
    assert subsets["score_ci_low"] <= subsets["score"] <= subsets["score_ci_high"]
    assert results.global_scores["score_name"] == "subsets_mean"
    assert "cola" in subsets.summary and "ALL" in subsets.summary


def test_documented_wnli_style_flow_with_templates_and_demos(temp_catalog):
    name = register_card(temp_catalog, "cards.eval_wnli", train=60, test=80, validation=1)
    dataset = load_dataset(card=name, template=[RELATION, "templates.key_val"], num_demos=[0, 1, 3],
                           group_by=["template", "num_demos", ["template", "num_demos"]], demos_pool_size=10,
                           max_test_instances=100, split="test")
    predictions = [json.loads(r["task_data"])["label"] if i % 4 else "not entailment" for i, r in enumerate(dataset)]
    results = evaluate(predictions, dataset)
    assert set(results.groups_scores["template"]) == {RELATION, "templates.key_val"}
    assert set(results.groups_scores["num_demos"]) == {0, 1, 3}
    counts = sum(group["num_of_instances"] for group in results.groups_scores[("template", "num_demos")].values())
    assert counts == 80


def test_nan_prediction_after_numeric_cast_scores_as_wrong():
    rows = [row(str(value), metrics=("metrics.accuracy",), postprocessors=("processors.to_number",))
            for value in (1, 2, 3)]
    results = evaluate(["1", "two", "3"], rows)
    assert math.isnan(results[1]["processed_prediction"])
    assert [instance["score"]["instance"]["accuracy"] for instance in results] == [1.0, 0.0, 1.0]


@pytest.mark.parametrize("predictions,rows,error,message", [
    (["a", "b", "c"], [row("a"), row("b")], MetricError, "Got 3 predictions for 2 instances"),
    ([None], [row("a")], MetricError, "Prediction 0 is None"),
    (["a"], [row("a", metrics=("metrics.acuracy",))], CatalogError, "metrics.accuracy"),
    (["a"], [row("a", metrics=("processors.lower_case",))], MetricError, "not a metric"),
    (["a"], [row("a", metrics=("metrics.spearman",), postprocessors=())], MetricError,
     "Each reference is expected to be of type 'float'"),  # references are checked first, as in the original
    (["a"], [row("a", postprocessors=("processors.no_such",))], CatalogError, "processors.no_such"),
    (["a"], [dict(row("a"), references="a")], MetricError, "must be a list"),
    (["a"], ["not a row"], UnitxtError, "expected a dict"),
])
def test_bad_evaluation_input_is_a_clear_error(predictions, rows, error, message):
    with pytest.raises(error, match=message):
        evaluate(predictions, rows)
