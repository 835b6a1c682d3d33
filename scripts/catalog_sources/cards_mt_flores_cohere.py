"""Catalog: FLORES-101 translation between English and 7 languages (cards.mt.flores_101.*) and the Aya evaluation
suite's open QA subsets per language (cards.cohere_for_ai.*), generated from their language tables.

Facts from the dataset pages: gsarti/flores_101's Parquet conversion holds, for the `all` config, the `dev` sentences
(served as validation) and the `devtest` sentences (folder all/devtest, served as train; used here as test), one column
`sentence_<iso639-3>` per language. CohereForAI/aya_evaluation_suite has configs `aya_human_annotated`,
`dolly_human_edited` and `dolly_machine_translated`, one test split whose rows hold `inputs`, `targets` and `language`
(an ISO 639-3 code); the cards split it into seeded 90% train, 5% validation and 5% test portions.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF, MultipleSourceLoader
from unitxt.operators import Copy, ListFieldValues, Rename, Set
from unitxt.splitters import RenameSplits, SplitRandomMix

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

FLORES_LANGUAGES = {"ara": "arabic", "deu": "german", "fra": "french", "jpn": "japanese", "kor": "korean",
                    "por": "portuguese", "ron": "romanian", "spa": "spanish"}
AYA_SUBSETS = {
    "aya_human_annotated": ["arb", "eng", "por", "tel", "tur", "yor", "zho"],
    "dolly_human_edited": ["fra", "spa"],
    "dolly_machine_translated": ["deu", "eng", "fra", "jpn", "por", "spa"],
}
# the original scores with llama_index's correctness judge on gpt-3.5-turbo (the llama_index package is not a
# dependency); here the catalog's GPT-4o answer-correctness judge
AYA_METRIC = "metrics.rag.answer_correctness.gpt_4o_openai_judge"


def flores_card(source: str, target: str) -> TaskCard:
    names = {"eng": "english", **FLORES_LANGUAGES}
    return TaskCard(
        loader=MultipleSourceLoader(sources=[
            LoadHF(path="gsarti/flores_101", revision="refs/convert/parquet", data_dir="all/devtest",
                   splits=["train"], data_classification_policy=["public"]),
            LoadHF(path="gsarti/flores_101", revision="refs/convert/parquet", data_dir="all",
                   splits=["validation"], data_classification_policy=["public"]),
        ]),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            Copy(field_to_field={f"sentence_{source}": "text", f"sentence_{target}": "translation"}),
            Set(fields={"source_language": names[source], "target_language": names[target]}),
        ],
        task="tasks.translation.directed",
        templates="templates.translation.directed.all",
        __description__=f"FLORES-101, {names[source]} to {names[target]}: sentences from Wikinews, Wikijunior and "
                        f"Wikivoyage translated professionally into 101 languages. The devtest set is the test split "
                        f"and the dev set the validation split.",
        __tags__=card_tags("translation", dataset_url=hf_url("gsarti/flores_101"),
                           paper="https://arxiv.org/abs/2106.03193", language=[source, target],
                           benchmark="flores_101"),
    )


def aya_card(subset: str, language: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="CohereForAI/aya_evaluation_suite", name=subset, streaming=True,
                      filtering_lambda=f"lambda row: row['language'] == '{language}'"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "test[90%]", "validation": "test[5%]", "test": "test[5%]"}),
            Rename(field_to_field={"inputs": "question"}),
            ListFieldValues(fields=["targets"], to_field="answers"),
        ],
        task=f"tasks.qa.open[metrics=[{AYA_METRIC}]]",
        templates="templates.qa.open.all",
        __description__=f"Aya evaluation suite, {subset.replace('_', ' ')} ({language}): open-ended prompts with "
                        f"reference answers, scored by an LLM judge of answer correctness. The single test split is "
                        f"divided into seeded 90% train, 5% validation and 5% test portions.",
        __tags__=card_tags("open question answering", dataset_url=hf_url("CohereForAI/aya_evaluation_suite"),
                           paper="https://arxiv.org/abs/2402.06619", language=language, benchmark="aya",
                           subset=subset),
    )


def register(add):
    for code in FLORES_LANGUAGES:
        add(f"cards.mt.flores_101.eng_{code}", flores_card("eng", code))
        add(f"cards.mt.flores_101.{code}_eng", flores_card(code, "eng"))
    for subset, languages in AYA_SUBSETS.items():
        for language in languages:
            add(f"cards.cohere_for_ai.{subset}.{language}", aya_card(subset, language))
