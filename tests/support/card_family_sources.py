"""Synthetic rows in the REAL schema of the datasets behind the generated card families (Global-MMLU, Belebele, MILU,
MASSIVE, XL-Sum, XNLI, Indic BoolQ, FLORES-101, Aya, XWinograd, MLSUM, HEAD-QA, WikiHow QA, RAGBench, Universal NER, MMMU, BBQ).

`sources_of(card)` gives, for every Hub load of a card's loader, `{"path", "name", "data_dir", "splits": {split: rows}}`
with the real repo id, config / data folder, split names, field names and value types (texts are synthetic). Rows are
deterministic; each split mixes the values the cards filter on (subjects, domains, languages, sensitivity labels), so
filters keep some rows and drop others, and one row repeats another where the card deduplicates.
"""

import random
from typing import Any, Callable, Dict, List, Optional

from tests.support.card_family_files import files_of
from tests.support.card_family_more_rows import MORE_ROWS_BY_PATH, csv_files, mtrag_files, quality_files
from tests.support.card_family_rows import ROWS_BY_PATH
from tests.support.card_given_instances import given_instances
from tests.support.card_family_tool_files import TOOL_ROWS_BY_PATH, bfcl_files
from tests.support.card_mirrors import MIRRORS, WORDS, sentence, words
from tests.support.card_mirrors_docs import IMAGE_COLUMNS
from tests.support.card_mirrors_images import image_source
from tests.support.card_mirrors_more import more_sources
from tests.support.card_mirrors_wikitq import wikitq_sources
from tests.support.space_mirrors import arena_hard_auto_local_files, space_source

Rows = List[Dict[str, Any]]
N = 8

MMLU_SOME_SUBJECTS = ["abstract_algebra", "anatomy", "world_religions", "high_school_us_history"]
MILU_DOMAINS = ["Arts & Humanities", "Business Studies", "Engineering & Tech", "Environmental Sciences",
                "Health & Medicine", "Law & Governance", "Science", "Social Sciences"]
INDIC = ["bn", "gu", "hi", "kn", "ml", "mr", "or", "pa", "ta", "te"]


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _global_mmlu(name: str, data_dir: Optional[str], subject: Optional[str]) -> Dict[str, Rows]:
    subjects = MMLU_SOME_SUBJECTS + ([subject] if subject and subject not in MMLU_SOME_SUBJECTS else [])

    def row(r, index, split):
        return {"sample_id": f"{subjects[index % len(subjects)]}/{split}/{index}",
                "subject": subjects[index % len(subjects)], "subject_category": r.choice(["STEM", "Humanities"]),
                "question": f"[{name}] " + words(r) + "?", "option_a": words(r, 1, 3), "option_b": words(r, 1, 3),
                "option_c": words(r, 1, 3), "option_d": words(r, 1, 3), "answer": "ABCD"[index % 4],
                "required_knowledge": "[]", "time_sensitive": "[]", "reference": "[]", "culture": "[]",
                "region": "[]", "country": "[]", "cultural_sensitivity_label": ["CS", "CA", "-"][index % 3],
                "is_annotated": index % 3 != 2}

    sizes = {"dev": 4 * len(subjects), "test": 3 * len(subjects)} if subject else {"dev": 10, "test": 110}  # Lite
    return _with_repeat(sizes, row, "global_mmlu", name)


def _with_repeat(sizes: Dict[str, int], make: Callable, *key: Any) -> Dict[str, Rows]:
    """Rows per split, the last row of each split a copy of its first (cards that deduplicate drop it)."""
    splits = {}
    for split, size in sizes.items():
        rows = [make(_rng(*key, split, index), index, split) for index in range(size)]
        splits[split] = rows + [dict(rows[0])]
    return splits


def _belebele(name, data_dir, _):
    def row(r, index, split):
        return {"link": f"https://en.wikibooks.org/wiki/{index}", "question_number": index % 2 + 1,
                "flores_passage": f"[{name}] " + " ".join(sentence(r) for _ in range(3)), "question": words(r) + "?",
                "mc_answer1": words(r, 1, 3), "mc_answer2": words(r, 1, 3), "mc_answer3": words(r, 1, 3),
                "mc_answer4": words(r, 1, 3), "correct_answer_num": str(index % 4 + 1), "dialect": name,
                "ds": "2023-05-03"}

    return {"test": [row(_rng("belebele", name, index), index, "test") for index in range(N)]}


def _milu(name, data_dir, _):
    def row(r, index, split):
        domain = MILU_DOMAINS[index % len(MILU_DOMAINS)]
        return {"question": f"[{data_dir}] " + words(r) + "?", "option1": words(r, 1, 3), "option2": words(r, 1, 3),
                "option3": words(r, 1, 3), "option4": words(r, 1, 3), "target": f"option{index % 4 + 1}",
                "language": data_dir, "domain": domain, "subject": r.choice(["History", "Physics", "Law"])}

    return _with_repeat({"validation": 4 * len(MILU_DOMAINS), "test": 3 * len(MILU_DOMAINS)}, row, "milu", data_dir)


def _massive(name, data_dir, _):
    def row(r, index, split):
        return {"id": str(index), "locale": data_dir, "partition": split, "scenario": index % 18,
                "intent": (index * 7) % 60, "utt": words(r), "annot_utt": words(r), "worker_id": str(index),
                "slot_method": {"slot": [], "method": []},
                "judgments": {"worker_id": [], "intent_score": [], "slots_score": [], "grammar_score": [],
                              "spelling_score": [], "language_identification": []}}

    return {split: [row(_rng("massive", data_dir, split, i), i, split) for i in range(N)]
            for split in ("train", "validation", "test")}


def _xlsum(name, data_dir, _):
    def row(r, index, split):
        return {"gem_id": f"xlsum_{data_dir}-{split}-{index}", "url": f"https://www.bbc.com/{data_dir}/{index}",
                "title": words(r, 3, 6), "target": sentence(r), "references": [sentence(r)],
                "text": " ".join(sentence(r) for _ in range(4))}

    return {split: [row(_rng("xlsum", data_dir, split, i), i, split) for i in range(N)]
            for split in ("train", "validation", "test")}


def _xnli(name, data_dir, _):
    def row(r, index, split):
        return {"premise": f"[{name}] " + sentence(r), "hypothesis": sentence(r), "label": index % 3}

    return {split: [row(_rng("xnli", name, split, i), i, split) for i in range(size)]
            for split, size in (("train", 40), ("validation", N), ("test", N))}


def _boolq_indic(name, data_dir, _):
    def row(r, index, split):
        answer = index % 2 == 0
        return {"question": words(r) + "?", "passage": " ".join(sentence(r) for _ in range(2)),
                "answer": "yes" if answer else "no", "label": int(answer), "language": INDIC[index % len(INDIC)]}

    return {split: [row(_rng("boolq_indic", split, i), i, split) for i in range(size)]
            for split, size in (("train", 200), ("validation", 30))}


FLORES_CODES = ["ara", "deu", "eng", "fra", "jpn", "kor", "por", "ron", "spa"]


def _flores(name, data_dir, _):
    def row(r, index):
        base = {"id": index + 1, "URL": f"https://en.wikinews.org/wiki/{index}", "domain": "wikinews",
                "topic": words(r, 1, 2), "has_image": 0, "has_hyperlink": index % 2}
        return {**base, **{f"sentence_{code}": f"[{code}] " + sentence(r) for code in FLORES_CODES}}

    split = "train" if data_dir == "all/devtest" else "validation"
    return {split: [row(_rng("flores", data_dir, i), i) for i in range(N)]}


AYA_LANGUAGES = ["arb", "eng", "por", "tel", "tur", "yor", "zho", "fra", "spa", "deu", "jpn"]


def _aya(name, data_dir, _):
    def row(r, index):
        base = {"id": index, "inputs": words(r) + "?", "targets": sentence(r),
                "language": AYA_LANGUAGES[index % len(AYA_LANGUAGES)], "script": "Latn"}
        if name.startswith("dolly"):
            base["source_id"] = index + 1000
        return base

    return {"test": [row(_rng("aya", name, i), i) for i in range(6 * len(AYA_LANGUAGES))]}


def _xwinograd(name, data_dir, _):
    def row(r, index):
        return {"sentence": f"[{name}] {words(r, 3, 6)} _ {words(r, 2, 5)}.", "option1": words(r, 1, 2),
                "option2": words(r, 1, 2), "answer": str(index % 2 + 1)}

    return {"test": [row(_rng("xwinograd", name, i), i) for i in range(N)]}


def _mlsum(name, data_dir, _):
    def row(r, index):
        return {"text": " ".join(sentence(r) for _ in range(4)), "summary": sentence(r), "topic": words(r, 1, 1),
                "url": f"https://www.example-news.{data_dir}/{index}", "title": words(r, 3, 6),
                "date": f"00/0{index % 9 + 1}/2019"}

    return {split: [row(_rng("mlsum", data_dir, split, i), i) for i in range(N)]
            for split in ("train", "validation", "test")}


HEAD_QA_CATEGORIES = ["biology", "chemistry", "medicine", "nursery", "pharmacology", "psychology"]


def _head_qa(name, data_dir, _):
    def row(r, index):
        return {"name": f"Cuaderno_{2013 + index % 5}_1_B", "year": str(2013 + index % 5),
                "category": HEAD_QA_CATEGORIES[index % 6], "qid": index + 1, "qtext": f"[{name}] " + words(r) + "?",
                "ra": index % 4 + 1, "answers": [{"aid": k + 1, "atext": words(r, 1, 3)} for k in range(4)]}

    return {"train": [row(_rng("head_qa", name, i), i) for i in range(2 * len(HEAD_QA_CATEGORIES))]}


WIKIHOW_LANGUAGES = ["de", "en", "es", "fr", "it", "nl", "pt", "ru"]


def _wikihow(name, data_dir, _):
    def row(r, index):
        language = WIKIHOW_LANGUAGES[index % len(WIKIHOW_LANGUAGES)]
        return {"INSTRUCTION": f"[{language}] How to " + words(r) + "?", "RESPONSE": " ".join(sentence(r) for _ in range(3)),
                "SOURCE": "wikihow.com",
                "METADATA": '{"url": "https://www.wikihow.com/%d", "language": "%s"}' % (index, language)}

    return {"train": [row(_rng("wikihow", i), i) for i in range(20 * len(WIKIHOW_LANGUAGES))]}


def _ragbench(name, data_dir, _):
    def row(r, index, split):
        return {"id": f"{name}-{split}-{index}", "question": words(r) + "?",
                "documents": [" ".join(sentence(r) for _ in range(2)) for _ in range(index % 3 + 1)],
                "response": sentence(r), "generation_model_name": "gpt-3.5-turbo-0125", "dataset_name": name,
                "adherence_score": index % 3 != 1}

    return {split: [row(_rng("ragbench", name, split, i), i, split) for i in range(N)]
            for split in ("train", "validation", "test")}


def _mmmu(name, data_dir, _):
    """Image columns are empty here (the cards keep the images as media; only the text is compared)."""
    def row(r, index, split):
        count = index % 3 + 1
        options = [words(r, 1, 3) + (" <image 2>" if k == 1 and count > 1 else "") for k in range(4)]
        return {"id": f"{split}_{name}_{index}", "question": f"<image 1> [{name}] " + words(r) + "?",
                "options": repr(options), "explanation": "", **{f"image_{k}": None for k in range(1, 8)},
                "img_type": "['Diagrams']", "answer": "?" if split == "test" else "ABCD"[index % 4],
                "topic_difficulty": "Medium", "question_type": "multiple-choice",
                "subfield": r.choice(["Fine Arts", "Drawing and Painting", "Photography"])}

    return {split: [row(_rng("mmmu", name, split, i), i, split) for i in range(size)]
            for split, size in (("dev", 5), ("validation", N), ("test", N))}


def _bbq(name, data_dir, _):
    def row(r, index):
        return {"example_id": index, "question_index": str(index // 2 + 1),
                "question_polarity": ["neg", "nonneg"][index % 2], "context_condition": ["ambig", "disambig"][index % 2],
                "category": data_dir, "answer_info": {"ans0": ["a", "x"], "ans1": ["b", "y"], "ans2": ["c", "unknown"]},
                "additional_metadata": {"subcategory": "None", "stereotyped_groups": [], "version": "a",
                                        "source": "https://example.org"},
                "context": f"[{data_dir}] " + " ".join(sentence(r) for _ in range(2)), "question": words(r) + "?",
                "ans0": words(r, 1, 3), "ans1": words(r, 1, 3), "ans2": "Unknown", "label": index % 3}

    return {"test": [row(_rng("bbq", data_dir, i), i) for i in range(N)]}


BY_PATH: Dict[str, Callable] = {
    "heegyu/bbq": _bbq,
    "MMMU/MMMU": _mmmu,
    "Muennighoff/xwinograd": _xwinograd, "reciTAL/mlsum": _mlsum, "alesi12/head_qa_v2": _head_qa,
    "0x22almostEvil/multilingual-wikihow-qa-16k": _wikihow, "rungalileo/ragbench": _ragbench,
    "CohereForAI/Global-MMLU": _global_mmlu, "CohereForAI/Global-MMLU-Lite": _global_mmlu,
    "facebook/belebele": _belebele, "ai4bharat/MILU": _milu, "AmazonScience/massive": _massive,
    "GEM/xlsum": _xlsum, "facebook/xnli": _xnli, "sarvamai/boolq-indic": _boolq_indic,
    "gsarti/flores_101": _flores, "CohereForAI/aya_evaluation_suite": _aya,
    **ROWS_BY_PATH, **TOOL_ROWS_BY_PATH, **MORE_ROWS_BY_PATH,
}


NER_NAMES = ["Ann Lee", "Bo Chen", "Acme Corp", "Nordic Bank", "Oslo", "New York", "Lima"]
NER_TAGS = {"Ann Lee": "PER", "Bo Chen": "PER", "Acme Corp": "ORG", "Nordic Bank": "ORG", "Oslo": "LOC",
            "New York": "LOC", "Lima": "LOC"}


def iob_text(key: str, sentences: int = N) -> str:
    """IOB2 lines as the UniversalNER files hold them: `# sent_id` / `# text` comments, then id, token, tag, misc and
    annotator columns per token (tab separated); a blank line ends a sentence. Some tags are OTH (folded into O)."""
    blocks = []
    for index in range(sentences):
        r = _rng("iob", key, index)
        tokens, tags = [], []
        for position in range(r.randint(1, 2)):
            tokens += words(r, 1, 3).split()
            tags += ["O"] * (len(tokens) - len(tags))
            name = NER_NAMES[(index + position) % len(NER_NAMES)]
            parts = name.split()
            tokens += parts
            tags += [f"B-{NER_TAGS[name]}"] + [f"I-{NER_TAGS[name]}"] * (len(parts) - 1)
        if index % 3 == 0:
            tokens += ["Rex"]
            tags += ["B-OTH"]
        tokens += ["."]
        tags += ["O"]
        text = " ".join(tokens[:-1]) + "."
        lines = [f"# sent_id = {key}-{index}", f"# text = {text}"]
        lines += [f"{k + 1}\t{token}\t{tag}\t-\t{'ann' + str(k % 2)}" for k, (token, tag) in
                  enumerate(zip(tokens, tags))]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + "\n"


def _hub_loads(loader) -> list:
    return list(loader.sources) if hasattr(loader, "sources") else [loader]


def sources_of(card_name: str, card) -> List[Dict[str, Any]]:
    """The synthetic sources of every Hub load of the card (Global-MMLU rows include the card's own subject)."""
    subject = card_name.split(".")[-1] if card_name.startswith("cards.global_mmlu.") else None
    if type(card.loader).__name__ == "LoadIOB":
        return [{"iob_files": {split: iob_text(f"{card_name}-{split}") for split in card.loader.files}}]
    more = more_sources(card)  # single cards over files, sklearn, Kaggle, Hub files (tests/support/card_mirrors_more.py)
    if more is not None:
        return more
    url_sources = wikitq_sources(card)  # split files plus the per-row files the steps read by URL
    if url_sources is not None:
        return url_sources
    if space_source(card) is not None:  # a Hugging Face Space's files (tests/support/space_mirrors.py)
        return [space_source(card)]
    if given_instances(card) is not None:  # a card without a loader: its instances are given at use
        return [{"given_instances": given_instances(card)}]
    files = (bfcl_files(card) or quality_files(card) or csv_files(card) or mtrag_files(card) or files_of(card)
             or arena_hard_auto_local_files(card))
    if files is not None:
        return [{"local_files": files}]
    sources = []
    for load in _hub_loads(card.loader):
        image = image_source(load)  # an image dataset: its columns typed as datasets.Image (card_mirrors_images)
        if image is not None:
            sources.append(image)
            continue
        if load.path in BY_PATH:
            splits = BY_PATH[load.path](load.name, load.data_dir, subject)
        else:  # a single card's dataset: the rows of its default-tier mirror (tests/support/card_mirrors.py)
            splits = _mirror_config(load)
        sources.append({"path": load.path, "name": load.name, "data_dir": load.data_dir, "splits": splits})
    return sources


def _mirror_config(load) -> Optional[Dict[str, Rows]]:
    """The mirror rows of a Hub load (its config, or the repo's only config when it names none); None without a
    mirror, or for image mirrors (their rows hold Image features the in-memory answer does not type)."""
    configs = MIRRORS.get(getattr(load, "path", None))
    if configs and load.name is None and getattr(load, "revision", None) == "refs/convert/parquet":
        if load.data_dir is not None:  # the Hub's Parquet conversion: one folder per config
            return configs.get(load.data_dir)
        # no folder named: datasets reads the branch's files as one config, which is the repo's only (default) one
        return next(iter(configs.values())) if len(configs) == 1 else configs.get("default")
    if not configs or load.path in IMAGE_COLUMNS or load.data_dir is not None:
        return None
    if load.name is None:
        return next(iter(configs.values())) if len(configs) == 1 else configs.get("default")
    return configs.get(load.name)


def covered(card_name: str, card) -> bool:
    if type(card.loader).__name__ == "LoadIOB":
        return card_name.startswith("cards.universal_ner.")
    if more_sources(card) is not None or wikitq_sources(card) is not None:
        return True
    if space_source(card) is not None or given_instances(card) is not None:
        return True
    if (bfcl_files(card) or quality_files(card) or csv_files(card) or mtrag_files(card) or files_of(card)
            or arena_hard_auto_local_files(card)) is not None:
        return True
    return all(getattr(load, "path", None) in BY_PATH or _mirror_config(load) is not None
               or image_source(load) is not None for load in _hub_loads(card.loader))


assert WORDS  # the shared vocabulary of the mirrors
