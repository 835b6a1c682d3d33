"""Catalog: small multilingual families generated from their language tables - XWinograd (cards.xwinogrande.*),
MLSUM (cards.mlsum.*), HEAD-QA v2 (cards.head_qa.*), multilingual WikiHow QA (cards.almost_evil.*) - and the RAGBench
subsets (cards.ragbench.*), with the task they need (tasks.qa.with_context).

Facts from the dataset pages: Muennighoff/xwinograd has one config per language, one split (test), rows `sentence`,
`option1`, `option2`, `answer` ("1" or "2"). reciTAL/mlsum's Parquet conversion has one folder per language with train /
validation / test and rows `text`, `summary`, `topic`, `url`, `title`, `date`. alesi12/head_qa_v2 has one config per
language with one split (train, used as test) and rows with `qtext` and `category` (one of HEAD_QA_CATEGORIES).
0x22almostEvil/multilingual-wikihow-qa-16k has one split (train) with `INSTRUCTION`, `RESPONSE`, `SOURCE` and `METADATA`
(a JSON string whose `language` names the language). rungalileo/ragbench has one config per source dataset with
train / validation / test and rows `question`, `documents` (a list of texts) and `response`.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import (CastFields, Copy, ExecuteExpression, FilterByCondition, ListFieldValues, LoadJson,
                              RemoveFields, Rename, Set, Wrap)
from unitxt.operators.field_edits import AddConstant
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.task import Task

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

XWINOGRAD_LANGUAGES = ["en", "jp", "pt", "ru", "zh"]
MLSUM_LANGUAGES = ["de", "es", "fr", "ru", "tu"]
HEAD_QA_LANGUAGES = ["en", "es", "gl", "it", "ru"]
HEAD_QA_CATEGORIES = ["biology", "chemistry", "medicine", "nursery", "pharmacology", "psychology"]
WIKIHOW_LANGUAGES = ["de", "en", "es", "fr", "it", "nl", "pt", "ru"]
WIKIHOW = "0x22almostEvil/multilingual-wikihow-qa-16k"
RAGBENCH_SUBSETS = ["covidqa", "cuad", "delucionqa", "emanual", "expertqa", "finqa", "hagrid", "hotpotqa", "msmarco",
                    "pubmedqa", "tatqa", "techqa"]
THREE_WAY = {"train": "train[90%]", "validation": "train[5%]", "test": "train[5%]"}


def xwinograd_card(language: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="Muennighoff/xwinograd", name=language),
        preprocess_steps=[
            ListFieldValues(fields=["option1", "option2"], to_field="choices"),
            CastFields(fields={"answer": "int"}),
            AddConstant(field="answer", add=-1),
            Rename(field_to_field={"sentence": "question"}),
        ],
        task="tasks.qa.multiple_choice.open",
        templates="templates.qa.multiple_choice.open.all",
        __description__=f"XWinograd ({language}): Winograd schemas in six languages - pick which of two options "
                        f"fills the blank (_) of the sentence. One split (test).",
        __tags__=card_tags("multiple choice question answering", dataset_url=hf_url("Muennighoff/xwinograd"),
                           paper="https://arxiv.org/abs/2211.01786", language=language, benchmark="xwinograd"),
    )


def mlsum_card(language: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="reciTAL/mlsum", revision="refs/convert/parquet", data_dir=language,
                      splits=["train", "test", "validation"]),
        preprocess_steps=[
            Rename(field_to_field={"text": "document"}),
            Wrap(field="summary", inside="list", to_field="summaries"),
        ],
        task="tasks.summarization.abstractive",
        templates="templates.summarization.abstractive.all",
        __description__=f"MLSUM ({language}): newspaper articles with their highlights as summaries. Published "
                        f"train / validation / test splits.",
        __tags__=card_tags("summarization", dataset_url=hf_url("reciTAL/mlsum"),
                           paper="https://arxiv.org/abs/2004.14900", language=language, benchmark="mlsum"),
    )


def head_qa_card(language: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="alesi12/head_qa_v2", name=language),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            Rename(field_to_field={"qtext": "text", "category": "label"}),
            Set(fields={"classes": list(HEAD_QA_CATEGORIES), "text_type": "question"}),
        ],
        task="tasks.classification.multi_class.topic_classification",
        templates="templates.classification.multi_class.all",
        __description__=f"HEAD-QA v2 ({language}): questions from Spanish healthcare specialisation exams, classified "
                        f"by the exam they come from (biology, chemistry, medicine, nursing, pharmacology, "
                        f"psychology). The one split (train in the data) is the test split.",
        __tags__=card_tags("topic classification", dataset_url=hf_url("alesi12/head_qa_v2"),
                           paper="https://arxiv.org/abs/1906.04701", language=language, benchmark="head_qa"),
    )


def wikihow_card(language=None) -> TaskCard:
    keep = [] if language is None else [
        LoadJson(field="METADATA", to_field="metadata"),
        Copy(field="metadata/language", to_field="extracted_language"),
        FilterByCondition(values={"extracted_language": language}, condition="eq"),
        RemoveFields(fields=["extracted_language", "metadata"]),
    ]
    return TaskCard(
        loader=LoadHF(path=WIKIHOW),
        preprocess_steps=[
            *keep,
            SplitRandomMix(mix=dict(THREE_WAY)),
            Rename(field_to_field={"INSTRUCTION": "question"}),
            ListFieldValues(fields=["RESPONSE"], to_field="answers"),
        ],
        task="tasks.qa.open",
        templates="templates.qa.open.all",
        __description__=f"Multilingual WikiHow QA ({language or 'every language'}): how-to questions answered by "
                        f"WikiHow articles. The one split is divided into seeded 90% train, 5% validation and 5% test.",
        __tags__=card_tags("open question answering", dataset_url=hf_url(WIKIHOW),
                           language=language or "multilingual", benchmark="almost_evil"),
    )


def ragbench_card(subset: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="rungalileo/ragbench", name=subset),
        preprocess_steps=[
            Set(fields={"context_type": "documents"}),
            ExecuteExpression(expression="[{'title': 'Document', 'body': text} for text in documents]",
                              to_field="context"),
            Wrap(field="response", inside="list", to_field="answers"),
        ],
        task="tasks.qa.with_context",
        templates="templates.qa.with_context.all",
        __description__=f"RAGBench ({subset}): questions answered from retrieved documents, with the reference "
                        f"response; the documents become the context (each titled 'Document'). Published train / "
                        f"validation / test splits.",
        __tags__=card_tags("question answering with context", dataset_url=hf_url("rungalileo/ragbench"),
                           paper="https://arxiv.org/abs/2407.11005", benchmark="ragbench", subset=subset),
    )


QA_WITH_CONTEXT = Task(
    input_fields={"context": "Union[Text, Image, Audio, Table, Dialog, Document, MultiDocument]",
                  "context_type": "str", "question": "str"},
    reference_fields={"answers": "List[str]"},
    prediction_type="str",
    metrics=["metrics.rouge"],
    augmentable_inputs=["context", "question"],
    defaults={"answers": []},
    default_template="templates.qa.with_context.default",
    __description__="Answer a question from the given context - a text, image, audio, table, dialog, document or "
                    "list of documents; any of the reference answers is correct (none given: reference-free "
                    "metrics only).",
    __tags__={"modality": "text", "task": "question answering"},
)


def register(add):
    add("tasks.qa.with_context", QA_WITH_CONTEXT)
    for language in XWINOGRAD_LANGUAGES:
        add(f"cards.xwinogrande.{language}", xwinograd_card(language))
    for language in MLSUM_LANGUAGES:
        add(f"cards.mlsum.{language}", mlsum_card(language))
    for language in HEAD_QA_LANGUAGES:
        add(f"cards.head_qa.{language}", head_qa_card(language))
    add("cards.almost_evil", wikihow_card())
    for language in WIKIHOW_LANGUAGES:
        add(f"cards.almost_evil.{language}", wikihow_card(language))
    for subset in RAGBENCH_SUBSETS:
        add(f"cards.ragbench.{subset}", ragbench_card(subset))
