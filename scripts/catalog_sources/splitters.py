"""Catalog: split recipes (splitters.*) used in cards' preprocess_steps, and demo samplers kept under splitters.*.

Naming: `no_dev` = the source has train and test but no validation split; `no_test` = it has train and validation
but no test split (its validation becomes the test split). `small` / `large` say how much of train is set aside as
the new validation split (5% for small datasets, 1% for large ones). All portions are seeded and disjoint.
"""

from unitxt.samplers import DiverseLabelsSampler
from unitxt.splitters import RenameSplits, SplitRandomMix

TAGS = {"kind": "splitter"}

SPLITTERS = {
    "small_no_dev": (
        SplitRandomMix(mix={"train": "train[95%]", "validation": "train[5%]", "test": "test"}),
        "For small datasets without a validation split: 5% of train becomes validation; test is kept.",
    ),
    "large_no_dev": (
        SplitRandomMix(mix={"train": "train[99%]", "validation": "train[1%]", "test": "test"}),
        "For large datasets without a validation split: 1% of train becomes validation; test is kept.",
    ),
    "small_no_test": (
        SplitRandomMix(mix={"train": "train[95%]", "validation": "train[5%]", "test": "validation"}),
        "For small datasets without a test split: validation becomes test and 5% of train becomes validation.",
    ),
    "large_no_test": (
        SplitRandomMix(mix={"train": "train[99%]", "validation": "train[1%]", "test": "validation"}),
        "For large datasets without a test split: validation becomes test and 1% of train becomes validation.",
    ),
    "train_only": (
        SplitRandomMix(mix={"train": "train[90%]", "validation": "train[5%]", "test": "train[5%]"}),
        "For datasets with only a train split: 90% train, 5% validation and 5% test.",
    ),
    "test_only": (
        RenameSplits(mapper={"train": "test"}),
        "For evaluation-only datasets published as a single 'train' split: it is renamed to test.",
    ),
    "validation_as_test": (
        RenameSplits(mapper={"validation": "test"}),
        "Rename the validation split to test (when the source's test split has no labels and is not loaded).",
    ),
}


def register(add):
    for name, (operator, description) in SPLITTERS.items():
        operator.__dict__["__description__"] = description
        operator.__dict__["__tags__"] = dict(TAGS)
        add(f"splitters.{name}", operator)
    add("splitters.diverse_labels_sampler", DiverseLabelsSampler(
        choices=None, labels="label",  # balance on the reference field 'label' itself (not the original's defaults)
        __description__="Demo sampler that spreads the demos over as many different labels (reference field "
                        "'label') as possible; set it as a card's or recipe's sampler.",
        __tags__={"kind": "sampler"},
    ))
