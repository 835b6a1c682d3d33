"""metrics.ner reports what the original's span F1 reports: f1_<type> only for types with reference support, and
in_classes_support, the share of predicted spans whose type occurs in the references."""

import pytest

from unitxt.catalog import fetch_artifact

PREDICTIONS = [[("John", "PER")], [], [("Rome", "LOC"), ("IBM", "ORG")], [("Ann", "PER")]]
REFERENCES = [[[("John", "PER")]], [[]], [[("Rome", "LOC")]], [[("Ann", "LOC")]]]


def test_per_type_scores_only_for_reference_types_and_in_classes_support():
    metric = fetch_artifact("metrics.ner")[0]
    scores = metric.evaluate(PREDICTIONS, REFERENCES)
    result = scores.global_scores(with_ci=False)
    # ORG is only predicted (a false positive of micro F1), never in a reference: no f1_ORG
    assert "f1_ORG" not in result and result["f1_PER"] == pytest.approx(2 / 3) and result["f1_LOC"] == pytest.approx(2 / 3)
    # 4 predicted spans, IBM/ORG's type has no reference support: 3 of 4 in the classes
    assert result["in_classes_support"] == pytest.approx(0.75)
    # micro pools every type: tp 2 (John, Rome), fp 2 (IBM/ORG, Ann/PER), fn 1 (Ann/LOC)
    assert result["f1_micro"] == pytest.approx(2 * 2 / (2 * 2 + 2 + 1))
    instances = metric.instance_results(scores)
    assert [row["in_classes_support"] for row in instances] == [1.0, 1.0, 0.5, 0.0]  # no predicted span: 1


def test_only_the_main_score_has_a_ci():
    metric = fetch_artifact("metrics.ner")[0]
    result = metric.evaluate(PREDICTIONS * 5, REFERENCES * 5).global_scores()
    assert "f1_micro_ci_low" in result and "f1_macro_ci_low" not in result


def test_zero_division_override_scores_as_the_original():
    """metrics.ner[zero_division=1.0] (BlueBench's entity extraction): a ratio with nothing predicted or nothing to find
    scores 1, and so does an F1 whose precision and recall are both 0 (values of the original 1.26.10)."""
    metric = fetch_artifact("metrics.ner[zero_division=1.0]")[0]
    predictions = [[("a", "PER")], [("b", "LOC")]]
    references = [[[("z", "PER")]], [[("q", "MISC")]]]
    result = metric.evaluate(predictions, references).global_scores(with_ci=False)
    expected = {"f1_PER": 1.0, "f1_MISC": 0.0, "f1_macro": 0.5, "f1_micro": 1.0, "precision_macro": 0.5,
                "recall_macro": 0.0, "precision_micro": 0.0, "recall_micro": 0.0, "in_classes_support": 0.5}
    assert {key: result[key] for key in expected} == pytest.approx(expected)
    default = fetch_artifact("metrics.ner")[0].evaluate(predictions, references).global_scores(with_ci=False)
    assert default["f1_PER"] == 0.0 and default["f1_micro"] == 0.0 and default["precision_macro"] == 0.0
