"""Catalog: benchmarks (benchmarks.*).

benchmarks.glue: eight GLUE cards with the Benchmarks guide's templates (override settings in the query, e.g.
benchmarks.glue[format=formats.user_agent,max_samples_per_subset=5]). BlueBench, the tool-calling and vision
benchmarks are in recipes_bluebench.py, TORR in recipes_torr.py.
"""

from unitxt.benchmark import Benchmark
from unitxt.recipe import DatasetRecipe

RELATION = "templates.classification.multi_class.relation.default"
GLUE_TEMPLATES = {
    "cola": "templates.classification.multi_class.instruction",
    "mnli": RELATION,
    "mrpc": RELATION,
    "qnli": RELATION,
    "rte": RELATION,
    "sst2": "templates.classification.multi_class.title",
    "stsb": "templates.regression.two_texts.title",
    "wnli": RELATION,
}


def register(add):
    register_documented(add)
    add("benchmarks.glue", Benchmark(
        subsets={name: DatasetRecipe(card=f"cards.{name}", template=template) for name, template in GLUE_TEMPLATES.items()},
        __description__="GLUE (General Language Understanding Evaluation): eight English sentence and sentence-pair "
                        "tasks; the score is the mean of the subsets' main scores.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "text",
                  "urls": {"paper": "https://arxiv.org/abs/1804.07461"}},
    ))


# ---------------------------------------------------------------- benchmarks the documentation names
TABLE_CARDS = ["fin_qa", "qtsumm", "scigen", "wikitq", "tablebench"]
TABLE_LAYOUTS = ["markdown", "csv", "json", "indexed_rows"]
VISION = {"doc_vqa": "cards.doc_vqa.lmms_eval", "info_vqa": "cards.info_vqa_lmms_eval",
          "chart_qa": "cards.chart_qa_lmms_eval", "ai2d": "cards.ai2d"}


def _recipe(card, **settings):
    """A subset: the card with its first template (the cards' own choice), plus recipe settings."""
    return DatasetRecipe(card=card, template_card_index=0, **settings)


def _group(subsets):
    return Benchmark(subsets=subsets)


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
    add("benchmarks.tables_benchmark", _tables_benchmark())
    add("benchmarks.vision", _vision(
        "Vision benchmark: document VQA, infographic VQA, chart QA (ANLS) and science-diagram multiple choice (AI2D), "
        "as packaged for lmms-eval. Use a chat format (format=formats.chat_api) for multimodal models."))
