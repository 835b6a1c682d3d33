"""Catalog: the lexical RAG metrics (token overlap, MRR, MAP, retrieval at k) of the RAG kinds, in the original's
field layouts: end_to_end reads a RAG response dict prediction ({"answer", "contexts", "context_ids"}) and task_data
(question, reference_answers, reference_context_ids); external_rag reads the record's own fields (answer, contexts,
context_ids, question, ground_truths, ground_truths_context_ids: the columns given to eval_utils.evaluate);
response_generation reads a str answer and task_data. Scores are named <measure>_<scorer>_<score>.
"""

from _factory import make

TAGS = {"kind": "metric", "family": "rag"}
CORRECTNESS = {"mrr": ("metrics.mrr", "mrr"), "map": ("metrics.map", "map"),
               "retrieval_at_k": ("metrics.retrieval_at_k", "match_at_1")}
CPU_ONLY = ["answer_correctness.token_recall", "faithfulness.token_k_precision", "answer_relevance.token_recall",
            "context_relevance.token_precision", "context_correctness.mrr"]


def _copy(mapping):
    return make("copy", field_to_field=dict(mapping))


def _fields(kind):
    """Where each RAG field is read from, per kind."""
    if kind == "end_to_end":
        return {"answer": "prediction/answer", "contexts": "prediction/contexts", "ids": "prediction/context_ids",
                "gold_ids": "task_data/reference_context_ids", "question": "task_data/question",
                "gold": "task_data/reference_answers"}
    return {"answer": "answer", "contexts": "contexts", "ids": "context_ids", "gold_ids": "ground_truths_context_ids",
            "question": "question", "gold": "ground_truths"}


def _pipeline(kind, measure, scorer, main, steps, metric="metrics.token_overlap"):
    return make("metric_pipeline", main_score=main, preprocess_steps=steps, metric=metric,
                score_prefix=f"{measure}_" if measure == "context_correctness" else f"{measure}_{scorer}_",
                tags=dict(TAGS, measure=measure),
                description=f"{measure.replace('_', ' ').capitalize()} ({kind}) scored by {metric} ({main}).")


def _kind(add, kind):
    f = _fields(kind)
    for scorer, (metric, main) in CORRECTNESS.items():
        add(f"metrics.rag.{kind}.context_correctness.{scorer}", _pipeline(
            kind, "context_correctness", scorer, main, metric=metric,
            steps=[make("copy", field=f["ids"], to_field="prediction"),
                   make("wrap", field=f["gold_ids"], inside="list", to_field="references")]))
    add(f"metrics.rag.{kind}.context_relevance.token_precision", _pipeline(
        kind, "context_relevance", "token_precision", "precision",
        [make("copy", field=f["contexts"], to_field="references"), make("copy", field=f["question"], to_field="prediction"),
         make("multi_type_serializer", field="prediction")]))
    add(f"metrics.rag.{kind}.faithfulness.token_k_precision", _pipeline(
        kind, "faithfulness", "token_k_precision", "precision", [_copy({f["contexts"]: "references",
                                                                        f["answer"]: "prediction"})]))
    add(f"metrics.rag.{kind}.answer_correctness.token_recall", _pipeline(
        kind, "answer_correctness", "token_recall", "recall", [_copy({f["gold"]: "references",
                                                                      f["answer"]: "prediction"})]))
    relevance = [make("copy", field="prediction/answer", to_field="prediction"),
                 make("wrap", field="task_data/question", inside="list", to_field="references")]
    if kind == "end_to_end":
        relevance.append(make("multi_type_serializer", field="references", process_every_value=True))
    add(f"metrics.rag.{kind}.answer_relevance.token_recall", _pipeline(
        kind, "answer_relevance", "token_recall", "recall", relevance))
    add(f"metrics.rag.{kind}.recommended.cpu_only.all", make(
        "metrics_list", items=[f"metrics.rag.{kind}.{item}" for item in CPU_ONLY], tags=dict(TAGS),
        description=f"Recommended CPU-only (lexical) {kind} RAG metrics; expand with MetricsList.expand."))


def _response_generation(add):
    add("metrics.rag.response_generation.faithfulness.token_k_precision", _pipeline(
        "response_generation", "faithfulness", "token_k_precision", "precision",
        [_copy({"task_data/contexts": "references"})]))
    name = "metrics.rag.response_generation.correctness.token_overlap"
    successor = "metrics.rag.response_generation.answer_correctness.token_recall"
    mapping = {f"score/{level}/{score}": f"score/{level}/correctness_{score}_token_overlap"
               for level in ("instance", "global") for score in ("f1", "recall", "precision")}
    add(name, make(
        "metric_pipeline", main_score="f1", preprocess_steps=[], metric="metrics.token_overlap", prediction_type="str",
        postprocess_steps=[make("copy", field_to_field=mapping, not_exist_ok=True)],
        __deprecated_msg__=f"Metric {name} is deprecated. Please use {successor} instead.",
        description=f"Earlier name of {successor}: token overlap of the answer with the references (also under "
                    f"correctness_<score>_token_overlap).", tags=dict(TAGS, measure="answer_correctness")))


def register(add):
    _kind(add, "end_to_end")
    _kind(add, "external_rag")
    _response_generation(add)
