"""Catalog: cards.doc_vqa.en and .fr, visual question answering over document images (the multimodal card of the
documentation's multimodality tutorial and of lm-evaluation-harness's `doc_vqa` task)."""

from unitxt.card import TaskCard
from unitxt.collections_operators import Explode, Wrap
from unitxt.operators.images import ToImage
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, Set, Shuffle


def register(add):
    add("cards.doc_vqa.en", TaskCard(
        loader=LoadHF(path="cmarkea/doc-vqa", data_classification_policy=["public"]),
        preprocess_steps=[
            Shuffle(), "splitters.small_no_dev",
            Explode(field="qa/en", to_field="pair"),
            Copy(field="pair/question", to_field="question"),
            Copy(field="pair/answer", to_field="answers"),
            Wrap(field="answers", inside="list"),
            ToImage(field="image", to_field="context"),
            Set(fields={"context_type": "image"}),
        ],
        task="tasks.qa.with_context.abstractive[metrics=[metrics.anls]]",
        templates="templates.qa.with_context.all",
        __description__="DocVQA-style questions on images of document pages (cmarkea/doc-vqa), English question-"
                        "answer pairs: one instance per pair, the page image as the context (an Image value the "
                        "templates move to the row's media). The published train and test splits, shuffled; "
                        "validation is carved from train (splitters.small_no_dev). Scored with ANLS.",
        __tags__={"task": "visual question answering", "language": "en", "modality": "image",
                  "urls": {"dataset": "https://huggingface.co/datasets/cmarkea/doc-vqa"}},
    ))
    add("cards.doc_vqa.fr", TaskCard(
        loader=LoadHF(path="cmarkea/doc-vqa", data_classification_policy=["public"]),
        preprocess_steps=[
            Shuffle(), "splitters.small_no_dev",
            Explode(field="qa/fr", to_field="pair"),
            Copy(field="pair/question", to_field="question"),
            Copy(field="pair/answer", to_field="answers"),
            Wrap(field="answers", inside="list"),
            ToImage(field="image", to_field="context"),
            Set(fields={"context_type": "image"}),
        ],
        task="tasks.qa.with_context.abstractive[metrics=[metrics.anls]]",
        templates=["templates.qa.with_context.doc_vqa", "templates.qa.with_context", "templates.qa.extractive",
                   "templates.qa.with_context.simple", "templates.qa.with_context.simple2",
                   "templates.qa.with_context.with_type", "templates.qa.with_context.question_first",
                   "templates.qa.with_context.ffqa", "templates.qa.with_context.title",
                   "templates.qa.with_context.lmms_eval"],
        __description__="DocVQA-style questions on images of document pages (cmarkea/doc-vqa), French question-"
                        "answer pairs: one instance per pair, the page image as the context. The published train and "
                        "test splits, shuffled; validation is carved from train (splitters.small_no_dev). Scored "
                        "with ANLS.",
        __tags__={"task": "visual question answering", "language": "fr", "modality": "image",
                  "urls": {"dataset": "https://huggingface.co/datasets/cmarkea/doc-vqa"}},
    ))


