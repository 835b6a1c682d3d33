"""Catalog: the BlueBench recipes (recipes.bluebench.<group>.<subset>) and the benchmarks built from recipes and cards:
benchmarks.bluebench, .tool_calling, .vision_default, .vision_full and .llama_vision.

Each BlueBench subset fixes its card, template, chat format, demos (pool size, count, source split) and instance caps;
the groups are the capabilities BlueBench reports (bias, legal, product help, knowledge, RAG, safety, ...).
"""

from unitxt.benchmark import Benchmark
from unitxt.recipe import DatasetRecipe

MMLU_PRO = ["biology", "business", "chemistry", "computer_science", "economics", "engineering", "health", "history",
            "law", "math", "other", "philosophy", "physics", "psychology"]
BBQ = ["Age", "Disability_status", "Gender_identity", "Nationality", "Physical_appearance", "Race_ethnicity",
       "Race_x_gender", "Race_x_SES", "Religion", "SES", "Sexual_orientation"]
LEGALBENCH = ["abercrombie", "corporate_lobbying", "function_of_decision_section", "international_citizenship_questions",
              "proa"]
FLORES = ["ara_eng", "deu_eng", "eng_ara", "eng_deu", "eng_fra", "eng_kor", "eng_por", "eng_ron", "eng_spa", "fra_eng",
          "jpn_eng", "kor_eng", "por_eng", "ron_eng", "spa_eng"]
CLASSIFY = "templates.classification.multi_class.bluebench"

# settings shared by a kind of subset: (demos_pool_size, num_demos, demos_taken_from, max_test_instances, extra)
KINDS = {
    "bbq": (20, 5, "test", 9, {"template": "templates.qa.multiple_choice.with_context.bluebench"}),
    "mmlu_pro": (20, 5, "test", 7, {"template": "templates.qa.multiple_choice.with_topic.bluebench"}),
    "legal": (10, 1, "test", 20, {"template": CLASSIFY}),
    "flores": (100, 5, "validation", 6, {"template": "templates.translation.directed.bluebench"}),
}


def _subsets():
    """group -> subset -> (card, demos_pool_size, num_demos, demos_taken_from, max_test_instances, extra settings)."""
    groups = {
        "bias": {f"safety_bbq_{c.lower()}": (f"cards.safety.bbq.{c}", *KINDS["bbq"]) for c in BBQ},
        "chatbot_abilities": {"arena_hard_generation_english_gpt_4_0314_reference": (
            "cards.arena_hard.generation.english_gpt_4_0314_reference", 0, 0, "train", 100,
            {"template": "templates.generation.empty", "metrics": [
                "metrics.llm_as_judge.pairwise_comparative_rating.llama_3_3_70b_instruct.template_arena_hard"]})},
        "entity_extraction": {"universal_ner_en_ewt": (
            "cards.universal_ner.en.ewt", 10000, 5, "train", 100,
            {"template": "templates.span_labeling.extraction.detailed", "metrics": ["metrics.ner[zero_division=1.0]"],
             "max_train_instances": 10000,
             "train_refiner": "operators.balancers.ner.zero_vs_many_entities[segments_boundaries=[0,1,2]]"})},
        "knowledge": {f"mmlu_pro_{s}": (f"cards.mmlu_pro.{s}", *KINDS["mmlu_pro"]) for s in MMLU_PRO},
        "legal": {f"legalbench_{s}": (f"cards.legalbench.{s}", *KINDS["legal"]) for s in LEGALBENCH},
        "news_classification": {"20_newsgroups_short": (
            "cards.20_newsgroups_short", 100, 1, "train", 100, {"template": CLASSIFY})},
        "product_help": {
            "cfpb_product_2023": ("cards.CFPB.product.2023", 100, 5, "train", 100, {"template": CLASSIFY}),
            "cfpb_product_watsonx": ("cards.CFPB.product.watsonx", 100, 5, "train", 50, {"template": CLASSIFY})},
        "qa_finance": {"fin_qa": ("cards.fin_qa", 100, 2, "train", 100, {"template_card_index": 0})},
        "rag_general": {"rag_response_generation_clapnq": (
            "cards.rag.response_generation.clapnq", 100, 1, "train", 100,
            {"template": "templates.rag.response_generation.bluebench"})},
        "reasoning": {
            "hellaswag": ("cards.hellaswag", 100, 5, "train", 100,
                          {"template": "templates.completion.multiple_choice.bluebench"}),
            "openbook_qa": ("cards.openbook_qa", 100, 5, "train", 100,
                            {"template": "templates.qa.multiple_choice.open.bluebench"})},
        "safety": {"attaq_500": ("cards.attaq_500", 0, 0, "train", 100, {"template_card_index": 0})},
        "summarization": {f"{s}_document_filtered_to_6000_chars": (
            f"cards.{s}_document_filtered_to_6000_chars", 100, 0, "train", 100,
            {"template": "templates.summarization.abstractive.bluebench"}) for s in ("billsum", "tldr")},
        "translation": {f"mt_flores_101_{p}": (f"cards.mt.flores_101.{p}", *KINDS["flores"]) for p in FLORES},
    }
    return groups


def bluebench_recipe(card, pool, demos, taken_from, test_cap, extra) -> DatasetRecipe:
    settings = dict(max_train_instances=1000, max_validation_instances=1000)
    settings.update(extra)
    return DatasetRecipe(card=card, demos_pool_size=pool, num_demos=demos, demos_taken_from=taken_from,
                         max_test_instances=test_cap, format="formats.chat_api", **settings)


def _bluebench(add):
    groups = {}
    for group, subsets in _subsets().items():
        names = {}
        for subset, (card, *settings) in sorted(subsets.items()):
            name = f"recipes.bluebench.{group}.{subset}"
            recipe = bluebench_recipe(card, *settings)
            recipe.__dict__["__description__"] = f"BlueBench {group} subset: {card} with a chat format."
            recipe.__dict__["__tags__"] = {"kind": "recipe", "benchmark": "bluebench"}
            add(name, recipe)
            names[subset] = name
        groups[group] = Benchmark(subsets=names)
    add("benchmarks.bluebench", Benchmark(
        subsets=groups,
        __description__="BlueBench: an open benchmark of enterprise needs — bias (BBQ), chatbot abilities (Arena-Hard "
                        "judged by Llama-3.3-70B), entity extraction, knowledge (MMLU-Pro), legal (LegalBench), "
                        "news classification, product help (CFPB complaints), financial QA, RAG response "
                        "generation (ClapNQ), reasoning, safety (AttaQ), summarization and translation (FLORES-101). "
                        "Each subset is a recipes.bluebench.* recipe; scores average per group and overall.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "text"}))


TOOL_CALLING = {f"bfcl.{s}": f"cards.bfcl.multi_turn.{s}_v3" for s in (
    "simple", "multiple", "live_multiple", "live_simple", "java", "javascript", "parallel", "parallel_multiple",
    "live_parallel", "live_parallel_multiple")}
TOOL_CALLING["xlam"] = "cards.xlam_function_calling_60k"
# the original also scores with an LLM judge of multi-turn correctness (criteria judge), not in this catalog yet
TOOL_CALLING_METRICS = ["metrics.tool_calling.multi_turn.validity"]
VISION = {"doc_vqa": "cards.doc_vqa.lmms_eval", "info_vqa": "cards.info_vqa_lmms_eval",
          "chart_qa": "cards.chart_qa_lmms_eval", "ai2d": "cards.ai2d", "websrc": "cards.websrc"}
LLAMA_VISION_TEMPLATES = {"doc_vqa": "templates.qa.llama_vision.with_context.doc_vqa",
                          "info_vqa": "templates.qa.llama_vision.with_context.info_vqa",
                          "chart_qa": "templates.qa.llama_vision.with_context.chart_qa",
                          "ai2d": "templates.qa.llama_vision.multiple_choice.with_context.ai2d"}


def _llama_vision_recipe(name):
    return DatasetRecipe(card=VISION[name], template=LLAMA_VISION_TEMPLATES[name], format="formats.chat_api")


def register(add):
    _bluebench(add)
    add("benchmarks.tool_calling", Benchmark(
        subsets={name: DatasetRecipe(card=card, format="formats.chat_api", metrics=list(TOOL_CALLING_METRICS))
                 for name, card in TOOL_CALLING.items()},
        __description__="Tool calling: the BFCL v3 categories (simple, multiple, parallel, live, Java, JavaScript) "
                        "and xLAM function calling, scored for schema validity and by an LLM judge of correctness.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "text"}))
    add("benchmarks.vision_default", Benchmark(
        subsets={name: DatasetRecipe(card=card) for name, card in VISION.items()},
        __description__="Vision benchmark with each card's default template: DocVQA, InfographicVQA, ChartQA, AI2D "
                        "and WebSRC.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "image"}))
    full = {f"{name}_default": DatasetRecipe(card=card) for name, card in VISION.items()}
    full.update({f"{name}_llama_vision_template": _llama_vision_recipe(name) for name in LLAMA_VISION_TEMPLATES})
    add("benchmarks.vision_full", Benchmark(
        subsets=full,
        __description__="Vision benchmark, both prompt styles: every card with its default template, and the four "
                        "cards Llama 3.2 Vision reported with its prompt templates and a chat format.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "image"}))
    add("benchmarks.llama_vision", Benchmark(
        subsets={name: _llama_vision_recipe(name) for name in LLAMA_VISION_TEMPLATES},
        __description__="The vision benchmark used to report Llama 3.2 Vision results: DocVQA, InfographicVQA, "
                        "ChartQA and AI2D with its prompt templates and a chat format.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "image"}))
