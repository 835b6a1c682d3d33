"""Catalog: text-generation and string-matching metrics (metrics.rouge, metrics.bleu, metrics.squad, ...)."""

from unitxt.metrics_string import ANLS, CharEditDistAccuracy, CharEditDistance, ExactMatch, Squad, TokenOverlap, Wer
from unitxt.metrics_text import Bleu, Chrf, Rouge, Sacrebleu

METRICS = {
    "rouge": (Rouge(), "generation",
              "ROUGE-1/2/L/Lsum F-measures (rouge_score, no stemming; Lsum splits sentences on newlines); main rougeL."),
    "rouge_with_confidence_intervals": (Rouge(), "generation", "Same as metrics.rouge (CIs on all four scores)."),
    "bleu": (Bleu(), "generation", "Corpus BLEU as sacrebleu (13a, exp smoothing) on a 0..1 scale; sentence BLEU per instance."),
    "sacrebleu": (Sacrebleu(), "generation", "Corpus sacreBLEU (13a tokenization) on a 0..1 scale (sacrebleu score / 100)."),
    "normalized_sacrebleu": (Sacrebleu(tokenize="13a"), "generation",
                             "sacreBLEU normalised to 0..1, tokenize 13a (language-specific tokenizers are not included)."),
    "chrf": (Chrf(), "generation", "Corpus chrF (char 6-grams, beta 2) as sacrebleu, on a 0..1 scale."),
    "chrf_plus_plus": (Chrf(word_order=2, main_score="chrf_plus_plus"), "generation",
                       "Corpus chrF++ (chrF with word 1-2 grams) as sacrebleu, on a 0..1 scale."),
    "token_overlap": (TokenOverlap(), "string", "Token precision/recall/f1 of the prediction vs. its best reference (SQuAD-normalised words)."),
    "squad": (Squad(), "string", "SQuAD v1.1 exact match and token F1 (0..1), best reference."),
    "exact_match": (ExactMatch(), "string", "1 when the prediction string equals a reference exactly."),
    "char_edit_distance": (CharEditDistance(), "string", "Character edit count to the closest reference, texts stripped (lower is better)."),
    "char_edit_dist_accuracy": (CharEditDistAccuracy(), "string", "1 - edit count / longer length, to the closest reference, texts stripped."),
    "wer": (Wer(), "string", "Corpus word error rate: total word edits / total reference words (lower is better)."),
    "anls": (ANLS(), "string", "Average Normalized Levenshtein Similarity (threshold 0.5), for document VQA."),
}


def register(add):
    for name, (metric, family, description) in METRICS.items():
        metric.__dict__["__description__"] = description
        metric.__dict__["__tags__"] = {"kind": "metric", "family": family}
        add(f"metrics.{name}", metric)
