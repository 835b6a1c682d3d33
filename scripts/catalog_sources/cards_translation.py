"""Catalog: translation cards (cards.wmt.en_de, cards.wmt.en_fr, cards.wmt.en_ro, and the reverse directions)."""

from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, Set

LANGUAGES = {"en": "English", "de": "German", "fr": "French", "ro": "Romanian", "cs": "Czech", "fi": "Finnish",
             "ru": "Russian", "tr": "Turkish"}
# card name suffix -> (Hub repo, config, WMT year)
PAIRS = {"de": ("wmt/wmt16", "de-en", 16), "fr": ("wmt/wmt14", "fr-en", 14), "ro": ("wmt/wmt16", "ro-en", 16),
         "cs": ("wmt/wmt16", "cs-en", 16), "fi": ("wmt/wmt16", "fi-en", 16), "ru": ("wmt/wmt16", "ru-en", 16),
         "tr": ("wmt/wmt16", "tr-en", 16)}


# the original's three cards (en_de, en_fr, en_ro) stream their data and name the languages in lower case, German
# as "deutch": its facts, kept so their rows (and prompts) are the original's
ORIGINAL_DIRECTIONS = {"de": "deutch", "fr": "french", "ro": "romanian"}


def translation_card(*, source, target, repo, config, year):
    original = source == "en" and target in ORIGINAL_DIRECTIONS
    names = ("english", ORIGINAL_DIRECTIONS[target]) if original else (LANGUAGES[source], LANGUAGES[target])
    return TaskCard(
        loader=LoadHF(path=repo, name=config, **({"streaming": True} if original else {})),
        preprocess_steps=[
            Copy(field_to_field=[[f"translation/{source}", "text"], [f"translation/{target}", "translation"]]),
            Set(fields={"source_language": names[0], "target_language": names[1]}),
        ],
        task="tasks.translation.directed",
        templates="templates.translation.directed.all",
        __description__=f"WMT{year} news translation, {LANGUAGES[source]} to {LANGUAGES[target]} (Hub dataset "
                        f"{repo}, config {config}): sentence pairs, with the published train / validation / test "
                        "splits (test is the newstest set).",
        __tags__={"task": "translation", "language": [source, target], "modality": "text",
                  "urls": {"dataset": f"https://huggingface.co/datasets/{repo}",
                           "website": f"https://www.statmt.org/wmt{year}/"}},
    )


def register(add):
    for other, (repo, config, year) in PAIRS.items():
        add(f"cards.wmt.en_{other}", translation_card(source="en", target=other, repo=repo, config=config, year=year))
        add(f"cards.wmt.{other}_en", translation_card(source=other, target="en", repo=repo, config=config, year=year))
