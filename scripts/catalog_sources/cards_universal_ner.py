"""Catalog: Universal NER treebanks read from the project's IOB2 files on GitHub (cards.universal_ner.<lang>.<treebank>),
generated from the table below.

Facts from the UniversalNER repositories: each treebank is a repository `UNER_<Language>-<Treebank>` whose default
branch (master or main) holds `<lang>_<treebank>-ud-<split>.iob2` for split test, or train / dev / test; the files are
CoNLL-style token lines (id, token, tag, misc, annotator) with `# sent_id` / `# text` comments, and tags B-/I- PER, ORG,
LOC (others fold into O).
The cards use the original's task, tasks.span_labeling.extraction (text, text_type and entity_types in; the text and its
character spans with labels out).
"""

from _shared import card_tags
from unitxt.card import TaskCard
from unitxt.loaders import LoadIOB
from unitxt.operators import Copy, Rename, Set
from unitxt.operators.dialog import IobExtractor
from unitxt.operators.streams import Shuffle

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

ENTITY_TYPES = {"PER": "Person", "ORG": "Organization", "LOC": "Location"}
# (language code, treebank): (repository name after "UNER_", branch, splits)
TREEBANKS = {
    ("ceb", "gja"): ("Cebuano-GJA", "master", ["test"]),
    ("da", "ddt"): ("Danish-DDT", "main", ["train", "dev", "test"]),
    ("de", "pud"): ("German-PUD", "master", ["test"]),
    ("en", "ewt"): ("English-EWT", "master", ["train", "dev", "test"]),
    ("en", "pud"): ("English-PUD", "master", ["test"]),
    ("hr", "set"): ("Croatian-SET", "main", ["train", "dev", "test"]),
    ("pt", "bosque"): ("Portuguese-Bosque", "master", ["train", "dev", "test"]),
    ("pt", "pud"): ("Portuguese-PUD", "master", ["test"]),
    ("ru", "pud"): ("Russian-PUD", "master", ["test"]),
    ("sk", "snk"): ("Slovak-SNK", "master", ["train", "dev", "test"]),
    ("sr", "set"): ("Serbian-SET", "main", ["train", "dev", "test"]),
    ("sv", "pud"): ("Swedish-PUD", "master", ["test"]),
    ("sv", "talbanken"): ("Swedish-Talbanken", "master", ["train", "dev", "test"]),
    ("tl", "trg"): ("Tagalog-TRG", "master", ["test"]),
    ("tl", "ugnayan"): ("Tagalog-Ugnayan", "master", ["test"]),
    ("zh", "gsd"): ("Chinese-GSD", "master", ["train", "dev", "test"]),
    ("zh", "gsdsimp"): ("Chinese-GSDSIMP", "master", ["train", "dev", "test"]),
    ("zh", "pud"): ("Chinese-PUD", "master", ["test"]),
}


def treebank_files(language: str, treebank: str) -> dict:
    name, branch, splits = TREEBANKS[(language, treebank)]
    repository = f"https://raw.githubusercontent.com/UniversalNER/UNER_{name}/{branch}"
    return {split: f"{repository}/{language}_{treebank}-ud-{split}.iob2" for split in splits}


def universal_ner_card(language: str, treebank: str) -> TaskCard:
    files = treebank_files(language, treebank)
    return TaskCard(
        loader=LoadIOB(files=files, data_classification_policy=["public"]),
        preprocess_steps=[
            Shuffle(page_size=2**63 - 1),
            Rename(field_to_field={"ner_tags": "labels"}),
            IobExtractor(labels=list(ENTITY_TYPES.values()), begin_labels=[f"B-{tag}" for tag in ENTITY_TYPES],
                         inside_labels=[f"I-{tag}" for tag in ENTITY_TYPES], outside_label="O"),
            Copy(field_to_field={"spans/*/start": "spans_starts", "spans/*/end": "spans_ends",
                                 "spans/*/label": "labels"}, get_default=[], not_exist_ok=True),
            Set(fields={"entity_types": list(ENTITY_TYPES.values())}),
        ],
        task="tasks.span_labeling.extraction",
        templates="templates.span_labeling.extraction.all",
        __description__=f"Universal NER, {TREEBANKS[(language, treebank)][0].replace('-', ' ')} treebank: person, "
                        f"organization and location entities over Universal Dependencies sentences, as character "
                        f"spans of the sentence text. Splits: {', '.join(files)} (shuffled).",
        __tags__=card_tags("named entity recognition", language=language, paper="https://arxiv.org/abs/2311.09122",
                           dataset_url="https://huggingface.co/datasets/universalner/universal_ner",
                           benchmark="universal_ner", treebank=treebank,
                           source=f"https://github.com/UniversalNER/UNER_{TREEBANKS[(language, treebank)][0]}"),
    )


def register(add):
    for language, treebank in TREEBANKS:
        add(f"cards.universal_ner.{language}.{treebank}", universal_ner_card(language, treebank))
