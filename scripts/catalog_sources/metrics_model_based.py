"""Catalog: model-based metrics (optional extras): metrics.bert_score.*, metrics.sentence_bert.*,
metrics.perplexity.*, metrics.reward.*, metrics.rag.context_relevance.perplexity_*, metrics.granite_guardian.*."""

from unitxt.metrics.model_based import (
    BertScore,
    GraniteGuardianAgenticRisk,
    GraniteGuardianAssistantRisk,
    GraniteGuardianRagRisk,
    GraniteGuardianUserRisk,
    Perplexity,
    Reward,
    SentenceBert,
)

TAGS = {"kind": "metric", "family": "model_based"}


def register(add):
    def put(name, metric, description):
        metric.__dict__["__description__"] = description
        metric.__dict__["__tags__"] = dict(TAGS)
        add(name, metric)

    for label, model, layer in (("deberta_xlarge_mnli", "microsoft/deberta-xlarge-mnli", 40),
                                ("deberta_large_mnli", "microsoft/deberta-large-mnli", 18),
                                ("bert_base_uncased", "bert-base-uncased", 9),
                                ("distilbert_base_uncased", "distilbert-base-uncased", 5)):
        put(f"metrics.bert_score.{label}", BertScore(model_name=model, model_layer=layer),
            f"BERTScore (precision/recall/F1; main: f1) with {model}, layer {layer}. Needs bert_score, torch.")
    for label, model in (("mpnet_base_v2", "sentence-transformers/all-mpnet-base-v2"),
                         ("minilm_l12_v2", "sentence-transformers/all-MiniLM-L12-v2")):
        put(f"metrics.sentence_bert.{label}", SentenceBert(model_name=model),
            f"Cosine similarity of {model} embeddings (best reference). Needs sentence-transformers.")
    put("metrics.perplexity.flan_t5_small", Perplexity(
        model_name="google/flan-t5-small", source_template="Continue this text: {reference}"),
        "Geometric-mean probability of the prediction's tokens following a reference (best reference), flan-t5-small.")
    put("metrics.rag.context_relevance.perplexity_flan_t5_small", Perplexity(
        model_name="google/flan-t5-small", main_score="context_relevance", source_field="contexts",
        target_field="question", source_template="Generate a question based on the given content: {reference}"),
        "RAG context relevance (RAG guide): how likely flan-t5-small generates the question from the best "
        "retrieved context (teacher forcing). Needs torch, transformers.")
    put("metrics.reward.deberta_v3_large_v2", Reward(model_name="OpenAssistant/reward-model-deberta-v3-large-v2"),
        "Reward model score of (question, answer) by OpenAssistant's DeBERTa-v3 reward model.")
    for risk in ("harm", "jailbreak", "profanity", "social_bias", "unethical_behavior", "violence"):
        put(f"metrics.granite_guardian.user_risk.{risk}", GraniteGuardianUserRisk(risk_name=risk),
            f"Granite Guardian: probability that the user message shows '{risk}'.")
        if risk != "jailbreak":
            put(f"metrics.granite_guardian.assistant_risk.{risk}", GraniteGuardianAssistantRisk(risk_name=risk),
                f"Granite Guardian: probability that the assistant message shows '{risk}'.")
    for risk in ("groundedness", "context_relevance", "answer_relevance"):
        put(f"metrics.granite_guardian.rag_risk.{risk}", GraniteGuardianRagRisk(risk_name=risk),
            f"Granite Guardian RAG risk '{risk}' (probability of the risk).")
    put("metrics.granite_guardian.agentic_risk.function_call", GraniteGuardianAgenticRisk(
        risk_name="function_call", risk_type="AGENTIC"),
        "Granite Guardian: probability that an assistant function call is hallucinated.")
