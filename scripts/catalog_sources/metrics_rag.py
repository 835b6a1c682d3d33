"""Catalog: recommended metric lists of open question answering (metrics.qa.open.*); the lexical RAG metrics are in
metrics_rag_lexical.py."""

from unitxt.metrics.lists import MetricsList

METRICS = {
    "qa.open.recommended_no_gpu": (
        MetricsList(items=["metrics.rouge"]),
        "Recommended lexical (CPU-only) metric for open question answering (ROUGE); expand with MetricsList.expand."),
}


def register(add):
    for name, (artifact, description) in METRICS.items():
        artifact.__dict__["__description__"] = description
        family = "metrics_list" if isinstance(artifact, MetricsList) else "rag"
        artifact.__dict__["__tags__"] = {"kind": "metric", "family": family}
        add(f"metrics.{name}", artifact)
