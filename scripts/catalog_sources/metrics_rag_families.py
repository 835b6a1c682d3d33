"""Catalog: the RAG metric families (metrics.rag.*) built from tables: RAG kind (external_rag: the response's fields
at the top level of task_data; end_to_end: a RAG response dict as the prediction; response_generation: the answer as
the prediction) x measure x scorer (LLM judges per model, embedding / NLI / reward models), the recommended lists (not the small_llm lists nor
the Vectara HHEM scorer: its model needs a custom-code package),
and the older names (metrics.rag.<measure>.<model>_<inputs>[_variant]).
"""

from _factory import make
from unitxt.metrics.lists import MetricsList

MEASURES = ("answer_correctness", "answer_relevance", "context_relevance", "faithfulness")
# judge label -> engine (a catalog name, or None for the generic engine named by UNITXT_INFERENCE_ENGINE)
JUDGE_ENGINES = {
    "generic_inference_engine": None,
    "gpt_4o_azure": "engines.classification.gpt_4o_2024_08_06_azure_openai",
    "gpt_oss_120b_rits": "engines.classification.gpt_oss_120b_rits",
    "gpt_oss_120b_watsonx": "engines.classification.gpt_oss_120b_watsonx",
    "llama_3_3_70b_instruct_rits": "engines.classification.llama_3_3_70b_instruct_rits",
    "llama_3_3_70b_instruct_watsonx": "engines.classification.llama_3_3_70b_instruct_watsonx",
    "llama_4_maverick_rits": "engines.classification.llama_4_maverick_17b_128e_instruct_fp8_rits",
    "llama_4_maverick_watsonx": "engines.classification.llama_4_maverick_17b_128e_instruct_fp8_watsonx",
    "mistral_large_instruct_rits": "engines.classification.mistral_large_instruct_2407_rits",
    "mistral_large_instruct_watsonx": "engines.classification.mistral_large_watsonx",
    "mistral_small_3_1_24b_instruct_2503_wml": "engines.classification.mistral_small_3_1_24b_instruct_2503_wml",
}
# measure -> (judge template variant, the judged field)
JUDGE_TEMPLATES = {
    "answer_correctness": ("judge_loose_match_no_context_numeric", "answer"),
    "answer_relevance": ("judge_answer_relevance_numeric", "answer"),
    "context_relevance": ("judge_context_relevance_ares_numeric", "contexts"),
    "faithfulness": ("judge_with_question_simplified_verbal", "answer"),
}
# model-based scorers: label -> (metric, main score, measures it serves)
BERT = {"deberta_large_mnli": "metrics.bert_score.deberta_large_mnli",
        "deberta_v3_base_mnli_xnli_ml": "metrics.bert_score.deberta_v3_base_mnli_xnli_ml"}
SBERT = {"sentence_bert_bge": "metrics.sentence_bert.bge_large_en_1_5",
         "sentence_bert_mini_lm": "metrics.sentence_bert.minilm_l12_v2"}
MODEL_SCORERS = {
    "answer_correctness": {"bert_score_recall": (BERT["deberta_large_mnli"], "recall"),
                           "bert_score_recall_ml": (BERT["deberta_v3_base_mnli_xnli_ml"], "recall"),
                           **{k: (v, "sbert_score") for k, v in SBERT.items()}},
    "faithfulness": {"bert_score_k_precision": (BERT["deberta_large_mnli"], "precision"),
                     "bert_score_k_precision_ml": (BERT["deberta_v3_base_mnli_xnli_ml"], "precision"),
                     **{k: (v, "sbert_score") for k, v in SBERT.items()}},
    "context_relevance": {"perplexity_flan_t5_small": ("metrics.perplexity_q.flan_t5_small", "perplexity"),
                          **{k: (v, "sbert_score") for k, v in SBERT.items()}},
    "answer_relevance": {"answer_reward": ("metrics.reward.deberta_v3_large_v2", "reward_score")},
}
TAGS = {"kind": "metric", "family": "rag"}


def _copy(mapping, **options):
    return make("copy", field_to_field=dict(mapping), **options)


def _inputs(kind, measure):
    """Preprocessing that puts the measure's two texts in prediction / references, per RAG kind."""
    answer = {"external_rag": "answer", "end_to_end": "prediction/answer"}.get(kind)
    contexts = {"external_rag": "contexts", "end_to_end": "prediction/contexts",
                "response_generation": "task_data/contexts"}[kind]
    if measure == "answer_correctness":
        gold = "ground_truths" if kind == "external_rag" else "task_data/reference_answers"
        return [_copy({gold: "references", **({answer: "prediction"} if answer else {})})]
    if measure == "faithfulness":
        return [_copy({contexts: "references", **({answer: "prediction"} if answer else {})})]
    if measure == "context_relevance":
        question = "question" if kind == "external_rag" else "task_data/question"
        return [make("copy", field=contexts, to_field="references"), make("copy", field=question, to_field="prediction"),
                make("multi_type_serializer", field="prediction")]
    steps = [make("copy", field="prediction/answer", to_field="prediction")] if kind != "response_generation" else []
    steps.append(make("wrap", field="task_data/question", inside="list", to_field="references"))
    if kind != "external_rag":
        steps.append(make("multi_type_serializer", field="references", process_every_value=True))
    return steps


def _prefix(measure, scorer):
    return "answer_relevance_" if scorer == "answer_reward" else f"{measure}_{scorer}_"


def _judge(kind, measure, label, template, field, main_score=None, mapping=None, log_probs=False):
    engine = JUDGE_ENGINES.get(label, label)
    return make(
        "task_based_ll_mas_judge", inference_model=engine or make("generic_inference_engine"),
        template=f"templates.rag_eval.{measure}.{template}", task=f"tasks.rag_eval.{measure}.binary", format=None,
        main_score=main_score or f"{measure}_judge", prediction_field=field, infer_log_probs=log_probs,
        **({"judge_to_generator_fields_mapping": mapping} if mapping is not None else {}),
        description=f"LLM judge of {measure.replace('_', ' ')} ({kind}): template {template}, engine "
                    f"{engine or 'from UNITXT_INFERENCE_ENGINE'}.", tags=dict(TAGS, measure=measure))


def _kind_families(add):
    for kind in ("external_rag", "end_to_end", "response_generation"):
        for measure in MEASURES:
            if kind == "response_generation" and measure == "context_relevance":
                continue  # response generation gets the contexts, it does not retrieve them
            template, field = JUDGE_TEMPLATES[measure]
            mapping = {} if kind == "external_rag" else {"ground_truths": "reference_answers"}
            for label in JUDGE_ENGINES:
                add(f"metrics.rag.{kind}.{measure}.{label}_judge", _judge(kind, measure, label, template, field,
                                                                          mapping=mapping))
            for scorer, (metric, main) in MODEL_SCORERS[measure].items():
                add(f"metrics.rag.{kind}.{measure}.{scorer}", make(
                    "metric_pipeline", main_score=main, preprocess_steps=_inputs(kind, measure), metric=metric,
                    score_prefix=_prefix(measure, scorer), tags=dict(TAGS, measure=measure),
                    description=f"{measure.replace('_', ' ').capitalize()} ({kind}) scored by {metric}."))
        measures = [m for m in ("answer_correctness", "faithfulness", "answer_relevance", "context_relevance")
                    if not (kind == "response_generation" and m == "context_relevance")]
        tail = [] if kind == "response_generation" else [f"metrics.rag.{kind}.context_correctness.mrr"]
        for group, label in (("llmaj_azure", "gpt_4o_azure"), ("llmaj_rits", "llama_3_3_70b_instruct_rits"),
                             ("llmaj_watsonx", "llama_3_3_70b_instruct_watsonx")):
            add(f"metrics.rag.{kind}.recommended.{group}.all", MetricsList(
                items=[f"metrics.rag.{kind}.{m}.{label}_judge" for m in measures] + tail,
                __description__=f"Recommended {kind} RAG metrics judged by {label}.", __tags__=dict(TAGS)))
    add("metrics.rag.response_generation.recommended.cpu_only.all", MetricsList(
        items=["metrics.rag.response_generation.answer_correctness.token_recall",
               "metrics.rag.response_generation.faithfulness.token_k_precision",
               "metrics.rag.response_generation.answer_relevance.token_recall"],
        __description__="Recommended CPU-only (lexical) response-generation metrics.", __tags__=dict(TAGS)))
    for measure, prefix, steps in (
            ("answer_correctness", "answer_correctness_token_recall_",
             [_copy({"task_data/reference_answers": "references"})]),
            ("answer_relevance", "answer_relevance_token_recall_", _inputs("response_generation", "answer_relevance"))):
        add(f"metrics.rag.response_generation.{measure}.token_recall", make(
            "metric_pipeline", main_score="recall", preprocess_steps=steps, metric="metrics.token_overlap",
            score_prefix=prefix, tags=dict(TAGS, measure=measure),
            description=f"{measure.replace('_', ' ').capitalize()} of a generated answer: token recall."))


# older names: metrics.rag.<measure>.<engine>_<inputs>[_variant]; inputs tell which texts the judge sees
LEGACY_JUDGES = {  # measure -> (inputs, {variant: template}, judged field)
    "answer_correctness": ("q_a_gt_loose", {"": "judge_loose_match_no_context",
                                            "logprobs": "judge_loose_match_no_context_logprobs",
                                            "numeric": "judge_loose_match_no_context_numeric"}, "answer"),
    "answer_relevance": ("q_a", {"": "judge_answer_relevance", "logprobs": "judge_answer_relevance_logprobs",
                                 "numeric": "judge_answer_relevance_numeric"}, "answer"),
    "context_relevance": ("q_c_ares", {"": "judge_context_relevance_ares",
                                       "logprobs": "judge_context_relevance_ares_logprobs",
                                       "numeric": "judge_context_relevance_ares_numeric"}, "contexts"),
    "correctness_holistic": ("q_c_a", {"": "judge_correctness_simple", "logprobs": "judge_correctness_simple_logprobs",
                                       "numeric": "judge_correctness_simple_numeric"}, "answer"),
    "faithfulness": (None, {}, "answer"),
}
FAITHFULNESS_INPUTS = {"c_a": "judge_no_question_simplified", "q_c_a": "judge_with_question_simplified"}


def _legacy(add):
    def judge(measure, label, inputs, variant, template, field):
        suffix = f"{inputs}_{variant}" if variant else inputs
        engine = "generic_inference_engine" if label == "generic_inference_engine" else \
            "engines.classification.llama_3_3_70b_instruct_wml"
        add(f"metrics.rag.{measure}.{label}_{suffix}", _judge(
            "task_data", measure, engine, template, field, main_score=f"{measure}_{suffix}",
            log_probs=variant == "logprobs"))

    for label in ("generic_inference_engine", "llama_3_3_70b_instruct_wml"):
        for measure, (inputs, templates, field) in LEGACY_JUDGES.items():
            for variant, template in templates.items():
                if variant == "logprobs" and label == "generic_inference_engine":
                    continue  # the generic engine gives no log-probs
                judge(measure, label, inputs, variant, template, field)
        for inputs, base in FAITHFULNESS_INPUTS.items():
            for variant in ("", "verbal", "logprobs"):
                if variant == "logprobs" and label == "generic_inference_engine":
                    continue
                judge("faithfulness", label, inputs, variant, f"{base}_{variant}" if variant else base, "answer")


def register(add):
    _kind_families(add)
    _legacy(add)
