"""Catalog: the metrics the original catalog and its documentation name that are not model-backed
(binary and multi-label precision/recall, regression errors, robustness group metrics, SQL, tool calling, ...)."""

from unitxt.metrics.classification_variants import (
    AccuracyFast,
    BinaryAccuracy,
    BinaryMaxAccuracy,
    BinaryMaxF1,
    F1Fast,
    KendallTauMetric,
    MeanSquaredError,
    Pearsonr,
    PrecisionBinary,
    PrecisionMacroMultiLabel,
    PrecisionMicroMultiLabel,
    RecallBinary,
    RecallMacroMultiLabel,
    RecallMicroMultiLabel,
    RootMeanSquaredError,
    Spearmanr,
    SumAccuracy,
)
from unitxt.metrics import ExactMatchMM, F1Binary
from unitxt.metrics.ensemble import IsCodeMixed, RerankRecall, WeightedWinRateCorrelation
from unitxt.metrics.meteor import Meteor, MeteorFast
from unitxt.metrics.grouped_f1 import KPA, FuzzyNer, MetricBasedNer
from unitxt.metrics.sql import SQLExecutionAccuracy, SQLNonExecutionAccuracy
from unitxt.metrics.string_similarity import (
    CharEditDistanceAccuracy,
    F1Strings,
    FinQAEval,
    JaccardIndexString,
    RelaxedCorrectness,
    StringContainmentRatio,
    WebsrcSquadF1,
)
from unitxt.metrics.tool_calling import (
    KeyValueExtraction,
    MultiTurnToolCallingMetric,
    ReflectionToolCallingMetric,
    ReflectionToolCallingMetricSyntactic,
    ToolCallingMetric,
    ToolCallKeyValueExtraction,
)
from unitxt.operators.field_edits import RegexSplit
import unitxt.metrics.robustness as robustness

METRICS = {
    # classification
    "accuracy_fast": (AccuracyFast(), "classification", "Share of predictions equal to one of their references."),
    "f1_fast": (F1Fast(), "classification", "Single-label F1 (f1 = macro; f1_micro, f1_macro, per class)."),
    "accuracy_binary": (BinaryAccuracy(), "classification",
                        "Accuracy of 0/1 references against predictions thresholded at 0.5."),
    "max_accuracy_binary": (BinaryMaxAccuracy(), "classification",
                            "Best accuracy over decision thresholds of float predictions, and that threshold."),
    "max_f1_binary": (BinaryMaxF1(), "classification",
                      "Best positive-class F1 over decision thresholds of float predictions, and that threshold."),
    "precision_binary": (PrecisionBinary(), "classification", "Precision of the positive class for 0/1 predictions."),
    "recall_binary": (RecallBinary(), "classification", "Recall of the positive class for 0/1 predictions."),
    "f1": (F1Fast(), "classification", "Single-label F1 (f1 = macro over the reference classes; micro and per class)."),
    "binary_f1": (F1Binary(), "classification", "F1 of the positive class for 0/1 predictions (alias of f1_binary)."),
    "binary_precision": (PrecisionBinary(), "classification", "Precision of the positive class (alias)."),
    "binary_recall": (RecallBinary(), "classification", "Recall of the positive class (alias)."),
    "precision_macro_multi_label": (PrecisionMacroMultiLabel(), "classification",
                                    "Macro-averaged precision over lists of predicted classes."),
    "precision_micro_multi_label": (PrecisionMicroMultiLabel(), "classification",
                                    "Micro-averaged precision over lists of predicted classes."),
    "recall_macro_multi_label": (RecallMacroMultiLabel(), "classification",
                                 "Macro-averaged recall over lists of predicted classes."),
    "recall_micro_multi_label": (RecallMicroMultiLabel(), "classification",
                                 "Micro-averaged recall over lists of predicted classes."),
    # regression / correlation
    "mean_squared_error": (MeanSquaredError(), "regression", "Mean squared difference of prediction and reference."),
    "root_mean_squared_error": (RootMeanSquaredError(), "regression", "Root of the mean squared error."),
    "spearmanr": (Spearmanr(), "correlation", "Spearman rank correlation (p-value too)."),
    "pearsonr": (Pearsonr(), "correlation", "Pearson correlation (p-value too)."),
    "kendall_tau": (KendallTauMetric(), "correlation", "Kendall tau-b (p-value too)."),
    "weighted_win_rate_correlation": (WeightedWinRateCorrelation(), "correlation",
                                      "Correlation of predicted and gold per-model win rates in pairwise battles."),
    # strings
    "meteor": (Meteor(), "generation", "METEOR: exact and stem word alignment with a fragmentation penalty."),
    "meteor_fast": (MeteorFast(), "generation", "METEOR (the map-reduce variant name)."),
    "f1_strings": (F1Strings(), "generation", "Token-multiset F1 of prediction and the joined references."),
    "string_containment_ratio": (StringContainmentRatio(field="entities"), "string",
                                 "Share of task_data entities found in the prediction (override field=...)."),
    "jaccard_index_words": (JaccardIndexString(splitter=RegexSplit(by=r"\s+")), "string",
                            "Jaccard index of the word sets of prediction and reference (split at runs of "
                            "whitespace, as the original: padding leaves an empty word)."),
    "char_edit_distance_accuracy": (CharEditDistanceAccuracy(), "string",
                                    "1 - character edit distance / length, whitespace ignored."),
    "exact_match_mm": (ExactMatchMM(), "string", "Exact match of multimodal answers."),
    "relaxed_correctness": (RelaxedCorrectness(), "qa", "ChartQA relaxed accuracy (numbers within 5%)."),
    "websrc_squad_f1": (WebsrcSquadF1(), "qa", "WebSRC answer token-set F1."),
    "fin_qa_metric": (FinQAEval(), "qa", "FinQA program and execution accuracy."),
    # span / grouped F1
    "fuzzyner": (FuzzyNer(), "ner", "NER F1 with fuzzy entity-text matching (fuzz ratio above 75)."),
    "metric_based_ner": (MetricBasedNer(), "ner",
                         "NER F1 where entity texts match when a metric (default: exact match) scores >= 0.75."),
    "kpa": (KPA(), "classification", "Key point analysis F1 per key point (micro, macro)."),
    # ranking
    "rerank_recall": (RerankRecall(), "retrieval", "Recall@1/2/5 of reranking scores per query."),
    # SQL
    "text2sql.execution_accuracy": (SQLExecutionAccuracy(), "sql",
                                    "Execution accuracy of predicted SQL (sandboxed, read-only SQLite)."),
    "text2sql.execution_logic_accuracy": (SQLExecutionAccuracy(), "sql",
                                          "Execution accuracy of predicted SQL (alias used by the text2sql cards)."),
    "text2sql.non_execution_accuracy": (SQLNonExecutionAccuracy(), "sql",
                                        "SQL equivalence without execution (needs sqlglot and sqlparse)."),
    # tool calling
    "tool_calling": (ToolCallingMetric(), "tool_calling",
                     "Tool call exact match, name accuracy, argument precision/recall and schema validity."),
    "tool_calling.key_value.accuracy": (ToolCallKeyValueExtraction(metric="metrics.accuracy"), "tool_calling",
                                        "Per-key accuracy of flattened tool calls (micro, macro, per key)."),
    "tool_calling.key_value.token_overlap": (
        ToolCallKeyValueExtraction(metric="metrics.token_overlap", score_prefix="token_overlap_"),
                                             "tool_calling", "Per-key token overlap of flattened tool calls."),
    "key_value_extraction.accuracy": (KeyValueExtraction(metric="metrics.accuracy"), "extraction",
                                      "Per-key accuracy of predicted dicts (micro, macro, per key)."),
    "key_value_extraction.token_overlap": (
        KeyValueExtraction(metric="metrics.token_overlap", score_prefix="token_overlap_"), "extraction",
                                           "Per-key token overlap F1 of predicted dicts (micro, macro, per key)."),
    "tool_calling.reflection": (ReflectionToolCallingMetric(), "tool_calling",
                                "Schema checks plus LLM-based reflection on tool calls (needs its judge toolkit)."),
    "tool_calling.reflection.syntactic": (ReflectionToolCallingMetricSyntactic(), "tool_calling",
                                          "Whether tool calls conform to the tool schemas, with explanations."),
    "tool_calling.multi_turn.validity": (MultiTurnToolCallingMetric(), "tool_calling",
                                         "Schema conformity of the tool calls of a conversation."),
    # model-backed but registered here (running needs a model)
    "is_code_mixed": (IsCodeMixed(), "generation", "Whether a text mixes languages, judged by a generative model."),
    # documentation examples
    "sum_accuracy": (SumAccuracy(), "example", "The metrics tutorial's example: predicted sum of num1 and num2."),
    "sum_accuracy_approximate": (SumAccuracy(relative_tolerance=0.05), "example",
                                 "The tutorial's sum accuracy within 5% relative tolerance."),
}

_ROBUSTNESS = {
    "group_mean_accuracy": "GroupMeanAccuracy",
    "group_mean_string_containment": "GroupMeanStringContainment",
    "group_mean_token_overlap": "GroupMeanTokenOverlap",
    "fixed_group_mean_accuracy": "FixedGroupMeanAccuracy",
    "fixed_group_mean_string_containment": "FixedGroupMeanStringContainment",
}
for _aggregation, _part in robustness._AGGREGATION_CLASS_NAMES.items():
    for _suffix, _snake in (("Accuracy", "accuracy"), ("StringContainment", "string_containment")):
        _ROBUSTNESS[f"fixed_group_{_aggregation}_{_snake}"] = f"FixedGroup{_part}{_suffix}"
for _name, _class_name in _ROBUSTNESS.items():
    METRICS[f"robustness.{_name}"] = (getattr(robustness, _class_name)(), "robustness",
                                      f"{_name.replace('_', ' ')}: instance scores aggregated per task_data group_id.")


def register(add):
    for name, (metric, family, description) in METRICS.items():
        metric.__dict__["__description__"] = description
        metric.__dict__["__tags__"] = {"kind": "metric", "family": family}
        add(f"metrics.{name}", metric)
