"""Catalog: multiple-choice cards (MMLU per subject, MMLU-Pro per category, CommonsenseQA, ARC, HellaSwag, PIQA,
OpenBookQA, SciQ, Social IQa, RACE, WinoGrande).

`answer` is always the index of the right choice. Datasets whose test split has no gold answers (HellaSwag, PIQA,
WinoGrande) are tested on their validation split, with validation taken as a seeded 5% of train. Datasets that list
the right answer at a fixed position (SciQ) get their choices shuffled with a seeded, content-derived permutation.
"""

from _factory import make
from _shared import card_tags, hf_url
from unitxt.artifact import ArtifactLink
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Cast, Copy, ExecuteExpression, FilterByCondition, IndexOf, ListFieldValues, Rename, Set
from unitxt.operators.label_spans import ShuffleFieldValues
from unitxt.splitters import RenameSplits, SplitRandomMix

NO_TEST_LABELS_MIX = {"train": "train[95%]", "validation": "train[5%]", "test": "validation"}
OPEN = "tasks.qa.multiple_choice.open"
WITH_CONTEXT = "tasks.qa.multiple_choice.with_context"

MMLU_SUBJECTS = [
    "abstract_algebra", "anatomy", "astronomy", "business_ethics", "clinical_knowledge", "college_biology",
    "college_chemistry", "college_computer_science", "college_mathematics", "college_medicine", "college_physics",
    "computer_security", "conceptual_physics", "econometrics", "electrical_engineering", "elementary_mathematics",
    "formal_logic", "global_facts", "high_school_biology", "high_school_chemistry", "high_school_computer_science",
    "high_school_european_history", "high_school_geography", "high_school_government_and_politics",
    "high_school_macroeconomics", "high_school_mathematics", "high_school_microeconomics", "high_school_physics",
    "high_school_psychology", "high_school_statistics", "high_school_us_history", "high_school_world_history",
    "human_aging", "human_sexuality", "international_law", "jurisprudence", "logical_fallacies", "machine_learning",
    "management", "marketing", "medical_genetics", "miscellaneous", "moral_disputes", "moral_scenarios", "nutrition",
    "philosophy", "prehistory", "professional_accounting", "professional_law", "professional_medicine",
    "professional_psychology", "public_relations", "security_studies", "sociology", "us_foreign_policy", "virology",
    "world_religions",
]


def _tags(repo, paper=None, **extra):
    return card_tags("multiple choice question answering", dataset_url=hf_url(repo), paper=paper, **extra)


def _card(*, loader, steps, task, description, tags):
    templates = {OPEN: "templates.qa.multiple_choice.open.all",
                 WITH_CONTEXT: "templates.qa.multiple_choice.with_context.all",
                 "tasks.qa.multiple_choice.with_topic": "templates.qa.multiple_choice.with_topic.all"}[task]
    return TaskCard(loader=loader, preprocess_steps=steps, task=task, templates=templates,
                    __description__=description, __tags__=tags)


def mmlu_card(subject):
    readable = subject.replace("_", " ")
    return _card(
        loader=LoadHF(path="cais/mmlu", name=subject),
        steps=[
            make("deduplicate", by=["question", "subject", "choices", "answer"]),
            RenameSplits(mapper={"dev": "train"}),
            Set(fields={"topic": readable}),
        ],
        task="tasks.qa.multiple_choice.with_topic",
        description=f"MMLU, subject '{readable}': four-choice exam questions (Hendrycks et al.). The 5-question 'dev' split is "
        "the train (demos) split; validation and test as published.",
        tags=_tags("cais/mmlu", "https://arxiv.org/abs/2009.03300", subject=subject),
    )


def arc_card(config, level):
    return _card(
        loader=LoadHF(path="allenai/ai2_arc", name=config),
        steps=[
            Set(fields={"topic": "science"}),
            Rename(field_to_field={"answerKey": "label", "choices": "_choices"}),
            Copy(field_to_field={"_choices/text": "choices", "_choices/label": "labels"}),
            IndexOf(search_in="labels", index_of="label", to_field="answer"),
        ],
        task="tasks.qa.multiple_choice.with_topic",
        description=f"AI2 Reasoning Challenge ({level} set): grade-school science multiple-choice questions (3-5 choices, "
        "labelled A-E or 1-5 in the data). Published train / validation / test splits.",
        tags=_tags("allenai/ai2_arc", "https://arxiv.org/abs/1803.05457", config=config),
    )


def race_card(config):
    return _card(
        loader=LoadHF(path="ehovy/race", name=config),
        steps=[
            Rename(field_to_field={"article": "context", "options": "choices"}),
            ExecuteExpression(expression="'ABCD'.index(answer)", to_field="answer"),
            Set(fields={"context_type": "article"}),
        ],
        task=WITH_CONTEXT,
        description=f"RACE ({config}): reading comprehension questions from English exams for Chinese middle and high school "
        "students; four choices per question. Published train / validation / test splits.",
        tags=_tags("ehovy/race", "https://arxiv.org/abs/1704.04683", config=config),
    )


def winogrande_card(size):
    return _card(
        loader=LoadHF(path="allenai/winogrande", name=f"winogrande_{size}", revision="refs/pr/6"),
        steps=[
            SplitRandomMix(mix=NO_TEST_LABELS_MIX),
            ListFieldValues(fields=["option1", "option2"], to_field="choices"),
            make("cast_fields", fields={"answer": "int"}),
            make("add_constant", field="answer", add=-1),
            Rename(field_to_field={"sentence": "question"}),
        ],
        task=OPEN,
        description=f"WinoGrande ({'debiased' if size == 'debiased' else size.upper()} training set): fill the blank (_) of a "
        "sentence with the right one of two options (adversarially filtered Winograd schemas). The test split has "
        "no answers, so the validation split is the test split and validation is a seeded 5% of train.",
        tags=_tags("allenai/winogrande", "https://arxiv.org/abs/1907.10641", config=f"winogrande_{size}"),
    )


MMLU_PRO_CATEGORIES = ["biology", "business", "chemistry", "computer science", "economics", "engineering", "health",
                       "history", "law", "math", "other", "philosophy", "physics", "psychology"]


def mmlu_pro_card(category):
    return _card(
        loader=LoadHF(path="TIGER-Lab/MMLU-Pro", filtering_lambda=f"lambda x: x['category'] == '{category}'"),
        steps=[
            make("deduplicate", by=["question", "options", "answer", "category"]),
            RenameSplits(mapper={"validation": "train"}),
            Rename(field_to_field={"options": "choices", "answer_index": "answer"}),
            Set(fields={"topic": category}),
        ],
        task="tasks.qa.multiple_choice.with_topic",
        description=f"MMLU-Pro, category '{category}': harder, reasoning-focused exam questions with up to ten choices "
        "(Wang et al., 2024). The test split is filtered to the category; the 5 validation questions of the "
        "category (with chain-of-thought answers in the data) are the train (demos) split.",
        tags=_tags("TIGER-Lab/MMLU-Pro", "https://arxiv.org/abs/2406.01574", category=category),
    )


def register(add):
    for subject in MMLU_SUBJECTS:
        add(f"cards.mmlu.{subject}", mmlu_card(subject))
    for category in MMLU_PRO_CATEGORIES:
        add(f"cards.mmlu_pro.{category.replace(' ', '_')}", mmlu_pro_card(category))
    add("cards.commonsense_qa", _card(
        loader=LoadHF(path="tau/commonsense_qa"),
        steps=[
            SplitRandomMix(mix=NO_TEST_LABELS_MIX),
            IndexOf(search_in="choices/label", index_of="answerKey", to_field="answer"),
            Copy(field="choices/text", to_field="choices"),
        ],
        task=OPEN,
        description="CommonsenseQA: five-choice questions that need commonsense knowledge about a ConceptNet concept. Test "
        "answers are hidden, so the validation split is the test split and validation is a seeded 5% of train.",
        tags=_tags("tau/commonsense_qa", "https://arxiv.org/abs/1811.00937")))
    add("cards.ai2_arc.arc_easy", arc_card("ARC-Easy", "Easy"))
    add("cards.ai2_arc.arc_challenge", arc_card("ARC-Challenge", "Challenge"))
    for level in ("easy", "challenge"):
        add(f"cards.arc_{level}", ArtifactLink(
            to=f"cards.ai2_arc.arc_{level}", __description__=f"Short name of cards.ai2_arc.arc_{level}.",
            __tags__={"kind": "link"}))
    add("cards.hellaswag", TaskCard(
        loader=LoadHF(path="Rowan/hellaswag"),
        preprocess_steps=[
            "splitters.large_no_test",
            Rename(field_to_field={"ctx": "context", "activity_label": "topic", "endings": "choices"}),
            Rename(field_to_field={"label": "answer"}),
            make("cast_fields", fields={"answer": "int"}),
            Set(fields={"context_type": "sentence"}),
        ],
        task="tasks.completion.multiple_choice",
        templates="templates.completion.multiple_choice.all",
        __description__="HellaSwag: commonsense sentence completion — pick the most plausible of four endings for a "
                        "video caption (ActivityNet) or how-to (WikiHow) context. Test answers are hidden, so "
                        "validation is the test split (validation is 1% of train).",
        __tags__=_tags("Rowan/hellaswag", "https://arxiv.org/abs/1905.07830")))
    add("cards.piqa", _card(
        loader=LoadHF(path="ybisk/piqa", revision="refs/pr/9"),
        steps=[
            ListFieldValues(fields=["sol1", "sol2"], to_field="choices"),
            Rename(field_to_field={"goal": "question", "label": "answer"}),
        ],
        task=OPEN,
        description="PIQA: physical commonsense — choose the better of two solutions to reach a goal. Published "
        "train / validation / test splits (the Parquet revision refs/pr/9 of 'ybisk/piqa'); the test labels are "
        "hidden (-1), kept as given.",
        tags=_tags("ybisk/piqa", "https://arxiv.org/abs/1911.11641")))
    add("cards.openbook_qa", _card(
        loader=LoadHF(path="allenai/openbookqa"),
        steps=[
            Rename(field="question_stem", to_field="question"),
            IndexOf(search_in="choices/label", index_of="answerKey", to_field="answer"),
            Copy(field="choices/text", to_field="choices"),
        ],
        task=OPEN,
        description="OpenBookQA (main config): elementary science questions that need a core science fact plus broad common "
        "knowledge; four choices. Published train / validation / test splits.",
        tags=_tags("allenai/openbookqa", "https://arxiv.org/abs/1809.02789")))
    add("cards.sciq", _card(
        loader=LoadHF(path="allenai/sciq"),
        steps=[
            ListFieldValues(fields=["distractor1", "distractor2", "distractor3", "correct_answer"], to_field="choices"),
            ShuffleFieldValues(field="choices"),  # seeded by the choices, as the original
            IndexOf(search_in="choices", index_of="correct_answer", to_field="answer"),
            Rename(field="support", to_field="context"),
            Set(fields={"context_type": "paragraph"}),
        ],
        task=WITH_CONTEXT,
        description="SciQ: crowd-sourced science exam questions (physics, chemistry, biology) with four choices and a "
        "supporting passage. The right answer is stored apart from the three distractors; the four choices are "
        "shuffled with a seeded, per-question permutation. Published train / validation / test splits.",
        tags=_tags("allenai/sciq", "https://arxiv.org/abs/1707.06209")))
    add("cards.social_iqa", _card(
        loader=LoadHF(path="allenai/social_i_qa", trust_remote_code=True),
        steps=[
            SplitRandomMix(mix=NO_TEST_LABELS_MIX),
            ListFieldValues(fields=["answerA", "answerB", "answerC"], to_field="choices"),
            ExecuteExpression(expression="int(label) - 1", to_field="answer"),
            Set(fields={"context_type": "situation"}),
        ],
        task=WITH_CONTEXT,
        description="Social IQa: commonsense reasoning about people's actions and their social implications; three choices, "
        "label '1'-'3'. The dataset publishes train and validation only: validation is the test split. (The Hub "
        "repo loads through a loading script with datasets < 4.)",
        tags=_tags("allenai/social_i_qa", "https://arxiv.org/abs/1904.09728")))
    for config in ("all", "high", "middle"):
        add(f"cards.race_{config}", race_card(config))
    for size in ("xs", "s", "m", "l", "xl", "debiased"):
        add(f"cards.winogrande.{size}", winogrande_card(size))
