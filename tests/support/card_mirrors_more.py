"""Synthetic sources in the REAL layout of the single cards whose data is not a plain Hub dataset (or whose Hub rows
need a stand-in download afterwards), for the compat tier's per-card comparison (tests/tiers/compat/test_same_cards.py):

- cards.rag.benchmark.clap_nq.en: the CLAP NQ retrieval TSV files (id, question, doc-id-list, answers);
- cards.CFPB.product.2023: the consumerfinance.gov complaints CSV export (its 18 columns);
- cards.20_newsgroups.sklearn: `sklearn.datasets.fetch_20newsgroups(subset=...)` (data, target, target_names);
- cards.news_category_classification_headline / cards.tablerow_classify: the Kaggle downloads (News_Category_Dataset_v3
  JSON lines; heart.csv of the heart failure prediction data);
- cards.turl_col_type: the TURL column type annotation JSON files of stanford-crfm/helm-scenarios (one record per table:
  [id, page title, page id, section title, caption, headers, cells per column, annotations per column]);
- cards.frames (google/frames-benchmark, its Wikipedia pages answered by a stand-in) and
  cards.biggen_bench.results.human_eval (prometheus-eval/BiGGen-Bench-Results): Hub rows, registered in MIRRORS.

`more_sources(card)` gives the card's sources in the form tests/support/card_family_sources.py uses (a source may carry
"intercept", served by tests/tiers/compat/card_interceptions.py on both sides), or None for other cards.
Texts are synthetic; field names, types, split names and label values are the real ones.
"""

import csv
import io
import json
import random
from typing import Any, Dict, List, Optional

from tests.support.card_mirrors import MIRRORS, N, _splits, sentence, words

Sources = List[Dict[str, Any]]

NEWSGROUPS = ["alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware",
              "comp.sys.mac.hardware", "comp.windows.x", "misc.forsale", "rec.autos", "rec.motorcycles",
              "rec.sport.baseball", "rec.sport.hockey", "sci.crypt", "sci.electronics", "sci.med", "sci.space",
              "soc.religion.christian", "talk.politics.guns", "talk.politics.mideast", "talk.politics.misc",
              "talk.religion.misc"]
CFPB_PRODUCTS = ["Credit reporting, credit repair services, or other personal consumer reports",
                 "Credit card or prepaid card", "Payday loan, title loan, or personal loan", "Debt collection",
                 "Mortgage", "Checking or savings account", "Money transfer, virtual currency, or money service",
                 "Vehicle loan or lease", "Student loan"]
CFPB_COLUMNS = ["Date received", "Product", "Sub-product", "Issue", "Sub-issue", "Consumer complaint narrative",
                "Company public response", "Company", "State", "ZIP code", "Tags", "Consumer consent provided?",
                "Submitted via", "Date sent to company", "Company response to consumer", "Timely response?",
                "Consumer disputed?", "Complaint ID"]
NEWS_CATEGORIES = ["POLITICS", "WELLNESS", "ENTERTAINMENT", "TRAVEL", "U.S. NEWS", "STYLE & BEAUTY", "COMEDY",
                   "WORLD NEWS"]
HEART_COLUMNS = ["Age", "Sex", "ChestPainType", "RestingBP", "Cholesterol", "FastingBS", "RestingECG", "MaxHR",
                 "ExerciseAngina", "Oldpeak", "ST_Slope", "HeartDisease"]
TURL_TYPES = ["people.person", "sports.sports_team", "location.location", "film.film", "music.artist",
              "sports.pro_athlete", "location.citytown"]
BIGGEN_CAPABILITIES = [("theory_of_mind", "guess_the_emotion"), ("reasoning", "deductive"),
                       ("planning", "travel_plan"), ("grounding", "follow_the_system_prompt")]


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _table_text(header: List[str], rows: List[List[Any]], delimiter: str = ",") -> str:
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator="\n").writerows([header, *rows])
    return text.getvalue()


def _clap_nq(files: Dict[str, str]) -> Dict[str, Dict[str, str]]:
    """question_<split>_answerable.tsv: id (NQ example id), question, doc-id-list (a passage id), answers."""
    out = {}
    for split, url in files.items():
        rows = [[-(10 ** 18) + 7919 * index + len(split), words(_rng("clapnq", split, index)) + "?",
                 836000000 + 13 * index, sentence(_rng("clapnq-answer", split, index))]
                for index in range(12 if split == "train" else N)]
        out[split] = {"name": url.rsplit("/", 1)[-1], "text": _table_text(["id", "question", "doc-id-list", "answers"],
                                                                          rows, "\t")}
    return out


def _cfpb_2023() -> Dict[str, Dict[str, str]]:
    rows = []
    for index in range(30):
        r = _rng("cfpb-2023", index)
        rows.append([f"2022-0{index % 9 + 1}-1{index % 10}", CFPB_PRODUCTS[index % len(CFPB_PRODUCTS)], words(r, 1, 3),
                     words(r, 2, 4), "", sentence(r) + ", " + sentence(r), "", words(r, 1, 2).upper() + " INC.",
                     ["CA", "NY", "TX"][index % 3], f"9{index:04d}", "", "Consent provided", "Web",
                     f"2022-0{index % 9 + 1}-2{index % 10}", "Closed with explanation", "Yes", "N/A",
                     str(5000000 + index)])
    return {"train": {"name": "complaints.csv", "text": _table_text(CFPB_COLUMNS, rows)}}


def _newsgroups() -> Dict[str, Any]:
    def split(name: str, size: int) -> Dict[str, Any]:
        data = [(sentence(_rng("20ng", name, i)) + "\n" + sentence(_rng("20ng2", name, i))) for i in range(size)]
        if name == "train":
            data[3] = ""  # an empty post (the card drops it)
        return {"data": data, "target": [(i * 7) % 20 for i in range(size)], "target_names": NEWSGROUPS}

    return {"name": "20newsgroups", "splits": {"train": split("train", 24), "test": split("test", N)}}


def _news_category() -> List[Dict[str, str]]:
    lines = []
    for index in range(30):
        r = _rng("news-category", index)
        lines.append(json.dumps({"link": f"https://www.huffpost.com/entry/{words(r, 2, 3).replace(' ', '-')}-{index}",
                                 "headline": sentence(r), "category": NEWS_CATEGORIES[index % len(NEWS_CATEGORIES)],
                                 "short_description": sentence(r), "authors": words(r, 2, 2).title(),
                                 "date": f"2022-09-{index % 28 + 1:02d}"}))
    return [{"name": "News_Category_Dataset_v3.json", "text": "\n".join(lines) + "\n"}]


def _heart() -> List[Dict[str, str]]:
    """30 patients, 24 with heart disease: the train portion's most frequent label is the same on both sides."""
    rows = []
    for index in range(30):
        r = _rng("heart", index)
        rows.append([r.randint(28, 77), "MF"[index % 2], ["ATA", "NAP", "ASY", "TA"][index % 4], r.randint(90, 180),
                     r.randint(0, 400), index % 2, ["Normal", "ST", "LVH"][index % 3], r.randint(60, 202),
                     "NY"[index % 2], round(r.uniform(-1, 4), 1), ["Up", "Flat", "Down"][index % 3],
                     int(index % 5 != 0)])
    return [{"name": "heart.csv", "text": _table_text(HEART_COLUMNS, rows)}]


def _turl_records(split: str) -> List[list]:
    records = []
    for index in range(4):
        r = _rng("turl", split, index)
        headers = [words(r, 1, 2) for _ in range(2 + index % 2)]
        cells = [] if index == 3 else [  # the last table has no cells (its rows are empty)
            [[[row, column], [1000 * column + row, words(r, 1, 2).title()]] for row in range(0, 3 + index % 2)
             if (row + column) % 4 != 3] for column in range(len(headers))]
        annotations = [[TURL_TYPES[(index + column) % len(TURL_TYPES)]] + ([TURL_TYPES[-1]] if column % 2 else [])
                       for column in range(len(headers))]
        records.append([f"{3000 + index}-{index}", words(r, 1, 3).title(), 3000 + index, words(r, 1, 2).title(),
                        sentence(r) if index % 2 else "", headers, cells, annotations])
    return records


def _turl() -> Dict[str, Dict[str, str]]:
    return {"stanford-crfm/helm-scenarios": {
        f"turl-column-type-annotation/{split}.table_col_type.json": json.dumps(_turl_records(split))
        for split in ("train", "dev", "test")}}


def _register_hub_rows() -> None:
    """google/frames-benchmark (test) and prometheus-eval/BiGGen-Bench-Results (the two human evaluation splits)."""
    def frames(r, index, split):
        links = [f"https://en.wikipedia.org/wiki/{words(r, 1, 2).title().replace(' ', '_')}_{index}_{k}"
                 for k in range(1 + index % 3)]
        return {"Unnamed: 0": index, "Prompt": words(r, 8, 14) + "?", "Answer": words(r, 1, 3),
                **{f"wikipedia_link_{k}": links[k - 1] if k <= len(links) else None for k in range(1, 11)},
                "wikipedia_link_11+": None, "reasoning_types": ["Numerical reasoning", "Multiple constraints",
                                                                "Temporal reasoning"][index % 3],
                "wiki_links": repr(links)}

    def biggen(r, index, split):
        capability, task = BIGGEN_CAPABILITIES[index % len(BIGGEN_CAPABILITIES)]
        return {"id": f"{capability}_{task}_{index}", "capability": capability, "task": task, "instance_idx": index,
                "system_prompt": sentence(r), "input": words(r) + "?", "reference_answer": sentence(r),
                "score_rubric": {"criteria": words(r) + "?", **{f"score{k}_description": sentence(r)
                                                                 for k in range(1, 6)}},
                "response": sentence(r), "response_model_name": ["gpt-4-turbo", "llama-2-70b"][index % 2],
                "human_score": -1 if index % 5 == 4 else index % 5 + 1,
                "language": "English" if split == "human_eval" else ["Korean", "French", "Spanish"][index % 3]}

    _splits("google/frames-benchmark", "default", {"test": N}, frames)
    _splits("prometheus-eval/BiGGen-Bench-Results", "default", {"human_eval": 10, "multilingual_human_eval": 10},
            biggen)


_register_hub_rows()


def _intercepted(**given: Any) -> Sources:
    return [{"path": None, "name": None, "data_dir": None, "intercept": given}]


def more_sources(card) -> Optional[Sources]:
    """The synthetic sources of the cards this module covers (see the module docstring), else None."""
    loader = card.loader
    kind = type(loader).__name__
    files = getattr(loader, "files", None)
    if kind == "LoadCSV" and isinstance(files, dict):
        urls = list(files.values())
        if all("primeqa/clapnq" in url for url in urls):
            return [{"local_files": _clap_nq(files)}]
        if all("consumerfinance.gov" in url for url in urls):
            return [{"local_files": _cfpb_2023()}]
        return None
    if kind == "LoadFromSklearn" and loader.dataset_name == "20newsgroups":
        return _intercepted(sklearn=_newsgroups())
    if kind == "LoadFromKaggle" and loader.url.endswith("/rmisra/news-category-dataset"):
        return _intercepted(kaggle_files=_news_category())
    if kind == "LoadFromKaggle" and loader.url.endswith("/fedesoriano/heart-failure-prediction"):
        return _intercepted(kaggle_files=_heart())
    if kind == "TURLColumnTypeAnnotationLoader":
        return _intercepted(hub_files=_turl())
    if kind == "LoadHF" and loader.path == "google/frames-benchmark":
        return [{"path": loader.path, "name": None, "data_dir": None,
                 "splits": MIRRORS[loader.path]["default"], "intercept": {"wikipedia": True}}]
    return None
