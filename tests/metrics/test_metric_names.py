"""The metric names catalogs written for the original system use: every non-model metric __type__ is registered and
every metrics.* name of its documentation resolves in our catalog."""

import pytest

from unitxt.artifact import Artifact, get_artifact_class
from unitxt.catalog import fetch_artifact
from unitxt.metrics.base import Metric

METRIC_TYPES = """accuracy_fast f1_fast meteor_fast multi_turn_metric sql_execution_accuracy sql_non_execution_accuracy
tool_call_key_value_extraction key_value_extraction is_code_mixed binary_accuracy binary_max_f1 binary_max_accuracy
relaxed_correctness spearmanr pearsonr kendall_tau_metric recall_binary precision_binary weighted_win_rate_correlation
mean_squared_error root_mean_squared_error fuzzy_ner metric_based_ner fin_qa_eval precision_macro_multi_label
precision_micro_multi_label recall_macro_multi_label recall_micro_multi_label rerank_recall jaccard_index_string
websrc_squad_f1 string_containment_ratio char_edit_distance_accuracy tool_calling_metric normalized_sacrebleu
f1_strings kpa group_mean_accuracy group_mean_string_containment group_mean_token_overlap fixed_group_mean_accuracy
fixed_group_mean_string_containment fixed_group_mean_baseline_accuracy fixed_group_mean_baseline_string_containment
fixed_group_mean_paraphrase_accuracy fixed_group_mean_paraphrase_string_containment
fixed_group_pdr_paraphrase_accuracy fixed_group_pdr_paraphrase_string_containment
fixed_group_norm_cohens_h_paraphrase_accuracy fixed_group_norm_cohens_h_paraphrase_string_containment
fixed_group_norm_hedges_g_paraphrase_accuracy fixed_group_norm_hedges_g_paraphrase_string_containment
fixed_group_absval_norm_cohens_h_paraphrase_accuracy fixed_group_absval_norm_cohens_h_paraphrase_string_containment
fixed_group_absval_norm_hedges_g_paraphrase_accuracy fixed_group_absval_norm_hedges_g_paraphrase_string_containment
reflection_tool_calling_metric reflection_tool_calling_metric_syntactic multi_turn_tool_calling_metric
metrics_ensemble meteor""".split()

DOC_NAMES = """metrics.f1_strings metrics.meteor metrics.string_containment_ratio metrics.relaxed_correctness
metrics.websrc_squad_f1 metrics.fin_qa_metric metrics.kpa metrics.is_code_mixed metrics.weighted_win_rate_correlation
metrics.rerank_recall metrics.fuzzyner metrics.exact_match_mm metrics.sum_accuracy metrics.sum_accuracy_approximate
metrics.f1 metrics.precision_binary metrics.recall_binary metrics.accuracy_binary metrics.max_f1_binary
metrics.max_accuracy_binary metrics.precision_macro_multi_label metrics.precision_micro_multi_label
metrics.recall_macro_multi_label metrics.recall_micro_multi_label metrics.mean_squared_error
metrics.root_mean_squared_error metrics.jaccard_index_words metrics.char_edit_distance_accuracy
metrics.robustness.fixed_group_pdr_paraphrase_accuracy metrics.robustness.group_mean_token_overlap
metrics.text2sql.execution_accuracy metrics.text2sql.non_execution_accuracy metrics.tool_calling
metrics.tool_calling.key_value.accuracy metrics.tool_calling.reflection.syntactic metrics.tool_calling.multi_turn.validity
metrics.key_value_extraction.accuracy metrics.rag.external_rag.faithfulness.token_k_precision
metrics.rag.external_rag.answer_correctness.token_recall metrics.rag.external_rag.context_correctness.mrr
metrics.rag.response_generation.correctness.token_overlap""".split()


@pytest.mark.parametrize("type_name", METRIC_TYPES)
def test_metric_types_are_registered(type_name):
    cls = get_artifact_class(type_name)
    assert issubclass(cls, Metric) and issubclass(cls, Artifact)


@pytest.mark.parametrize("name", DOC_NAMES)
def test_documented_metric_names_resolve(name):
    metric, _ = fetch_artifact(name)
    assert isinstance(metric, Metric) and metric.main_score


def test_original_format_artifacts_load():
    """JSON as the original catalog writes it (only __type__, or with the documented fields) instantiates."""
    from unitxt.artifact import Artifact as Base

    for data in ({"__type__": "fixed_group_norm_hedges_g_paraphrase_accuracy"},
                 {"__type__": "tool_call_key_value_extraction", "metric": "metrics.accuracy"},
                 {"__type__": "jaccard_index_string", "splitter": {"__type__": "split", "by": " "}},
                 {"__type__": "metrics_ensemble", "metrics": ["metrics.accuracy", "metrics.f1_micro"],
                  "weights": [0.5, 0.5]},
                 {"__type__": "huggingface_metric", "hf_metric_name": "squad", "main_score": "f1", "scale": 100.0,
                  "scaled_fields": ["f1", "exact_match"]}):
        assert isinstance(Base.from_dict(data), Metric)


def test_external_rag_lexical_metrics():
    # end_to_end: a RAG response dict as the prediction and task_data; external_rag: the record's own columns
    # (as eval_utils.evaluate gives them), both in the original's field names
    prediction = {"answer": "the cat sat", "contexts": ["the cat sat on the mat", "dogs bark"],
                  "context_ids": ["c2", "c1"]}
    task_data = {"question": "where did the cat sit", "reference_context_ids": ["c1"],
                 "reference_answers": ["a cat sat there"]}
    record = {"answer": prediction["answer"], "contexts": prediction["contexts"], "context_ids": ["c2", "c1"],
              "question": task_data["question"], "ground_truths": ["a cat sat there"],
              "ground_truths_context_ids": ["c1"], "prediction": prediction, "task_data": task_data}
    expected = {  # SQuAD-normalised tokens: the question is [where, did, cat, sit]
        "answer_relevance.token_recall": ("answer_relevance_token_recall_recall", 1 / 4),  # cat
        "context_relevance.token_precision": ("context_relevance_token_precision_precision", 1 / 4),
        "context_correctness.map": ("context_correctness_map", 1 / 2),  # gold id at rank 2
        "context_correctness.retrieval_at_k": ("context_correctness_match_at_1", 0.0),
        "context_correctness.mrr": ("context_correctness_mrr", 1 / 2),
        "answer_correctness.token_recall": ("answer_correctness_token_recall_recall", 2 / 3),  # cat, sat of 3
        "faithfulness.token_k_precision": ("faithfulness_token_k_precision_precision", 1.0),
    }
    from unitxt.eval_utils import evaluate as evaluate_records

    for kind in ("external_rag", "end_to_end"):
        for name, (score_name, value) in expected.items():
            metric, _ = fetch_artifact(f"metrics.rag.{kind}.{name}")
            if kind == "end_to_end":
                scores = metric.evaluate([prediction], [[]], [task_data]).global_scores(with_ci=False)
            else:
                scores = evaluate_records([record], [f"metrics.rag.{kind}.{name}"])[1][f"metrics.rag.{kind}.{name}"]
            assert (scores["score_name"], scores["score"]) == (score_name, pytest.approx(value)), name
            assert scores["num_of_instances"] == 1 and not any(key.endswith("_num_of_instances") for key in scores)
        recommended, _ = fetch_artifact(f"metrics.rag.{kind}.recommended.cpu_only.all")
        assert all(fetch_artifact(item)[0].main_score for item in recommended.items)
