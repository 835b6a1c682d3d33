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


def test_pipeline_prefix_replaces_the_inner_prefix_and_names_the_main_score():
    from unitxt.metrics.string_match import TokenOverlap

    predictions, references = ["the cat sat", "a dog"], [["the cat"], ["dog days"]]
    outer = MetricPipeline(main_score="recall", metric=TokenOverlap(score_prefix="inner_"), score_prefix="outer_")
    scores = outer.evaluate(predictions, references).global_scores()
    assert scores["score_name"] == "outer_recall" and scores["score"] == scores["outer_recall"]
    assert scores["score_ci_low"] == scores["outer_recall_ci_low"]
    assert not [name for name in scores if "inner_" in name]
    # without its own prefix the pipeline's main score carries the inner metric's prefix
    inner = MetricPipeline(main_score="recall", metric=TokenOverlap(score_prefix="inner_"))
    assert inner.evaluate(predictions, references).global_scores(with_ci=False)["score_name"] == "inner_recall"
    # main_score "score": the inner metric's score under the name "score"
    kept = MetricPipeline(main_score="score", metric=TokenOverlap(score_prefix="inner_"))
    result = kept.evaluate(predictions, references)
    assert result.global_scores(with_ci=False)["score_name"] == "score"
    assert kept.instance_results(result)[0]["score"] == kept.instance_results(result)[0]["inner_f1"]


def test_pipeline_steps_read_whole_stream_instances():
    from unitxt.metrics.string_match import TokenOverlap
    from unitxt.operators import Copy

    pipeline = MetricPipeline(main_score="precision", metric=TokenOverlap(),
                              preprocess_steps=[Copy(field_to_field={"answer": "prediction", "contexts": "references"})])
    records = [{"answer": "the cat", "contexts": ["a cat sat"]}, {"answer": "dog", "contexts": ["no"]}]
    rows = list(pipeline.process(iter(records)))
    assert [row["score"]["instance"]["precision"] for row in rows] == [1.0, 0.0]
    assert rows[0]["score"]["global"]["score"] == 0.5
