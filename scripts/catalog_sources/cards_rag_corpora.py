"""Catalog: the document corpora of the original's RAG benchmarks (cards.rag.documents.<dataset>.en and
cards.rag.mtrag.documents.<domain>), as tasks.rag.corpora instances: a document id, a title and the passages.

Facts from the dataset pages: enelpol/rag-mini-bioasq (config text-corpus, split test: passage, id - an int);
PrimeQA/clapnq_passages (train: id, text, title); hotpotqa/hotpot_qa (parquet conversion, train / validation / test:
id, question, answer, type, level, supporting_facts, context {title: [...], sentences: [[...]]}); rag-datasets/
rag-mini-wikipedia (config text-corpus, split passages: passage, id); ibm-research/watsonxDocsQA (config corpus,
train: doc_id, title, document, url); IBM/mt-rag-benchmark on GitHub (corpora/document_level/<domain>.jsonl.zip:
ClapNQ and FiQA lines carry _id, title, text; Cloud lines document_id, text, url and no title; Govt lines
document_id, title - sometimes not a string -, text, url).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.collections_operators import Explode, Wrap
from unitxt.loaders import LoadHF, LoadJsonFile
from unitxt.operators import Cast, Copy, Deduplicate, Join, ListFieldValues, Replace, Set, ZipFieldValues
from unitxt.splitters import RenameSplits
from unitxt.templates import InputOutputTemplate

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_more_rows.py)

MTRAG_CORPORA = "https://github.com/IBM/mt-rag-benchmark/raw/refs/heads/main/corpora/document_level"
MTRAG_DOMAINS = {  # domain -> (what, steps making document_id / title)
    "clapnq": ("Wikipedia pages (ClapNQ)", [Cast(field="_id", to="str", to_field="document_id")]),
    "cloud": ("cloud documentation pages", [Set(fields={"title": ""})]),
    "fiqa": ("financial forum posts (FiQA)", [Cast(field="_id", to="str", to_field="document_id")]),
    "govt": ("US government web pages", [Cast(field="title", to="str")]),
}


def corpus_templates():
    """A corpus is indexed, not prompted: one empty template."""
    return {"empty": InputOutputTemplate(input_format="", output_format="")}


def _corpus(loader, steps, about, repo_url) -> TaskCard:
    return TaskCard(
        loader=loader, preprocess_steps=steps, task="tasks.rag.corpora", templates=corpus_templates(),
        __description__=about + " One instance per document: its id, title and passages (for indexing by a "
                                "retriever).",
        __tags__=card_tags("retrieval corpus", dataset_url=repo_url),
    )


def _rag_documents(add):
    add("cards.rag.documents.bioasq.en", _corpus(
        LoadHF(path="enelpol/rag-mini-bioasq", name="text-corpus", data_classification_policy=["public"]),
        [RenameSplits(mapper={"test": "train"}), Cast(field="id", to="str"), Copy(field="id", to_field="document_id"),
         Wrap(field="passage", inside="list", to_field="passages")],
        "Mini BioASQ corpus: biomedical abstracts, each one passage; the one split (test) is named train.",
        hf_url("enelpol/rag-mini-bioasq")))
    add("cards.rag.documents.clap_nq.en", _corpus(
        LoadHF(path="PrimeQA/clapnq_passages", data_classification_policy=["public"]),
        [Copy(field_to_field={"id": "document_id", "title": "title"}),
         ListFieldValues(fields=["text"], to_field="passages")],
        "ClapNQ passages: Wikipedia passages behind ClapNQ's long answers.", hf_url("PrimeQA/clapnq_passages")))
    add("cards.rag.documents.hotpotqa.en", _corpus(
        LoadHF(path="hotpotqa/hotpot_qa", revision="refs/convert/parquet", splits=["train", "test", "validation"],
               data_classification_policy=["public"]),
        [Join(field="context/sentences", by=" ", to_field="context_sentences", process_every_value=True),
         ZipFieldValues(fields=["context/title", "context_sentences"], to_field="documents"),
         Explode(field="documents", to_field="document"),
         Copy(field="document/0", to_field="document_id"), Copy(field="document/0", to_field="title"),
         Replace(field="document/1", old="\u00a0", new=" "),
         Wrap(field="document/1", inside="list", to_field="passages"),
         Deduplicate(by=["document_id"])],
        "HotpotQA context paragraphs: every question's Wikipedia paragraphs (sentences joined, no-break spaces made "
        "plain), one document per page title, deduplicated by title within each split.", hf_url("hotpotqa/hotpot_qa")))
    add("cards.rag.documents.miniwiki.en", _corpus(
        LoadHF(path="rag-datasets/rag-mini-wikipedia", name="text-corpus", data_classification_policy=["public"]),
        [RenameSplits(mapper={"passages": "train"}), Cast(field="id", to="str", to_field="document_id"),
         Wrap(field="passage", inside="list", to_field="passages")],
        "Mini Wikipedia corpus: Wikipedia passages, each one document; the split passages is named train.",
        hf_url("rag-datasets/rag-mini-wikipedia")))
    add("cards.rag.documents.watsonxqa.en", _corpus(
        LoadHF(path="ibm-research/watsonxDocsQA", name="corpus", data_classification_policy=["public"]),
        [Copy(field="doc_id", to_field="document_id"), Wrap(field="document", inside="list", to_field="passages")],
        "watsonx documentation corpus: pages of IBM watsonx documentation with their titles.",
        hf_url("ibm-research/watsonxDocsQA")))


def _mtrag_documents(add):
    for domain, (what, steps) in MTRAG_DOMAINS.items():
        add(f"cards.rag.mtrag.documents.{domain}", _corpus(
            LoadJsonFile(files={"test": f"{MTRAG_CORPORA}/{domain}.jsonl.zip"}, compression="zip", lines=True,
                         data_classification_policy=["public"]),
            [*steps, Wrap(field="text", inside="list", to_field="passages")],
            f"MTRAG document corpus, {domain} domain: {what}, each document one passage (the zipped JSON Lines "
            "file of the benchmark's repository).", "https://github.com/IBM/mt-rag-benchmark"))


def register(add):
    _rag_documents(add)
    _mtrag_documents(add)
