"""Catalog: MASSIVE (AmazonScience/massive) intent classification, one card per locale (51) plus `all` and `all_1.1`.

Facts from the dataset page: the Parquet conversion has one folder per locale (`af-ZA`, ...) and `all` / `all_1.1`,
each with train / validation / test; rows hold `utt` (the utterance) and `intent`, a class label whose names are, in
order, INTENTS below.
"""

from _shared import card_tags, hf_url, index_to_label
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Rename, Set

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

INTENTS = (
    "datetime_query iot_hue_lightchange transport_ticket takeaway_query qa_stock general_greet recommendation_events "
    "music_dislikeness iot_wemo_off cooking_recipe qa_currency transport_traffic general_quirky weather_query "
    "audio_volume_up email_addcontact takeaway_order email_querycontact iot_hue_lightup recommendation_locations "
    "play_audiobook lists_createoradd news_query alarm_query iot_wemo_on general_joke qa_definition social_query "
    "music_settings audio_volume_other calendar_remove iot_hue_lightdim calendar_query email_sendemail iot_cleaning "
    "audio_volume_down play_radio cooking_query datetime_convert qa_maths iot_hue_lightoff iot_hue_lighton "
    "transport_query music_likeness email_query play_music audio_volume_mute social_post alarm_set qa_factoid "
    "calendar_set play_game alarm_remove lists_remove transport_taxi recommendation_movies iot_coffee music_query "
    "play_podcasts lists_query"
).split()
LOCALES = (
    "af-ZA am-ET ar-SA az-AZ bn-BD ca-ES cy-GB da-DK de-DE el-GR en-US es-ES fa-IR fi-FI fr-FR he-IL hi-IN hu-HU "
    "hy-AM id-ID is-IS it-IT ja-JP jv-ID ka-GE km-KH kn-IN ko-KR lv-LV ml-IN mn-MN ms-MY my-MM nb-NO nl-NL pl-PL "
    "pt-PT ro-RO ru-RU sl-SL sq-AL sv-SE sw-KE ta-IN te-IN th-TH tl-PH tr-TR ur-PK vi-VN zh-CN zh-TW"
).split()


def massive_card(folder: str) -> TaskCard:
    which = "every locale" if folder.startswith("all") else f"locale {folder}"
    return TaskCard(
        loader=LoadHF(path="AmazonScience/massive", revision="refs/convert/parquet", data_dir=folder,
                      splits=["train", "test", "validation"]),
        preprocess_steps=[
            index_to_label("intent", INTENTS),
            Rename(field_to_field={"utt": "text", "intent": "label"}),
            Set(fields={"classes": list(INTENTS), "text_type": "sentence", "type_of_class": "intent"}),
        ],
        task="tasks.classification.multi_class",
        templates="templates.classification.multi_class.all",
        __description__=f"MASSIVE ({which}): virtual-assistant utterances labelled with one of 60 intents, "
                        f"localised into 51 languages. Published train / validation / test splits.",
        __tags__=card_tags("intent classification", dataset_url=hf_url("AmazonScience/massive"),
                           paper="https://arxiv.org/abs/2204.08582",
                           language=folder.split("-")[0] if "-" in folder else "multilingual",
                           benchmark="amazon_mass", locale=folder),
    )


def register(add):
    for folder in [*LOCALES, "all", "all_1.1"]:
        add(f"cards.amazon_mass.{folder.replace('-', '_')}", massive_card(folder))
