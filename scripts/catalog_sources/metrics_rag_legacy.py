"""Catalog: the original's earlier RAG metric names, kept working (most marked deprecated, naming the successor):
metrics.llm_as_judge.binary.* (the task-based RAG judges under their first folder), metrics.rag.<measure>[.<scorer>]
(scorers reading either a RAG response's fields or task_data), the un-suffixed external_rag / end_to_end measures, the
response-generation criteria judges, and the tool-calling correctness judges.

A table row is (measure, inputs-kind, scorer label -> (metric, main score)); the inputs kind says which fields become
prediction / references (the original's field layout: answer / contexts / question / ground_truths or task_data).
"""

from _factory import make
from unitxt.judges.constants import direct_criteria

TAGS = {"kind": "metric", "family": "rag"}
WML_ENGINE = "engines.classification.llama_3_3_70b_instruct_wml"
# measure -> (inputs suffix, {variant: judge template}, judged field); binary judges have no numeric/verbal variants
BINARY_JUDGES = {
    "answer_correctness": [("q_a_gt_loose", "judge_loose_match_no_context", "answer")],
    "answer_relevance": [("q_a", "judge_answer_relevance", "answer")],
    "context_relevance": [("q_c_ares", "judge_context_relevance_ares", "contexts")],
    "correctness_holistic": [("q_c_a", "judge_correctness_simple", "answer")],
    "faithfulness": [("c_a", "judge_no_question_simplified", "answer"),
                     ("q_c_a", "judge_with_question_simplified", "answer")],
}


def _binary_judges(add):
    for label in ("generic_inference_engine", "llama_3_3_70b_instruct_wml"):
        engine = make("generic_inference_engine") if label == "generic_inference_engine" else WML_ENGINE
        for measure, rows in BINARY_JUDGES.items():
            for inputs, template, field in rows:
                for log_probs in ((False,) if label == "generic_inference_engine" else (False, True)):
                    suffix = f"{inputs}_logprobs" if log_probs else inputs
                    successor = f"metrics.rag.{measure}.{label}_{suffix}"
                    add(f"metrics.llm_as_judge.binary.{label}_{measure}_{suffix}", make(
                        "task_based_ll_mas_judge", inference_model=engine,
                        template=f"templates.rag_eval.{measure}.{template}" + ("_logprobs" if log_probs else ""),
                        task=f"tasks.rag_eval.{measure}.binary", format=None, main_score=f"{measure}_{suffix}",
                        prediction_field=field, infer_log_probs=log_probs,
                        __deprecated_msg__=f"This metric should be replaced with {successor}",
                        description=f"Earlier name of {successor} (binary RAG judge of {measure.replace('_', ' ')}).",
                        tags=dict(TAGS, measure=measure)))


def _copy(mapping, **options):
    return make("copy", field_to_field=mapping if isinstance(mapping, list) else dict(mapping), **options)


def _either(primary, fallback):
    """Copy from the RAG response / task_data layout, else from the flat layout (whichever is present)."""
    return [_copy(primary, not_exist_do_nothing=True), _copy(fallback, not_exist_do_nothing=True)]


def _question_as_reference():
    return [make("multi_type_serializer", field="references"),
            make("list_field_values", fields=["references"], to_field="references")]


def _context_ids():
    return [make("copy", field="context_ids", to_field="prediction"),
            make("wrap", field="ground_truths_context_ids", inside="list", to_field="references")]


BERT_LARGE, BERT_ML = "metrics.bert_score.deberta_large_mnli", "metrics.bert_score.deberta_v3_base_mnli_xnli_ml"
SBERT_BGE, SBERT_MINI = "metrics.sentence_bert.bge_large_en_1_5", "metrics.sentence_bert.minilm_l12_v2"
PERPLEXITY_Q, REWARD = "metrics.perplexity_q.flan_t5_small", "metrics.reward.deberta_v3_large_v2"
HHEM = "metrics.vectara_groundedness_hhem_2_1"
# measure -> (inputs, {scorer ("" = the measure's own name): (metric, main score)})
INPUTS = {
    "answer_correctness": lambda: _either({"task_data/reference_answers": "references", "answer": "prediction"},
                                          {"ground_truths": "references"}),
    "faithfulness": lambda: _either({"task_data/contexts": "references", "answer": "prediction"},
                                    {"contexts": "references"}),
    "context_relevance": lambda: _either({"task_data/contexts": "references", "question": "prediction"},
                                         {"contexts": "references"}),
    "answer_relevance": lambda: _either({"task_data/question": "references", "answer": "prediction"},
                                        {"question": "references"}) + _question_as_reference(),
    "context_correctness": _context_ids,
}
OLD_SCORERS = {
    "answer_correctness": {"": ("metrics.token_overlap", "recall"), "token_recall": ("metrics.token_overlap", "recall"),
                           "bert_score_recall": (BERT_LARGE, "recall"),
                           "bert_score_recall_ml": (BERT_ML, "recall"), "sentence_bert_bge": (SBERT_BGE, "sbert_score"),
                           "sentence_bert_mini_lm": (SBERT_MINI, "sbert_score")},
    "faithfulness": {"": ("metrics.token_overlap", "precision"),
                     "token_k_precision": ("metrics.token_overlap", "precision"),
                     "bert_score_k_precision": (BERT_LARGE, "precision"),
                     "bert_score_k_precision_ml": (BERT_ML, "precision"),
                     "sentence_bert_bge": (SBERT_BGE, "sbert_score"),
                     "sentence_bert_mini_lm": (SBERT_MINI, "sbert_score"), "vectara_hhem_2_1": (HHEM, "hhem_score")},
    "context_relevance": {"": (PERPLEXITY_Q, "perplexity"), "sentence_bert_bge": (SBERT_BGE, "sbert_score"),
                          "sentence_bert_mini_lm": (SBERT_MINI, "sbert_score"),
                          "token_precision": ("metrics.token_overlap", "precision")},
    "answer_relevance": {"token_recall": ("metrics.token_overlap", "recall")},
    "context_correctness": {"": ("metrics.mrr", "mrr"), "mrr": ("metrics.mrr", "mrr"), "map": ("metrics.map", "map"),
                            "retrieval_at_k": ("metrics.retrieval_at_k", "match_at_1")},
}
# names that did not follow the <measure>.<scorer> pattern: name -> (inputs of measure, metric, main, successor)
OLD_SINGLES = {
    "answer_reward": ("answer_relevance", REWARD, "score", "metrics.rag.external_rag.answer_reward"),
    "answer_inference": ("faithfulness", "metrics.perplexity_nli.t5_nli_mixture", "perplexity", None),
}


def _old_measures(add):
    for measure, scorers in OLD_SCORERS.items():
        for scorer, (metric, main) in scorers.items():
            name = f"metrics.rag.{measure}" + (f".{scorer}" if scorer else "")
            successor = f"metrics.rag.external_rag.{measure}" + (f".{scorer}" if scorer else "")
            add(name, make("metric_pipeline", main_score=main, preprocess_steps=INPUTS[measure](), metric=metric,
                           __deprecated_msg__=f"This metric should be replaced with {successor}",
                           description=f"Earlier name of {successor}: {measure.replace('_', ' ')} scored by "
                                       f"{metric}.", tags=dict(TAGS, measure=measure)))
    for label, (measure, metric, main, successor) in OLD_SINGLES.items():
        message = f"This metric should be replaced with {successor}" if successor else "This metric is deprecated"
        add(f"metrics.rag.{label}", make(
            "metric_pipeline", main_score=main, preprocess_steps=INPUTS[measure](), metric=metric,
            __deprecated_msg__=message, description=f"Earlier RAG metric {label}, scored by {metric}.",
            tags=dict(TAGS, measure=measure)))
    add("metrics.rag.context_perplexity", make(
        "metric_pipeline", main_score="score", preprocess_steps=INPUTS["context_relevance"](), metric=PERPLEXITY_Q,
        postprocess_steps=[make("copy", field="score/instance/reference_scores", to_field="score/instance/score")],
        __deprecated_msg__="This metric is deprecated. Use metrics.rag.external_rag.context_relevance instead.",
        description="Earlier context-relevance metric: the perplexity of the question given each context.",
        tags=dict(TAGS, measure="context_relevance")))


# un-suffixed measures of the RAG kinds: name -> (main score, steps, metric, score prefix)
def _kind_measures(add):
    end_to_end = {
        "answer_correctness": ("recall", [_copy([["prediction/answer", "prediction"]]),
                                          _copy({"task_data/reference_answers": "references"})],
                               "metrics.token_overlap[score_prefix=answer_correctness_]", None),
        "answer_faithfulness": ("precision", [_copy([["prediction/contexts", "references"]]),
                                              _copy([["prediction/answer", "prediction"]])],
                                "metrics.token_overlap[score_prefix=answer_faithfulness_]", None),
        "answer_reward": ("score", [_copy([["prediction/answer", "prediction"]]),
                                    make("list_field_values", fields=["task_data/question"], to_field="references"),
                                    make("multi_type_serializer", field="references", process_every_value=True)],
                          f"{REWARD}[score_prefix=answer_reward_]", None),
        "context_correctness": ("score", [_copy([["prediction/context_ids", "prediction"]]),
                                          make("list_field_values", fields=["task_data/reference_context_ids"],
                                               to_field="references")],
                                "metrics.mrr[score_prefix=context_correctness_]", None),
        "context_relevance": ("score", [_copy([["prediction/contexts", "references"]]),
                                        _copy([["task_data/question", "prediction"]]),
                                        make("multi_type_serializer", field="prediction")],
                              f"{PERPLEXITY_Q}[score_prefix=context_relevance_]", None),
        "faithfulness.vectara_hhem_2_1": ("hhem_score", [_copy({"prediction/contexts": "references",
                                                                "prediction/answer": "prediction"})],
                                          HHEM, "faithfulness_vectara_hhem_2_1_"),
    }
    external = {
        "answer_correctness": ("recall", [_copy({"ground_truths": "references", "answer": "prediction"})],
                               "metrics.token_overlap", "answer_correctness_"),
        "answer_reward": ("reward_score", [make("copy", field="prediction/answer", to_field="prediction"),
                                           make("wrap", field="task_data/question", inside="list",
                                                to_field="references")], REWARD, "answer_relevance_"),
        "context_correctness": ("mrr", _context_ids(), "metrics.mrr", "context_correctness_"),
        "context_relevance": ("perplexity", [make("copy", field="contexts", to_field="references"),
                                             make("copy", field="question", to_field="prediction"),
                                             make("multi_type_serializer", field="prediction")],
                              PERPLEXITY_Q, "context_relevance_"),
        "faithfulness": ("precision", [_copy({"contexts": "references", "answer": "prediction"})],
                         "metrics.token_overlap", "faithfulness_"),
        "faithfulness.vectara_hhem_2_1": ("hhem_score", [_copy({"contexts": "references", "answer": "prediction"})],
                                          HHEM, "faithfulness_vectara_hhem_2_1_"),
    }
    generation = {
        "faithfulness.vectara_hhem_2_1": ("hhem_score", [_copy({"task_data/contexts": "references"})], HHEM,
                                          "faithfulness_vectara_hhem_2_1_"),
    }
    for kind, table in (("end_to_end", end_to_end), ("external_rag", external), ("response_generation", generation)):
        for measure, (main, steps, metric, prefix) in table.items():
            add(f"metrics.rag.{kind}.{measure}", make(
                "metric_pipeline", main_score=main, preprocess_steps=steps, metric=metric,
                **({"score_prefix": prefix} if prefix else {}), tags=dict(TAGS, measure=measure.split(".")[0]),
                description=f"{measure.split('.')[0].replace('_', ' ').capitalize()} ({kind}) scored by "
                            f"{metric.split('[')[0]}."))


def _renamed_score_copies(prefix, scorer):
    """Post-processing that copies f1/recall/precision (instance and global) to `<prefix>_<score>_<scorer>` names."""
    mapping = {f"score/{level}/{score}": f"score/{level}/{prefix}_{score}_{scorer}"
               for level in ("instance", "global") for score in ("f1", "recall", "precision")}
    return [make("copy", field_to_field=mapping, not_exist_ok=True)]


def _response_generation(add):
    for model, metric in (("deberta_large_mnli", BERT_LARGE), ("deberta_v3_base_mnli_xnli_ml", BERT_ML)):
        successor = "metrics.rag.response_generation.answer_correctness.bert_score_recall" + (
            "_ml" if model.endswith("_ml") else "")
        name = f"metrics.rag.response_generation.correctness.bert_score.{model}"
        add(name, make(
            "metric_pipeline", main_score="recall", preprocess_steps=[], metric=metric, prediction_type="str",
            postprocess_steps=_renamed_score_copies("correctness", f"bert_score.{model}"),
            __deprecated_msg__=f"Metric {name} is deprecated. Please use {successor} instead.",
            description=f"Earlier name of {successor}.", tags=dict(TAGS, measure="answer_correctness")))
    name = "metrics.rag.response_generation.faithfullness.token_overlap"
    successor = "metrics.rag.response_generation.faithfulness.token_k_precision"
    add(name, make(
        "metric_pipeline", main_score="precision", metric="metrics.token_overlap", prediction_type="str",
        preprocess_steps=[make("copy", field="task_data/contexts", to_field="references")],
        postprocess_steps=_renamed_score_copies("faithfullness", "token_overlap"),
        __deprecated_msg__=f"Metric {name} is deprecated. Please use {successor} instead.",
        description=f"Earlier (misspelled) name of {successor}.", tags=dict(TAGS, measure="faithfulness")))
    lists = {
        "response_generation": ["answer_correctness.bert_score_recall_ml", "faithfulness.vectara_hhem_2_1",
                                "answer_relevance.answer_reward"],
        "end_to_end": ["answer_correctness.bert_score_recall_ml", "faithfulness.vectara_hhem_2_1",
                       "answer_relevance.answer_reward", "context_relevance.sentence_bert_mini_lm",
                       "context_correctness.mrr"],
    }
    lists["external_rag"] = list(lists["end_to_end"])
    for kind, items in lists.items():
        add(f"metrics.rag.{kind}.recommended.small_llm.all", make(
            "metrics_list", items=[f"metrics.rag.{kind}.{item}" for item in items], tags=dict(TAGS),
            description=f"Recommended {kind} RAG metrics that run small local models (BERTScore, HHEM, reward, "
                        f"sentence embeddings)."))


def _criteria_judges(add):
    """LLM judges with a predefined criteria and the task fields it reads, on watsonx Llama-3.3-70B."""
    def engine(provider="watsonx"):
        return make("cross_provider_inference_engine", model="llama-3-3-70b-instruct", max_tokens=1024,
                    temperature=0.0, **({"provider": provider} if provider else {}))

    rows = {
        "metrics.rag.response_generation.adherence_with_format.llama_3_3_70b_instruct_judge": (
            "adherence_with_format", {"question": "question", "instructions": "metadata/template/instruction"},
            None, "watsonx"),
        "metrics.rag.response_generation.answer_completeness.llama_3_3_70b_instruct_judge": (
            "answer_completeness", {"question": "question", "reference_answers": "reference_answers"}, None, None),
        "metrics.tool_calling.correctness.llama_3_3_70b_instruct_judge": (
            "tool_calling_correctness", {"tools": "tools", "reference_tool_calls": "reference_calls",
                                         "user_query": "query"}, "ToolCall", "watsonx"),
        "metrics.tool_calling.multi_turn.correctness.llama_3_3_70b_instruct_judge": (
            "tool_calling_correctness", {"tools": "tools", "reference_tool_calls": "reference_calls",
                                         "user_dialog": "dialog"}, "List[ToolCall]", "watsonx"),
    }
    for name, (criteria, context, prediction_type, provider) in rows.items():
        add(name, make(
            "llm_judge_direct", inference_engine=engine(provider),
            criteria=direct_criteria()[criteria], context_fields=context,
            criteria_field="criteria", generate_summaries=False, check_positional_bias=False,
            **({"prediction_type": prediction_type} if prediction_type else {}),
            description=f"Criteria judge '{criteria}' (Llama-3.3-70B), shown the task fields {sorted(context)}.",
            tags={"kind": "metric", "family": "llm_as_judge", "judge": "direct"}))


def _granite_guardian(add):
    """Granite Guardian RAG risks over the RAG fields: the pipeline moves question / answer / joined contexts into
    task_data, where the risk metric reads them, and blanks the prediction."""
    for risk, judged in (("answer_relevance", "answer"), ("context_relevance", "question"), ("groundedness", "answer")):
        main = f"granite_guardian_{risk}"
        add(f"metrics.rag.{main}", make(
            "metric_pipeline", main_score=main,
            metric=make("granite_guardian_rag_risk", main_score=main, risk_name=risk, user_message_field="question",
                        assistant_message_field="answer"),
            preprocess_steps=[
                make("join", field="contexts", by="\n"),
                _copy({"ground_truths": "task_data/ground_truths", "answer": "task_data/answer",
                       "contexts": "task_data/context", "question": "task_data/question"}, not_exist_do_nothing=True),
                _copy({"prediction": f"task_data/{judged}"}, not_exist_do_nothing=True),
                make("set", fields={"prediction": 0.0, "references": [0.0]})],
            description=f"Granite Guardian's probability of the RAG risk '{risk}' (question, answer, contexts).",
            tags=dict(TAGS, measure=risk)))


def register(add):
    _granite_guardian(add)
    _binary_judges(add)
    _old_measures(add)
    _kind_measures(add)
    _response_generation(add)
    _criteria_judges(add)
