"""Catalog: XL-Sum (GEM/xlsum), BBC article summarisation, one card per language (45).

Facts from the dataset page: the Parquet conversion has one folder per language (`amharic`, `english`, ...) with
splits train / validation / test; rows hold `gem_id`, `url`, `title`, `text` (the article) and `target` (its summary).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Rename, Wrap

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

LANGUAGES = (
    "amharic arabic azerbaijani bengali burmese chinese_simplified chinese_traditional english french gujarati hausa "
    "hindi igbo indonesian japanese kirundi korean kyrgyz marathi nepali oromo pashto persian pidgin portuguese "
    "punjabi russian scottish_gaelic serbian_cyrillic serbian_latin sinhala somali spanish swahili tamil telugu thai "
    "tigrinya turkish ukrainian urdu uzbek vietnamese welsh yoruba"
).split()


def xlsum_card(language: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="GEM/xlsum", revision="refs/convert/parquet", data_dir=language,
                      splits=["test", "train", "validation"]),
        preprocess_steps=[
            Rename(field_to_field={"text": "document"}),
            Wrap(field="target", inside="list", to_field="summaries"),
        ],
        task="tasks.summarization.abstractive",
        templates="templates.summarization.abstractive.all",
        __description__=f"XL-Sum ({language.replace('_', ' ')}): BBC news articles with their professionally "
                        f"written one-sentence summaries. Published train / validation / test splits.",
        __tags__=card_tags("summarization", dataset_url=hf_url("GEM/xlsum"),
                           paper="https://aclanthology.org/2021.findings-acl.413", language=language,
                           benchmark="xlsum"),
    )


def register(add):
    for language in LANGUAGES:
        add(f"cards.xlsum.{language}", xlsum_card(language))
