"""Catalog: more model-based metrics (optional extras): BERTScore and embedding models used by the RAG families,
question / answer / conversation generation perplexities (flan-t5-small), and METEOR with few
resamples (metrics.meteor_hf)."""

from _factory import make

TAGS = {"kind": "metric", "family": "model_based"}
PERPLEXITY_PROMPTS = {  # family -> what flan-t5-small is asked to generate from the reference
    "perplexity_q": "a question", "perplexity_a": "an answer",
    "perplexity_chat": "a conversation between a user and an agent",
}


def register(add):
    add("metrics.bert_score.deberta_base_mnli", make(
        "bert_score", model_name="microsoft/deberta-base-mnli", tags=TAGS,
        description="BERTScore with microsoft/deberta-base-mnli. Needs bert_score, torch."))
    add("metrics.bert_score.deberta_v3_base_mnli_xnli_ml", make(
        "bert_score", model_name="MoritzLaurer/mDeBERTa-v3-base-mnli-xnli", model_layer=10, tags=TAGS,
        description="Multilingual BERTScore with mDeBERTa-v3-base (MNLI/XNLI), layer 10. Needs bert_score, torch."))
    add("metrics.sentence_bert.bge_large_en_1_5", make(
        "sentence_bert", model_name="BAAI/bge-large-en-v1.5", tags=TAGS,
        description="Cosine similarity of BAAI/bge-large-en-v1.5 embeddings. Needs sentence-transformers."))
    for family, what in PERPLEXITY_PROMPTS.items():
        add(f"metrics.{family}.flan_t5_small", make(
            "perplexity", model_name="google/flan-t5-small", tags=TAGS,
            source_template=f"Generate {what} based on the given content: {{reference}}",
            target_template="{prediction}",
            description=f"How likely flan-t5-small generates the prediction as {what} from the reference."))
    add("metrics.meteor_hf", make(
        "meteor_fast", n_resamples=3, tags=dict(TAGS, family="text"),
        description="METEOR (unigram matching with stems and synonyms, recall-weighted) with only 3 bootstrap "
                    "resamples, as the Hugging Face evaluate version reports it."))
    add("metrics.perplexity_nli.t5_nli_mixture", make(
        "perplexity", model_name="google/t5_xxl_true_nli_mixture", tags=TAGS, single_token_mode=True,
        source_template="premise: {reference} hypothesis: {prediction}", target_template="1",
        description="NLI entailment probability: how likely google/t5_xxl_true_nli_mixture answers '1' (entailed) "
                    "for premise = reference, hypothesis = prediction. Needs transformers, torch."))
    add("metrics.vectara_groundedness_hhem_2_1", make(
        "faithfulness_hhem", tags=TAGS,
        description="Groundedness of the prediction in the references by Vectara's HHEM 2.1 (probability the "
                    "prediction is supported). Needs transformers, torch (the model's code comes from the Hub)."))
    add("metrics.regard_metric", make(
        "regard_metric", prediction_type="Any", n_resamples=0, tags=dict(TAGS, family="bias"),  # no CIs
        description="Regard bias per group (sasha/regardv3 classifier): polarity of prompt + continuation minus "
                    "that of a reference text about the group. Needs transformers, torch."))
    add("metrics.safety_metric", make(
        "safety_metric", tags=dict(TAGS, family="safety"),
        description="Harmlessness of responses by a reward model (OpenAssistant deberta-v3-large-v2): severity "
                    "shares and a 0..1 safety score, overall and per category. Needs transformers, torch."))
