"""Catalog: augmentors under the original's augmentors.text.* / augmentors.image.* names (settings are the
original's facts; see augmentors.py for the task-input variants)."""

from _factory import make

# the original writes the tab and newline keys as the two-character strings backslash-t and backslash-n, so its
# whitespace_prefix_suffix adds those characters literally; kept as it is, to behave the same
LITERAL_WHITESPACE_WEIGHTS = {" ": 20, "\\t": 10, "\\n": 40, "": 30}


def _tags(kind):
    return {"kind": "augmentor", "augments": kind}


def register(add):
    add("augmentors.text.white_space", make(
        "augment_whitespace", description="Replaces each whitespace run of the task's augmentable inputs by 1-3 "
                                          "random spaces, tabs or newlines.", tags=_tags("task_input")))
    add("augmentors.text.whitespace_prefix_suffix", make(
        "augment_prefix_suffix", prefixes=LITERAL_WHITESPACE_WEIGHTS, suffixes=LITERAL_WHITESPACE_WEIGHTS,
        prefix_len=5, suffix_len=5, remove_existing_whitespaces=True,
        description="Strips the task's augmentable inputs and adds up to five random pieces before and after "
                    "them: a space, the two characters \\t or \\n (written literally, as the original does), or "
                    "nothing.", tags=_tags("task_input")))
    add("augmentors.image.grey_scale", make(
        "gray_scale", description="Turns every image of the instance to gray levels. Needs Pillow.",
        tags=_tags("image")))
    add("augmentors.image.oldify", make(
        "oldify", description="Gives every image of the instance an old-photo look (yellowish tint, film grain, slight blur, lower contrast). Needs Pillow.",
        tags=_tags("image")))
