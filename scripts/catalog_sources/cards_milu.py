"""Catalog: MILU (ai4bharat/MILU), Indic multi-domain exam questions, one card per language x domain (11 x 8).

Facts from the dataset page: one data folder per language (`English`, `Hindi`, ...) with splits `validation` (the
demos split) and `test`; rows hold `question`, `option1`..`option4`, `target` (the right option's field name,
"option1".."option4"), `language`, `domain` and `subject`.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import FilterByCondition, ListFieldValues, MapInstanceValues, Rename, Set
from unitxt.operators.streams import Deduplicate
from unitxt.splitters import RenameSplits

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

LANGUAGES = {"Bengali": "bn", "English": "en", "Gujarati": "gu", "Hindi": "hi", "Kannada": "kn", "Malayalam": "ml",
             "Marathi": "mr", "Odia": "or", "Punjabi": "pa", "Tamil": "ta", "Telugu": "te"}
DOMAINS = ["Arts & Humanities", "Business Studies", "Engineering & Tech", "Environmental Sciences",
           "Health & Medicine", "Law & Governance", "Science", "Social Sciences"]


def milu_card(language: str, domain: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="ai4bharat/MILU", data_dir=language, splits=["validation", "test"]),
        preprocess_steps=[
            FilterByCondition(values={"domain": domain}, condition="eq"),
            Deduplicate(by=["question", "subject", "target"]),
            RenameSplits(mapper={"validation": "train"}),
            Rename(field_to_field={"target": "answer"}),
            MapInstanceValues(mappers={"answer": {f"option{number}": number - 1 for number in range(1, 5)}}),
            ListFieldValues(fields=["option1", "option2", "option3", "option4"], to_field="choices"),
            Set(fields={"topic": domain}),
        ],
        task="tasks.qa.multiple_choice.with_topic",
        templates="templates.qa.multiple_choice.with_topic.all",
        __description__=f"MILU ({language}, domain '{domain}'): four-choice questions from Indian exams across 41 "
                        f"subjects, with India-specific knowledge. Repeated questions are dropped; the validation "
                        f"split is the demos (train) split.",
        __tags__=card_tags("multiple choice question answering", dataset_url=hf_url("ai4bharat/MILU"),
                           paper="https://arxiv.org/abs/2411.02538", language=LANGUAGES[language],
                           benchmark="milu", domain=domain),
    )


def register(add):
    for language in LANGUAGES:
        for domain in DOMAINS:
            add(f"cards.milu.{language}.{domain.replace(' & ', '_and_').replace(' ', '_')}",
                milu_card(language, domain))
