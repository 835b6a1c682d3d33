"""Catalog: Global-MMLU (42 languages x 57 MMLU subjects) and Global-MMLU-Lite (14 of its languages x culturally
sensitive / agnostic halves), generated from the tables of languages and subjects below.

Facts from the datasets' pages: CohereForAI/Global-MMLU has one config per language with splits `dev` (5 questions per
subject, used as the demos split) and `test`; rows hold `subject` (an MMLU subject id), `question`, `option_a`..`option_d`,
`answer` (a letter A-D) and `cultural_sensitivity_label` (CS / CA). CohereForAI/Global-MMLU-Lite has the same columns;
its cards divide the test split at random in the ratio 10:100 between demos (train) and test, as the original's
weights `test[10%]` and `test[100%]` of one source do.
"""

from _shared import card_tags, hf_url
from cards_multiple_choice import MMLU_SUBJECTS
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import ListFieldValues, MapInstanceValues, Rename, Set
from unitxt.operators.streams import Deduplicate
from unitxt.splitters import RenameSplits, SplitRandomMix

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

GLOBAL_MMLU_LANGUAGES = [
    "am", "ar", "bn", "cs", "de", "el", "en", "es", "fa", "fil", "fr", "ha", "he", "hi", "id", "ig", "it", "ja", "ko",
    "ky", "lt", "mg", "ms", "ne", "nl", "ny", "pl", "pt", "ro", "ru", "si", "sn", "so", "sr", "sv", "sw", "te", "tr",
    "uk", "vi", "yo", "zh",
]
LITE_LANGUAGES = ["ar", "bn", "de", "es", "fr", "hi", "id", "it", "ja", "ko", "pt", "sw", "yo", "zh"]
SENSITIVITY = {"ca": ("CA", "culturally agnostic"), "cs": ("CS", "culturally sensitive")}
TASK = "tasks.qa.multiple_choice.with_topic"
TEMPLATES = "templates.qa.multiple_choice.with_topic.all"
PAPER = "https://arxiv.org/abs/2412.03304"


def _choices_steps():
    """The A-D answer letter becomes the option index; the four options become `choices`."""
    return [
        MapInstanceValues(mappers={"answer": {letter: index for index, letter in enumerate("ABCD")}}),
        ListFieldValues(fields=["option_a", "option_b", "option_c", "option_d"], to_field="choices"),
    ]


def global_mmlu_card(language: str, subject: str) -> TaskCard:
    readable = subject.replace("_", " ")
    return TaskCard(
        loader=LoadHF(path="CohereForAI/Global-MMLU", name=language,
                      filtering_lambda=f"lambda x: x['subject'] == '{subject}'"),
        preprocess_steps=[
            Deduplicate(by=["question", "subject", "answer"]),
            RenameSplits(mapper={"dev": "train"}),
            *_choices_steps(),
            Set(fields={"topic": readable}),
        ],
        task=TASK,
        templates=TEMPLATES,
        __description__=f"Global-MMLU ({language}), subject '{readable}': MMLU's four-choice exam questions translated "
                        f"(machine translation, post-edited by people for many languages), with cultural-sensitivity "
                        f"labels. Repeated questions are dropped; the dev split is the demos (train) split.",
        __tags__=card_tags("multiple choice question answering", dataset_url=hf_url("CohereForAI/Global-MMLU"),
                           paper=PAPER, language=language, benchmark="global_mmlu", subject=subject),
    )


def global_mmlu_lite_card(language: str, sensitivity: str) -> TaskCard:
    label, meaning = SENSITIVITY[sensitivity]
    return TaskCard(
        loader=LoadHF(path="CohereForAI/Global-MMLU-Lite", name=language,
                      filtering_lambda=f"lambda x: x['cultural_sensitivity_label'] == '{label}'"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "test[9.0909%]", "test": "test[90.9091%]"}),  # weights 10:100
            Deduplicate(by=["question", "subject", "answer"]),
            *_choices_steps(),
            Rename(field_to_field={"subject": "topic"}),
            MapInstanceValues(mappers={"topic": {subject: subject.replace("_", " ") for subject in MMLU_SUBJECTS}}),
        ],
        task=TASK,
        templates=TEMPLATES,
        __description__=f"Global-MMLU-Lite ({language}), the {meaning} questions ({label}): a balanced, human-"
                        f"translated subset of Global-MMLU. The test questions are divided at random (seeded) in the "
                        f"ratio 10:100 between the demos (train) split and the test split. The topic is the question's MMLU subject.",
        __tags__=card_tags("multiple choice question answering", dataset_url=hf_url("CohereForAI/Global-MMLU-Lite"),
                           paper=PAPER, language=language, benchmark="global_mmlu_lite", subset=label),
    )


def register(add):
    for language in GLOBAL_MMLU_LANGUAGES:
        for subject in MMLU_SUBJECTS:
            add(f"cards.global_mmlu.{language}.{subject}", global_mmlu_card(language, subject))
    for sensitivity in SENSITIVITY:
        for language in LITE_LANGUAGES:
            add(f"cards.global_mmlu_lite_{sensitivity}.{language}", global_mmlu_lite_card(language, sensitivity))
