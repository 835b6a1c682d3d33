"""Catalog: augmentors (augmentors.*): task-input text augmentation, demo label noise and image augmentation.

Text augmentors only change the task's augmentable_inputs; image augmentors need Pillow (pip install pillow).
"""

from unitxt.augmentors import AugmentCase, AugmentPrefixSuffix, AugmentTypos, AugmentWhitespace, DemosLabelNoise, NullAugmentor
from unitxt.operators.images import GrayScale, GridLines, WhiteNoise

WHITESPACE_WEIGHTS = {" ": 20, "\t": 10, "\n": 40, "": 30}


def _tags(kind):
    return {"kind": "augmentor", "augments": kind}


def register(add):
    add("augmentors.no_augmentation", NullAugmentor(
        __description__="Leaves the instance unchanged (a neutral choice in a list of augmentors).",
        __tags__=_tags("nothing"),
    ))
    add("augmentors.augment_whitespace_task_input", AugmentWhitespace(
        __description__="Replaces each whitespace run of the task's augmentable inputs by 1-3 random spaces, tabs "
                        "or newlines.",
        __tags__=_tags("task_input"),
    ))
    add("augmentors.augment_whitespace_prefix_and_suffix_task_input", AugmentPrefixSuffix(
        prefixes=WHITESPACE_WEIGHTS,
        prefix_len=3,
        suffixes=WHITESPACE_WEIGHTS,
        suffix_len=3,
        remove_existing_whitespaces=True,
        __description__="Strips the task's augmentable inputs and adds up to three random whitespace characters "
                        "before and after them.",
        __tags__=_tags("task_input"),
    ))
    add("augmentors.augment_typos_task_input", AugmentTypos(
        probability=0.05,
        __description__="Adds character noise (swaps, deletions, insertions, replacements) to 5% of the letters "
                        "of the task's augmentable inputs.",
        __tags__=_tags("task_input"),
    ))
    add("augmentors.augment_random_case_task_input", AugmentCase(
        mode="random",
        probability=0.2,
        __description__="Flips the case of 20% of the letters of the task's augmentable inputs.",
        __tags__=_tags("task_input"),
    ))
    add("augmentors.demos_label_noise", DemosLabelNoise(
        probability=0.2,
        __description__="Replaces the label of each demonstration, with probability 0.2, by another class from the "
                        "instance's 'classes' field (the evaluated instance is unchanged).",
        __tags__=_tags("demos"),
    ))
    add("augmentors.image.white_noise", WhiteNoise(
        __description__="Adds Gaussian pixel noise (std 25 of 255) to every image of the instance. Needs Pillow.",
        __tags__=_tags("image"),
    ))
    add("augmentors.image.grid_lines", GridLines(
        __description__="Draws black grid lines every 20 pixels over every image of the instance. Needs Pillow.",
        __tags__=_tags("image"),
    ))
    add("augmentors.image.gray_scale", GrayScale(
        __description__="Turns every image of the instance to gray levels. Needs Pillow.",
        __tags__=_tags("image"),
    ))
