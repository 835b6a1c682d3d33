"""CustomF1 and CustomF1Fuzzy subclassed the original's way (element group / representation hooks, a fuzzy `score`):
micro/macro/per-group precision, recall and F1 computed by hand from the matched counts (sklearn-style ratios)."""

import difflib
from typing import List, Tuple

import pytest

from unitxt.metrics import CustomF1, CustomF1Fuzzy
from unitxt.test_utils.metrics import apply_metric

PREDICTIONS = [[("Paris", "LOC"), ("John", "PER")], [("IBM", "ORG"), ("Mary", "PER")], [], [("Rome", "LOC")]]
REFERENCES = [[[("Paris", "LOC"), ("Jon", "PER")]], [[("IBM Corp", "ORG")]], [[("Bob", "PER")]],
              [[("Rome", "LOC"), ("X", "MISC")]]]


class PairF1(CustomF1):
    prediction_type = List[Tuple[str, str]]

    def get_element_group(self, element, additional_input):
        return element[1]

    def get_element_representation(self, element, additional_input):
        return str(element)


class SimilarPairF1(CustomF1Fuzzy):
    prediction_type = List[Tuple[str, str]]
    min_score_for_match = 0.6

    def score(self, val1, val2):
        return difflib.SequenceMatcher(None, val1, val2).ratio()

    def get_element_group(self, element, additional_input):
        return element[1]

    def get_element_representation(self, element, additional_input):
        return str(element)


def _f1(precision, recall):
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def test_exact_matching_scores_micro_macro_and_per_group():
    result = apply_metric(metric=PairF1(n_resamples=None), predictions=PREDICTIONS,
                          references=REFERENCES)[0]["score"]["global"]
    # matches: Paris/LOC, Rome/LOC; 5 predicted, 6 reference elements
    assert result["precision_micro"] == pytest.approx(2 / 5) and result["recall_micro"] == pytest.approx(2 / 6)
    assert result["f1_micro"] == pytest.approx(_f1(2 / 5, 2 / 6)) and result["score_name"] == "f1_micro"
    assert {name: result[name] for name in ("f1_LOC", "f1_PER", "f1_ORG", "f1_MISC")} == {
        "f1_LOC": 1.0, "f1_PER": 0.0, "f1_ORG": 0.0, "f1_MISC": 0.0}
    assert result["f1_macro"] == pytest.approx(0.25) and result["in_classes_support"] == 1.0


def test_fuzzy_matching_uses_the_subclass_score_and_threshold():
    rows = apply_metric(metric=SimilarPairF1(n_resamples=None), predictions=PREDICTIONS, references=REFERENCES)
    result = rows[0]["score"]["global"]
    # John~Jon (0.86) and IBM~IBM Corp (0.55 < 0.6: no match) -> 3 matched predictions of 5, 3 references of 6
    assert result["precision_micro"] == pytest.approx(3 / 5) and result["recall_micro"] == pytest.approx(3 / 6)
    assert result["f1_PER"] == pytest.approx(_f1(1 / 2, 1 / 2)) and result["f1_ORG"] == 0.0
    instance = rows[1]["score"]["instance"]  # only the groups of that instance are named
    assert "f1_LOC" not in instance and instance["f1_ORG"] == 0.0 and instance["in_classes_support"] == 0.5


def test_fixed_groups_count_other_predictions_as_unknown():
    class KnownGroupsF1(PairF1):
        groups = ["LOC", "ORG"]

    result = apply_metric(metric=KnownGroupsF1(n_resamples=None), predictions=PREDICTIONS,
                          references=REFERENCES)[0]["score"]["global"]
    assert "f1_PER" not in result and result["f1_macro"] == pytest.approx(0.5)
    assert result["in_classes_support"] == pytest.approx(1 - 2 / 5)  # the two PER predictions
