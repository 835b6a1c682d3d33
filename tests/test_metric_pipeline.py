"""MetricPipeline as in the metrics tutorial: preprocess instances, run an inner metric, rename scores."""

import json

from unitxt import evaluate
from unitxt.catalog import get_from_catalog
from unitxt.metrics import MetricPipeline


def _row(context):
    return {"source": "q", "target": "", "references": ["unused"], "metrics": ["metrics.token_overlap_with_context"],
            "postprocessors": ["processors.to_string_stripped"], "task_data": json.dumps({"context": context}),
            "groups": [], "subset": [], "media": {"images": [], "audios": []}, "data_classification_policy": []}


def test_tutorial_pipeline_copies_global_scores_and_scores_against_the_context():
    metric = get_from_catalog("metrics.token_overlap_with_context")
    assert isinstance(metric, MetricPipeline)
    contexts = ["the cat is here", "dog days of summer", "nothing in common"]
    predictions = ["the cat sat", "a dog", "zebra"]
    results = evaluate(predictions, [_row(context) for context in contexts])
    direct = get_from_catalog("metrics.token_overlap").evaluate(predictions, [[context] for context in contexts])
    expected_f1 = [instance["f1"] for instance in direct.instance_scores]
    scores = results.global_scores
    assert abs(scores["f1_overlap_with_context"] - sum(expected_f1) / 3) < 1e-12
    assert scores["f1"] == scores["f1_overlap_with_context"] and scores["score_name"] == "f1"  # as the original
    assert scores["recall"] == scores["recall_overlap_with_context"] and "precision_overlap_with_context" in scores
    assert scores["score"] == scores["f1_overlap_with_context"]
    assert [instance["score"]["instance"]["f1"] for instance in results] == expected_f1
