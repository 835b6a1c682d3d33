"""Catalog: metrics built from other metrics with MetricPipeline (the metrics tutorial's example)."""

from unitxt.metrics import MetricPipeline
from unitxt.operators import Copy, ListFieldValues


def register(add):
    add("metrics.token_overlap_with_context", MetricPipeline(
        main_score="f1",
        preprocess_steps=[
            Copy(field="task_data/context", to_field="references"),
            ListFieldValues(fields=["references"], to_field="references"),
        ],
        metric="metrics.token_overlap",
        postprocess_steps=[
            Copy(field_to_field=[
                ("score/global/f1", "score/global/f1_overlap_with_context"),
                ("score/global/recall", "score/global/recall_overlap_with_context"),
                ("score/global/precision", "score/global/precision_overlap_with_context"),
            ]),
        ],
        __description__="Token overlap between the prediction and the task's context field (a reference-free "
                        "grounding signal): f1 (main), precision and recall, also copied to *_overlap_with_context.",
        __tags__={"kind": "metric", "family": "rag"},
    ))
