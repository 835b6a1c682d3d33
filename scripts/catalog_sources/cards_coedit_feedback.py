"""Catalog: CoEdIT text-editing cards of the original catalog (paraphrase, rewriting and selection by attribute,
preference, binary error detection) and the summarize-from-feedback preference card.

Facts from the dataset pages: grammarly/coedit (train / validation: _id, task - gec, paraphrase, simplification,
coherence, neutralize, clarity -, src "<instruction>: <text>", tgt); openai/summarize_from_feedback (config
comparisons, train / validation: info {id, post, title, subreddit, site, article}, summaries [{text, policy, note}],
choice (index of the preferred summary), worker, batch, split, extra {confidence}).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import (
    Cast,
    Copy,
    DuplicateByList,
    IndexOf,
    Join,
    ListFieldValues,
    MapInstanceValues,
    Rename,
    Set,
    Shuffle,
    Slice,
    Split,
)
from unitxt.operators.label_spans import ShuffleFieldValues

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_more_rows.py)

PAPER = "https://arxiv.org/abs/2305.09857"
EDITS = ["gec", "simplification", "coherence", "neutralize"]  # the edit tasks rewritten toward an attribute
ATTRIBUTE = {"gec": "grammatically correct", "simplification": "simple", "coherence": "coherent",
             "neutralize": "neutral"}
ATTRIBUTE_TYPE = {"gec": "gramaticity", "simplification": "simplicity", "coherence": "coherence",  # as the original
                  "neutralize": "neutrality"}


def _coedit_loader(tasks=None) -> LoadHF:
    if tasks is None:
        return LoadHF(path="grammarly/coedit", streaming=True)
    keep = f"x['task'] == {tasks[0]!r}" if len(tasks) == 1 else f"x['task'] in {list(tasks)!r}"
    return LoadHF(path="grammarly/coedit", streaming=True, filtering_lambda=f"lambda x: {keep}")


def _text_only(keep_instruction=False):
    """src "<instruction>: <text>" -> the text (the instruction kept in instance_instruction when asked)."""
    steps = [Split(field="src", by=": ")]
    if keep_instruction:
        steps.append(Copy(field="src/0", to_field="instance_instruction"))
    return [*steps, Slice(field="src", start=1), Join(field="src", by=": ")]


def _attributes():
    return [Copy(field="task", to_field="required_attribute"),
            MapInstanceValues(mappers={"required_attribute": dict(ATTRIBUTE)}),
            Copy(field="task", to_field="attribute_type"),
            MapInstanceValues(mappers={"attribute_type": dict(ATTRIBUTE_TYPE)})]


def _coedit(add):
    tags = card_tags("text editing", dataset_url=hf_url("grammarly/coedit"), paper=PAPER, license="apache-2.0")
    about = ("CoEdIT: sentences with an editing instruction (the prefix of src, removed here) and the edited text "
             "(tgt). Train / validation / test are seeded portions of the published splits (splitters.small_no_test).")
    add("cards.coedit.paraphrase", TaskCard(
        loader=_coedit_loader(["paraphrase"]),
        preprocess_steps=["splitters.small_no_test", *_text_only(), Set(fields={"text_type": "sentence"}),
                          Rename(field_to_field={"tgt": "output_text", "src": "input_text"})],
        task="tasks.rewriting.paraphrase", templates="templates.rewriting.paraphrase.all",
        __description__=about + " Paraphrase rows: rewrite the sentence in other words.", __tags__=tags,
    ))
    add("cards.coedit.rewriting", TaskCard(
        loader=_coedit_loader(EDITS),
        preprocess_steps=[Shuffle(page_size=2 ** 63 - 1), "splitters.small_no_test", *_text_only(), *_attributes(),
                          Set(fields={"input_text_type": "sentence", "output_text_type": "sentence"}),
                          Rename(field_to_field={"tgt": "output_text", "src": "input_text"})],
        task="tasks.rewriting.by_attribute", templates="templates.rewriting.by_attribute.all",
        __description__=about + " Rows of the grammar, simplification, coherence and neutrality edits: rewrite the "
                                "sentence to be grammatically correct / simple / coherent / neutral.", __tags__=tags,
    ))
    add("cards.coedit.selection", TaskCard(
        loader=_coedit_loader(EDITS),
        preprocess_steps=[Shuffle(page_size=2 ** 63 - 1), "splitters.small_no_test", *_text_only(),
                          ListFieldValues(fields=["tgt", "src"], to_field="choices_texts"),
                          ShuffleFieldValues(field="choices_texts"), *_attributes(),
                          Set(fields={"choices_text_type": "sentences"}), Rename(field_to_field={"tgt": "choice"})],
        task="tasks.selection.by_attribute", templates="templates.selection.by_attribute.all",
        __description__=about + " Selection: of the original and the edited sentence (in a seeded order), pick the "
                                "one with the required attribute (the edited one).", __tags__=tags,
    ))
    add("cards.coedit.preference", TaskCard(
        loader=_coedit_loader(),
        preprocess_steps=[Shuffle(page_size=2 ** 63 - 1), "splitters.small_no_test",
                          *_text_only(keep_instruction=True),
                          ListFieldValues(fields=["tgt", "src"], to_field="choices"),
                          ShuffleFieldValues(field="choices"),
                          Set(fields={"output_type": "sentence", "input_type": "sentence"}),
                          Rename(field="src", to_field="input"),
                          IndexOf(search_in="choices", index_of="tgt", to_field="output_choice")],
        task="tasks.evaluation.preference", templates="templates.evaluation.preference.all",
        __description__=about + " Preference over every edit task: given the instruction, which of the two "
                                "sentences (the edited one and the unedited one, in a seeded order) follows it.",
        __tags__=tags,
    ))
    add("cards.coedit_error_detection", TaskCard(
        loader=_coedit_loader(["gec"]),
        preprocess_steps=["splitters.small_no_test", *_text_only(),
                          ListFieldValues(fields=["tgt", "src"], to_field="correct_and_incorrect"),
                          DuplicateByList(field="correct_and_incorrect", to_field="text"),
                          IndexOf(index_of="text", search_in="correct_and_incorrect", to_field="label"),
                          Set(fields={"class": "Grammatically incorrect"}),
                          Shuffle(page_size=2 ** 63 - 1)],
        task="tasks.classification.binary.zero_or_one[metrics=[metrics.accuracy,metrics.f1_binary,"
             "metrics.precision_binary,metrics.recall_binary]]",
        templates="templates.grammatical_error_detection.all",
        __description__=about + " Error detection on the grammar rows: each corrected sentence (label 0) and each "
                                "original one (label 1) is an instance; is it grammatically incorrect?",
        __tags__=tags,
    ))


def _summarize_from_feedback(add):
    add("cards.summarize_from_human_feedback", TaskCard(
        loader=LoadHF(path="openai/summarize_from_feedback", revision="refs/convert/parquet", data_dir="comparisons",
                      splits=["train", "validation"], data_classification_policy=["public"]),
        preprocess_steps=[
            "splitters.small_no_test",
            Copy(field_to_field={"info/post": "input", "summaries/*/text": "choices"}),
            Cast(field="input", to="str"),
            Rename(field_to_field={"choice": "output_choice"}),
            Set(fields={"input_type": "post", "output_type": "summary",
                        "instance_instruction": "Summarize the following post"}),
        ],
        task="tasks.evaluation.preference", templates="templates.evaluation.preference.all",
        __description__="Summarize from human feedback (OpenAI), comparisons: a Reddit post with two model summaries "
                        "and the one a labeller preferred. Train / validation / test are seeded portions of the "
                        "published splits (splitters.small_no_test).",
        __tags__=card_tags("preference evaluation", dataset_url=hf_url("openai/summarize_from_feedback"),
                           paper="https://arxiv.org/abs/2009.01325"),
    ))


def register(add):
    _coedit(add)
    _summarize_from_feedback(add)
