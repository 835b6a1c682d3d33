"""Catalog: names programs written for older releases of the original use, which it later renamed (and no longer
resolves). Each is a link to its successor here, marked deprecated with a message naming the new name, so such a
program runs and says what to write instead.
"""

from unitxt.artifact import ArtifactLink

TAGS = {"kind": "metric", "deprecated": "renamed"}  # links under metrics.* are tagged as metrics
RATING = "metrics.llm_as_judge.rating"
WATSONX_MT_BENCH = f"{RATING}.llama_3_3_70b_instruct_watsonx_template_mt_bench_single_turn"
RAG_JUDGE_VARIANTS = {  # dimension -> the variant suffix of the old names
    "answer_correctness": "q_a_gt_loose",
    "faithfulness": "q_c_a",
    "context_relevance": "q_c_ares",
    "answer_relevance": "q_a",
}


def _criteria_names(kind):
    """The names of the core predefined criteria of direct or pairwise judges (the later criteria library never had
    the old `criterias` folder)."""
    from unitxt.judges.constants import direct_criteria, pairwise_criteria
    from unitxt.judges.criteria_library import PAIRWISE, library

    names = (direct_criteria() if kind == "direct" else pairwise_criteria()).keys()
    later = library() if kind == "direct" else PAIRWISE
    return sorted(name for name in names if name not in later)


def renamed():
    """old name -> new name."""
    links = {}
    for kind in ("direct", "pairwise"):
        for name in _criteria_names(kind):
            links[f"metrics.llm_as_judge.{kind}.criterias.{name}"] = f"metrics.llm_as_judge.{kind}.criteria.{name}"
    # the spec's pairwise examples name later pairwise criteria under the old folder too
    from unitxt.judges.criteria_library import PAIRWISE

    for name in PAIRWISE:
        links[f"metrics.llm_as_judge.pairwise.criterias.{name}"] = f"metrics.llm_as_judge.pairwise.criteria.{name}"
    # the spec's rating judge of the retired ibm_genai service with the generic template
    for suffix in ("generic_single_turn", "generic_single_turn_with_reference"):
        links[f"{RATING}.llama_3_70b_instruct_ibm_genai_template_{suffix}"] = f"{RATING}.llama_3_70b_instruct.{suffix}"
    # template judges of a retired service (ibm_genai): the same MT-Bench template, served by watsonx
    links[f"{RATING}.llama_3_8b_instruct_ibm_genai_template_mt_bench_single_turn"] = WATSONX_MT_BENCH
    links[f"{RATING}.llama_3_70b_instruct_ibm_genai_template_mt_bench_single_turn"] = WATSONX_MT_BENCH
    # retrieval metrics over context ids, now under external_rag
    for metric in ("mrr", "map", "retrieval_at_k"):
        links[f"metrics.rag.{metric}"] = f"metrics.rag.external_rag.context_correctness.{metric}"
    # RAG judges named after llama 3.1 on WML; their successors are the llama 3.3 watsonx judges
    for dimension, variant in RAG_JUDGE_VARIANTS.items():
        old = f"metrics.rag.{dimension}.llama_3_1_70b_instruct_wml_{variant}"
        new = f"metrics.rag.{dimension}.llama_3_3_70b_instruct_watsonx_judge"
        links[old] = new
        links[f"{old}_numeric"] = new
        links[f"{old}_logprobs"] = f"{new}_logprobs"
    # the engine the original's generic-engine arena-hard judges fall back to (its IBM GenAI service is retired and
    # its catalog no longer holds the name): the same model on the default provider
    links["engines.ibm_gen_ai.llama_3_70b_instruct"] = "engines.cross_provider.llama_3_70b_instruct"
    return links


def register(add):
    for old, new in renamed().items():
        add(old, ArtifactLink(
            to=new,
            __description__=f"Old name of {new}.",
            __tags__=({**TAGS, "kind": "criteria"} if ".criterias." in old
                      else {**TAGS, "kind": "inference_engine"} if old.startswith("engines.") else TAGS),
            __deprecated_msg__=f"'{old}' was renamed: use '{new}' instead.",
        ))
