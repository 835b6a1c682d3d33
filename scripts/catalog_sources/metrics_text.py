"""Catalog: text-generation and string-matching metrics (metrics.rouge, metrics.bleu, metrics.squad, ...)."""

from unitxt.metrics.string_match import ANLS, CharEditDistAccuracy, CharEditDistance, ExactMatch, Squad, TokenOverlap, Wer
from unitxt.metrics.bleu import NmtBleu, NormalizedSacrebleu, Sacrebleu
from unitxt.metrics.text import Bleu, Chrf, Rouge

METRICS = {
    "rouge": (Rouge(), "generation",
              "ROUGE-1/2/L/Lsum F-measures (rouge_score, no stemming; Lsum splits sentences on newlines); main rougeL."),
    "rouge_with_confidence_intervals": (Rouge(), "generation", "Same as metrics.rouge (CIs on all four scores)."),
    "bleu": (NmtBleu(), "generation", "BLEU as HF evaluate's bleu (13a tokens, no smoothing, shortest reference "
                                      "length), 0..1, with precisions, brevity_penalty and lengths."),
    "sacrebleu_unit_scale": (Bleu(main_score="sacrebleu"), "generation",
                             "Corpus sacreBLEU (13a, exp smoothing) on a 0..1 scale, unrounded; sentence BLEU per instance."),
    "sacrebleu": (Sacrebleu(), "generation", "Corpus sacreBLEU (13a tokenization) on its 0..100 scale, with counts, "
                                             "totals, precisions, bp, sys_len and ref_len."),
    "normalized_sacrebleu": (NormalizedSacrebleu(), "generation",
                             "sacreBLEU with effective order / 100, rounded to 2 decimals (tokenize 13a; language-specific "
                             "tokenizers are not included)."),
    "chrf": (Chrf(), "generation", "Corpus chrF (char 6-grams, beta 2) as sacrebleu, on a 0..1 scale."),
    "chrf_plus_plus": (Chrf(word_order=2, main_score="chrf_plus_plus"), "generation",
                       "Corpus chrF++ (chrF with word 1-2 grams) as sacrebleu, on a 0..1 scale."),
    "token_overlap": (TokenOverlap(), "string", "Token precision/recall/f1 of the prediction vs. its best reference (SQuAD-normalised words)."),
    "squad": (Squad(), "string", "SQuAD v1.1 exact match and token F1 (0..1), best reference."),
    "exact_match": (ExactMatch(), "string", "1 when the prediction string equals a reference exactly."),
    "char_edit_distance": (CharEditDistance(), "string", "Character edit count to the closest reference, whitespace removed (lower is better)."),
    "char_edit_dist_accuracy": (CharEditDistAccuracy(), "string", "1 - edit count / longer length, to the closest reference, whitespace removed."),
    "wer": (Wer(), "string", "Corpus word error rate: total word edits / total reference words (lower is better)."),
    "anls": (ANLS(), "string", "Average Normalized Levenshtein Similarity (threshold 0.5), for document VQA."),
}


def register(add):
    for name, (metric, family, description) in METRICS.items():
        metric.__dict__["__description__"] = description
        metric.__dict__["__tags__"] = {"kind": "metric", "family": family}
        add(f"metrics.{name}", metric)
