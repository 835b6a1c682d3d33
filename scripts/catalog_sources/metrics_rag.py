"""Catalog: lexical RAG metrics (metrics.rag.*) and recommended metric lists (metrics.qa.open.*)."""

from unitxt.metrics.lists import MetricsList
from unitxt.metrics.rag import ContextCorrectnessMRR, TokenKPrecision, TokenRecall

METRICS = {
    "rag.faithfulness.token_k_precision": (
        TokenKPrecision(), "Faithfulness: share of the answer's tokens that appear in the retrieved contexts (K-precision)."),
    "rag.answer_correctness.token_recall": (
        TokenRecall(), "Answer correctness: share of the ground-truth answer's tokens that appear in the answer."),
    "rag.context_correctness.mrr": (
        ContextCorrectnessMRR(), "Context correctness: reciprocal rank of the first ground-truth context id retrieved."),
    "qa.open.recommended_no_gpu": (
        MetricsList(items=["metrics.rouge", "metrics.squad", "metrics.rag.answer_correctness.token_recall"]),
        "Recommended lexical (CPU-only) metrics for open question answering; expand with MetricsList.expand."),
}


def register(add):
    for name, (artifact, description) in METRICS.items():
        artifact.__dict__["__description__"] = description
        family = "metrics_list" if isinstance(artifact, MetricsList) else "rag"
        artifact.__dict__["__tags__"] = {"kind": "metric", "family": family}
        add(f"metrics.{name}", artifact)
