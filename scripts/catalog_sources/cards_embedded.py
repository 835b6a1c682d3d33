"""Catalog: small datasets we author and ship inside the catalog (no download needed): the demo's data."""

import itertools

from unitxt.card import TaskCard
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Set

SUBJECTS = ["The film", "This phone", "The hotel", "Our waiter", "The novel", "This laptop", "The concert",
            "The new app", "The museum tour", "This coffee"]
POSITIVE = ["was a delight from start to finish", "exceeded every expectation we had", "works beautifully",
            "made the whole trip worthwhile", "is the best I have tried in years", "felt warm and welcoming"]
NEGATIVE = ["was a complete waste of time", "broke after two days", "left us cold and disappointed",
            "is slow and frustrating to use", "never delivered what it promised", "was rude and careless"]
NEUTRAL = ["was about what we expected", "is available in three colours", "opens at nine on weekdays",
           "runs for roughly two hours", "comes with a printed manual", "was discussed in the local paper"]
CLOSINGS = ["", " Overall, that says it all.", " I would tell my friends.", " We went there in May.",
            " That is my honest view.", " My partner agreed.", " It was a rainy evening.", " Details below."]


def sentiment_rows():
    """1,440 short reviews: every subject x phrase x closing, labelled by the phrase's polarity."""
    rows = []
    for label, phrases in (("positive", POSITIVE), ("negative", NEGATIVE), ("neutral", NEUTRAL)):
        for subject, phrase, closing in itertools.product(SUBJECTS, phrases, CLOSINGS):
            rows.append({"text": f"{subject} {phrase}.{closing}", "label": label})
    rows.sort(key=lambda row: (hash_key(row["text"]), row["text"]))
    return rows


def hash_key(text: str) -> int:
    """A fixed pseudo-random order (stable across Python runs, unlike hash())."""
    value = 2166136261
    for char in text:
        value = ((value ^ ord(char)) * 16777619) & 0xFFFFFFFF
    return value


def register(add):
    rows = sentiment_rows()
    add("cards.demo.sentiment", TaskCard(
        loader=LoadFromDictionary(
            data={"train": rows[:240], "validation": rows[240:440], "test": rows[440:1440]},
            data_classification_policy=["public"],
        ),
        preprocess_steps=[
            Set(fields={"classes": ["negative", "neutral", "positive"], "text_type": "review",
                        "type_of_class": "sentiment"}),
        ],
        task="tasks.classification.multi_class",
        templates=["templates.classification.multi_class.default", "templates.key_val"],
        __description__="1,440 short product and place reviews written for unitxt's demo (3 sentiment classes): "
                        "240 train, 200 validation, 1,000 test. Shipped inside the catalog.",
        __tags__={"task": "classification", "language": "en", "modality": "text", "license": "apache-2.0"},
    ))
