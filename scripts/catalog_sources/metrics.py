"""Catalog: metrics computed with numpy/scipy only (metrics.*)."""

from unitxt.metrics import (
    Accuracy,
    F1Binary,
    F1Fast,
    F1MacroMultiLabel,
    F1MicroMultiLabel,
    F1Weighted,
    JaccardIndex,
    MatthewsCorrelation,
    PrecisionMacro,
    PrecisionMicro,
    PredictionLength,
    RecallMacro,
    RecallMicro,
    StringContainment,
    UnsortedListExactMatch,
)

METRICS = {
    "accuracy": (Accuracy(), "Share of predictions equal to one of their references."),
    # as the original's catalog: the map-reduce F1 (1000 resamples), not the F1Micro/F1Macro classes (100)
    "f1_micro": (F1Fast(main_score="f1_micro", averages=["micro"]),
                 "Micro-averaged F1 over the reference classes (single label)."),
    "f1_macro": (F1Fast(main_score="f1_macro", averages=["macro", "per_class"], ci_score_names=["f1_macro"]),
                 "Macro-averaged F1 over the reference classes, with per-class F1 scores."),
    "f1_weighted": (F1Weighted(), "Support-weighted F1 over the reference classes."),
    "f1_binary": (F1Binary(), "F1 of the positive class for 0/1 predictions."),
    "f1_micro_multi_label": (F1MicroMultiLabel(), "Micro-averaged F1 over lists of predicted classes."),
    "f1_macro_multi_label": (F1MacroMultiLabel(), "Macro-averaged F1 over lists of predicted classes."),
    "precision_micro": (PrecisionMicro(), "Micro-averaged precision over the reference classes."),
    "precision_macro": (PrecisionMacro(), "Macro-averaged precision over the reference classes."),
    "recall_micro": (RecallMicro(), "Micro-averaged recall over the reference classes."),
    "recall_macro": (RecallMacro(), "Macro-averaged recall over the reference classes."),
    "matthews_correlation": (MatthewsCorrelation(), "Matthews correlation coefficient (multi-class)."),
    "string_containment": (StringContainment(), "Whether some reference appears inside the prediction."),
    "unsorted_list_exact_match": (UnsortedListExactMatch(), "Whether the predicted list equals a reference up to order."),
    "jaccard_index": (JaccardIndex(), "Jaccard overlap of predicted and reference sets."),
    "prediction_length": (PredictionLength(), "Length of the prediction in characters."),
}


def register(add):
    for name, (metric, description) in METRICS.items():
        metric.__dict__["__description__"] = description
        metric.__dict__["__tags__"] = {"kind": "metric"}
        add(f"metrics.{name}", metric)
