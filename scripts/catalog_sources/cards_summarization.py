"""Catalog: summarization cards (cards.xsum, cards.cnn_dailymail, cards.billsum, cards.tldr)."""

from _shared import card_tags
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Rename, Set, Wrap
from unitxt.splitters import SplitRandomMix


def _tags(url, paper=None, **extra):
    return card_tags("summarization", dataset_url=url, paper=paper, **extra)


def _card(*, loader, document, summary, document_type, description, tags, mix=None):
    """A summarization card: the `document` field is summarised, `summary` is the (single) reference summary."""
    steps = [mix] if mix is not None else []
    steps += [
        Rename(field=document, to_field="document"),
        Wrap(field=summary, to_field="summaries"),
        Set(fields={"document_type": document_type}),
    ]
    return TaskCard(loader=loader, preprocess_steps=steps, task="tasks.summarization.abstractive",
                    templates="templates.summarization.abstractive.all", __description__=description,
                    __tags__=tags)


def register(add):
    add("cards.xsum", _card(
        loader=LoadHF(path="EdinburghNLP/xsum", trust_remote_code=True), document="document", summary="summary",
        document_type="document",
        description="XSum: BBC news articles, each with a one-sentence summary (the article's introductory sentence) — extreme "
        "summarization. Splits train / validation / test as published.",
        tags=_tags("https://huggingface.co/datasets/EdinburghNLP/xsum", "https://arxiv.org/abs/1808.08745")))
    add("cards.cnn_dailymail", _card(
        loader=LoadHF(path="abisee/cnn_dailymail", name="3.0.0"), document="article", summary="highlights",
        document_type="article",
        description="CNN / Daily Mail (version 3.0.0, non-anonymized): news articles with their bullet-point highlights "
        "(joined by newlines) as the summary. Splits train / validation / test as published.",
        tags=_tags("https://huggingface.co/datasets/abisee/cnn_dailymail", "https://arxiv.org/abs/1704.04368")))
    add("cards.billsum", _card(
        loader=LoadHF(path="FiscalNote/billsum"), document="text", summary="summary", document_type="document",
        description="BillSum: US Congressional bills with their human-written summaries from the Congressional Research "
        "Service. The published test split is the test split; validation is a seeded 12.5% of train (the California "
        "test split 'ca_test' is not used).",
        tags=_tags("https://huggingface.co/datasets/FiscalNote/billsum", "https://arxiv.org/abs/1910.00523"),
        mix=SplitRandomMix(mix={"train": "train[87.5%]", "validation": "train[12.5%]", "test": "test"})))
    add("cards.tldr", _card(
        loader=LoadHF(path="webis/tldr-17", revision="refs/convert/parquet", splits=["train"],
                      data_classification_policy=["public"], streaming=True),
        document="content", summary="summary", document_type="document",
        description="Webis-TLDR-17: Reddit posts whose authors added a 'TL;DR' line, used as the summary of the post. The "
        "dataset has only a train split (read streaming from its parquet revision): seeded 70% / 15% / 15% train / "
        "validation / test portions of it are used.",
        tags=_tags("https://huggingface.co/datasets/webis/tldr-17"),
        mix=SplitRandomMix(mix={"train": "train[70%]", "validation": "train[15%]", "test": "train[15%]"})))
