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
