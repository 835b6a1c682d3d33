"""Shared test data: a WNLI-shaped card over synthetic rows, registered in a temporary catalog."""

import random

from unitxt import add_to_catalog
from unitxt.card import TaskCard
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import MapInstanceValues, Rename, Set

WORDS = "the a cat dog sat on mat while sun shines over green hills and river flows near old town".split()


def synthetic_rows(count: int, seed: int):
    rng = random.Random(seed)
    return [
        {
            "idx": index,
            "sentence1": " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12))) + f" #{seed}-{index}",
            "sentence2": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 7))),
            "label": rng.randint(0, 1),
        }
        for index in range(count)
    ]


def wnli_like_card(train: int = 120, test: int = 40, validation: int = 10) -> TaskCard:
    return TaskCard(
        loader=LoadFromDictionary(
            data={"train": synthetic_rows(train, 1), "validation": synthetic_rows(validation, 2),
                  "test": synthetic_rows(test, 3)},
            data_classification_policy=["public"],
        ),
        preprocess_steps=[
            Rename(field_to_field={"sentence1": "text_a", "sentence2": "text_b"}),
            MapInstanceValues(mappers={"label": {"0": "not entailment", "1": "entailment"}}),
            Set(fields={"classes": ["not entailment", "entailment"], "type_of_relation": "entailment",
                        "text_a_type": "premise", "text_b_type": "hypothesis"}),
        ],
        task="tasks.classification.multi_class.relation",
        templates=["templates.classification.multi_class.relation.default", "templates.key_val"],
    )


def register_card(catalog_path, name: str = "cards.test_wnli", **sizes) -> str:
    add_to_catalog(wnli_like_card(**sizes), name, catalog_path=str(catalog_path), overwrite=True)
    return name
