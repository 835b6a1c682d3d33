"""Catalog: correlation, ranking, retrieval and NER metrics (metrics.spearman, metrics.mrr, metrics.ner, ...)."""

from unitxt.metrics.correlation import KendallTauB, Pearson, RocAuc, Spearman
from unitxt.metrics.ner import NER
from unitxt.metrics.retrieval import MAP, MRR, NDCG, RankedIdsNDCG, RetrievalAtK

# our ranking entries: recall, precision over k and ndcg (the class defaults are the original's retrieval_at_k)
_RECALL_PRECISION_NDCG = {"measures": ["recall", "precision", "ndcg"], "precision_over_retrieved": False}

METRICS = {
    "spearman": (Spearman(), "correlation", "Spearman rank correlation of numeric predictions and references (p-value too)."),
    "pearson": (Pearson(), "correlation", "Pearson correlation of numeric predictions and references (p-value too)."),
    "kendalltau_b": (KendallTauB(), "correlation", "Kendall tau-b of numeric predictions and references (p-value too)."),
    "roc_auc": (RocAuc(), "correlation", "ROC AUC of float prediction scores against 0/1 references."),
    "ner": (NER(), "ner", "Entity span F1 (micro, macro, per type) over lists of (span, type) pairs."),
    "mrr": (MRR(), "retrieval", "Mean reciprocal rank of the first gold id in the predicted id ranking."),
    "map": (MAP(), "retrieval", "Mean average precision of the predicted id ranking (AP over the gold ids retrieved)."),
    "map_trec": (MAP(over_retrieved=False), "retrieval", "Mean average precision, TREC style (AP over all gold ids)."),
    "ndcg": (NDCG(), "retrieval", "nDCG of predicted relevance scores, per task_data query, averaged over queries."),
    "ndcg_of_ranked_ids": (RankedIdsNDCG(), "retrieval", "NDCG (binary gains) of the whole predicted id ranking."),
    "retrieval_at_k": (RetrievalAtK(k_list=[1, 3, 5, 10, 20, 40]), "retrieval",
                       "precision/recall/match at 1, 3, 5, 10, 20, 40 of the predicted id ranking (main: match_at_1)."),
    "retrieval_at_k_ndcg": (RetrievalAtK(**_RECALL_PRECISION_NDCG, k_list=[1, 3, 5, 10], main_score="recall_at_5"),
                            "retrieval", "recall/precision/ndcg at 1, 3, 5, 10 (main: recall_at_5)."),
}
for _k in (1, 3, 5, 10):
    METRICS[f"recall_at_{_k}"] = (RetrievalAtK(**_RECALL_PRECISION_NDCG, k_list=[_k], main_score=f"recall_at_{_k}"),
                                  "retrieval",
                                  f"Share of the gold ids found in the top {_k} predicted ids.")
    METRICS[f"precision_at_{_k}"] = (RetrievalAtK(**_RECALL_PRECISION_NDCG, k_list=[_k],
                                                  main_score=f"precision_at_{_k}"), "retrieval",
                                     f"Gold ids among the top {_k} predicted ids, divided by {_k}.")


def register(add):
    for name, (metric, family, description) in METRICS.items():
        metric.__dict__["__description__"] = description
        metric.__dict__["__tags__"] = {"kind": "metric", "family": family}
        add(f"metrics.{name}", metric)
