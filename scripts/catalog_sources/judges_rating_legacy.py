"""Catalog: the original's template judges named per model and template (metrics.llm_as_judge.rating.*,
.pairwise_comparative_rating.*, .safety.*) and the recommended open-QA lists (metrics.qa.open.*).

Each row is a fact of the original's entry: the engine (kind, model, token cap, seed), the judge template, the judge
task, the format and the main score; the templates themselves are ours.
"""

from _factory import make

TAGS = {"kind": "metric", "family": "llm_as_judge"}
# judge templates this catalog does not hold yet (written with the templates of issue 28); judges using them, and the
# list naming such a judge, are added once they exist: empty this set then
PENDING_TEMPLATES = set()
RATING = "templates.response_assessment.rating"
ARENA = "templates.response_assessment.pairwise_comparative_rating"


def _cross(model, max_tokens, seed=None, **extra):
    return make("cross_provider_inference_engine", model=model, max_tokens=max_tokens,
                **({"seed": seed} if seed is not None else {}), **extra)


def _generic():
    return make("generic_inference_engine", default="engines.ibm_gen_ai.llama_3_70b_instruct")


def _wml(model, max_new_tokens, engine_type="wml_inference_engine"):
    return make(engine_type, model_name=model, max_new_tokens=max_new_tokens, random_seed=42)


# name -> (engine, template, task, format, main score, extra settings)
def judges():
    rating, rated_with_ref = "rating.single_turn", "rating.single_turn_with_reference"
    arena_task = "pairwise_comparative_rating.single_turn"
    rows = {
        "rating.llama_3_1_70b_instruct_cross_provider_template_table2text_single_turn_with_reference": (
            _cross("llama-3-1-70b-instruct", 252, 42), f"{RATING}.table2text_single_turn_with_reference",
            rated_with_ref, "formats.chat_api", None, {"prediction_type": "str"}),
        "rating.llama_3_70b_instruct.generic_single_turn": (
            _cross("llama-3-70b-instruct", 252), f"{RATING}.generic_single_turn", rating, "formats.chat_api",
            "llama_3_70b_instruct_template_generic_single_turn", {"prediction_type": "str"}),
        "rating.llama_3_70b_instruct.generic_single_turn_with_reference": (
            _cross("llama-3-70b-instruct", 252), f"{RATING}.generic_single_turn_with_reference", rated_with_ref,
            "formats.chat_api", "llama_3_70b_instruct_template_generic_single_turn_with_reference",
            {"single_reference_per_prediction": True}),
        "rating.llama_3_70b_instruct_template_table2text_single_turn_with_reference": (
            _cross("llama-3-70b-instruct", 252, 42), f"{RATING}.table2text_single_turn_with_reference",
            rated_with_ref, "formats.llama3_instruct", None, {"prediction_type": "str"}),
        "safety.llama_3_3_70b_instruct_ibm_watsonx_template_harm_rating": (
            _wml("meta-llama/llama-3-3-70b-instruct", 252, "wml_inference_engine_generation"),
            "templates.safety.harm_rating", rating, "formats.llama3_instruct", None, {}),
        "safety.llamaguard": (
            _cross("llama-3-3-70b-instruct", 20, 42, temperature=1e-07), "templates.safety.llamaguard", rating,
            "formats.chat_api", "llama_3_3_70b_instruct_cross_provider_template_llamaguard", {}),
    }
    for size in ("70b", "8b"):
        rows[f"rating.llama_3_{size}_instruct.mt_bench_single_turn"] = (
            _cross(f"llama-3-{size}-instruct", 252, 42), f"{RATING}.mt_bench_single_turn", rating,
            "formats.chat_api", f"llama_3_{size}_instruct_template_mt_bench_single_turn", {"prediction_type": "str"})
        rows[f"pairwise_comparative_rating.llama_3_{size}_instruct.template_arena_hard"] = (
            _cross(f"llama-3-{size}-instruct", 30), f"{ARENA}.arena_hard", arena_task, "formats.chat_api",
            f"llama_3_{size}_instruct_template_arena_hard", {})
        for shuffled in ("", "_with_shuffling"):
            label = f"llama_3_{size}_instruct_generic_engine_template_arena_hard{shuffled}"
            rows[f"pairwise_comparative_rating.{label}"] = (
                _generic(), f"{ARENA}.arena_hard{shuffled}", arena_task, "formats.llama3_instruct", label, {})
    for shuffled in ("", "_with_shuffling"):
        label = f"llama_3_70b_instruct_ibm_wml_template_arena_hard{shuffled}"
        rows[f"pairwise_comparative_rating.{label}"] = (
            _wml("meta-llama/llama-3-70b-instruct", 2048), f"{ARENA}.arena_hard{shuffled}", arena_task,
            "formats.llama3_instruct", label, {})
    return rows


def register(add):
    for name, (engine, template, task, form, main, extra) in judges().items():
        if template in PENDING_TEMPLATES:
            continue
        add(f"metrics.llm_as_judge.{name}", make(
            "llm_as_judge", inference_model=engine, template=template, task=task, format=form,
            main_score=main or name.split(".", 1)[1], **extra, tags=TAGS,
            description=f"Template judge: {template.rsplit('.', 1)[1]} on the {task} task, engine "
                        f"{engine.model if hasattr(engine, 'model') else getattr(engine, 'model_name', 'generic')}."))
    if f"{RATING}.generic_single_turn" not in PENDING_TEMPLATES:
        add("metrics.qa.open.recommended_llm_as_judge", make(
            "metrics_list", items=["metrics.llm_as_judge.rating.llama_3_70b_instruct.generic_single_turn"],
            tags={"kind": "metric", "family": "metrics_list"},
            description="Recommended LLM-as-judge metric for open question answering (a 1-10 rating by "
                        "Llama-3-70B)."))
    add("metrics.qa.open.recommended_local_gpu", make(
        "metrics_list", items=["metrics.sentence_bert.bge_large_en_1_5"],
        tags={"kind": "metric", "family": "metrics_list"},
        description="Recommended local-GPU metric for open question answering (BGE sentence-embedding similarity)."))
