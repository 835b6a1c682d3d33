"""Catalog: GLUE cards (cards.cola, cards.sst2, ..., cards.wnli) over the Hub dataset "nyu-mll/glue", and other
NLI cards with the MNLI label scheme (cards.snli, cards.anli.r1-r3).

GLUE's test splits carry no gold labels (label -1), so every card evaluates on the public validation split (renamed
"test"), and takes a seeded 5% of train as its "validation" split (SplitRandomMix). Integer labels are mapped to the
dataset's own class names, in the order of its ClassLabel feature.
"""

from _shared import card_tags, index_to_label
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import FilterByCondition, Rename, Set
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

GLUE_URL = "https://huggingface.co/datasets/nyu-mll/glue"
GLUE_PAPER = "https://arxiv.org/abs/1804.07461"
MIX = {"train": "train[95%]", "validation": "train[5%]", "test": "validation"}
CLASSIFICATION_TEMPLATES = "templates.classification.multi_class.all"
RELATION_TEMPLATES = "templates.classification.multi_class.relation.all"


def _tags(task, config, **extra):
    return card_tags(task, dataset_url=GLUE_URL, paper=GLUE_PAPER, benchmark="glue", benchmark_config=config, **extra)


SPLITS = ["train", "validation", "test"]


def _card(loader, steps, task, templates, description, config, kind="classification"):
    return TaskCard(loader=loader, preprocess_steps=steps, task=task, templates=templates,
                    __description__=description, __tags__=_tags(kind, config))


def register(add):
    """The GLUE cards with the original's facts (loader, split mix, label names, field names, task, templates)."""
    register_nli(add)
    add("cards.cola", _card(
        LoadHF(path="nyu-mll/glue", name="cola"),
        ["splitters.small_no_test", index_to_label("label", ["unacceptable", "acceptable"]),
         Rename(field_to_field={"sentence": "text"}),
         Set(fields={"classes": ["unacceptable", "acceptable"], "type_of_class": "grammatical acceptability"})],
        "tasks.classification.multi_class[metrics=[metrics.matthews_correlation]]", CLASSIFICATION_TEMPLATES,
        "CoLA (GLUE): decide whether an English sentence is grammatically acceptable (scored by Matthews "
        "correlation). Tested on GLUE's validation split; validation is 5% of train.", "cola"))
    add("cards.sst2", _card(
        LoadHF(path="stanfordnlp/sst2"),
        ["splitters.small_no_test", index_to_label("label", ["negative", "positive"]),
         Rename(field="sentence", to_field="text"),
         Set(fields={"text_type": "sentence", "type_of_class": "sentiment", "classes": ["negative", "positive"]})],
        "tasks.classification.multi_class", CLASSIFICATION_TEMPLATES,
        "SST-2: binary sentiment of sentences from movie reviews (Stanford Sentiment Treebank, the stanfordnlp/sst2 "
        "copy). Tested on the validation split; validation is 5% of train.", "sst2"))
    add("cards.mrpc", _card(
        LoadHF(path="nyu-mll/glue", name="mrpc", streaming=False, splits=SPLITS),
        [index_to_label("label", ["not equivalent", "equivalent"]),
         Rename(field="sentence1", to_field="text_a"), Rename(field="sentence2", to_field="text_b"),
         Set(fields={"classes": ["not equivalent", "equivalent"], "text_a_type": "sentence",
                     "text_b_type": "sentence", "type_of_relation": "semantic equivalence"})],
        "tasks.classification.multi_class.relation", RELATION_TEMPLATES,
        "MRPC (GLUE): do two sentences from online news paraphrase each other? The published train, validation "
        "and test splits.", "mrpc"))
    add("cards.qqp", _card(
        LoadHF(path="nyu-mll/glue", name="qqp", splits=SPLITS),
        ["splitters.large_no_test", index_to_label("label", ["not duplicated", "duplicated"]),
         Set(fields={"choices": ["not duplicated", "duplicated"]})],
        Task(input_fields=["choices", "question1", "question2"], reference_fields=["label"],
             metrics=["metrics.accuracy"]),
        [InputOutputTemplate(input_format="Question one: {question1}\nQuestion two: {question2}\nDo the two ask "
                                          "the same thing? Answer with one of: {choices}.",
                             output_format="{label}")],
        "QQP (GLUE): are two Quora questions asking the same thing? Tested on GLUE's validation split; validation "
        "is 1% of train.", "qqp"))
    add("cards.mnli", _card(
        LoadHF(path="nyu-mll/glue", name="mnli",
               splits=["train", "validation_matched", "validation_mismatched", "test_matched", "test_mismatched"]),
        [RenameSplits(mapper={"validation_matched": "validation"}), "splitters.small_no_test",
         Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
         index_to_label("label", ["entailment", "neutral", "contradiction"]),
         Set(fields={"type_of_relation": "entailment", "text_a_type": "premise", "text_b_type": "hypothesis",
                     "classes": ["entailment", "neutral", "contradiction"]})],
        "tasks.classification.multi_class.relation", RELATION_TEMPLATES,
        "MultiNLI (GLUE): does the premise entail, contradict or say nothing about the hypothesis? Sentences from "
        "ten genres of written and spoken English. Tested on validation_matched; validation is 5% of train.",
        "mnli"))
    add("cards.qnli", _card(
        LoadHF(path="nyu-mll/glue", name="qnli", splits=SPLITS),
        ["splitters.large_no_test", index_to_label("label", ["entailment", "not entailment"]),
         Set(fields={"classes": ["entailment", "not entailment"], "type_of_relation": "entailment",
                     "text_a_type": "question", "text_b_type": "sentence"}),
         Rename(field_to_field={"question": "text_a", "sentence": "text_b"})],
        "tasks.classification.multi_class.relation", RELATION_TEMPLATES,
        "QNLI (GLUE): does a Wikipedia sentence contain the answer to a question (from SQuAD)? Tested on GLUE's "
        "validation split; validation is 1% of train.", "qnli"))
    add("cards.rte", _card(
        LoadHF(path="nyu-mll/glue", name="rte", splits=SPLITS),
        ["splitters.small_no_test", index_to_label("label", ["entailment", "not entailment"]),
         Set(fields={"classes": ["entailment", "not entailment"], "type_of_relation": "entailment",
                     "text_a_type": "premise", "text_b_type": "hypothesis"}),
         Rename(field_to_field={"sentence1": "text_a", "sentence2": "text_b"})],
        "tasks.classification.multi_class.relation", RELATION_TEMPLATES,
        "RTE (GLUE): two-way textual entailment from the RTE challenges (news and Wikipedia text). Tested on GLUE's "
        "validation split; validation is 5% of train.", "rte"))
    add("cards.wnli", _card(
        LoadHF(path="nyu-mll/glue", name="wnli", data_classification_policy=["public"], splits=SPLITS),
        [SplitRandomMix(mix=MIX), Rename(field="sentence1", to_field="text_a"),
         Rename(field="sentence2", to_field="text_b"),
         index_to_label("label", ["entailment", "not entailment"]),  # the original's mapping (0 -> entailment)
         Set(fields={"classes": ["entailment", "not entailment"]}), Set(fields={"type_of_relation": "entailment"}),
         Set(fields={"text_a_type": "premise"}), Set(fields={"text_b_type": "hypothesis"})],
        "tasks.classification.multi_class.relation", RELATION_TEMPLATES,
        "WNLI (GLUE): entailment pairs built from the Winograd Schema Challenge by substituting the pronoun with each "
        "candidate referent. Tested on GLUE's validation split.", "wnli"))
    add("cards.stsb", TaskCard(
        loader=LoadHF(path="nyu-mll/glue", name="stsb", splits=SPLITS),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field_to_field={"sentence1": "text1", "sentence2": "text2", "label": "attribute_value"}),
            Set(fields={"min_value": 1.0, "max_value": 5.0}),  # attribute_name comes from the task's default
        ],
        task="tasks.regression.two_texts.similarity",
        templates="templates.regression.two_texts.all",
        __description__="STS-B (GLUE): semantic similarity of two sentences on a 0-5 scale (news headlines, video "
                        "and image captions, NLI data). Scored by Spearman correlation; tested on GLUE's validation "
                        "split.",
        __tags__=_tags("regression", "stsb"),
    ))


NLI_CLASSES = ["entailment", "neutral", "contradiction"]


def _nli_steps(mix):
    return [
        SplitRandomMix(mix=mix),
        Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
        index_to_label("label", NLI_CLASSES),
        Set(fields={"classes": NLI_CLASSES, "text_a_type": "premise", "text_b_type": "hypothesis",
                    "type_of_relation": "entailment"}),
    ]


def register_nli(add):
    """Other NLI datasets with the MNLI label scheme (0 entailment, 1 neutral, 2 contradiction)."""
    add("cards.snli", TaskCard(
        loader=LoadHF(path="stanfordnlp/snli", name="plain_text"),
        preprocess_steps=[FilterByCondition(values={"label": [0, 1, 2]}, condition="in")]
        + _nli_steps({"train": "train", "validation": "validation", "test": "test"}),
        task="tasks.classification.multi_class.relation",
        templates=RELATION_TEMPLATES,
        __description__="SNLI: human-written hypotheses for Flickr30k image captions (premises), labelled entailment, "
                        "neutral or contradiction. Pairs without a gold label (label -1) are dropped. Published "
                        "train / validation / test splits.",
        __tags__={"task": "classification", "language": "en", "modality": "text",
                  "urls": {"dataset": "https://huggingface.co/datasets/stanfordnlp/snli",
                           "paper": "https://arxiv.org/abs/1508.05326"}},
    ))
    for round_number in (1, 2, 3):
        add(f"cards.anli.r{round_number}", TaskCard(
            loader=LoadHF(path="facebook/anli", name="plain_text"),
            preprocess_steps=_nli_steps({"train": f"train_r{round_number}", "validation": f"dev_r{round_number}",
                                         "test": f"test_r{round_number}"}),
            task="tasks.classification.multi_class.relation",
            templates=RELATION_TEMPLATES,
            __description__=f"Adversarial NLI, round {round_number}: premise-hypothesis pairs written by people to "
                            "fool strong NLI models (human-and-model-in-the-loop). Splits train_r{0} / dev_r{0} / "
                            "test_r{0} become train / validation / test.".format(round_number),
            __tags__={"task": "classification", "language": "en", "modality": "text", "round": round_number,
                      "urls": {"dataset": "https://huggingface.co/datasets/facebook/anli",
                               "paper": "https://arxiv.org/abs/1910.14599"}},
        ))
