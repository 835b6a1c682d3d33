"""Catalog: XNLI (facebook/xnli, 15 languages) and Indic BoolQ (sarvamai/boolq-indic, 10 languages, as relation
classification and as two-choice QA), generated from their language tables.

Facts from the dataset pages: XNLI has one config per language with train / validation / test and rows `premise`,
`hypothesis`, `label` (0 entailment, 1 neutral, 2 contradiction). Indic BoolQ has one config (train / validation) whose
rows hold `question`, `passage`, `answer`, `label` and `language` (a code). Both have a small labelled validation split
used as test; 5% of train becomes validation (splitters.small_no_test).
"""

from _shared import card_tags, hf_url, index_to_label
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import CastFields, FilterByCondition, Rename, Set

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

XNLI_LANGUAGES = ["ar", "bg", "de", "el", "en", "es", "fr", "hi", "ru", "sw", "th", "tr", "ur", "vi", "zh"]
NLI_CLASSES = ["entailment", "neutral", "contradiction"]
BOOLQ_INDIC_LANGUAGES = ["bn", "gu", "hi", "kn", "ml", "mr", "or", "pa", "ta", "te"]


def xnli_card(language: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="facebook/xnli", name=language),
        preprocess_steps=[
            "splitters.small_no_test",
            Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
            index_to_label("label", NLI_CLASSES),
            Set(fields={"type_of_relation": "entailment", "text_a_type": "premise", "text_b_type": "hypothesis",
                        "classes": list(NLI_CLASSES)}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__=f"XNLI ({language}): MultiNLI-style premise / hypothesis pairs translated into 15 languages, "
                        f"labelled entailment, neutral or contradiction. The validation split is the test split and "
                        f"5% of train the validation split.",
        __tags__=card_tags("natural language inference", dataset_url=hf_url("facebook/xnli"),
                           paper="https://arxiv.org/abs/1809.05053", language=language, benchmark="xnli"),
    )


def _boolq_indic(language: str, form: str, steps, task: str, templates: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="sarvamai/boolq-indic"),
        preprocess_steps=[
            FilterByCondition(values={"language": language}, condition="eq"),
            "splitters.small_no_test",
            CastFields(fields={"answer": "str"}),
            *steps,
        ],
        task=task,
        templates=templates,
        __description__=f"Indic BoolQ ({language}), as {form}: BoolQ's yes/no questions over Wikipedia passages, "
                        f"translated into 10 Indian languages. The validation split is the test split and 5% of train "
                        f"the validation split.",
        __tags__=card_tags("yes/no question answering", dataset_url=hf_url("sarvamai/boolq-indic"),
                           paper="https://arxiv.org/abs/1905.10044", language=language, benchmark="boolq_indic"),
    )


def register(add):
    for language in XNLI_LANGUAGES:
        add(f"cards.xnli.{language}", xnli_card(language))
    for language in BOOLQ_INDIC_LANGUAGES:
        add(f"cards.boolq_indic.{language}.classification", _boolq_indic(
            language, "relation classification (passage, question -> yes / no)",
            [Set(fields={"text_a_type": "passage", "text_b_type": "question", "classes": ["yes", "no"],
                         "type_of_relation": "answer"}),
             Rename(field_to_field={"passage": "text_a", "question": "text_b", "answer": "label"})],
            "tasks.classification.multi_class.relation", "templates.classification.multi_class.relation.all"))
        add(f"cards.boolq_indic.{language}.multiple_choice", _boolq_indic(
            language, "two-choice question answering over the passage",
            [Set(fields={"context_type": "passage", "choices": ["yes", "no"]}),
             Rename(field_to_field={"passage": "context"})],
            "tasks.qa.multiple_choice.with_context", "templates.qa.multiple_choice.with_context.all"))
