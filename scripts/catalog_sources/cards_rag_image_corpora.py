"""Catalog: the page-image corpora of REAL-MM-RAG (cards.rag.documents.real_mm_rag_<set>.en): each distinct page
image once, as tasks.rag.corpora instances whose id is the image's hash and whose passage is the image.

Facts from the dataset pages: ibm-research/REAL-MM-RAG_FinReport / _FinSlides / _TechReport / _TechSlides (config
default, one test split: id, image, image_filename, query, rephrase_level_1..3, answer; a page image repeats for each
of its questions). Not in the compat tier's per-card comparison (its synthetic sources carry no images).
"""

from _shared import card_tags, hf_url
from cards_rag_corpora import corpus_templates
from unitxt.card import TaskCard
from unitxt.collections_operators import Wrap
from unitxt.loaders import LoadHF
from unitxt.operators import Deduplicate, HashImage, ToImage
from unitxt.splitters import RenameSplits

REAL_MM_RAG = {"fin_report": ("FinReport", "financial reports"), "fin_slides": ("FinSlides", "financial slides"),
               "tech_report": ("TechReport", "technical reports"), "tech_slides": ("TechSlides", "technical slides")}


def register(add):
    for key, (name, what) in REAL_MM_RAG.items():
        repo = f"ibm-research/REAL-MM-RAG_{name}"
        add(f"cards.rag.documents.real_mm_rag_{key}.en", TaskCard(
            loader=LoadHF(path=repo, name="default", split="test", data_classification_policy=["public"]),
            preprocess_steps=[RenameSplits(mapper={"test": "train"}), HashImage(field="image", to_field="document_id"),
                              Deduplicate(by=["document_id"]), ToImage(field="image"),
                              Wrap(field="image", inside="list", to_field="passages")],
            task="tasks.rag.corpora", templates=corpus_templates(),
            __description__=f"REAL-MM-RAG {name}: page images of {what}, each distinct page once (id: the image's "
                            "hash), for indexing by a multimodal retriever. The one split (test) is named train.",
            __tags__=card_tags("retrieval corpus", dataset_url=hf_url(repo), modality="image"),
            __title__=f"REAL-MM-RAG: {name}",
        ))
