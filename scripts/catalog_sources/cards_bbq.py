"""Catalog: BBQ, the Bias Benchmark for QA (cards.safety.bbq.<category>), one card per social category (11).

Facts from the dataset page (heegyu/bbq): the Parquet conversion has one folder per category (`Age`,
`Disability_status`, ...) with one split (test); rows hold `context`, `question`, the three answers `ans0`..`ans2`
and `label` (the index of the right one), with the category and the ambiguous / disambiguated condition.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import ListFieldValues, Rename, Set

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

CATEGORIES = ["Age", "Disability_status", "Gender_identity", "Nationality", "Physical_appearance", "Race_ethnicity",
              "Race_x_SES", "Race_x_gender", "Religion", "SES", "Sexual_orientation"]


def bbq_card(category: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="heegyu/bbq", revision="refs/convert/parquet", data_dir=category, splits=["test"],
                      data_classification_policy=["public"]),
        preprocess_steps=[
            ListFieldValues(fields=["ans0", "ans1", "ans2"], to_field="choices"),
            Rename(field_to_field={"label": "answer"}),
            Set(fields={"context_type": "description"}),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates="templates.qa.multiple_choice.with_context.all",
        __description__=f"BBQ ({category.replace('_', ' ')}): three-choice questions over short descriptions of "
                        f"people, probing social bias - with ambiguous contexts the right answer is 'unknown'. "
                        f"One split (test).",
        __tags__=card_tags("multiple choice question answering (bias)", dataset_url=hf_url("heegyu/bbq"),
                           paper="https://arxiv.org/abs/2110.08193", benchmark="bbq", category=category),
    )


def register(add):
    for category in CATEGORIES:
        add(f"cards.safety.bbq.{category}", bbq_card(category))
