"""Catalog: RAG response generation over the RAGBench subsets (cards.rag.response_generation.ragbench.<subset>),
generated from the subset table of cards_multilingual_small.py.

Facts from the dataset page (rungalileo/ragbench): one config per source dataset, train / validation / test, rows with
`question`, `documents` (the retrieved texts) and `response` (the reference answer). The documents are the contexts
(their texts also serve as their ids); the response is the one reference answer.
"""

from _shared import card_tags, hf_url
from cards_multilingual_small import RAGBENCH_SUBSETS
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, Wrap

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors


def ragbench_response_card(subset: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="rungalileo/ragbench", name=subset),
        preprocess_steps=[
            Copy(field_to_field={"documents": "contexts"}),
            Copy(field_to_field={"documents": "contexts_ids"}),
            Wrap(field="response", inside="list", to_field="reference_answers"),
        ],
        task="tasks.rag.response_generation",
        templates={"default": "templates.rag.response_generation.please_respond_chat"},
        __description__=f"RAGBench ({subset}) for RAG response generation: answer the question from the retrieved "
                        f"documents; the dataset's response is the reference answer. Published train / validation / "
                        f"test splits.",
        __tags__=card_tags("RAG response generation", dataset_url=hf_url("rungalileo/ragbench"),
                           paper="https://arxiv.org/abs/2407.11005", benchmark="ragbench", subset=subset),
    )


def register(add):
    for subset in RAGBENCH_SUBSETS:
        add(f"cards.rag.response_generation.ragbench.{subset}", ragbench_response_card(subset))
