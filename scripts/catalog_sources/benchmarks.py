"""Catalog: benchmarks (benchmarks.*).

benchmarks.glue is the benchmark of the Benchmarks guide: every GLUE card with the guide's templates, the user/agent
format, 5 test instances per subset and a 300-row loader limit (all overridable: benchmarks.glue[format=...]).
QQP, listed among the guide's cards but missing from its example, uses the relation template like MRPC.
"""

from unitxt.benchmark import Benchmark
from unitxt.recipe import DatasetRecipe

RELATION = "templates.classification.multi_class.relation.default"
GLUE_TEMPLATES = {
    "cola": "templates.classification.multi_class.instruction",
    "mnli": RELATION,
    "mrpc": RELATION,
    "qnli": RELATION,
    "qqp": RELATION,
    "rte": RELATION,
    "sst2": "templates.classification.multi_class.title",
    "stsb": "templates.regression.two_texts.title",
    "wnli": RELATION,
}


def register(add):
    register_documented(add)
    add("benchmarks.glue", Benchmark(
        format="formats.user_agent",
        max_samples_per_subset=5,
        loader_limit=300,
        subsets={name: DatasetRecipe(card=f"cards.{name}", template=template) for name, template in GLUE_TEMPLATES.items()},
        __description__="GLUE (General Language Understanding Evaluation): nine English sentence and sentence-pair "
                        "tasks; the score is the mean of the subsets' main scores.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "text",
                  "urls": {"paper": "https://arxiv.org/abs/1804.07461"}},
    ))


# ---------------------------------------------------------------- benchmarks the documentation names
MMLU_PRO = ["biology", "business", "chemistry", "computer_science", "economics", "engineering", "health", "history",
            "law", "math", "other", "philosophy", "physics", "psychology"]
WMT_PAIRS = ["en_de", "de_en", "en_fr", "fr_en", "en_ro", "ro_en"]
TABLE_CARDS = ["fin_qa", "qtsumm", "scigen", "wikitq", "tablebench"]
TABLE_LAYOUTS = ["markdown", "csv", "json", "indexed_rows"]
VISION = {"doc_vqa": "cards.doc_vqa.lmms_eval", "info_vqa": "cards.info_vqa_lmms_eval",
          "chart_qa": "cards.chart_qa_lmms_eval", "ai2d": "cards.ai2d"}


def _recipe(card, **settings):
    """A subset: the card with its first template (the cards' own choice), plus recipe settings."""
    return DatasetRecipe(card=card, template_card_index=0, **settings)


def _group(subsets):
    return Benchmark(subsets=subsets)


def _bluebench():
    return Benchmark(
        subsets={
            "knowledge": _group({f"mmlu_pro_{s}": _recipe(f"cards.mmlu_pro.{s}") for s in MMLU_PRO}),
            "reasoning": _group({"hellaswag": _recipe("cards.hellaswag"), "openbook_qa": _recipe("cards.openbook_qa")}),
            "entity_extraction": _group({"universal_ner_en_ewt": _recipe("cards.universal_ner.en.ewt")}),
            "news_classification": _group({"20_newsgroups": _recipe("cards.20_newsgroups")}),
            "qa_finance": _group({"fin_qa": _recipe("cards.fin_qa")}),
            "summarization": _group({"billsum": _recipe("cards.billsum"), "tldr": _recipe("cards.tldr")}),
            "translation": _group({f"wmt_{pair}": _recipe(f"cards.wmt.{pair}") for pair in WMT_PAIRS}),
            "chatbot_abilities": _group({
                "arena_hard_generation_english": _recipe("cards.arena_hard.generation.english")}),
        },
        __description__="BlueBench: an enterprise-oriented benchmark grouping capabilities — knowledge (MMLU-Pro), "
                        "reasoning, entity extraction, news classification, financial QA over tables, "
                        "summarization, translation and chatbot abilities — each subset scored by its own metric and "
                        "averaged per group and overall. Built from the cards this catalog has (its bias, legal, "
                        "product-help, RAG and safety groups are not included yet; WMT stands for translation).",
        __tags__={"kind": "benchmark", "language": "en", "modality": "text"},
    )


def _tables_benchmark():
    from unitxt.serializers import TableSerializer

    return Benchmark(
        subsets={card: _group({layout: _recipe(f"cards.{card}", serializer=TableSerializer(layout=layout))
                               for layout in TABLE_LAYOUTS}) for card in TABLE_CARDS},
        __description__="Tables benchmark: table question answering (FinQA, WikiTQ, TableBench), query-focused table "
                        "summarization (QTSumm) and table-to-text (SciGen), each with the table written in four "
                        "layouts (markdown, csv, json records, indexed rows) to measure robustness to serialization.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "table"},
    )


def _vision(description):
    return Benchmark(
        subsets={name: _recipe(card) for name, card in VISION.items()},
        __description__=description,
        __tags__={"kind": "benchmark", "language": "en", "modality": "image"},
    )


def register_documented(add):
    add("benchmarks.bluebench", _bluebench())
    add("benchmarks.tables_benchmark", _tables_benchmark())
    add("benchmarks.vision", _vision(
        "Vision benchmark: document VQA, infographic VQA, chart QA (ANLS) and science-diagram multiple choice (AI2D), "
        "as packaged for lmms-eval. Use a chat format (format=formats.chat_api) for multimodal models."))
    add("benchmarks.llama_vision", _vision(
        "The vision benchmark used to report Llama 3.2 Vision results: DocVQA, InfographicVQA, ChartQA and AI2D "
        "(the same subsets as benchmarks.vision)."))
