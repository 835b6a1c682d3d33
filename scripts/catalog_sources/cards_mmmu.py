"""Catalog: MMMU (MMMU/MMMU), college-level multimodal multiple-choice questions, one card per subject (30).

Facts from the dataset page: one config per subject (`Art`, `Art_Theory`, `Basic_Medical_Science`, ...) with splits
dev (5 questions, the demos split), validation (the labelled evaluation split; the test split's answers are hidden)
and test; rows hold `question` and `options` (a Python-literal list) that refer to images as `<image 1>`..`<image 7>`,
the images `image_1`..`image_7` (absent ones empty), `answer` (a letter A-E, or "?" when hidden) and `subfield`.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import ListFieldValues, Rename
from unitxt.operators.field_edits import Filter, Lower, MapReplace, MapValues
from unitxt.processors import LiteralEval
from unitxt.splitters import RenameSplits

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

SUBJECTS = (
    "accounting agriculture architecture_and_engineering art art_theory basic_medical_science biology chemistry "
    "clinical_medicine computer_science design diagnostics_and_laboratory_medicine economics electronics "
    "energy_and_power finance geography history literature manage marketing materials math mechanical_engineering "
    "music pharmacy physics psychology public_health sociology"
).split()
IMAGES = 7


def config_name(subject: str) -> str:
    """The Hub config of a subject: its words capitalised, `and` kept in lower case."""
    return "_".join(word if word == "and" else word.capitalize() for word in subject.split("_"))


def mmmu_card(subject: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="MMMU/MMMU", name=config_name(subject), splits=["dev", "validation"],
                      data_classification_policy=["public"]),
        preprocess_steps=[
            RenameSplits(mapper={"dev": "train", "validation": "test"}),
            ListFieldValues(fields=[f"image_{index}" for index in range(1, IMAGES + 1)], to_field="media/images"),
            Filter(field="media/images", values=[None]),
            Rename(field_to_field={"options": "choices"}),
            MapReplace(field_to_field={"question": "question", "choices": "choices"},
                       mapping={f"<image {index}>": f'<img src="media/images/{index - 1}">'
                                for index in range(1, IMAGES + 1)}),
            LiteralEval(field="choices"),
            Lower(field="subfield", to_field="topic"),
            MapValues(field="answer", mapping={**{letter: index for index, letter in enumerate("ABCDE")}, "?": None}),
        ],
        task="tasks.qa.multiple_choice.with_topic",
        templates="templates.qa.multiple_choice.with_topic.all",
        __description__=f"MMMU, subject '{subject.replace('_', ' ')}': college exam questions over images (charts, "
                        f"diagrams, photos...), multiple choice; image references in the text point at the "
                        f"instance's media. The dev split is the demos (train) split and the validation split the "
                        f"test split (the published test answers are hidden). The topic is the subfield.",
        __tags__=card_tags("multimodal multiple choice question answering", dataset_url=hf_url("MMMU/MMMU"),
                           paper="https://arxiv.org/abs/2311.16502", modality="image", benchmark="mmmu",
                           subject=subject),
    )


def register(add):
    for subject in SUBJECTS:
        add(f"cards.mmmu.{subject}", mmmu_card(subject))
