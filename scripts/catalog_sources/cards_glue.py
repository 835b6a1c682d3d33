"""Catalog: GLUE cards (cards.cola, cards.sst2, ..., cards.wnli) over the Hub dataset "nyu-mll/glue", and other
NLI cards with the MNLI label scheme (cards.snli, cards.anli.r1-r3).

GLUE's test splits carry no gold labels (label -1), so every card evaluates on the public validation split (renamed
"test"), and takes a seeded 5% of train as its "validation" split (SplitRandomMix). Integer labels are mapped to the
dataset's own class names, in the order of its ClassLabel feature.
"""

from _shared import card_tags, index_to_label
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import ExecuteExpression, FilterByCondition, Rename, Set
from unitxt.splitters import SplitRandomMix

GLUE_URL = "https://huggingface.co/datasets/nyu-mll/glue"
GLUE_PAPER = "https://arxiv.org/abs/1804.07461"
MIX = {"train": "train[95%]", "validation": "train[5%]", "test": "validation"}
CLASSIFICATION_TEMPLATES = "templates.classification.multi_class.all"
RELATION_TEMPLATES = "templates.classification.multi_class.relation.all"


def _tags(task, config, **extra):
    return card_tags(task, dataset_url=GLUE_URL, paper=GLUE_PAPER, benchmark="glue", benchmark_config=config, **extra)


def single_sentence_card(*, config, classes, type_of_class, task, description):
    """A GLUE single-sentence classification card: `sentence` becomes `text`, integer labels become `classes`."""
    return TaskCard(
        loader=LoadHF(path="nyu-mll/glue", name=config),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field="sentence", to_field="text"),
            index_to_label("label", classes),
            Set(fields={"classes": classes, "text_type": "sentence", "type_of_class": type_of_class}),
        ],
        task=task,
        templates=CLASSIFICATION_TEMPLATES,
        __description__=description,
        __tags__=_tags("classification", config),
    )


def pair_card(*, config, text_a, text_b, classes, text_a_type, text_b_type, relation, description, mix=None):
    """A GLUE sentence-pair card: fields `text_a`/`text_b` become text_a/text_b, integer labels become `classes`,
    and the pair is described by the types of its texts and the relation asked about."""
    return TaskCard(
        loader=LoadHF(path="nyu-mll/glue", name=config),
        preprocess_steps=[
            SplitRandomMix(mix=mix or MIX),
            Rename(field_to_field={text_a: "text_a", text_b: "text_b"}),
            index_to_label("label", classes),
            Set(fields={"classes": classes, "text_a_type": text_a_type, "text_b_type": text_b_type,
                        "type_of_relation": relation}),
        ],
        task="tasks.classification.multi_class.relation",
        templates=RELATION_TEMPLATES,
        __description__=description,
        __tags__=_tags("classification", config),
    )


def register(add):
    register_nli(add)
    add("cards.cola", single_sentence_card(
        config="cola", classes=["unacceptable", "acceptable"], type_of_class="grammatical acceptability",
        task="tasks.classification.multi_class",
        description="CoLA (GLUE): decide whether an English sentence is grammatically acceptable. Sentences come from "
        "linguistics books and papers. Tested on GLUE's validation split; validation is 5% of train."))
    add("cards.sst2", single_sentence_card(
        config="sst2", classes=["negative", "positive"], type_of_class="sentiment",
        task="tasks.classification.multi_class.sentiment",
        description="SST-2 (GLUE): binary sentiment of sentences from movie reviews (Stanford Sentiment Treebank). Tested on "
        "GLUE's validation split; validation is 5% of train."))
    add("cards.mrpc", pair_card(
        config="mrpc", text_a="sentence1", text_b="sentence2", classes=["not equivalent", "equivalent"],
        text_a_type="sentence", text_b_type="sentence", relation="semantic equivalence",
        description="MRPC (GLUE): do two sentences from online news paraphrase each other? Tested on GLUE's validation split."))
    add("cards.qqp", pair_card(
        config="qqp", text_a="question1", text_b="question2", classes=["not duplicated", "duplicated"],
        text_a_type="question", text_b_type="question", relation="duplication",
        description="QQP (GLUE): are two Quora questions asking the same thing? Tested on GLUE's validation split."))
    add("cards.mnli", pair_card(
        config="mnli", text_a="premise", text_b="hypothesis", classes=["entailment", "neutral", "contradiction"],
        text_a_type="premise", text_b_type="hypothesis", relation="entailment",
        description="MultiNLI (GLUE): does the premise entail, contradict or say nothing about the hypothesis? Sentences from "
        "ten genres of written and spoken English. Tested on validation_matched; validation is 5% of train.",
        mix={"train": "train[95%]", "validation": "train[5%]", "test": "validation_matched"}))
    add("cards.qnli", pair_card(
        config="qnli", text_a="question", text_b="sentence", classes=["entailment", "not entailment"],
        text_a_type="question", text_b_type="sentence", relation="entailment",
        description="QNLI (GLUE): does a Wikipedia sentence contain the answer to a question (from SQuAD)? Tested on GLUE's "
        "validation split."))
    add("cards.rte", pair_card(
        config="rte", text_a="sentence1", text_b="sentence2", classes=["entailment", "not entailment"],
        text_a_type="premise", text_b_type="hypothesis", relation="entailment",
        description="RTE (GLUE): two-way textual entailment from the RTE challenges (news and Wikipedia text). Tested on GLUE's "
        "validation split."))
    add("cards.wnli", pair_card(
        config="wnli", text_a="sentence1", text_b="sentence2", classes=["not entailment", "entailment"],
        text_a_type="premise", text_b_type="hypothesis", relation="entailment",
        description="WNLI (GLUE): entailment pairs built from the Winograd Schema Challenge by substituting the pronoun with each "
        "candidate referent. Tested on GLUE's validation split."))
    add("cards.stsb", TaskCard(
        loader=LoadHF(path="nyu-mll/glue", name="stsb"),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field_to_field={"sentence1": "text_a", "sentence2": "text_b", "label": "attribute_value"}),
            ExecuteExpression(expression="round(attribute_value, 3)", to_field="attribute_value"),  # float32 noise
            Set(fields={"attribute_name": "similarity", "min_value": 0.0, "max_value": 5.0}),
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
