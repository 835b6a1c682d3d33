"""Ranking metrics over retrieved id lists: MRR, MAP, NDCG, and recall / precision / NDCG at k.

Convention: the prediction is the ranked list of retrieved ids (List[str] or List[int], best first). Each reference is a list of
gold ids of the same type, so a task normally has exactly one reference, `[gold_ids]`; several reference lists are
pooled into one gold set. Relevance is binary. A predicted id repeated later in the ranking is ignored after its
first occurrence; a query without gold ids scores 0. Global scores are means over queries (instance metrics).
"""

from typing import Any, Dict, Hashable, List, Optional

from ..errors import MetricError
from .base import GlobalMetric, InstanceMetric


def gold_ids(references: List[List[Hashable]]) -> List[Hashable]:
    """The pooled gold ids of an instance's references, in first-seen order."""
    return list(dict.fromkeys(gold for reference in references for gold in reference))


def get_index_or_default(lst: List[Any], item: Any, default: int = -1) -> int:
    """The position of `item` in `lst`, or `default` when it is not there."""
    try:
        return lst.index(item)
    except ValueError:
        return default


def pytrec_eval_at_k(results: Dict[str, Dict[str, float]], qrels: Dict[str, Dict[str, int]], at_k: List[int],
                     metric_name: str) -> Any:
    """Per-query scores by trec_eval (the optional pytrec_eval package, pandas): a DataFrame, one row per query, with
    ndcg and `<metric_name>_<k>` for each k, from run `results` {query: {doc: score}} and `qrels` {query: {doc:
    relevance}}."""
    from ..errors import MissingRequirementsError
    from ..general.requirements import find_unmet

    missing, mismatched, hints = find_unmet({"pytrec_eval": "Install it with `pip install pytrec-eval`",
                                             "pandas": "Install it with `pip install pandas`"})
    if missing:
        raise MissingRequirementsError("pytrec_eval_at_k", missing, mismatched, hints)
    import pandas
    import pytrec_eval

    measure = f"{metric_name}." + ",".join(str(k) for k in at_k)
    scores = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", measure}).evaluate(results)
    return pandas.DataFrame(scores).transpose()


class RetrievalMetric(InstanceMetric):
    """Base of the ranking metrics: `scores(gold, ranked_ids)` gives the instance scores."""

    prediction_type = "Union[List[str], List[int]]"  # ids as strings or numbers, as the original

    def score_names(self) -> List[str]:
        return [self.main_score]

    def resolved_reduction_map(self) -> Dict[str, List[str]]:
        return self.reduction_map if self.reduction_map is not None else {"mean": self.score_names()}

    def resolved_ci_scores(self) -> List[str]:
        return list(self.ci_scores) if self.ci_scores is not None else self.score_names()

    def scores(self, gold: List[Hashable], ranked: List[Hashable]) -> Dict[str, float]:
        raise NotImplementedError(f"{type(self).__name__}.scores() is not implemented")

    def compute(self, references: List[List[str]], prediction: List[str], task_data: Dict[str, Any]) -> Dict[str, float]:
        return self.scores(gold_ids(references), list(prediction))


class MRR(RetrievalMetric):
    """Mean reciprocal rank: 1 / rank of the first gold id in the ranking (0 when none is retrieved)."""

    main_score = "mrr"

    def scores(self, gold, ranked):
        from .kernels.retrieval import reciprocal_rank

        return {self.main_score: reciprocal_rank(gold, ranked)}


class MAP(RetrievalMetric):
    """Mean average precision: precision at each retrieved gold id, summed and divided by the number of gold ids
    retrieved (`over_retrieved`, the original system's metrics.map) or of all gold ids (TREC, metrics.map_trec)."""

    main_score = "map"
    over_retrieved: bool = True

    def scores(self, gold, ranked):
        from .kernels.retrieval import average_precision, average_precision_over_retrieved

        score = average_precision_over_retrieved if self.over_retrieved else average_precision
        return {self.main_score: score(gold, ranked)}


class RankedIdsNDCG(RetrievalMetric):
    """Normalised discounted cumulative gain (binary gains, log2 discount) of the top k ids (k=None: all).
    (The original's name NDCG is the per-query nDCG of relevance scores below.)"""

    main_score = "ndcg"
    k: Optional[int] = None

    def scores(self, gold, ranked):
        from .kernels.retrieval import ndcg_at_k

        return {self.main_score: ndcg_at_k(gold, ranked, self.k)}


class RetrievalAtK(RetrievalMetric):
    """<measure>_at_<k> for every measure in `measures` and k in `k_list`.

    recall@k = gold ids in the top k / gold ids; precision@k = gold ids in the top k / the number of ids in the top k
    (`precision_over_retrieved`, the original's), or / k without it; match@k = 1 when a gold id is in the top k;
    ndcg@k (binary gains). As the original's: precision, recall and match, main score match_at_<first k>.
    """

    main_score = None  # None: match_at_<k_list[0]>, as the original's
    k_list: List[int] = [1, 3, 5, 10]
    measures: List[str] = ["precision", "recall", "match"]
    precision_over_retrieved: bool = True

    def prepare(self) -> None:
        if self.main_score is None and self.k_list:
            self.main_score = self.score_name("match", self.k_list[0])
        super().prepare()

    @staticmethod
    def score_name(measure: str, k: int) -> str:
        """The name of a measure at k ("recall_at_5"): every score name of the metric is made here."""
        return f"{measure}_at_{k}"

    def verify(self) -> None:
        super().verify()
        if not self.k_list or any(not isinstance(k, int) or isinstance(k, bool) or k < 1 for k in self.k_list):
            raise MetricError(f"k_list must hold positive integers, got {self.k_list!r}.",
                              artifact=type(self).__name__, field="k_list")
        unknown = [measure for measure in self.measures if measure not in _MEASURES_AT_K]
        if unknown or not self.measures:
            raise MetricError(f"measures must be some of {list(_MEASURES_AT_K)}, got {self.measures!r}.",
                              artifact=type(self).__name__, field="measures")
        if self.main_score not in self.score_names():
            raise MetricError(f"main_score '{self.main_score}' is not one of {self.score_names()}.",
                              artifact=type(self).__name__, field="main_score")

    def score_names(self) -> List[str]:
        return [self.score_name(measure, k) for measure in self.measures for k in self.k_list]

    def scores(self, gold, ranked):
        from .kernels import retrieval as retrieval_kernels

        result = {}
        for measure in self.measures:
            function = getattr(retrieval_kernels, _MEASURES_AT_K[measure])
            for k in self.k_list:
                if measure == "precision":
                    result[self.score_name(measure, k)] = function(gold, ranked, k,
                                                                   over_retrieved=self.precision_over_retrieved)
                else:
                    result[self.score_name(measure, k)] = function(gold, ranked, k)
        return result


_MEASURES_AT_K = {"recall": "recall_at_k", "precision": "precision_at_k", "match": "match_at_k", "ndcg": "ndcg_at_k"}


class NDCG(GlobalMetric):
    """nDCG of predicted relevance scores (the original system's NDCG and metrics.ndcg): instances are grouped by their
    task_data "query"; per query with two or more instances, the DCG of the reference relevances ranked by the
    predicted scores (tied predictions share their positions' discounts, as scikit-learn's ndcg_score) over the ideal
    DCG; the global score is the mean over queries. A prediction that is not a number ranks last; a query with at
    most one numeric prediction scores 0. Instance scores are NaN (one instance has no ranking)."""

    main_score = "nDCG"
    prediction_type = "Any"  # numbers; the catalog's cast turns a non-number into None, which ranks last
    single_reference_per_prediction = True

    def compute(self, references, predictions, task_data):
        import math
        from collections import defaultdict

        queries: Dict[Any, List[List[Any]]] = defaultdict(lambda: [[], []])
        for prediction, refs, data in zip(predictions, references, task_data):
            entry = queries[_hashable_query((data or {}).get("query"))]
            entry[0].append(_as_score(prediction))
            entry[1].append(float(refs[0]))
        scores = []
        for scores_of_query, relevances in queries.values():
            if len(relevances) < 2:
                continue
            numeric = [score for score in scores_of_query if score is not None]
            if len(numeric) <= 1:
                scores.append(0.0)
                continue
            lowest = min(numeric)
            ranked = [1.0 + score - lowest if score is not None else 0.0 for score in scores_of_query]
            scores.append(tie_averaged_ndcg(relevances, ranked))
        return {self.main_score: sum(scores) / len(scores) if scores else math.nan}

    def single_instance_scores(self, predictions, references, task_data, statistic):
        import numpy

        return {self.main_score: numpy.full(len(predictions), numpy.nan)}


def _as_score(value: Any) -> Optional[float]:
    """A prediction as a float relevance score, or None when it is not a number."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else number


def _hashable_query(query: Any) -> Any:
    return query if isinstance(query, Hashable) else repr(query)


def tie_averaged_ndcg(relevances: List[float], predicted: List[float]) -> float:
    """nDCG (log2 discounts over all positions) of `relevances` ranked by `predicted` scores, best first; a group of
    tied predictions gets its mean relevance at each of its positions. 0 when the ideal DCG is 0."""
    import math

    discounts = [1.0 / math.log2(position + 2) for position in range(len(relevances))]
    order = sorted(range(len(predicted)), key=lambda index: -predicted[index])
    dcg, start = 0.0, 0
    while start < len(order):
        end = start
        while end < len(order) and predicted[order[end]] == predicted[order[start]]:
            end += 1
        mean_gain = sum(relevances[order[i]] for i in range(start, end)) / (end - start)
        dcg += mean_gain * sum(discounts[start:end])
        start = end
    ideal = sum(gain * discount for gain, discount in zip(sorted(relevances, reverse=True), discounts))
    return dcg / ideal if ideal else 0.0
